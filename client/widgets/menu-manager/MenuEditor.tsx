import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { Message } from 'primereact/message'
import { Tree, type TreeExpandedKeysType } from 'primereact/tree'
import type { TreeNode } from 'primereact/treenode'
import { useEffect, useMemo, useState } from 'react'
import type { MenuDefinition, MenuEntry } from '../../../schemas/menu'
import { ApiError } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifySuccess, showToast } from '../../api/toast'
import { reloadManifest, useLoadedManifest } from '../../api/manifest'
import { messageIn, useMessages } from '../../i18n/i18n'
import { conflictOf, describeVersion, menuAdmin, restoredVersion, type Conflict } from './admin-api'
import { ConflictDialog } from './ConflictDialog'
import { EntryForm } from './EntryForm'
import { addEntry, fromTreeNodes, locate, moveBy, moveInto, newKey, removeEntry, sameMenu, structureProblem, toTreeNodes, updateEntry, type NodeData } from './menu-model'
import { MenuPreview } from './MenuPreview'
import { messages } from './messages'
import { VersionHistory } from './VersionHistory'
import { ErrorState, LoadingState } from '../../ui/states'

/** The toasts' title, in the current language. */
const area = () => messageIn(messages, 'area.menu')

interface Draft {
  brand: string
  /** The stored version the edits started from (sent with the save for the conflict check). */
  baseVersion: number
  menu: MenuDefinition
}

/** Unsaved edits survive a reload, a failed save or switching brands: kept per brand in this tab. */
const draftStore = {
  key: (brand: string) => `portal.menu-manager.${brand}`,
  read(brand: string): Draft | null {
    try {
      const raw = sessionStorage.getItem(this.key(brand))
      return raw ? (JSON.parse(raw) as Draft) : null
    } catch {
      return null
    }
  },
  write(draft: Draft) {
    sessionStorage.setItem(this.key(draft.brand), JSON.stringify(draft))
  },
  clear(brand: string) {
    sessionStorage.removeItem(this.key(brand))
  },
}

/** The key an error message names, «Texto» (clave), so the editor can select that entry. */
const keyNamedIn = (message: string) => /\(([a-z0-9][a-z0-9-]*)\)/.exec(message)?.[1] ?? /«([a-z0-9][a-z0-9-]*)»/.exec(message)?.[1] ?? null

export function MenuEditor() {
  const t = useMessages(messages)
  const manifest = useLoadedManifest()
  const client = useQueryClient()
  const [brand, setBrand] = useState(manifest.brand.key)
  const stateKey = ['menu-manager', 'menu', brand] as const
  const state = useQuery({ queryKey: stateKey, queryFn: () => menuAdmin.state(brand), staleTime: 0, meta: { errorArea: t('area.menu'), errorMessage: t('menu.error.load') } })
  const [draft, setDraft] = useState<Draft | null>(null)
  const [restored, setRestored] = useState(false)
  const [selected, setSelected] = useState<string | null>(null)
  const [expanded, setExpanded] = useState<TreeExpandedKeysType>({})
  const [saveError, setSaveError] = useState<string | null>(null)
  const [conflict, setConflict] = useState<Conflict<MenuDefinition> | null>(null)
  const [dialog, setDialog] = useState<'preview' | 'history' | null>(null)

  // A loaded brand starts from its unsaved draft when there is one, else from the stored version.
  useEffect(() => {
    if (!state.data || state.data.brand !== brand || draft?.brand === brand) return
    const kept = draftStore.read(brand)
    const usable = kept && !sameMenu(kept.menu, state.data.menu) ? kept : null
    setDraft(usable ?? { brand, baseVersion: state.data.version, menu: state.data.menu })
    setRestored(!!usable)
    setExpanded(Object.fromEntries([...containerKeys(state.data.menu)].map((k) => [k, true])))
    setSelected(null)
    setSaveError(null)
  }, [state.data, brand, draft?.brand])

  const current = draft?.brand === brand ? draft : null
  const dirty = !!current && !!state.data && (current.baseVersion !== state.data.version || !sameMenu(current.menu, state.data.menu))

  const edit = (menu: MenuDefinition) => {
    if (!current) return
    const next = { ...current, menu }
    setDraft(next)
    draftStore.write(next)
    setSaveError(null)
  }

  const adopt = (version: number, menu: MenuDefinition) => {
    draftStore.clear(brand)
    setDraft({ brand, baseVersion: version, menu })
    setRestored(false)
    setSaveError(null)
    void client.invalidateQueries({ queryKey: ['menu-manager', 'menu', brand] })
    void client.invalidateQueries({ queryKey: ['menu-manager', 'history', brand] })
    // The admin's own side menu follows at once when they edit the brand they are on.
    if (brand === manifest.brand.key) void reloadManifest(client)
  }

  const onFailure = (err: unknown, mine: MenuDefinition | null) => {
    const clash = conflictOf<MenuDefinition>(err, (c) => c.menu as MenuDefinition)
    if (clash) {
      setConflict(mine ? clash : { ...clash, merged: null })
      return
    }
    if (err instanceof ApiError && err.status === 400 && err.serverMessage) {
      setSaveError(err.serverMessage)
      const key = keyNamedIn(err.serverMessage)
      if (key && current && locate(current.menu, key)) setSelected(key)
      return
    }
    reportError(area(), err, messageIn(messages, 'menu.error.save'))
  }

  const save = useMutation({
    mutationFn: (d: Draft) => menuAdmin.save(d.brand, d.baseVersion, d.menu),
    onSuccess: (res) => {
      adopt(res.version, res.menu)
      notifySuccess(area(), messageIn(messages, 'menu.saved', { n: res.version }))
    },
    onError: (err, d) => onFailure(err, d.menu),
  })

  const rollback = useMutation({
    mutationFn: (target: number) => menuAdmin.rollback(brand, target, state.data!.version),
    onSuccess: (res, target) => {
      adopt(res.version, res.menu)
      setDialog(null)
      notifySuccess(area(), messageIn(messages, 'rollback.saved', { n: res.version, from: restoredVersion(target) }))
    },
    onError: (err) => onFailure(err, null),
  })

  const nodes = useMemo(() => (current ? toTreeNodes(current.menu) : []), [current])
  const located = current && selected ? locate(current.menu, selected) : null
  const brandName = state.data?.brands.find((b) => b.key === brand)?.name ?? brand

  const addNew = (where: 'section' | 'group' | 'entry') => {
    if (!current) return
    const menu = current.menu
    const at = located ?? null
    // New entries go into the selected section or group, or next to the selected entry.
    const container = at ? (at.entry.items ? at.entry : at.parent ? locate(menu, at.parent)!.entry : null) : null
    // The placeholder texts are the new entry's Spanish text (`label.es`, data the admin then edits), in any UI language.
    const page = (label: string, m: MenuDefinition): MenuEntry => ({ key: newKey(m, label), label: { es: label }, icon: 'pi pi-circle', to: '/' })
    let next: MenuDefinition
    let focus: string
    if (where === 'section' || !container) {
      const key = newKey(menu, 'Nueva sección')
      const withSection = addEntry(menu, '', { key, label: { es: 'Nueva sección' }, items: [] })
      const child = page('Nueva entrada', withSection)
      next = addEntry(withSection, key, child)
      focus = key
    } else if (where === 'group') {
      const section = at!.depth === 0 ? at!.entry : locate(menu, container.key)!.depth === 0 ? container : locate(menu, locate(menu, container.key)!.parent)!.entry
      const key = newKey(menu, 'Nuevo grupo')
      const withGroup = addEntry(menu, section.key, { key, label: { es: 'Nuevo grupo' }, icon: 'pi pi-folder', items: [] })
      next = addEntry(withGroup, key, page('Nueva entrada', withGroup))
      focus = key
    } else {
      const entry = page('Nueva entrada', menu)
      next = addEntry(menu, container.key, entry)
      focus = entry.key
    }
    edit(next)
    setExpanded((e) => ({ ...e, ...Object.fromEntries([...containerKeys(next)].map((k) => [k, e[k] ?? true])) }))
    setSelected(focus)
  }

  const onDragDrop = (value: TreeNode[]) => {
    const next = fromTreeNodes(value)
    const problem = structureProblem(next)
    if (problem) {
      showToast({ severity: 'warn', summary: area(), detail: problem })
      return
    }
    edit(next)
  }

  const status = state.data ? describeVersion(state.data.version, state.data.author, state.data.updatedAt) : ''

  return (
    <div className="menu-manager__menu">
      <div className="card menu-manager__toolbar">
        <div className="menu-manager__brand">
          <label htmlFor="mm-brand" className="screen-form__label">
            {t('menu.brand')}
          </label>
          <Dropdown inputId="mm-brand" placeholder={t('menu.brandPlaceholder')} value={brand} options={(state.data?.brands ?? [{ key: brand, name: brand }]).map((b) => ({ value: b.key, label: b.name }))} onChange={(e) => setBrand(e.value as string)} />
        </div>
        <p className="menu-manager__status" aria-live="polite">
          {status}
          {dirty && <span className="menu-manager__dirty">{t('unsaved')}</span>}
        </p>
        <div className="action-bar">
          <Button type="button" label={t('menu.preview')} icon="pi pi-eye" outlined disabled={!current} onClick={() => setDialog('preview')} />
          <Button type="button" label={t('history')} icon="pi pi-history" outlined disabled={!state.data} onClick={() => setDialog('history')} />
          <Button
            type="button"
            label={t('discard')}
            icon="pi pi-undo"
            text
            disabled={!dirty}
            onClick={() => state.data && adopt(state.data.version, state.data.menu)}
          />
          <Button type="button" label={t('save')} icon="pi pi-save" disabled={!dirty || save.isPending} loading={save.isPending} onClick={() => current && save.mutate(current)} />
        </div>
      </div>
      {restored && dirty && <Message className="menu-manager__message" severity="info" text={t('menu.restored')} />}
      {saveError && (
        <Message className="menu-manager__message" severity="error" text={t('notSaved', { error: saveError })} role="alert" />
      )}
      {state.isError && !current && <ErrorState onRetry={() => void state.refetch()}>{t('menu.error.load')}</ErrorState>}
      {state.isPending && <LoadingState label={t('menu.loading')} lines={6} className="card" />}
      {current && (
        <div className="menu-manager__panes">
          <section className="card menu-manager__tree" aria-labelledby="mm-tree-title">
            <div className="menu-manager__tree-head">
              <h2 id="mm-tree-title" className="screen-form__title">
                {t('menu.of', { brand: brandName })}
              </h2>
              <div className="action-bar">
                <Button type="button" size="small" icon="pi pi-plus" label={t('menu.add.entry')} outlined onClick={() => addNew('entry')} disabled={!located} />
                <Button type="button" size="small" icon="pi pi-folder-plus" label={t('menu.add.group')} outlined onClick={() => addNew('group')} disabled={!located} />
                <Button type="button" size="small" icon="pi pi-plus-circle" label={t('menu.add.section')} outlined onClick={() => addNew('section')} />
              </div>
            </div>
            <p className="field-help">{t('menu.help')}</p>
            <Tree
              value={nodes}
              selectionMode="single"
              selectionKeys={selected}
              onSelectionChange={(e) => setSelected((e.value as string | null) ?? null)}
              expandedKeys={expanded}
              onToggle={(e) => setExpanded(e.value)}
              dragdropScope="menu-manager"
              onDragDrop={(e) => onDragDrop(e.value)}
              nodeTemplate={(node) => <NodeLabel node={node} />}
              togglerTemplate={(node, o) => (
                // The library's toggler has no name; the tree item itself answers to the arrow keys.
                <button type="button" className={o.containerClassName} tabIndex={-1} onClick={o.onClick} aria-label={t(o.expanded ? 'menu.collapse' : 'menu.expand', { label: String(node.label) })}>
                  <i className={`pi ${o.expanded ? 'pi-chevron-down' : 'pi-chevron-right'} ${o.iconClassName}`} aria-hidden="true" />
                </button>
              )}
              ariaLabel={t('menu.of', { brand: brandName })}
            />
          </section>
          {located ? (
            <EntryForm
              key={located.entry.key}
              located={located}
              menu={current.menu}
              options={state.data!}
              siblings={located.parent ? (locate(current.menu, located.parent)!.entry.items?.length ?? 0) : current.menu.sections.length}
              onChange={(fields) => edit(updateEntry(current.menu, located.entry.key, fields))}
              onMove={(delta) => edit(moveBy(current.menu, located.entry.key, delta))}
              onMoveInto={(parent) => {
                const next = moveInto(current.menu, located.entry.key, parent)
                if (next) edit(next)
                else showToast({ severity: 'warn', summary: t('area.menu'), detail: t('menu.cannotMove') })
              }}
              onRemove={() => {
                edit(removeEntry(current.menu, located.entry.key))
                setSelected(null)
              }}
            />
          ) : (
            <div className="card menu-manager__empty">
              <i className="pi pi-arrow-left" aria-hidden="true" /> {t('menu.pick')}
            </div>
          )}
        </div>
      )}
      {dialog === 'preview' && current && state.data && (
        <MenuPreview brand={brand} brandName={brandName} draft={current.menu} permissions={state.data.permissions} onHide={() => setDialog(null)} />
      )}
      {dialog === 'history' && state.data && (
        <VersionHistory
          title={t('menu.historyOf', { brand: brandName })}
          queryKey={['menu-manager', 'history', brand]}
          load={() => menuAdmin.history(brand)}
          currentVersion={state.data.version}
          dirty={dirty}
          compare={async (from) => (await menuAdmin.diff(brand, from, state.data!.version)).changes}
          onRollback={(v) => rollback.mutate(v)}
          busy={rollback.isPending}
          onHide={() => setDialog(null)}
          errorArea={t('area.menu')}
        />
      )}
      {conflict && (
        <ConflictDialog
          conflict={conflict}
          onMerge={
            conflict.merged
              ? () => {
                  const next = { brand, baseVersion: conflict.currentVersion, menu: conflict.merged! }
                  setDraft(next)
                  draftStore.write(next)
                  setConflict(null)
                  void client.invalidateQueries({ queryKey: stateKey })
                }
              : null
          }
          onTakeTheirs={() => {
            adopt(conflict.currentVersion, conflict.current)
            setConflict(null)
          }}
          onHide={() => setConflict(null)}
        />
      )}
    </div>
  )
}

function containerKeys(menu: MenuDefinition): Set<string> {
  const keys = new Set<string>()
  const visit = (list: MenuEntry[]) => list.forEach((e) => e.items && (keys.add(e.key), visit(e.items as MenuEntry[])))
  visit(menu.sections as MenuEntry[])
  return keys
}

/** A tree row: icon, text and what sets the entry apart (hidden, dev-only, permission, brands, external). */
function NodeLabel({ node }: { node: TreeNode }) {
  const t = useMessages(messages)
  const { entry } = node.data as NodeData
  return (
    <span className={`menu-manager__node ${entry.hidden ? 'menu-manager__node--hidden' : ''}`} data-key={entry.key}>
      <span className="menu-manager__node-label" translate="no">
        {entry.label.es}
      </span>
      {entry.hidden && <span className="menu-manager__tag">{t('menu.tag.hidden')}</span>}
      {entry.devOnly && <span className="menu-manager__tag">{t('menu.tag.dev')}</span>}
      {entry.permission && <span className="menu-manager__tag menu-manager__tag--perm">{entry.permission}</span>}
      {entry.brands && <span className="menu-manager__tag">{entry.brands.join(', ')}</span>}
      {entry.badge && <span className="menu-badge">{entry.badge}</span>}
      {entry.href && <i className="pi pi-external-link" aria-label={t('menu.externalLink')} />}
    </span>
  )
}
