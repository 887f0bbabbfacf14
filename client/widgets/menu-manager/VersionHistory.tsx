import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { confirmDialog } from 'primereact/confirmdialog'
import { Dialog } from 'primereact/dialog'
import { useState } from 'react'
import { formatWhen, type Change, type HistoryEntry } from './admin-api'
import { ChangeList } from './ChangeList'

export interface VersionHistoryProps {
  /** The dialog's title: «Historial del menú de Grupo Energía». */
  title: string
  queryKey: readonly unknown[]
  load: () => Promise<HistoryEntry[]>
  currentVersion: number
  /** Unsaved edits a rollback would discard. */
  dirty: boolean
  /** The changes from a version to the current one (offered when given). */
  compare?: (from: number) => Promise<Change[]>
  onRollback: (version: number) => void
  busy: boolean
  onHide: () => void
  errorArea: string
}

/** Versions newest first with author, time and what each changed; compare with the current one; roll back (a new version). */
export function VersionHistory(props: VersionHistoryProps) {
  const { title, queryKey, load, currentVersion, dirty, compare, onRollback, busy, onHide, errorArea } = props
  const history = useQuery({ queryKey, queryFn: load, staleTime: 0, meta: { errorArea, errorMessage: 'No se ha podido obtener el historial.' } })
  const [comparison, setComparison] = useState<{ from: number; changes: Change[] | null } | null>(null)

  const showComparison = async (from: number) => {
    if (!compare) return
    setComparison({ from, changes: null })
    try {
      setComparison({ from, changes: await compare(from) })
    } catch {
      setComparison(null)
    }
  }

  const askRollback = (v: HistoryEntry) =>
    confirmDialog({
      header: `Volver a la versión ${v.version === 0 ? 'de fábrica' : v.version}`,
      message: `Se guardará la versión ${currentVersion + 1} con el contenido de la versión ${v.version === 0 ? 'de fábrica' : v.version}. Podrás deshacerlo desde este historial.${dirty ? ' Los cambios sin guardar se perderán.' : ''}`,
      icon: 'pi pi-history',
      acceptLabel: 'Volver a esta versión',
      rejectLabel: 'Cancelar',
      defaultFocus: 'reject',
      accept: () => onRollback(v.version),
    })

  return (
    <Dialog header={title} visible onHide={onHide} style={{ width: '48rem' }} breakpoints={{ '960px': '90vw', '641px': '98vw' }} maximizable>
      {history.isPending && <p aria-busy="true">Cargando el historial…</p>}
      {history.data && (
        <ol className="version-history" aria-label="Versiones, de la más reciente a la más antigua">
          {history.data.map((v) => (
            <li key={v.version} className={`version-history__item ${v.version === currentVersion ? 'version-history__item--current' : ''}`}>
              <div className="version-history__head">
                <strong>{v.version === 0 ? 'Versión de fábrica' : `Versión ${v.version}`}</strong>
                {v.version === currentVersion && <span className="version-history__tag">Actual</span>}
                {v.kind === 'rollback' && <span className="version-history__tag version-history__tag--info">Restaura la {v.restoredFrom === 0 ? 'de fábrica' : `versión ${v.restoredFrom}`}</span>}
                <span className="version-history__meta">{v.version === 0 ? 'La que trae la aplicación' : `${v.author?.name ?? '—'} · ${formatWhen(v.createdAt)}`}</span>
              </div>
              {v.version > 0 && <ChangeList changes={v.changes} empty="Sin cambios respecto a la versión anterior." />}
              {v.version !== currentVersion && (
                <div className="version-history__actions">
                  {compare && (
                    <Button type="button" label="Comparar con la actual" icon="pi pi-arrows-h" size="small" text onClick={() => void showComparison(v.version)} />
                  )}
                  <Button type="button" label="Volver a esta versión" icon="pi pi-history" size="small" outlined disabled={busy} onClick={() => askRollback(v)} />
                </div>
              )}
              {comparison?.from === v.version && (
                <div className="version-history__compare" role="region" aria-label={`Diferencias entre la versión ${v.version} y la actual`}>
                  <p className="version-history__compare-title">De esta versión a la actual:</p>
                  {comparison.changes ? <ChangeList changes={comparison.changes} empty="Son iguales." /> : <p aria-busy="true">Comparando…</p>}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  )
}
