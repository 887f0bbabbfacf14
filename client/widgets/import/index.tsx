import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { ProgressBar } from 'primereact/progressbar'
import { useId, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import type { ImportColumn, ImportDefinitionView, ImportJobView, ImportMapping } from '../../../schemas/import'
import { api, saveFile, send } from '../../api/client'
import { reportError } from '../../api/errors'
import { localized, useMessages } from '../../i18n/i18n'
import { confirm } from '../../ui/confirm'
import { LocalGrid } from '../../ui/grid/LocalGrid'
import { ErrorState, LoadingState } from '../../ui/states'
import { messages } from './messages'
import './import.css'

/**
 * Bulk import of one catalogued call (props.definition, a file of server/imports/definitions):
 * template, upload, column mapping, dry run with per-row errors, sending with a progress bar,
 * result file and undo. The job lives in the BFF and its id in the URL (`?importacion=`), so a
 * reload or a failed step loses nothing.
 */

const POLL_MS = 500

export default function ImportWidget(props: Record<string, unknown>) {
  const definitionId = String(props.definition ?? '')
  const t = useMessages(messages)
  const [search, setSearch] = useSearchParams()
  const jobId = search.get('importacion')
  const setJob = (id: string | null) => setSearch((s) => {
    const next = new URLSearchParams(s)
    if (id) next.set('importacion', id)
    else next.delete('importacion')
    return next
  })
  const client = useQueryClient()
  const area = t('area')

  const definition = useQuery({
    queryKey: ['import-definition', definitionId],
    queryFn: () => api.get<ImportDefinitionView>(`/bff/imports/${definitionId}`),
    meta: { reportErrors: true },
  })
  const job = useQuery({
    queryKey: ['import-job', jobId],
    enabled: jobId !== null,
    queryFn: () => api.get<ImportJobView>(`/bff/imports/jobs/${jobId}`),
    refetchInterval: (q) => (q.state.data && (q.state.data.state === 'running' || q.state.data.state === 'undoing') ? POLL_MS : false),
    meta: { reportErrors: true },
  })
  const [busy, setBusy] = useState<string | null>(null)
  const [editMapping, setEditMapping] = useState(false)

  if (definition.isPending) return <LoadingState />
  if (definition.isError) return <ErrorState onRetry={() => void definition.refetch()}>{t('load.failed')}</ErrorState>
  const def = definition.data
  if (jobId && job.isPending) return <LoadingState />
  if (jobId && job.isError) return <ErrorState onRetry={() => void job.refetch()} action={<Button type="button" size="small" text label={t('result.again')} onClick={() => setJob(null)} />}>{t('load.failed')}</ErrorState>
  const current = jobId ? job.data : undefined

  const act = async (what: string, work: () => Promise<ImportJobView | void>) => {
    setBusy(what)
    try {
      const next = await work()
      if (next) {
        client.setQueryData(['import-job', next.id], next)
        if (next.id !== jobId) setJob(next.id)
      }
    } catch (err) {
      reportError(area, err)
    } finally {
      setBusy(null)
    }
  }

  const upload = (file: File) =>
    act('upload', async () => {
      const res = await send('POST', `/bff/imports/${def.id}/upload`, { body: file, params: { name: file.name }, headers: { 'Content-Type': 'application/octet-stream' } })
      setEditMapping(true)
      return (await res.json()) as ImportJobView
    })
  const check = (mapping: ImportMapping) =>
    act('check', async () => {
      const next = await api.post<ImportJobView>(`/bff/imports/jobs/${current!.id}/check`, { mapping })
      setEditMapping(false)
      return next
    })
  const commit = async () => {
    if (!(await confirm(t('check.commitConfirm', { n: current!.check!.valid })))) return
    await act('commit', () => api.post<ImportJobView>(`/bff/imports/jobs/${current!.id}/commit`))
  }
  const undo = async () => {
    if (!(await confirm(t('result.undoConfirm')))) return
    await act('undo', () => api.post<ImportJobView>(`/bff/imports/jobs/${current!.id}/undo`))
  }
  const download = (path: string, fallbackName: string) => act('download', async () => saveFile(await api.download(path, { fallbackName })))
  const restart = () => {
    setEditMapping(false)
    setJob(null)
  }

  const labelOf = (name: string) => {
    const col = def.columns.find((c) => c.name === name)
    return name === '' ? t('check.whole') : col ? localized(col.label) : name
  }

  const step = !current ? 'upload' : current.state === 'uploaded' || editMapping ? 'mapping' : current.state === 'checked' ? 'check' : current.state === 'running' ? 'send' : 'result'

  return (
    <div className="import-tool">
      <ol className="import-steps" aria-label={t('steps.label')}>
        {(['upload', 'mapping', 'check', 'send', 'result'] as const).map((s) => (
          <li key={s} className={s === step ? 'is-current' : undefined} aria-current={s === step ? 'step' : undefined}>
            {t(`step.${s}`)}
          </li>
        ))}
      </ol>

      {step === 'upload' && <UploadStep def={def} busy={busy === 'upload'} onFile={upload} onTemplate={(format) => download(`/bff/imports/${def.id}/template?format=${format}`, `plantilla.${format}`)} />}
      {step === 'mapping' && current && (
        <MappingStep key={current.id} columns={def.columns} job={current} busy={busy === 'check'} onCheck={check} onReupload={restart} />
      )}
      {step === 'check' && current?.check && (
        <section aria-labelledby="import-check-title" className="import-panel">
          <h2 id="import-check-title">{t('check.title')}</h2>
          <p role="status">{t('check.summary', { valid: current.check.valid, invalid: current.check.invalidRows, duplicates: current.check.duplicates })}</p>
          {current.check.problems.length === 0 ? (
            <p>{t('check.none')}</p>
          ) : (
            <>
              <h3>{t('check.errorsTitle')}</h3>
              {current.check.problemCount > current.check.problems.length && <p>{t('check.more', { shown: current.check.problems.length, total: current.check.problemCount })}</p>}
              <LocalGrid
                rows={current.check.problems}
                rowKey={(p) => `${p.row}:${p.column}:${p.message}`}
                className="import-problems"
                label={t('check.errorsTitle')}
                columns={[
                  { key: 'row', header: t('check.row'), width: '6rem', body: (p) => p.row },
                  { key: 'column', header: t('check.column'), width: '16rem', body: (p) => labelOf(p.column) },
                  { key: 'message', header: t('check.message'), body: (p) => p.message },
                ]}
              />
            </>
          )}
          <div className="import-actions">
            <Button type="button" outlined icon="pi pi-arrow-left" label={t('check.remap')} onClick={() => setEditMapping(true)} />
            <Button type="button" outlined icon="pi pi-upload" label={t('check.reupload')} onClick={restart} />
            <Button type="button" icon="pi pi-send" label={t('check.commit', { n: current.check.valid })} disabled={current.check.valid === 0 || busy !== null} loading={busy === 'commit'} onClick={() => void commit()} />
          </div>
        </section>
      )}
      {(step === 'send' || current?.state === 'undoing') && current && (
        <section aria-labelledby="import-send-title" className="import-panel">
          <h2 id="import-send-title">{t('send.title')}</h2>
          <ProgressBar value={current.progress.total === 0 ? 100 : Math.round((current.progress.done / current.progress.total) * 100)} aria-label={t('send.title')} />
          <p role="status">{t(current.state === 'undoing' ? 'undo.progress' : 'send.progress', { done: current.progress.done, total: current.progress.total })}</p>
        </section>
      )}
      {step === 'result' && current && current.state !== 'undoing' && (
        <section aria-labelledby="import-result-title" className="import-panel">
          <h2 id="import-result-title">{current.state === 'undone' ? t('undo.title') : t('result.title')}</h2>
          <p role="status">{t('result.counts', current.counts)}</p>
          {current.undo && (
            <>
              <p role="status">{t('undo.summary', { undone: current.undo.undone, left: current.undo.left.length })}</p>
              {current.undo.left.length > 0 && (
                <>
                  <h3>{t('undo.leftTitle')}</h3>
                  <LocalGrid
                    rows={current.undo.left}
                    rowKey={(r) => r.row}
                    label={t('undo.leftTitle')}
                    columns={[
                      { key: 'row', header: t('result.row'), width: '6rem', body: (r) => r.row },
                      { key: 'record', header: t('result.record'), width: '12rem', body: (r) => r.record },
                      { key: 'reason', header: t('undo.reason'), body: (r) => r.reason },
                    ]}
                  />
                </>
              )}
            </>
          )}
          <LocalGrid
            rows={current.outcomes}
            rowKey={(o) => o.row}
            className="import-outcomes"
            label={t('result.title')}
            columns={[
              { key: 'row', header: t('result.row'), width: '6rem', body: (o) => o.row },
              { key: 'outcome', header: t('result.outcome'), width: '12rem', body: (o) => <span className={`import-outcome import-outcome--${o.outcome}`}>{t(`outcome.${o.outcome}`)}</span> },
              { key: 'record', header: t('result.record'), width: '12rem', body: (o) => o.record },
              { key: 'message', header: t('result.message'), body: (o) => o.message },
            ]}
          />
          <div className="import-actions">
            <Button type="button" outlined icon="pi pi-download" label={t('result.download')} loading={busy === 'download'} onClick={() => download(`/bff/imports/jobs/${current.id}/result`, 'resultado.xlsx')} />
            {current.state === 'done' && current.counts.created > 0 && <Button type="button" severity="danger" outlined icon="pi pi-undo" label={t('result.undo')} loading={busy === 'undo'} disabled={busy !== null} onClick={() => void undo()} />}
            <Button type="button" text icon="pi pi-file-import" label={t('result.again')} onClick={restart} />
          </div>
        </section>
      )}
    </div>
  )
}

function UploadStep({ def, busy, onFile, onTemplate }: { def: ImportDefinitionView; busy: boolean; onFile: (f: File) => void; onTemplate: (format: 'xlsx' | 'csv') => void }) {
  const t = useMessages(messages)
  const input = useRef<HTMLInputElement>(null)
  const inputId = useId()
  return (
    <section aria-labelledby="import-upload-title" className="import-panel">
      <h2 id="import-upload-title">{t('upload.title')}</h2>
      <p>{t('upload.help', { rows: def.maxRows.toLocaleString(), mb: Math.round(def.maxBytes / 1024 / 1024) })}</p>
      <div className="import-actions">
        <Button type="button" outlined icon="pi pi-file-excel" label={t('template.xlsx')} onClick={() => onTemplate('xlsx')} />
        <Button type="button" outlined icon="pi pi-file" label={t('template.csv')} onClick={() => onTemplate('csv')} />
      </div>
      <div className="import-actions">
        <input
          ref={input}
          id={inputId}
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="import-file"
          tabIndex={-1}
          aria-label={t('upload.pick')}
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) onFile(file)
            e.target.value = ''
          }}
        />
        <Button type="button" icon="pi pi-upload" label={busy ? t('upload.sending') : t('upload.pick')} loading={busy} onClick={() => input.current?.click()} aria-controls={inputId} />
      </div>
    </section>
  )
}

function MappingStep({ columns, job, busy, onCheck, onReupload }: { columns: ImportColumn[]; job: ImportJobView; busy: boolean; onCheck: (m: ImportMapping) => void; onReupload: () => void }) {
  const t = useMessages(messages)
  const [mapping, setMapping] = useState<ImportMapping>(() => ({ ...job.mapping }))
  const headers = job.headers.filter((h) => h !== '')
  return (
    <section aria-labelledby="import-mapping-title" className="import-panel">
      <h2 id="import-mapping-title">{t('mapping.title')}</h2>
      <p>{t('mapping.file', { name: job.fileName, rows: job.rowCount })}</p>
      <table className="import-mapping">
        <thead>
          <tr>
            <th scope="col">{t('mapping.field')}</th>
            <th scope="col">{t('mapping.column')}</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => {
            const id = `import-map-${c.name.replace(/\W/g, '-')}`
            return (
              <tr key={c.name}>
                <th scope="row">
                  <label htmlFor={id}>
                    {localized(c.label)} {c.required && <span className="import-required">({t('mapping.required')})</span>}
                  </label>
                  <div className="import-name">{c.name}</div>
                </th>
                <td>
                  <select id={id} className="p-inputtext import-select" value={mapping[c.name] ?? ''} onChange={(e) => setMapping({ ...mapping, [c.name]: e.target.value === '' ? null : e.target.value })}>
                    <option value="">{t('mapping.none')}</option>
                    {headers.map((h) => (
                      <option key={h} value={h}>
                        {h}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <div className="import-actions">
        <Button type="button" outlined icon="pi pi-upload" label={t('check.reupload')} onClick={onReupload} />
        <Button type="button" icon="pi pi-check-square" label={busy ? t('mapping.checking') : t('mapping.check')} loading={busy} onClick={() => onCheck(mapping)} />
      </div>
    </section>
  )
}
