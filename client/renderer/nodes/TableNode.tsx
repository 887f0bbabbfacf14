import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Column as PrimeColumn } from 'primereact/column'
import { DataTable, type DataTableSelectionMultipleChangeEvent, type DataTableStateEvent } from 'primereact/datatable'
import { Dropdown } from 'primereact/dropdown'
import type { PaginatorRowsPerPageDropdownOptions } from 'primereact/paginator'
import { useMemo, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import type { TableNode } from '../../../schemas/screen'
import { api, saveFile } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { usePreference } from '../../api/preferences'
import { nodeKey } from '../../api/query-keys'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { useI18n, useMessages } from '../../i18n/i18n'
import { intlLocale, isNumericFormat } from '../../ui/format'
import { ActionButton } from '../actions/ActionButton'
import { useRenderContext } from '../context'
import { messages as rendererMessages } from '../messages'
import { useScreenTitle } from '../screen-title'
import { dataPath, fill, getPath, lookup, resolveParams } from '../template'
import { CellValue } from '../table/CellValue'
import { ColumnChooser } from '../table/ColumnChooser'
import { FilterBar } from '../table/FilterBar'
import { messages } from '../table/messages'
import { SavedFilters, type SavedFilter } from '../table/SavedFilters'
import { DEFAULT_PAGE_SIZES, defaultState, exportParams, localPage, pagedParams, readState, writeState, type TableState } from '../table/table-state'

/** Largest page the upstream serves; used to gather every row matching a filter for bulk actions. */
const MAX_PAGE = 500

interface TablePrefs {
  columns?: string[]
  filters?: SavedFilter[]
}

type Row = Record<string, unknown>

/** Table state in the URL (the screen's main table) or in memory. */
function useTableState(node: TableNode): [TableState, (s: TableState) => void] {
  const [search, setSearch] = useSearchParams()
  const [local, setLocal] = useState(() => defaultState(node))
  if (!node.urlState) return [local, setLocal]
  return [readState(search, '', node), (s) => setSearch(writeState(search, '', node, s), { replace: false })]
}

/** A server-paged (or local) table: columns, sort, filters, pager, export, row link, row and bulk actions, column choice and saved filters. */
export function TableNodeView({ node }: { node: TableNode }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const tr = useMessages(rendererMessages)
  const ctx = useRenderContext()
  const navigate = useNavigate()
  const [state, setState] = useTableState(node)
  const prefs = usePreference<TablePrefs>(`tabla:${ctx.screenId}:${node.id}`)
  const [chooser, setChooser] = useState(false)
  const [selection, setSelection] = useState<Row[]>([])
  const [allMatching, setAllMatching] = useState(false)
  const [exporting, setExporting] = useState(false)
  const fromData = node.source.fromData
  const paged = node.source.paged !== false && !fromData
  // The table's own title, else the screen's: the last-resort title of its toasts (the screen's errorArea, then the catalogue's area, come first).
  const title = useScreenTitle(node.title) || ctx.screenId
  // An untitled table is named by the screen's explicit area where it gives one, in the user's language.
  const tableName = node.title ? title : node.errorArea ? l(node.errorArea) : title

  const endpoint = node.source.endpoint ? `/${fill(node.source.endpoint, ctx, true)}` : ''
  const baseParams = resolveParams(node.source.params, ctx)
  const requestParams = paged ? { ...baseParams, ...pagedParams(node, state) } : baseParams
  const query = useQuery({
    queryKey: [...nodeKey(node.id), endpoint, requestParams],
    queryFn: () => api.get<unknown>(endpoint, { params: requestParams }),
    placeholderData: keepPreviousData,
    enabled: !!endpoint,
    meta: { errorArea: node.errorArea, errorMessage: node.errorMessage, fallbackArea: title, fallbackMessage: tr('data.loadError') },
  })
  // Rows inside the enclosing detail's data: no call of its own; refreshing the detail refreshes them.
  const dataRows = fromData ? lookup(ctx, dataPath(fromData)) : undefined
  const data = useMemo(() => (fromData ? { rows: dataRows } : query.data), [fromData, dataRows, query.data])
  const loading = useDelayedFlag(!fromData && query.isFetching)

  const { rows, total } = useMemo(() => {
    const raw = getPath(data, fromData ? 'rows' : (node.source.rowsPath ?? (paged ? 'Items' : ''))) as Row[] | undefined
    const list = Array.isArray(raw) ? raw : []
    if (!paged) return localPage(node, list, state)
    return { rows: list, total: Number(getPath(data, node.source.totalPath ?? 'TotalCount') ?? list.length) }
  }, [data, node, paged, fromData, state])

  const visibleFields = prefs.value?.columns?.filter((f) => node.columns.some((c) => c.field === f))
  const columns = visibleFields?.length ? visibleFields.map((f) => node.columns.find((c) => c.field === f)!) : node.columns.filter((c) => !c.hidden)

  const update = (next: Partial<TableState>) => {
    setSelection([])
    setAllMatching(false)
    setState({ ...state, ...next })
  }

  const onPage = (e: DataTableStateEvent) => update({ page: e.page ?? Math.floor(e.first / e.rows), size: e.rows })
  const onSort = (e: DataTableStateEvent) => {
    if (!e.sortField) return update({ sort: null, page: 0 })
    update({ sort: { field: e.sortField, order: e.sortOrder === -1 ? 'desc' : 'asc' }, page: 0 })
  }

  const doExport = async () => {
    if (!node.export) return
    setExporting(true)
    try {
      const file = await api.download(`/${fill(node.export.endpoint, ctx, true)}`, {
        params: { ...resolveParams(node.export.params, ctx), ...exportParams(node, state) },
        fallbackName: node.export.fileName ? l(node.export.fileName) : `${node.id}.xlsx`,
      })
      saveFile(file)
    } catch (err) {
      reportError(node.export.errorArea ?? node.errorArea, err, node.export.errorMessage, { area: title, message: t('export.error') })
    } finally {
      setExporting(false)
    }
  }

  /** Every row matching the current filter, page by page (for "all matching" bulk actions). */
  const gatherAll = async (): Promise<Row[]> => {
    if (!paged) return localPage(node, (getPath(data, fromData ? 'rows' : (node.source.rowsPath ?? '')) as Row[]) ?? [], { ...state, page: 0, size: Number.MAX_SAFE_INTEGER }).rows
    const out: Row[] = []
    for (let page = 0; ; page++) {
      const answer = await api.get<unknown>(endpoint, { params: { ...baseParams, ...pagedParams(node, { ...state, page, size: MAX_PAGE }) } })
      const items = (getPath(answer, node.source.rowsPath ?? 'Items') as Row[]) ?? []
      out.push(...items)
      if (items.length < MAX_PAGE) return out
    }
  }

  const rowLink = node.rowLink
  const firstField = columns[0]?.field
  const bodyFor = (col: (typeof columns)[number]) => (row: Row) =>
    rowLink && col.field === firstField ? (
      <Link to={fill(rowLink, { ...ctx, row }, true)} className="row-link">
        <CellValue column={col} row={row} />
      </Link>
    ) : (
      <CellValue column={col} row={row} />
    )

  const bulk = node.bulkActions ?? []
  const pageFullySelected = selection.length > 0 && selection.length === rows.length
  const selectedCount = allMatching ? total : selection.length
  // Multiple selection (checkboxes) only when the table has bulk actions.
  const selectionProps =
    bulk.length > 0
      ? {
          selectionMode: 'checkbox' as const,
          selection,
          onSelectionChange: (e: DataTableSelectionMultipleChangeEvent<Row[]>) => {
            setAllMatching(false)
            setSelection(e.value)
          },
        }
      : {}

  return (
    <section className="screen-table card" aria-label={tableName}>
      <div className="table-toolbar">
        {node.title && <h2 className="table-title">{l(node.title)}</h2>}
        <div className="table-toolbar__actions">
          {node.actions?.map((a) => <ActionButton key={a.id} action={a} ownerId={node.id} />)}
          {paged && (
            <SavedFilters
              saved={prefs.value?.filters ?? []}
              current={state}
              onApply={(f) => update({ filters: f.filters, sort: f.sort, page: 0 })}
              onSave={async (name) => {
                const rest = (prefs.value?.filters ?? []).filter((f) => f.name !== name)
                await prefs.save({ ...prefs.value, filters: [...rest, { name, filters: state.filters, sort: state.sort }] })
                notifySuccess(node.errorArea ? l(node.errorArea) : title, t('saved.done', { name }))
              }}
              onDelete={async (name) => prefs.save({ ...prefs.value, filters: (prefs.value?.filters ?? []).filter((f) => f.name !== name) })}
            />
          )}
          <Button type="button" icon="pi pi-table" label={t('toolbar.columns')} outlined size="small" onClick={() => setChooser(true)} />
          {node.export && <Button type="button" icon="pi pi-file-excel" label={t('toolbar.export')} outlined size="small" loading={exporting} onClick={() => void doExport()} />}
        </div>
      </div>
      <FilterBar tableId={node.id} columns={node.columns} shown={columns.map((c) => c.field)} filters={state.filters} onChange={(filters) => update({ filters, page: 0 })} />
      {bulk.length > 0 && selectedCount > 0 && (
        <div className="bulk-bar" role="region" aria-label={t('bulk.region')}>
          <span>
            {allMatching ? t('bulk.allMatching', { n: total.toLocaleString(intlLocale()) }) : t('bulk.selected', { n: selection.length })}
          </span>
          {pageFullySelected && !allMatching && total > rows.length && (
            <Button type="button" link size="small" label={t('bulk.selectAllMatching', { n: total.toLocaleString(intlLocale()) })} onClick={() => setAllMatching(true)} />
          )}
          <span className="bulk-bar__actions">
            {bulk.map((a) => (
              <ActionButton
                key={a.id}
                action={a}
                ownerId={node.id}
                extra={{ selected: selection }}
                prepare={async () => (allMatching ? { selected: await gatherAll() } : { selected: selection })}
              />
            ))}
          </span>
          <Button type="button" text size="small" label={t('bulk.clear')} onClick={() => (setSelection([]), setAllMatching(false))} />
        </div>
      )}
      <DataTable
        value={rows}
        dataKey={node.dataKey}
        lazy
        paginator
        first={state.page * state.size}
        rows={state.size}
        totalRecords={total}
        rowsPerPageOptions={node.pageSizes ?? DEFAULT_PAGE_SIZES}
        onPage={onPage}
        sortField={state.sort?.field}
        sortOrder={state.sort ? (state.sort.order === 'desc' ? -1 : 1) : 0}
        onSort={onSort}
        removableSort
        loading={loading}
        emptyMessage={node.emptyMessage ? l(node.emptyMessage) : t('table.empty')}
        paginatorTemplate={{
          layout: 'RowsPerPageDropdown FirstPageLink PrevPageLink PageLinks NextPageLink LastPageLink CurrentPageReport',
          // PrimeReact 10.9 names this dropdown from a copy of its English texts bundled into the paginator, whatever the locale.
          RowsPerPageDropdown: (o: PaginatorRowsPerPageDropdownOptions) => (
            // `aria-label` names the field, `ariaLabel` its open button.
            <Dropdown value={o.value} options={o.options} onChange={o.onChange} appendTo={o.appendTo} disabled={o.disabled} aria-label={t('pager.rowsPerPage')} ariaLabel={t('pager.rowsPerPage')} />
          ),
        }}
        currentPageReportTemplate={t('pager.report')}
        {...selectionProps}
        onRowClick={
          rowLink
            ? (e) => {
                const target = e.originalEvent.target as HTMLElement
                if (target.closest('a,button,input,.p-checkbox')) return
                navigate(fill(rowLink, { ...ctx, row: e.data as Row }, true))
              }
            : undefined
        }
        rowClassName={() => (rowLink ? 'row-clickable' : '')}
        stripedRows
        size="small"
        scrollable
        tableStyle={{ minWidth: '40rem' }}
        aria-label={tableName}
        data-table={node.id}
      >
        {bulk.length > 0 && (
          // The header checkbox's own name comes from English texts bundled into the table (PrimeReact 10.9): named here.
          <PrimeColumn selectionMode="multiple" headerStyle={{ width: '3rem' }} pt={{ headerCheckbox: { input: { 'aria-label': t('table.selectPage') } } }} />
        )}
        {columns.map((col) => (
          <PrimeColumn
            key={col.field}
            field={col.field}
            header={l(col.header)}
            sortable={!!col.sortable}
            body={bodyFor(col)}
            style={col.width ? { width: col.width } : undefined}
            align={col.align ?? (isNumericFormat(col.format) ? 'right' : undefined)}
          />
        ))}
        {node.rowActions && node.rowActions.length > 0 && (
          <PrimeColumn
            header={t('table.actions')}
            headerClassName="actions-header"
            body={(row: Row) => (
              <span className="row-actions">
                {node.rowActions!.map((a) => (
                  <ActionButton key={a.id} action={a} extra={{ row }} ownerId={node.id} compact />
                ))}
              </span>
            )}
            style={{ width: `${Math.max(5, node.rowActions.length * 3)}rem` }}
          />
        )}
      </DataTable>
      {chooser && (
        <ColumnChooser
          columns={node.columns}
          visible={columns.map((c) => c.field)}
          onClose={() => setChooser(false)}
          onReset={() => {
            void prefs.save({ ...prefs.value, columns: undefined }).then(() => setChooser(false))
          }}
          onSave={(fields) => {
            void prefs.save({ ...prefs.value, columns: fields }).then(() => setChooser(false))
          }}
        />
      )}
    </section>
  )
}
