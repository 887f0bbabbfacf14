import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { confirmDialog } from 'primereact/confirmdialog'
import { Dialog } from 'primereact/dialog'
import { useState } from 'react'
import { useMessages } from '../../i18n/i18n'
import { formatWhen, restoredVersion, type Change, type HistoryEntry } from './admin-api'
import { ChangeList } from './ChangeList'
import { messages } from './messages'
import { ErrorState, LoadingState } from '../../ui/states'

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
  const t = useMessages(messages)
  const history = useQuery({ queryKey, queryFn: load, staleTime: 0, meta: { errorArea, errorMessage: t('history.error') } })
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
      header: v.version === 0 ? t('history.back.factory') : t('history.back.n', { n: v.version }),
      message: [t('history.back.message', { next: currentVersion + 1, from: restoredVersion(v.version) }), dirty ? t('history.back.dirty') : ''].filter(Boolean).join(' '),
      icon: 'pi pi-history',
      acceptLabel: t('history.back'),
      rejectLabel: t('cancel'),
      defaultFocus: 'reject',
      accept: () => onRollback(v.version),
    })

  return (
    <Dialog header={title} visible onHide={onHide} style={{ width: '48rem' }} breakpoints={{ '960px': '90vw', '641px': '98vw' }} maximizable>
      {history.isError && <ErrorState onRetry={() => void history.refetch()}>{t('history.error')}</ErrorState>}
      {history.isPending && <LoadingState label={t('history.loading')} lines={4} />}
      {history.data && (
        <ol className="version-history" aria-label={t('history.list')}>
          {history.data.map((v) => (
            <li key={v.version} className={`version-history__item ${v.version === currentVersion ? 'version-history__item--current' : ''}`}>
              <div className="version-history__head">
                <strong>{v.version === 0 ? t('version.factory') : t('version.n', { n: v.version })}</strong>
                {v.version === currentVersion && <span className="version-history__tag">{t('history.current')}</span>}
                {v.kind === 'rollback' && <span className="version-history__tag version-history__tag--info">{v.restoredFrom === 0 ? t('history.restores.factory') : t('history.restores.n', { n: String(v.restoredFrom) })}</span>}
                <span className="version-history__meta">{v.version === 0 ? t('history.shipped') : `${v.author?.name ?? '—'} · ${formatWhen(v.createdAt)}`}</span>
              </div>
              {v.version > 0 && <ChangeList changes={v.changes} empty={t('history.noChanges')} />}
              {v.version !== currentVersion && (
                <div className="version-history__actions">
                  {compare && (
                    <Button type="button" label={t('history.compare')} icon="pi pi-arrows-h" size="small" text onClick={() => void showComparison(v.version)} />
                  )}
                  <Button type="button" label={t('history.back')} icon="pi pi-history" size="small" outlined disabled={busy} onClick={() => askRollback(v)} />
                </div>
              )}
              {comparison?.from === v.version && (
                <div className="version-history__compare" role="region" aria-label={t('history.differences', { n: v.version })}>
                  <p className="version-history__compare-title">{t('history.toCurrent')}</p>
                  {comparison.changes ? <ChangeList changes={comparison.changes} empty={t('history.same')} /> : <p aria-busy="true">{t('history.comparing')}</p>}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  )
}
