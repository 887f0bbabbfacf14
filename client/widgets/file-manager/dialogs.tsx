import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { InputText } from 'primereact/inputtext'
import { Tree, type TreeExpandedKeysType } from 'primereact/tree'
import type { TreeNode as PrimeTreeNode } from 'primereact/treenode'
import { useEffect, useState, type FormEvent } from 'react'
import { useMessages } from '../../i18n/i18n'
import { describedBy } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'
import { messages } from './messages'
import { folderNameError, ROOT_ID, type TreeItem } from './model'

const BREAKPOINTS = { '960px': '60vw', '641px': '95vw' }

/** The folder tree (PrimeReact Tree: arrows move, Enter/Space selects, left/right fold). */
export function FolderTree({
  nodes,
  selectedId,
  onSelect,
  expanded,
  onToggle,
  label,
  disabledIds,
}: {
  nodes: TreeItem[]
  selectedId: number | null
  onSelect: (id: number) => void
  expanded: TreeExpandedKeysType
  onToggle: (keys: TreeExpandedKeysType) => void
  label: string
  disabledIds?: number[]
}) {
  const t = useMessages(messages)
  return (
    <Tree
      value={nodes as unknown as PrimeTreeNode[]}
      selectionMode="single"
      selectionKeys={selectedId === null ? null : String(selectedId)}
      onSelectionChange={(e) => {
        if (typeof e.value === 'string' && !disabledIds?.includes(Number(e.value))) onSelect(Number(e.value))
      }}
      expandedKeys={expanded}
      onToggle={(e) => onToggle(e.value)}
      ariaLabel={label}
      // PrimeReact's fold buttons have no name of their own (axe: button-name).
      pt={{ toggler: ({ context }: { context?: { expanded?: boolean } }) => ({ 'aria-label': context?.expanded ? t('tree.collapse') : t('tree.expand') }) }}
      className="files__tree-control"
      nodeTemplate={(n) => {
        const item = n as unknown as TreeItem
        const disabled = disabledIds?.includes(item.data.id)
        return (
          <span className={`files__tree-label ${disabled ? 'files__tree-label--disabled' : ''}`}>
            <span>{item.label}</span>
            {item.data.id !== ROOT_ID && item.data.count > 0 && <small className="files__tree-count">{item.data.count}</small>}
          </span>
        )
      }}
    />
  )
}

/** Create or rename a folder: one name, checked as the API will check it, kept open on failure. */
export function NameDialog({
  visible,
  title,
  submitLabel,
  initial,
  siblings,
  busy,
  onSubmit,
  onHide,
}: {
  visible: boolean
  title: string
  submitLabel: string
  initial: string
  siblings: string[]
  busy: boolean
  onSubmit: (name: string) => void
  onHide: () => void
}) {
  const t = useMessages(messages)
  const [name, setName] = useState(initial)
  // Whether the name was refused; the message itself is worked out on render, so it follows a language switch.
  const [refused, setRefused] = useState(false)
  const problemOf = (value: string) => folderNameError(value, siblings.filter((s) => s.toLowerCase() !== initial.trim().toLowerCase()))
  const error = refused ? problemOf(name) : null
  useEffect(() => {
    if (visible) {
      setName(initial)
      setRefused(false)
    }
  }, [visible, initial])
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const problem = problemOf(name)
    setRefused(!!problem)
    if (problem) return
    if (name.trim() === initial.trim() && initial) {
      onHide()
      return
    }
    onSubmit(name.trim())
  }
  return (
    <Dialog header={title} visible={visible} onHide={onHide} style={{ width: '28rem' }} breakpoints={BREAKPOINTS} modal draggable={false} className="files-dialog">
      <form className="screen-form" onSubmit={submit} noValidate>
        <FieldShell id="files-folder-name" label={t('name.label')} error={error} hint={t('name.help')}>
          <InputText
            id="files-folder-name"
            value={name}
            autoFocus
            maxLength={120}
            onChange={(e) => {
              setName(e.target.value)
              if (refused) setRefused(false)
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('files-folder-name', true, error)}
            invalid={!!error}
            autoComplete="off"
          />
        </FieldShell>
        <div className="dialog-actions">
          <Button type="button" label={t('cancel')} text onClick={onHide} />
          <Button type="submit" label={submitLabel} icon="pi pi-check" loading={busy} />
        </div>
      </form>
    </Dialog>
  )
}

/** Move the selected files: pick the target in the folder tree. */
export function MoveDialog({
  visible,
  nodes,
  fileCount,
  folderCount,
  currentId,
  busy,
  onMove,
  onHide,
  expandedInitial,
}: {
  visible: boolean
  nodes: TreeItem[]
  fileCount: number
  folderCount: number
  currentId: number
  busy: boolean
  onMove: (targetId: number) => void
  onHide: () => void
  expandedInitial: TreeExpandedKeysType
}) {
  const t = useMessages(messages)
  const [target, setTarget] = useState<number | null>(null)
  const [expanded, setExpanded] = useState<TreeExpandedKeysType>(expandedInitial)
  useEffect(() => {
    if (visible) {
      setTarget(null)
      setExpanded(expandedInitial)
    }
  }, [visible, expandedInitial])
  const title = t(fileCount === 1 ? 'move.title.one' : 'move.title.other', { n: fileCount })
  return (
    <Dialog header={title} visible={visible} onHide={onHide} style={{ width: '30rem' }} breakpoints={BREAKPOINTS} modal draggable={false} className="files-dialog">
      <p id="files-move-help" className="files__dialog-text">
        {t('move.help')}
        {folderCount > 0 && ` ${t('move.foldersStay')}`}
      </p>
      <div className="files__move-tree">
        <FolderTree nodes={nodes} selectedId={target} onSelect={setTarget} expanded={expanded} onToggle={setExpanded} label={t('move.target')} disabledIds={[currentId]} />
      </div>
      <div className="dialog-actions">
        <Button type="button" label={t('cancel')} text onClick={onHide} />
        <Button type="button" label={t('move.submit')} icon="pi pi-arrow-right" disabled={target === null} loading={busy} onClick={() => target !== null && onMove(target)} />
      </div>
    </Dialog>
  )
}
