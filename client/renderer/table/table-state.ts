import type { Column, TableNode } from '../../../schemas/screen'
import type { QueryParams } from '../../api/client'
import { sortRows } from '../../ui/grid/sort-rows'
import { getPath } from '../template'

/** What a table shows: page (from 0), page size, sort, and one filter value per column (upstream syntax). */
export interface TableState {
  page: number
  size: number
  sort: { field: string; order: 'asc' | 'desc' } | null
  filters: Record<string, string>
}

/** Filters and sort the user keeps under a name (a server-side preference). */
export interface SavedFilter {
  name: string
  filters: TableState['filters']
  sort: TableState['sort']
}

/** How long a fetched page counts as fresh: a page prefetched on intent (screen-query.ts) is not fetched again on arrival. */
export const PAGE_FRESH_MS = 5_000

export const DEFAULT_PAGE_SIZE = 10
export const DEFAULT_PAGE_SIZES = [10, 25, 50, 100]

/** Page sizes above this are drawn with a virtual scroller (only the rows in view are in the DOM). */
export const VIRTUAL_FROM = 100

/** The page sizes a table offers: the screen's (or the default ones), then its virtual-scroll sizes. */
export function pageSizesOf(node: TableNode): number[] {
  return [...(node.pageSizes ?? DEFAULT_PAGE_SIZES), ...(node.virtualPageSizes ?? [])]
}

export function defaultState(node: TableNode): TableState {
  return { page: 0, size: node.pageSizes?.[0] ?? DEFAULT_PAGE_SIZE, sort: node.defaultSort ?? null, filters: {} }
}

/**
 * URL form (so back, reload and a shared link restore the view): `page` (from 1, for people),
 * `size`, `sort=<field>:<asc|desc>`, `f.<field>=<value>`; prefixed by `<prefix>.` when given.
 */
export function readState(search: URLSearchParams, prefix: string, node: TableNode): TableState {
  const key = (k: string) => (prefix ? `${prefix}.${k}` : k)
  const base = defaultState(node)
  const page = Number(search.get(key('page')))
  const size = Number(search.get(key('size')))
  const sizes = pageSizesOf(node)
  const sortRaw = search.get(key('sort'))
  let sort = base.sort
  if (sortRaw) {
    const [field, order] = sortRaw.split(':')
    if (field && node.columns.some((c) => c.field === field && c.sortable)) sort = { field, order: order === 'desc' ? 'desc' : 'asc' }
  }
  const filters: Record<string, string> = {}
  const fprefix = key('f.')
  for (const [k, v] of search) {
    if (!k.startsWith(fprefix) || !v) continue
    const field = k.slice(fprefix.length)
    if (node.columns.some((c) => c.field === field && c.filter)) filters[field] = v
  }
  return {
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    size: sizes.includes(size) ? size : base.size,
    sort,
    filters,
  }
}

export function writeState(search: URLSearchParams, prefix: string, node: TableNode, state: TableState): URLSearchParams {
  const key = (k: string) => (prefix ? `${prefix}.${k}` : k)
  const next = new URLSearchParams(search)
  for (const k of [...next.keys()]) if (k === key('page') || k === key('size') || k === key('sort') || k.startsWith(key('f.'))) next.delete(k)
  const base = defaultState(node)
  if (state.page > 0) next.set(key('page'), String(state.page + 1))
  if (state.size !== base.size) next.set(key('size'), String(state.size))
  if (state.sort && (state.sort.field !== base.sort?.field || state.sort.order !== base.sort?.order)) next.set(key('sort'), `${state.sort.field}:${state.sort.order}`)
  for (const [field, value] of Object.entries(state.filters)) if (value) next.set(key(`f.${field}`), value)
  return next
}

function columnOf(node: TableNode, field: string): Column | undefined {
  return node.columns.find((c) => c.field === field)
}

/** The paged call's parameters, exactly as spec §7 names them. */
export function pagedParams(node: TableNode, state: TableState): QueryParams {
  const filterColumns: string[] = []
  const filterQueries: string[] = []
  for (const [field, value] of Object.entries(state.filters)) {
    if (!value) continue
    const col = columnOf(node, field)
    filterColumns.push(col?.filter?.column ?? field)
    filterQueries.push(value)
  }
  const params: QueryParams = { pageIndex: state.page, pageSize: state.size }
  if (state.sort) {
    params.sortColumn = columnOf(node, state.sort.field)?.sortField ?? state.sort.field
    params.sortOrder = state.sort.order
  }
  if (filterColumns.length) {
    params.filterColumns = filterColumns
    params.filterQueries = filterQueries
  }
  return params
}

/** The export call: the same sort and filters, every row (`pageSize=-1`). */
export function exportParams(node: TableNode, state: TableState): QueryParams {
  return { ...pagedParams(node, state), pageIndex: 0, pageSize: -1 }
}

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()

/** Same filter semantics as the upstream, for tables whose endpoint returns every row. */
export function matchesFilter(value: unknown, query: string, type: string): boolean {
  if (type === 'text') return fold(String(value ?? '')).includes(fold(query))
  if (type === 'select' || type === 'multiselect') return query.split(',').includes(String(value))
  if (type === 'boolean') return (value === true || value === 1 || value === 'true') === (query === 'true')
  const [from, to] = query.includes('|') ? query.split('|') : [query, query]
  if (type === 'dateRange') {
    const d = String(value ?? '').slice(0, 10)
    return (!from || d >= from) && (!to || d <= to)
  }
  const n = Number(value)
  return (!from || n >= Number(from)) && (!to || n <= Number(to))
}

/** Filters, sorts and pages an array in the browser (for `paged: false` sources). */
export function localPage(node: TableNode, rows: Record<string, unknown>[], state: TableState): { rows: Record<string, unknown>[]; total: number } {
  let out = rows.filter((row) =>
    Object.entries(state.filters).every(([field, q]) => {
      const col = columnOf(node, field)
      return !q || !col?.filter || matchesFilter(getPath(row, field), q, col.filter.input)
    }),
  )
  if (state.sort) out = sortRows(out, { key: state.sort.field, order: state.sort.order }, getPath)
  return { rows: out.slice(state.page * state.size, (state.page + 1) * state.size), total: out.length }
}
