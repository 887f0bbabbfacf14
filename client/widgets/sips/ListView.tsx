import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Column } from 'primereact/column'
import { DataTable } from 'primereact/datatable'
import { InputTextarea } from 'primereact/inputtextarea'
import { Tag } from 'primereact/tag'
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { api, saveFile } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifyError } from '../../api/toast'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { formatValue } from '../../renderer/format'
import { cupsFromFile, LIST_ERROR, listSummary, MAX_LIST, parseCupsList, SIPS_AREA, writeSipsUrl, type SipsListRow } from './sips-logic'

const ESTADOS: Record<SipsListRow['Estado'], { label: string; severity: 'success' | 'danger' | 'warning' }> = {
  ok: { label: 'Con datos', severity: 'success' },
  invalido: { label: 'No válido', severity: 'danger' },
  sin_datos: { label: 'Sin datos', severity: 'warning' },
}

type Row = SipsListRow & { Orden: number }

/** Many CUPS: paste them or load a .txt/.csv, look them all up at once, open one, export all. */
export function ListView({ list, onLookup, onOpen }: { list: string[]; onLookup: (list: string[]) => void; onOpen: (cups: string) => void }) {
  const id = useId()
  const [text, setText] = useState(list.join('\n'))
  const [error, setError] = useState<string | null>(null)
  const [fileName, setFileName] = useState<string | null>(null)
  const parsed = useMemo(() => parseCupsList(text), [text])
  const listKey = list.join(',')

  useEffect(() => setText(list.join('\n')), [listKey]) // eslint-disable-line react-hooks/exhaustive-deps

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (parsed.length === 0) return setError('Escribe o carga al menos un CUPS.')
    if (parsed.length > MAX_LIST) return setError(`Se pueden consultar hasta ${MAX_LIST} CUPS a la vez (la lista tiene ${parsed.length}).`)
    setError(null)
    onLookup(parsed)
  }

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (file.size > 2 * 1024 * 1024) return setError('El fichero no puede superar 2 MB.')
    const found = cupsFromFile(await file.text(), file.name)
    setFileName(file.name)
    setText(found.join('\n'))
    setError(found.length ? null : `No se ha encontrado ningún CUPS en ${file.name}.`)
  }

  const helpId = `${id}-help`
  const errorId = `${id}-error`
  return (
    <div className="sips-list">
      <form className="card sips-list__form" onSubmit={submit} aria-label="Consultar varios CUPS">
        <div className="screen-form__field">
          <label className="screen-form__label" htmlFor={`${id}-list`}>
            Lista de CUPS
          </label>
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
          <small id={helpId} className="field-help">
            Uno por línea, o separados por espacios, comas o punto y coma (hasta {MAX_LIST}). Los repetidos se consultan una vez.
            {parsed.length > 0 && ` ${parsed.length} CUPS distinto${parsed.length === 1 ? '' : 's'}.`}
          </small>
          {error && (
            <small id={errorId} className="field-error p-error" role="alert">
              {error}
            </small>
          )}
        </div>
        <div className="sips-list__actions">
          <span className="sips-file">
            <input id={`${id}-file`} type="file" accept=".txt,.csv,text/plain,text/csv" className="sips-file__input" onChange={(e) => void onFile(e)} />
            <label htmlFor={`${id}-file`} className="p-button p-button-outlined sips-file__label">
              <i className="pi pi-upload" aria-hidden="true" />
              <span>Cargar fichero (.txt, .csv)</span>
            </label>
            {fileName && <span className="sips-muted sips-file__name">{fileName}</span>}
          </span>
          <Button type="submit" label="Consultar lista" icon="pi pi-search" />
        </div>
      </form>
      {list.length > 0 && <ListResult key={listKey} list={list} onOpen={onOpen} />}
    </div>
  )
}

function ListResult({ list, onOpen }: { list: string[]; onOpen: (cups: string) => void }) {
  const query = useQuery({
    queryKey: ['sips', 'list', list],
    queryFn: ({ signal }) => api.post<SipsListRow[]>('/api/sips/info/list', { Cups: list }, { signal }),
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
      notifyError(SIPS_AREA, LIST_ERROR)
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
      <div className="screen-error-box" role="alert">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" />
        <span>{LIST_ERROR}</span>
        <Button type="button" size="small" outlined label="Reintentar" icon="pi pi-refresh" className="sips-retry" onClick={() => void query.refetch()} />
      </div>
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
        aria-label={`Abrir ${row.Normalizado}`}
      >
        {row.Normalizado}
      </Link>
    ) : (
      <span className="code-cell">{row.Cups}</span>
    )
  const estadoCell = (row: Row) => <Tag value={ESTADOS[row.Estado]?.label ?? row.Estado} severity={ESTADOS[row.Estado]?.severity} />
  const motivoCell = (row: Row) => (row.Estado === 'ok' ? (row.Info?.Distribuidora?.Nombre ?? '—') : <span className="sips-reason">{row.Motivo ?? '—'}</span>)

  return (
    <section className="card sips-list__result" aria-label="Resultado de la lista" aria-busy={loading}>
      <div className="table-toolbar">
        <h2 className="table-title">Resultado</h2>
        <p className="sips-muted sips-list__summary" aria-live="polite">
          {query.data
            ? `${rows.length} CUPS: ${summary.ok} con datos, ${summary.invalido} no válido${summary.invalido === 1 ? '' : 's'}, ${summary.sin_datos} sin datos.`
            : 'Consultando…'}
        </p>
        <div className="table-toolbar__actions">
          <Button type="button" icon="pi pi-file-excel" label="Exportar a Excel" outlined size="small" loading={exporting} disabled={!query.data} onClick={() => void doExport()} />
        </div>
      </div>
      <DataTable
        value={rows}
        dataKey="Orden"
        loading={loading}
        paginator={rows.length > 25}
        rows={25}
        size="small"
        stripedRows
        scrollable
        removableSort
        tableStyle={{ minWidth: '48rem' }}
        emptyMessage={query.data ? 'Sin resultados.' : 'Consultando…'}
        rowClassName={(row: Row) => (row.Estado === 'ok' ? 'row-clickable' : `sips-row--${row.Estado}`)}
        onRowClick={(e) => {
          const row = e.data as Row
          if ((e.originalEvent.target as HTMLElement).closest('a,button')) return
          if (row.Estado === 'ok') onOpen(row.Normalizado)
        }}
        paginatorTemplate="FirstPageLink PrevPageLink PageLinks NextPageLink LastPageLink CurrentPageReport"
        currentPageReportTemplate="{first}–{last} de {totalRecords}"
        aria-label="CUPS consultados"
        data-table="sips-lista"
      >
        <Column field="Orden" header="#" sortable style={{ width: '3.5rem' }} />
        <Column field="Normalizado" header="CUPS" sortable body={cupsCell} />
        <Column field="Estado" header="Estado" sortable body={estadoCell} />
        <Column header="Distribuidora / motivo" body={motivoCell} className="sips-col-motivo" />
        <Column header="Tarifa" body={(r: Row) => r.Info?.Tarifa?.Codigo ?? '—'} />
        <Column header="Provincia" body={(r: Row) => r.Info?.Provincia ?? '—'} />
        <Column header="Potencia P1" align="right" body={(r: Row) => formatValue(r.Info?.PotenciasContratadasKw?.P1, 'power')} />
        <Column header="Consumo anual" align="right" body={(r: Row) => formatValue(r.Info?.ConsumoAnualKwh?.Total, 'energy')} />
      </DataTable>
    </section>
  )
}
