import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { confirmDialog } from 'primereact/confirmdialog'
import { Dropdown } from 'primereact/dropdown'
import { useState } from 'react'
import { screenAdmin, type StudioChange } from '../../api/screen-admin'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { intlLocale } from '../../ui/format'
import { useMessages } from '../../i18n/i18n'
import { ErrorState } from '../../ui/states'
import { messages } from './messages'

const when = (ms: number | null) => (ms === null ? '—' : new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms)))

/** Every version with who and when, the differences between any two, and a way back to one. */
export function HistoryPanel({ id }: { id: string }) {
  const t = useMessages(messages)
  const client = useQueryClient()
  const history = useQuery({ queryKey: ['studio', 'history', id], queryFn: () => screenAdmin.history(id), staleTime: 0, meta: { errorArea: t('area'), errorMessage: t('history.error') } })
  const versions = [...new Set((history.data ?? []).map((h) => h.version))].sort((a, b) => b - a)
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
    onSuccess: (next) => {
      client.setQueryData(['studio', 'screen', id], next)
      void client.invalidateQueries({ queryKey: ['studio'] })
      notifySuccess(t('area'), t('publish.rolledBack'))
    },
    onError: (err) => reportError(t('area'), err),
  })

  if (history.isError) return <ErrorState action={<Button label={t('editor.reload')} text size="small" onClick={() => void history.refetch()} />}>{t('history.error')}</ErrorState>
  const kind = (k: string) => {
    const key = `history.kind.${k}` as const
    return (['draft', 'create', 'publish', 'rollback', 'fallback', 'shipped', 'withdraw'] as string[]).includes(k) ? t(key as Parameters<typeof t>[0]) : k
  }
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
        <ul className="screen-studio__changes" aria-live="polite">
          {changes.length === 0 ? <li>{t('history.noChanges')}</li> : changes.map((c, i) => <li key={i}>{c.path ? <code translate="no">{c.path}</code> : null} {c.text}</li>)}
        </ul>
      )}
      {history.isPending && <p aria-busy="true">…</p>}
      <ol className="screen-studio__versions">
        {(history.data ?? []).map((h, i) => (
          <li key={`${h.version}-${i}`}>
            <span>{t('history.line', { n: h.version, kind: kind(h.kind), author: h.author?.name ?? '—', when: when(h.createdAt) })}</span>
            <Button
              label={t('history.restore')}
              icon="pi pi-replay"
              text
              size="small"
              onClick={() =>
                confirmDialog({
                  header: t('history.restore'),
                  message: t('history.restoreConfirm', { n: h.version }),
                  icon: 'pi pi-history',
                  acceptLabel: t('history.restore'),
                  rejectLabel: t('cancel'),
                  defaultFocus: 'reject',
                  accept: () => restore.mutate(h.version),
                })
              }
            />
          </li>
        ))}
      </ol>
    </div>
  )
}
