import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { confirmDialog } from 'primereact/confirmdialog'
import { Dropdown } from 'primereact/dropdown'
import { useState } from 'react'
import { screenAdmin, type StudioChange } from '../../api/screen-admin'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { useMessages } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { ErrorState, LoadingState } from '../../ui/states'
import { messages } from './messages'
import { audienceText } from './status'

const when = (ms: number | null) => (ms === null ? '—' : new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms)))

/** Every version and every publish with who and when, the differences between any two versions, and a way back to one. */
export function HistoryPanel({ id }: { id: string }) {
  const t = useMessages(messages)
  const client = useQueryClient()
  const history = useQuery({ queryKey: ['studio', 'history', id], queryFn: () => screenAdmin.history(id), staleTime: 0, meta: { errorArea: t('area'), errorMessage: t('history.error') } })
  const versions = (history.data?.versions ?? []).map((v) => v.version).sort((a, b) => b - a)
  const [from, setFrom] = useState<number | null>(null)
  const [to, setTo] = useState<number | null>(null)
  const [changes, setChanges] = useState<StudioChange[] | null>(null)
  const compare = useMutation({
    mutationFn: () => screenAdmin.diff(id, from!, to!),
    onSuccess: (d) => setChanges(d.changes),
    onError: (err) => reportError(t('area'), err, t('history.diffError')),
  })
  const restore = useMutation({
    mutationFn: (version: number) => screenAdmin.rollback(id, version),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['studio'] })
      notifySuccess(t('area'), t('publish.rolledBack'))
    },
    onError: (err) => reportError(t('area'), err),
  })

  if (history.isError) return <ErrorState action={<Button label={t('editor.reload')} text size="small" onClick={() => void history.refetch()} />}>{t('history.error')}</ErrorState>
  const askRestore = (version: number) =>
    confirmDialog({
      header: t('history.restore'),
      message: t('history.restoreConfirm', { n: version }),
      icon: 'pi pi-history',
      acceptLabel: t('history.restore'),
      rejectLabel: t('cancel'),
      defaultFocus: 'reject',
      accept: () => restore.mutate(version),
    })
  return (
    <div className="screen-studio__history">
      <div className="screen-studio__inline">
        <label htmlFor="history-from">{t('history.from')}</label>
        <Dropdown inputId="history-from" value={from} onChange={(e) => setFrom(e.value as number)} options={versions} />
        <label htmlFor="history-to">{t('history.to')}</label>
        <Dropdown inputId="history-to" value={to} onChange={(e) => setTo(e.value as number)} options={versions} />
        <Button label={t('history.compare')} icon="pi pi-arrows-h" outlined size="small" disabled={from === null || to === null} loading={compare.isPending} onClick={() => compare.mutate()} />
      </div>
      {changes && (
        <ul className="screen-studio__changes" aria-live="polite" aria-label={t('history.compare')}>
          {changes.length === 0 ? <li>{t('history.noChanges')}</li> : changes.map((c, i) => <li key={i}>{c.text}</li>)}
        </ul>
      )}
      {history.isPending && <LoadingState label={t('history.loading')} lines={4} />}
      <h3 className="screen-studio__subheading">{t('history.versions')}</h3>
      <ol className="screen-studio__versions">
        {(history.data?.versions ?? []).map((v) => (
          <li key={v.version}>
            <span>
              {t('history.line', { n: v.version, kind: t(`history.kind.${v.kind}`), author: v.author?.name ?? '—', when: when(v.createdAt) })}
              {v.changes.length > 0 && <small className="screen-studio__change-count"> · {v.changes.slice(0, 3).map((c) => c.text).join(' · ')}{v.changes.length > 3 ? ' …' : ''}</small>}
            </span>
            <Button label={t('history.restore')} icon="pi pi-replay" text size="small" onClick={() => askRestore(v.version)} aria-label={`${t('history.restore')} ${v.version}`} />
          </li>
        ))}
      </ol>
      <h3 className="screen-studio__subheading">{t('history.releases')}</h3>
      <ol className="screen-studio__versions">
        {(history.data?.releases ?? []).map((r) => (
          <li key={r.step}>
            <span>
              {t(`history.action.${r.action}`, { n: r.version ?? '—', who: audienceText(r.audience), author: r.author?.name ?? '—', when: when(r.at) })}
              {r.reason && <small> · {r.reason}</small>}
            </span>
          </li>
        ))}
      </ol>
    </div>
  )
}
