import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { PERSONAL_DATA_PERMISSION } from '../../../schemas/personal-data'
import type { Column, TableNode } from '../../../schemas/screen'
import { api, saveFile } from '../../api/client'
import { reportError, useFailureText } from '../../api/errors'
import { hasPermission, useLoadedManifest } from '../../api/manifest'
import { usePreference } from '../../api/preferences'
import { nodeKey } from '../../api/query-keys'
import { useDelayedFlag } from '../../api/use-delayed-flag'
import { useI18n, useMessages } from '../../i18n/i18n'
import { useRenderContext } from '../context'
import { messages as rendererMessages } from '../messages'
import { useScreenTitle } from '../screen-title'
import { dataPath, fill, getPath, lookup, resolveParams } from '../template'
import { messages } from './messages'
import { fetchChunked, UPSTREAM_MAX_PAGE as MAX_PAGE } from './chunked-page'
import { EXPORT_REASON_HEADER, exportColumnParams, isPagedExport, usePagedExport } from './paged-export'
import { defaultState, exportParams, PAGE_FRESH_MS, localPage, pagedParams, readState, writeState, type TableState } from './table-state'
import { parseTablePrefs, type TablePrefs } from './table-prefs'
import { totalsOf } from './totals'
import { useTableViews, type TableViews } from './use-table-views'

export type Row = Record<string, unknown>
export type TableSort = TableState['sort']

/** Everything a table view draws and every change it can ask for; no markup, no UI kit. */
export interface TableController {
  /** Page (from 0), page size, sort and filters: in the URL for the screen's main table, else in memory. */
  state: TableState
  /** Server-paged (false: the browser filters, sorts and pages every row it got). */
  paged: boolean
  rows: Row[]
  total: number
  /** The answer's `Totales` (sums over the whole filtered set), null when it has none. */
  totals: Record<string, number> | null
  /** The data is being fetched (delayed, so a quick answer never flashes a spinner). */
  loading: boolean
  /** The first answer is on its way: nothing (not even stale rows) to show yet. */
  pending: boolean
  /** The last fetch failed (the failure was already reported as a toast). */
  failed: boolean
  /** What failed, in the screen's or the catalogue's words (null while nothing failed). */
  failure: string | null
  /** Asks again for what failed. */
  retry(): void
  /** Some filter narrows the rows: an empty answer means "nothing matches". */
  filtered: boolean
  clearFilters(): void
  /** The table's title, else the screen's: the last-resort title of its toasts. */
  title: string
  /** The columns shown: the user's choice where they made one, else the ones not hidden. */
  columns: Column[]
  setPage(page: number, size: number): void
  setSort(sort: TableSort): void
  setFilters(filters: Record<string, string>): void
  /** The link a row leads to, where the table has one. */
  rowHref(row: Row): string | undefined
  /** Rows checked on this page. */
  selection: Row[]
  select(rows: Row[]): void
  /** Every row matching the filter is selected, beyond this page. */
  allMatching: boolean
  selectAllMatching(): void
  clearSelection(): void
  /** How many rows the bulk actions act on. */
  selectedCount: number
  /** The whole page is checked and more rows match: offering "select all matching" makes sense. */
  canSelectAllMatching: boolean
  /** The rows a bulk action acts on: the checked ones, or every matching row, page by page. */
  selectedRows(): Promise<Row[]>
  exporting: boolean
  /**
   * Downloads the export with the table's sort and filters (and, when the BFF builds it, the
   * columns shown); with a reason, clear personal data (VERDATOSPERSONALES). A failure is
   * reported, never thrown.
   */
  exportFile(opts?: { reason?: string }): Promise<void>
  /** The export is built by the BFF from the list's pages, so it can be asked for with personal data clear. */
  clearExport: boolean
  /** The views menu: views kept by the BFF (private, a group's, the brand's), applied to this table. */
  views: TableViews
  /** Saves the user's column choice; undefined goes back to the screen's default. */
  saveColumns(fields: string[] | undefined): Promise<void>
}

/**
 * Table state in the URL (the screen's main table) or in memory. A change is laid over the
 * latest state, not over the one this render saw: the router renders a new URL later (in a
 * transition), so two changes in a row (a filter that settles, then a click on a sort header)
 * would otherwise each start from the same old URL, and the second would undo the first.
 */
function useTableState(node: TableNode): [TableState, (change: Partial<TableState>) => void] {
  const [search, setSearch] = useSearchParams()
  const [local, setLocal] = useState(() => defaultState(node))
  // The URL last written, and the one it was written over: until the router renders it, it is the latest.
  const written = useRef<{ over: URLSearchParams; to: URLSearchParams } | null>(null)
  if (!node.urlState) return [local, (change) => setLocal((prev) => ({ ...prev, ...change }))]
  return [
    readState(search, '', node),
    (change) => {
      const latest = written.current?.over === search ? written.current.to : search
      const to = writeState(latest, '', node, { ...readState(latest, '', node), ...change })
      // Nothing changes: no history entry of the same view.
      if (to.toString() === latest.toString()) return
      written.current = { over: search, to }
      setSearch(to, { replace: false })
    },
  ]
}

/**
 * The headless logic of a table node: URL state, the data query, paging, sorting, filters,
 * views (use-table-views.ts), column choice (a user preference), selection for bulk actions and export.
 */
export function useTableController(node: TableNode): TableController {
  const { l } = useI18n()
  const t = useMessages(messages)
  const tr = useMessages(rendererMessages)
  const ctx = useRenderContext()
  const manifest = useLoadedManifest()
  const [state, setState] = useTableState(node)
  const prefs = usePreference<TablePrefs>(`tabla:${ctx.screenId}:${node.id}`)
  // Validated where it is read: a preference of another version's shape is taken for what it holds.
  const stored = useMemo(() => parseTablePrefs(prefs.value), [prefs.value])
  const [selection, setSelection] = useState<Row[]>([])
  const [allMatching, setAllMatching] = useState(false)
  const [exporting, setExporting] = useState(false)
  // The columns of the view last applied, until the user picks columns themselves.
  const [viewColumns, setViewColumns] = useState<string[] | null>(null)
  const fromData = node.source.fromData
  const paged = node.source.paged !== false && !fromData
  const title = useScreenTitle(node.title) || ctx.screenId

  const endpoint = node.source.endpoint ? `/${fill(node.source.endpoint, ctx, true)}` : ''
  const baseParams = resolveParams(node.source.params, ctx)
  const requestParams = paged ? { ...baseParams, ...pagedParams(node, state) } : baseParams
  const query = useQuery({
    queryKey: [...nodeKey(node.id), endpoint, requestParams],
    // A page above what the upstream serves (virtual-scroll sizes) is fetched as several.
    queryFn: () =>
      paged && state.size > MAX_PAGE
        ? fetchChunked((params) => api.get<unknown>(endpoint, { params }), requestParams, state.page, state.size, node.source.rowsPath)
        : api.get<unknown>(endpoint, { params: requestParams }),
    placeholderData: keepPreviousData,
    // A page prefetched on intent (screen-query.ts) is used, not fetched again, when the click follows.
    staleTime: PAGE_FRESH_MS,
    enabled: !!endpoint,
    meta: { errorArea: node.errorArea, errorMessage: node.errorMessage, fallbackArea: title, fallbackMessage: tr('data.loadError') },
  })
  // Rows inside the enclosing detail's data: no call of its own; refreshing the detail refreshes them.
  const dataRows = fromData ? lookup(ctx, dataPath(fromData)) : undefined
  const data = useMemo(() => (fromData ? { rows: dataRows } : query.data), [fromData, dataRows, query.data])
  const loading = useDelayedFlag(!fromData && query.isFetching)
  const failure = useFailureText(fromData ? null : query.error, node.errorMessage, tr('data.loadError'))

  const { rows, total } = useMemo(() => {
    const raw = getPath(data, fromData ? 'rows' : (node.source.rowsPath ?? (paged ? 'Items' : ''))) as Row[] | undefined
    const list = Array.isArray(raw) ? raw : []
    if (!paged) return localPage(node, list, state)
    return { rows: list, total: Number(getPath(data, node.source.totalPath ?? 'TotalCount') ?? list.length) }
  }, [data, node, paged, fromData, state])

  const totals = useMemo(() => (paged ? totalsOf(data) : null), [paged, data])

  const visibleFields = (viewColumns ?? stored.columns)?.filter((f) => node.columns.some((c) => c.field === f))
  const columns = visibleFields?.length ? visibleFields.map((f) => node.columns.find((c) => c.field === f)!) : node.columns.filter((c) => !c.hidden)

  // Any change of what the table shows drops the selection: it named rows of another view.
  const update = (next: Partial<TableState>) => {
    setSelection([])
    setAllMatching(false)
    setState(next)
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

  const exportPath = node.export ? `/${fill(node.export.endpoint, ctx, true)}` : null
  const clearExport = usePagedExport(exportPath, hasPermission(manifest, PERSONAL_DATA_PERMISSION))

  const exportFile = async (opts: { reason?: string } = {}) => {
    if (!node.export || !exportPath) return
    setExporting(true)
    try {
      const columnParams = (await isPagedExport(exportPath)) ? exportColumnParams(columns, (c) => l(c.header)) : {}
      const file = await api.download(exportPath, {
        params: { ...resolveParams(node.export.params, ctx), ...exportParams(node, state), ...columnParams },
        headers: opts.reason ? { [EXPORT_REASON_HEADER]: encodeURIComponent(opts.reason) } : undefined,
        fallbackName: node.export.fileName ? l(node.export.fileName) : `${node.id}.xlsx`,
      })
      saveFile(file)
    } catch (err) {
      reportError(node.export.errorArea ?? node.errorArea, err, node.export.errorMessage, { area: title, message: t('export.error') })
    } finally {
      setExporting(false)
    }
  }

  const pageFullySelected = selection.length > 0 && selection.length === rows.length
  const views = useTableViews(node, ctx.screenId, { state, columns: columns.map((c) => c.field), title }, (fitted) => {
    update({ filters: fitted.filters, sort: fitted.sort, page: 0 })
    setViewColumns(fitted.columns ?? null)
  })

  return {
    state,
    paged,
    rows,
    total,
    totals,
    loading,
    // isLoading: pending and fetching (a table with no endpoint yet is not loading, it is empty).
    pending: !fromData && query.isLoading,
    failed: !fromData && query.isError,
    failure,
    retry: () => void query.refetch(),
    filtered: Object.values(state.filters).some(Boolean),
    clearFilters: () => update({ filters: {}, page: 0 }),
    title,
    columns,
    setPage: (page, size) => update({ page, size }),
    setSort: (sort) => update({ sort, page: 0 }),
    setFilters: (filters) => update({ filters, page: 0 }),
    rowHref: (row) => (node.rowLink ? fill(node.rowLink, { ...ctx, row }, true) : undefined),
    selection,
    select: (picked) => {
      setAllMatching(false)
      setSelection(picked)
    },
    allMatching,
    selectAllMatching: () => setAllMatching(true),
    clearSelection: () => {
      setSelection([])
      setAllMatching(false)
    },
    selectedCount: allMatching ? total : selection.length,
    canSelectAllMatching: pageFullySelected && !allMatching && total > rows.length,
    selectedRows: async () => (allMatching ? gatherAll() : selection),
    exporting,
    exportFile,
    clearExport,
    views,
    saveColumns: async (fields) => {
      setViewColumns(null)
      await prefs.save({ ...stored, columns: fields })
    },
  }
}
