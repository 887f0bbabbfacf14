import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { ProgressBar } from 'primereact/progressbar'
import type { TreeExpandedKeysType } from 'primereact/tree'
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react'
import { useSearchParams } from 'react-router-dom'
import { api, saveFile } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { messageIn, useMessages } from '../../i18n/i18n'
import { formatValue } from '../../ui/format'
import { Button as PlainButton } from '../../ui/plain/Button'
import { confirm } from '../../ui/confirm'
import { FolderTree, MoveDialog, NameDialog } from './dialogs'
import { messages } from './messages'
import {
  ACCEPT_ATTRIBUTE,
  buildUploadForm,
  byName,
  checkUpload,
  describeCount,
  formatSize,
  pathTo,
  quoted,
  ROOT_ID,
  rootLabel,
  selectionBodies,
  siblingNames,
  toTreeNodes,




} from './model'
import './file-manager.css'
import type { FileItem, Folder, FolderNode, FolderView } from '../../../schemas/business/files'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'

/** The toasts' title, in the current language. */
const area = () => messageIn(messages, 'area')
const FILES_KEY = ['archivos'] as const

type NameDialogState = { mode: 'create' } | { mode: 'rename'; folder: { Id: number; Nombre: string } } | null

/**
 * The brand's file area (spec §7 Files): folder tree, the open folder's content as a table,
 * upload by picking or dropping, download one file or a zip of a selection, create, rename,
 * move and delete. The open folder lives in the URL (`?carpeta=<id>`), so back/forward and
 * links work.
 */
export default function FileManager() {
  const t = useMessages(messages)
  const client = useQueryClient()
  const [search, setSearch] = useSearchParams()
  const currentId = Math.max(0, Number(search.get('carpeta')) || 0)
  const [selFiles, setSelFiles] = useState<Set<number>>(new Set())
  const [selFolders, setSelFolders] = useState<Set<number>>(new Set())
  const [expanded, setExpanded] = useState<TreeExpandedKeysType>({ [String(ROOT_ID)]: true })
  const [nameDialog, setNameDialog] = useState<NameDialogState>(null)
  const [moveIds, setMoveIds] = useState<number[] | null>(null)
  // The refused selection; its messages are worked out on render, so they follow a language switch.
  const [refused, setRefused] = useState<File[] | null>(null)
  const uploadErrors = refused ? checkUpload(refused) : []
  const [dragOver, setDragOver] = useState(false)
  const [downloading, setDownloading] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)

  // Every failure here is titled and worded by the endpoint catalogue's entry for its call (spec §8).
  const tree = useQuery({
    queryKey: [...FILES_KEY, 'tree'],
    queryFn: () => api.get<FolderNode[]>('/api/folders'),
    meta: { reportErrors: true },
  })
  const folder = useQuery({
    queryKey: [...FILES_KEY, 'folder', currentId],
    queryFn: () => api.get<FolderView>('/api/folder', { params: { id: currentId } }),
    meta: { reportErrors: true },
  })
  const loading = useDelayedFlag(folder.isPending)

  const roots = useMemo(() => tree.data ?? [], [tree.data])
  const rootName = t('root')
  const nodes = useMemo(() => toTreeNodes(roots, rootName), [roots, rootName])
  const view = folder.data
  const currentName = view?.Carpeta?.Nombre ?? rootName
  const folders = useMemo(() => [...(view?.Carpetas ?? [])].sort(byName), [view])
  const files = useMemo(() => [...(view?.Archivos ?? [])].sort(byName), [view])

  // Opening a folder (tree, table, breadcrumb, URL) unfolds the tree down to it and clears the selection.
  useEffect(() => {
    setSelFiles(new Set())
    setSelFolders(new Set())
    setRefused(null)
  }, [currentId])
  useEffect(() => {
    const trail = pathTo(roots, currentId)
    if (!trail.length) return
    setExpanded((prev) => {
      const next = { ...prev, [String(ROOT_ID)]: true }
      for (const id of trail) next[String(id)] = true
      return next
    })
  }, [roots, currentId])

  const open = (id: number) => {
    const next = new URLSearchParams(search)
    if (id === ROOT_ID) next.delete('carpeta')
    else next.set('carpeta', String(id))
    setSearch(next)
  }
  const refresh = () => client.invalidateQueries({ queryKey: FILES_KEY })

  // ── mutations ────────────────────────────────────────────────────────────
  const create = useMutation({
    mutationFn: (Nombre: string) => api.post<Folder>('/api/folder/create', { Nombre, CarpetaPadreId: currentId === ROOT_ID ? null : currentId }),
    meta: { reportErrors: true },
    onSuccess: async (created) => {
      setNameDialog(null)
      notifySuccess(area(), messageIn(messages, 'toast.created', { name: created.Nombre }))
      await refresh()
    },
  })
  const rename = useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) => api.put<Folder>('/api/rename-folder', undefined, { params: { carpetaId: id, newName: name } }),
    meta: { reportErrors: true },
    onSuccess: async (renamed) => {
      setNameDialog(null)
      notifySuccess(area(), messageIn(messages, 'toast.renamed', { name: renamed.Nombre }))
      await refresh()
    },
  })
  const upload = useMutation({
    mutationFn: (list: File[]) => api.post<FileItem[]>('/api/save-files', buildUploadForm(currentId, list)),
    meta: { reportErrors: true },
    onSuccess: async (saved, list) => {
      const n = saved?.length ?? list.length
      const renamed = (saved ?? []).filter((f) => !list.some((l) => l.name === f.Nombre))
      const done = messageIn(messages, n === 1 ? 'toast.uploaded.one' : 'toast.uploaded.other', { n, folder: currentName })
      notifySuccess(area(), renamed.length ? `${done} ${messageIn(messages, 'toast.uploadedRenamed', { names: renamed.map((f) => f.Nombre).join(', ') })}` : done)
      await refresh()
    },
  })
  const move = useMutation({
    mutationFn: ({ ids, target }: { ids: number[]; target: number }) => api.put<FileItem[]>('/api/move-files', { Archivos: ids, CarpetaToId: target === ROOT_ID ? null : target }),
    meta: { reportErrors: true },
    onSuccess: async (moved, { ids, target }) => {
      setMoveIds(null)
      setSelFiles(new Set())
      const where = target === ROOT_ID ? rootLabel() : (findName(roots, target) ?? messageIn(messages, 'toast.movedSomewhere'))
      const n = moved?.length ?? ids.length
      notifySuccess(area(), messageIn(messages, n === 1 ? 'toast.moved.one' : 'toast.moved.other', { what: describeCount(n, 0), folder: where }))
      await refresh()
    },
  })
  const remove = useMutation({
    mutationFn: async ({ fileIds, folderIds }: { fileIds: number[]; folderIds: number[] }) => {
      if (folderIds.length === 0 && fileIds.length === 1) {
        await api.delete('/api/delete-file', undefined, { params: { archivoId: fileIds[0]! } })
        return { CarpetasEliminadas: 0, ArchivosEliminados: 1 }
      }
      return api.delete<{ CarpetasEliminadas: number; ArchivosEliminados: number }>('/api/delete-folders-and-files', selectionBodies(fileIds, folderIds).remove)
    },
    meta: { reportErrors: true },
    onSuccess: async (result, { fileIds, folderIds }) => {
      setSelFiles(new Set())
      setSelFolders(new Set())
      notifySuccess(area(), messageIn(messages, 'toast.removed', { what: describeCount(result?.ArchivosEliminados ?? fileIds.length, result?.CarpetasEliminadas ?? folderIds.length) }))
      await refresh()
    },
  })
  const uploading = useDelayedFlag(upload.isPending)

  // ── actions ──────────────────────────────────────────────────────────────
  const startUpload = (list: File[]) => {
    const problems = checkUpload(list)
    setRefused(problems.length ? list : null)
    if (problems.length || upload.isPending) return
    upload.mutate(list)
  }
  const downloadFile = async (file: FileItem) => {
    try {
      saveFile(await api.download('/api/download-file', { params: { archivoId: file.Id }, fallbackName: file.Nombre }))
    } catch (err) {
      reportError(undefined, err)
    }
  }
  const downloadZip = async () => {
    setDownloading(true)
    try {
      const body = selectionBodies(selFiles, selFolders).download
      saveFile(await api.download('/api/download-folders-files', { method: 'POST', body, fallbackName: 'archivos.zip' }))
    } catch (err) {
      reportError(undefined, err)
    } finally {
      setDownloading(false)
    }
  }
  const askRemove = async (fileIds: number[], folderIds: number[], label?: string) => {
    const what = label ?? describeCount(fileIds.length, folderIds.length)
    const ok = await confirm(
      [t('remove.confirm', { what }), folderIds.length ? t('remove.foldersNote') : '', t('remove.cannotUndo')].filter(Boolean).join(' '),
      t('action.remove'),
    )
    if (ok) remove.mutate({ fileIds, folderIds })
  }

  const onDragOver = (e: DragEvent) => {
    if (!Array.from(e.dataTransfer?.types ?? []).includes('Files')) return
    e.preventDefault()
    e.dataTransfer.dropEffect = 'copy'
    if (!dragOver) setDragOver(true)
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragOver(false)
    const list = Array.from(e.dataTransfer?.files ?? [])
    if (list.length) startUpload(list)
  }

  // ── selection ────────────────────────────────────────────────────────────
  const total = files.length + folders.length
  const selectedCount = selFiles.size + selFolders.size
  const allSelected = total > 0 && selectedCount === total
  const toggleAll = () => {
    if (allSelected) {
      setSelFiles(new Set())
      setSelFolders(new Set())
    } else {
      setSelFiles(new Set(files.map((f) => f.Id)))
      setSelFolders(new Set(folders.map((f) => f.Id)))
    }
  }
  const toggle = (set: Set<number>, id: number, apply: (s: Set<number>) => void) => {
    const next = new Set(set)
    if (next.has(id)) next.delete(id)
    else next.add(id)
    apply(next)
  }
  const headerCheck = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (headerCheck.current) headerCheck.current.indeterminate = selectedCount > 0 && !allSelected
  }, [selectedCount, allSelected])

  const nameSiblings =
    nameDialog?.mode === 'create' ? folders.map((f) => f.Nombre) : nameDialog?.mode === 'rename' ? siblingNames(roots, nameDialog.folder.Id) : []
  // oxlint-disable-next-line react-hooks/exhaustive-deps -- the move dialog starts from the tree as it was when opened (a new `moveIds`), not as it changes behind it
  const moveExpanded = useMemo(() => ({ ...expanded }), [moveIds])
  const notFound = folder.isError && (folder.error as { status?: number })?.status === 404

  return (
    <div className="files">
      <nav className="card files__side" aria-labelledby="files-tree-title">
        <h2 id="files-tree-title" className="files__heading">
          {t('tree.title')}
        </h2>
        {tree.isError ? (
          <ErrorState compact onRetry={() => void tree.refetch()}>
            {t('error.folders')}.
          </ErrorState>
        ) : tree.isPending ? (
          <LoadingState lines={4} />
        ) : (
          <FolderTree nodes={nodes} selectedId={currentId} onSelect={open} expanded={expanded} onToggle={setExpanded} label={t('tree.label')} />
        )}
      </nav>

      <section className="card files__main" aria-labelledby="files-content-title">
        {currentId !== ROOT_ID && (
          <nav aria-label={t('crumbs')} className="files__crumbs">
            <ol>
              <li>
                <button type="button" className="p-link files__crumb" onClick={() => open(ROOT_ID)}>
                  <i className="pi pi-home" aria-hidden="true" /> {rootName}
                </button>
              </li>
              {(view?.Ruta ?? []).map((r, i, all) => (
                <li key={r.Id}>
                  <i className="pi pi-angle-right files__crumb-sep" aria-hidden="true" />
                  {i === all.length - 1 ? (
                    <span aria-current="page" translate="no">
                      {r.Nombre}
                    </span>
                  ) : (
                    <button type="button" className="p-link files__crumb" translate="no" onClick={() => open(r.Id)}>
                      {r.Nombre}
                    </button>
                  )}
                </li>
              ))}
            </ol>
          </nav>
        )}

        <div className="files__toolbar">
          <h2 id="files-content-title" className="files__heading files__title">
            <i className={`pi ${currentId === ROOT_ID ? 'pi-home' : 'pi-folder-open'}`} aria-hidden="true" /> {currentName}
          </h2>
          <div className="action-bar">
            <Button type="button" size="small" icon="pi pi-folder-plus" label={t('action.newFolder')} outlined onClick={() => setNameDialog({ mode: 'create' })} disabled={!view} />
            {view?.Carpeta && (
              <Button type="button" size="small" icon="pi pi-pencil" label={t('action.renameFolder')} outlined onClick={() => setNameDialog({ mode: 'rename', folder: view.Carpeta! })} />
            )}
            <Button type="button" size="small" icon="pi pi-upload" label={t('action.upload')} onClick={() => fileInput.current?.click()} disabled={!view || upload.isPending} />
            <input
              ref={fileInput}
              type="file"
              multiple
              accept={ACCEPT_ATTRIBUTE}
              className="files__file-input"
              aria-label={t('action.chooseFiles', { folder: currentName })}
              tabIndex={-1}
              data-testid="files-upload-input"
              onChange={(e) => {
                startUpload(Array.from(e.target.files ?? []))
                e.target.value = ''
              }}
            />
          </div>
        </div>

        {selectedCount > 0 && (
          <div className="bulk-bar files__bulk" role="region" aria-label={t('selection.region')}>
            <span role="status">{t('selection.count', { what: describeCount(selFiles.size, selFolders.size) })}</span>
            <div className="bulk-bar__actions">
              <Button type="button" size="small" icon="pi pi-download" label={t('action.downloadZip')} onClick={() => void downloadZip()} loading={downloading} />
              <Button type="button" size="small" icon="pi pi-arrow-right" label={t('action.move')} outlined disabled={selFiles.size === 0} onClick={() => setMoveIds([...selFiles])} />
              <Button type="button" size="small" icon="pi pi-trash" label={t('action.remove')} severity="danger" outlined onClick={() => void askRemove([...selFiles], [...selFolders])} />
              <Button
                type="button"
                size="small"
                label={t('action.clearSelection')}
                text
                onClick={() => {
                  setSelFiles(new Set())
                  setSelFolders(new Set())
                }}
              />
            </div>
          </div>
        )}

        {uploadErrors.length > 0 && (
          <div className="files__upload-errors">
            <Message severity="error" content={<UploadErrors errors={uploadErrors} onClose={() => setRefused(null)} />} />
          </div>
        )}
        {uploading && (
          <div className="files__progress" role="status">
            <span>
              {t('upload.progress', {
                what: describeCount(upload.variables?.length ?? 0, 0),
                size: formatSize((upload.variables ?? []).reduce((s, f) => s + f.size, 0)),
                folder: currentName,
              })}
            </span>
            <ProgressBar mode="indeterminate" style={{ height: '6px' }} aria-label={t('upload.progressLabel')} />
          </div>
        )}

        <div
          className={`files__drop ${dragOver ? 'files__drop--over' : ''}`}
          data-testid="files-drop-zone"
          onDragOver={onDragOver}
          onDragEnter={onDragOver}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragOver(false)
          }}
          onDrop={onDrop}
          aria-busy={loading || uploading}
        >
          {dragOver && (
            <div className="files__drop-overlay" aria-hidden="true">
              <i className="pi pi-cloud-upload" /> {t('upload.drop', { folder: currentName })}
            </div>
          )}
          {folder.isError ? (
            // A folder that is gone offers the way home; any other failure a retry.
            notFound ? (
              <ErrorState action={<Button type="button" size="small" outlined icon="pi pi-home" label={t('goTo', { folder: rootName })} onClick={() => open(ROOT_ID)} />}>
                {t('error.notFound')}
              </ErrorState>
            ) : (
              <ErrorState onRetry={() => void folder.refetch()}>{t('error.folders')}.</ErrorState>
            )
          ) : loading && !view ? (
            <LoadingState lines={5} />
          ) : (
            <div className="files__table-scroll">
              <table className="files__table" data-testid="files-table">
                <caption>{t('table.caption', { folder: currentName, what: total === 0 ? t('table.captionEmpty') : describeCount(files.length, folders.length) })}</caption>
                <thead>
                  <tr>
                    <th scope="col" className="files__col-check">
                      <input ref={headerCheck} type="checkbox" checked={allSelected} disabled={total === 0} onChange={toggleAll} aria-label={t('table.selectAll')} />
                    </th>
                    <th scope="col">{t('table.col.name')}</th>
                    <th scope="col" className="files__col-opt">
                      {t('table.col.type')}
                    </th>
                    <th scope="col" className="files__num">
                      {t('table.col.size')}
                    </th>
                    <th scope="col" className="files__col-opt">
                      {t('table.col.date')}
                    </th>
                    <th scope="col" className="files__col-opt">
                      {t('table.col.user')}
                    </th>
                    <th scope="col" className="files__col-actions">
                      {t('table.col.actions')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {folders.map((f) => (
                    <tr key={`c${f.Id}`} className={selFolders.has(f.Id) ? 'files__row--selected' : undefined} data-kind="carpeta">
                      <td className="files__col-check">
                        <input type="checkbox" checked={selFolders.has(f.Id)} onChange={() => toggle(selFolders, f.Id, setSelFolders)} aria-label={t('table.selectFolder', { name: f.Nombre })} />
                      </td>
                      <th scope="row" className="files__name">
                        <button type="button" className="p-link files__open" onClick={() => open(f.Id)}>
                          <i className="pi pi-folder" aria-hidden="true" />
                          <span translate="no">{f.Nombre}</span>
                        </button>
                      </th>
                      <td className="files__col-opt">{t('table.folder')}</td>
                      <td className="files__num">{f.NumArchivos + f.NumCarpetas === 0 ? t('table.emptyFolder') : describeCount(f.NumArchivos, f.NumCarpetas)}</td>
                      <td className="files__col-opt">{formatValue(f.Fecha, 'datetime')}</td>
                      <td className="files__col-opt">—</td>
                      <td className="files__col-actions">
                        <span className="row-actions">
                          <PlainButton size="small" text rounded icon="pi pi-pencil" aria-label={t('table.renameItem', { name: f.Nombre })} data-tip={t('action.rename')} onClick={() => setNameDialog({ mode: 'rename', folder: f })} />
                          <PlainButton size="small" text rounded severity="danger" icon="pi pi-trash" aria-label={t('table.removeItem', { name: f.Nombre })} data-tip={t('action.remove')} onClick={() => void askRemove([], [f.Id], t('remove.folder', { name: f.Nombre }))} />
                        </span>
                      </td>
                    </tr>
                  ))}
                  {files.map((f) => (
                    <tr key={`a${f.Id}`} className={selFiles.has(f.Id) ? 'files__row--selected' : undefined} data-kind="archivo">
                      <td className="files__col-check">
                        <input type="checkbox" checked={selFiles.has(f.Id)} onChange={() => toggle(selFiles, f.Id, setSelFiles)} aria-label={t('table.selectFile', { name: f.Nombre })} />
                      </td>
                      <th scope="row" className="files__name">
                        <button type="button" className="p-link files__open" onClick={() => void downloadFile(f)} title={t('table.downloadItem', { name: f.Nombre })}>
                          <i className={`pi ${fileIcon(f.Extension)}`} aria-hidden="true" />
                          <span translate="no">{f.Nombre}</span>
                        </button>
                      </th>
                      <td className="files__col-opt">{(f.Extension || '').replace(/^\./, '').toUpperCase() || '—'}</td>
                      <td className="files__num">{formatSize(f.Tamano)}</td>
                      <td className="files__col-opt">{formatValue(f.Fecha, 'datetime')}</td>
                      <td className="files__col-opt">{f.Usuario || '—'}</td>
                      <td className="files__col-actions">
                        <span className="row-actions">
                          <PlainButton size="small" text rounded icon="pi pi-download" aria-label={t('table.downloadItem', { name: f.Nombre })} data-tip={t('action.download')} onClick={() => void downloadFile(f)} />
                          <PlainButton size="small" text rounded icon="pi pi-arrow-right" aria-label={t('table.moveItem', { name: f.Nombre })} data-tip={t('action.move')} onClick={() => setMoveIds([f.Id])} />
                          <PlainButton size="small" text rounded severity="danger" icon="pi pi-trash" aria-label={t('table.removeItem', { name: f.Nombre })} data-tip={t('action.remove')} onClick={() => void askRemove([f.Id], [], quoted(f.Nombre))} />
                        </span>
                      </td>
                    </tr>
                  ))}
                  {total === 0 && (
                    <tr>
                      <td colSpan={7} className="files__empty">
                        <EmptyState icon="pi pi-folder-open">{t('table.empty')}</EmptyState>
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
          )}
          <p className="files__drop-hint">
            <i className="pi pi-cloud-upload" aria-hidden="true" /> {t('upload.hint')}
          </p>
        </div>
      </section>

      <NameDialog
        visible={nameDialog !== null}
        title={nameDialog?.mode === 'rename' ? t('dialog.rename', { name: nameDialog.folder.Nombre }) : t('dialog.create', { folder: currentName })}
        submitLabel={nameDialog?.mode === 'rename' ? t('action.rename') : t('action.create')}
        initial={nameDialog?.mode === 'rename' ? nameDialog.folder.Nombre : ''}
        siblings={nameSiblings}
        busy={create.isPending || rename.isPending}
        onHide={() => setNameDialog(null)}
        onSubmit={(name) => {
          if (nameDialog?.mode === 'rename') rename.mutate({ id: nameDialog.folder.Id, name })
          else create.mutate(name)
        }}
      />
      <MoveDialog
        visible={moveIds !== null}
        nodes={nodes}
        fileCount={moveIds?.length ?? 0}
        folderCount={moveIds && moveIds.length === selFiles.size ? selFolders.size : 0}
        currentId={currentId}
        busy={move.isPending}
        expandedInitial={moveExpanded}
        onHide={() => setMoveIds(null)}
        onMove={(target) => moveIds && move.mutate({ ids: moveIds, target })}
      />
    </div>
  )
}

function UploadErrors({ errors, onClose }: { errors: string[]; onClose: () => void }) {
  const t = useMessages(messages)
  return (
    <div className="files__upload-errors-body">
      <div>
        <strong>{t('upload.failed')}</strong>
        <ul>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      </div>
      <Button type="button" size="small" text icon="pi pi-times" aria-label={t('upload.closeNotice')} onClick={onClose} />
    </div>
  )
}

function findName(roots: FolderNode[], id: number): string | null {
  for (const n of roots) {
    if (n.Id === id) return n.Nombre
    const inner = findName(n.Hijas ?? [], id)
    if (inner) return inner
  }
  return null
}

function fileIcon(ext: string): string {
  const e = (ext || '').replace(/^\./, '').toLowerCase()
  if (e === 'pdf') return 'pi-file-pdf'
  if (['xls', 'xlsx', 'ods', 'csv'].includes(e)) return 'pi-file-excel'
  if (['doc', 'docx', 'odt', 'txt'].includes(e)) return 'pi-file-word'
  if (['jpg', 'jpeg', 'png', 'gif', 'webp'].includes(e)) return 'pi-image'
  if (e === 'zip') return 'pi-box'
  if (e === 'eml') return 'pi-envelope'
  return 'pi-file'
}
