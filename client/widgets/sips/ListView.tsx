import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { InputTextarea } from 'primereact/inputtextarea'
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { Tag } from '../../ui/plain/Tag'
import { api, saveFile } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifyError } from '../../api/toast'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { messageIn, useMessages } from '../../i18n/i18n'
import { FieldShell } from '../../ui/FieldShell'
import { formatValue } from '../../ui/format'
import type { GridColumn } from '../../ui/grid/DataGrid'
import { LocalGrid } from '../../ui/grid/LocalGrid'
import { ErrorState } from '../../ui/states'
import { messages, type MessageKey as Key } from './messages'
import { cupsFromFile, listSummary, MAX_LIST, parseCupsList, SIPS_AREA, writeSipsUrl } from './sips-logic'
import type { SipsListItem } from '../../../schemas/business/sips'

const ESTADOS: Record<SipsListItem['Estado'], { label: Key; severity: 'success' | 'danger' | 'warning' }> = {
  ok: { label: 'list.state.ok', severity: 'success' },
  invalido: { label: 'list.state.invalid', severity: 'danger' },
  sin_datos: { label: 'list.state.noData', severity: 'warning' },
}

/** A message of the form, kept as its key so that it follows a language switch. */
type FormError = { key: Key; vars?: Record<string, string | number> }

type Row = SipsListItem & { Orden: number }

/** Many CUPS: paste them or load a .txt/.csv, look them all up at once, open one, export all. */
export function ListView({ list, onLookup, onOpen }: { list: string[]; onLookup: (list: string[]) => void; onOpen: (cups: string) => void }) {
  const t = useMessages(messages)
  const id = useId()
  const [text, setText] = useState(list.join('\n'))
  const [formError, setError] = useState<FormError | null>(null)
  const error = formError ? t(formError.key, formError.vars) : null
  const [fileName, setFileName] = useState<string | null>(null)
  const parsed = useMemo(() => parseCupsList(text), [text])
  const listKey = list.join(',')
  const listText = list.join('\n')

  // A new list from the URL (a lookup, back and forward) replaces what the box shows; typing does not come back here.
  useEffect(() => setText(listText), [listText])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (parsed.length === 0) return setError({ key: 'list.error.empty' })
    if (parsed.length > MAX_LIST) return setError({ key: 'list.error.tooMany', vars: { max: MAX_LIST, n: parsed.length } })
    setError(null)
    onLookup(parsed)
  }

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (file.size > 2 * 1024 * 1024) return setError({ key: 'list.error.fileTooBig' })
    const found = cupsFromFile(await file.text(), file.name)
    setFileName(file.name)
    setText(found.join('\n'))
    setError(found.length ? null : { key: 'list.error.noneInFile', vars: { file: file.name } })
  }

  const helpId = `${id}-help`
  const errorId = `${id}-list-error`
  return (
    <div className="sips-list">
      <form className="card sips-list__form" onSubmit={submit} aria-label={t('list.form')}>
        <FieldShell
          id={`${id}-list`}
          label={t('list.label')}
          // The help comes before the error here: it counts what was pasted, which the error is about.
          notes={
            <small id={helpId} className="field-help">
              {t('list.help', { max: MAX_LIST })}
              {parsed.length > 0 && ` ${t(parsed.length === 1 ? 'list.distinct.one' : 'list.distinct.other', { n: parsed.length })}`}
            </small>
          }
          error={error}
        >
          <InputTextarea
            id={`${id}-list`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={6}
            autoResize={false}
            spellCheck={false}
            placeholder={'ES0021000000000000RC\nES0021000000000001RK'}
            aria-describedby={`${helpId}${error ? ` ${errorId}` : ''}`}
            aria-invalid={!!error || undefined}
            className="sips-list__textarea"
          />
        </FieldShell>
        <div className="sips-list__actions">
          <span className="sips-file">
            <input id={`${id}-file`} type="file" accept=".txt,.csv,text/plain,text/csv" className="sips-file__input" onChange={(e) => void onFile(e)} />
            <label htmlFor={`${id}-file`} className="p-button p-button-outlined sips-file__label">
              <i className="pi pi-upload" aria-hidden="true" />
              <span>{t('list.loadFile')}</span>
            </label>
            {fileName && <span className="sips-muted sips-file__name">{fileName}</span>}
          </span>
          <Button type="submit" label={t('list.submit')} icon="pi pi-search" />
        </div>
      </form>
      {list.length > 0 && <ListResult key={listKey} list={list} onOpen={onOpen} />}
    </div>
  )
}

function ListResult({ list, onOpen }: { list: string[]; onOpen: (cups: string) => void }) {
  const t = useMessages(messages)
  const query = useQuery({
    queryKey: ['sips', 'list', list],
    queryFn: ({ signal }) => api.post<SipsListItem[]>('/api/sips/info/list', { Cups: list }, { signal }),
    // Titled and worded by the endpoint catalogue (spec §8), as the export below.
    meta: { reportErrors: true },
    staleTime: 5 * 60_000,
  })
  const loading = useDelayedFlag(query.isFetching)
  const [exporting, setExporting] = useState(false)
  const warned = useRef<unknown>(null)
  const rows: Row[] = useMemo(() => (query.data ?? []).map((r, i) => ({ ...r, Orden: i + 1 })), [query.data])
  const summary = listSummary(rows)

  // Every CUPS invalid or without data: nothing could be read (spec §8).
  useEffect(() => {
    if (!query.data || query.data.length === 0 || warned.current === query.data) return
    if (query.data.every((r) => r.Estado !== 'ok')) {
      warned.current = query.data
      notifyError(SIPS_AREA, messageIn(messages, 'error.list'))
    }
  }, [query.data])

  const doExport = async () => {
    setExporting(true)
    try {
      saveFile(await api.download('/api/sips/export/list', { method: 'POST', body: { Cups: list }, fallbackName: 'sips-lista.xlsx' }))
    } catch (err) {
      reportError(undefined, err)
    } finally {
      setExporting(false)
    }
  }

  if (query.isError) {
    return (
      <ErrorState onRetry={() => void query.refetch()}>
        {t('error.list')}
      </ErrorState>
    )
  }

  const cupsCell = (row: Row) =>
    row.Estado === 'ok' ? (
      <Link
        className="row-link code-cell"
        to={{ search: `?${writeSipsUrl({ cups: row.Normalizado, list, view: 'uno' }).toString()}` }}
        onClick={(e) => {
          e.preventDefault()
          onOpen(row.Normalizado)
        }}
        aria-label={t('list.open', { cups: row.Normalizado })}
      >
        {row.Normalizado}
      </Link>
    ) : (
      <span className="code-cell">{row.Cups}</span>
    )
  const estadoCell = (row: Row) => <Tag value={ESTADOS[row.Estado] ? t(ESTADOS[row.Estado].label) : row.Estado} severity={ESTADOS[row.Estado]?.severity} />
  const motivoCell = (row: Row) => (row.Estado === 'ok' ? (row.Info?.Distribuidora?.Nombre ?? '—') : <span className="sips-reason">{row.Motivo ?? '—'}</span>)
  const columns: GridColumn<Row>[] = [
    { key: 'Orden', header: '#', sortable: true, width: '3.5rem', body: (r) => r.Orden },
    { key: 'Normalizado', header: 'CUPS', sortable: true, body: cupsCell },
    { key: 'Estado', header: t('list.col.state'), sortable: true, body: estadoCell },
    { key: 'motivo', header: t('list.col.reason'), body: motivoCell, className: 'sips-col-motivo' },
    { key: 'tarifa', header: t('list.col.tariff'), body: (r) => r.Info?.Tarifa?.Codigo ?? '—' },
    { key: 'provincia', header: t('list.col.province'), body: (r) => r.Info?.Provincia ?? '—' },
    { key: 'potencia', header: t('list.col.power'), align: 'right', body: (r) => formatValue(r.Info?.PotenciasContratadasKw?.P1, 'power') },
    { key: 'consumo', header: t('list.col.consumption'), align: 'right', body: (r) => formatValue(r.Info?.ConsumoAnualKwh?.Total, 'energy') },
  ]

  return (
    <section className="card sips-list__result" aria-label={t('list.result')} aria-busy={loading}>
      <div className="table-toolbar">
        <h2 className="table-title">{t('list.resultTitle')}</h2>
        <p className="sips-muted sips-list__summary" aria-live="polite">
          {query.data
            ? t(summary.invalido === 1 ? 'list.summary.one' : 'list.summary.other', { n: rows.length, ok: summary.ok, invalid: summary.invalido, noData: summary.sin_datos })
            : t('list.querying')}
        </p>
        <div className="table-toolbar__actions">
          <Button type="button" icon="pi pi-file-excel" label={t('common.export')} outlined size="small" loading={exporting} disabled={!query.data} onClick={() => void doExport()} />
        </div>
      </div>
      <LocalGrid<Row>
        rows={rows}
        rowKey={(r) => r.Orden}
        columns={columns}
        loading={loading}
        minWidth="48rem"
        empty={query.data ? t('list.noResults') : t('list.querying')}
        rowClassName={(row) => (row.Estado === 'ok' ? 'row-clickable' : `sips-row--${row.Estado}`)}
        onRowClick={(row) => row.Estado === 'ok' && onOpen(row.Normalizado)}
        label={t('list.table')}
        tableId="sips-lista"
      />
    </section>
  )
}
