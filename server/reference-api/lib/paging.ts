import type Database from 'better-sqlite3'
import { fail } from './http'

/**
 * Paged, sorted and filtered lists (spec §7): `pageIndex` (from 0), `pageSize` (default 10,
 * -1 = all, for exports), `sortColumn`, `sortOrder`, and `filterColumns[i]` / `filterQueries[i]`
 * as indexed query parameters. Columns are whitelisted per list: an unknown one is a 400 with
 * a clear message and never reaches SQL.
 */

export type ColumnType = 'text' | 'number' | 'date' | 'enum' | 'boolean'

export interface ColumnSpec {
  /** SQL expression the column maps to (never built from input). */
  sql: string
  type: ColumnType
  /** Whether the list may be sorted by it (default true). */
  sortable?: boolean
  /** Whether the list may be filtered by it (default true). */
  filterable?: boolean
}

export type ColumnMap = Record<string, ColumnSpec>

export interface Filter {
  column: string
  query: string
}

export interface PageRequest {
  pageIndex: number
  /** -1 means every row. */
  pageSize: number
  sortColumn: string | undefined
  sortOrder: 'asc' | 'desc'
  filters: Filter[]
}

export interface Page<T> {
  Items: T[]
  TotalCount: number
  PageIndex: number
  PageSize: number
}

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 500

/** Reads `name[0]`, `name[1]`… (or a repeated `name`) from a parsed query string. */
export function indexedArray(query: Record<string, unknown>, name: string): string[] {
  const direct = query[name]
  if (Array.isArray(direct)) return direct.map(String)
  const out: string[] = []
  for (const [key, value] of Object.entries(query)) {
    const m = new RegExp(`^${name}\\[(\\d+)\\]$`).exec(key)
    if (m) out[Number(m[1])] = Array.isArray(value) ? String(value[0]) : String(value)
  }
  if (out.length === 0 && typeof direct === 'string') return [direct]
  return out.filter((v) => v !== undefined)
}

function intParam(query: Record<string, unknown>, name: string, fallback: number): number {
  const raw = query[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n)) fail(400, `El parámetro ${name} debe ser un número entero.`)
  return n
}

export function parsePageRequest(query: Record<string, unknown>, columns: ColumnMap, opts: { allowAll?: boolean } = {}): PageRequest {
  const pageIndex = intParam(query, 'pageIndex', 0)
  const pageSize = intParam(query, 'pageSize', DEFAULT_PAGE_SIZE)
  if (pageIndex < 0) fail(400, 'pageIndex no puede ser negativo.')
  if (pageSize === -1 ? !opts.allowAll : pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    fail(400, opts.allowAll ? `pageSize debe estar entre 1 y ${MAX_PAGE_SIZE}, o ser -1.` : `pageSize debe estar entre 1 y ${MAX_PAGE_SIZE}.`)
  }
  const sortColumn = query.sortColumn ? String(query.sortColumn) : undefined
  if (sortColumn !== undefined) {
    const spec = columns[sortColumn]
    if (!spec || spec.sortable === false) fail(400, `No se puede ordenar por la columna «${sortColumn}».`)
  }
  const rawOrder = String(query.sortOrder ?? 'asc').toLowerCase()
  const sortOrder = rawOrder === 'desc' || rawOrder === '-1' || rawOrder === 'descending' ? 'desc' : rawOrder === 'asc' || rawOrder === '1' || rawOrder === 'ascending' ? 'asc' : fail(400, 'sortOrder debe ser asc o desc.')
  const filterColumns = indexedArray(query, 'filterColumns')
  const filterQueries = indexedArray(query, 'filterQueries')
  if (filterColumns.length !== filterQueries.length) fail(400, 'filterColumns y filterQueries deben tener el mismo número de elementos.')
  const filters: Filter[] = []
  filterColumns.forEach((column, i) => {
    const spec = columns[column]
    if (!spec || spec.filterable === false) fail(400, `No se puede filtrar por la columna «${column}».`)
    const q = (filterQueries[i] ?? '').trim()
    if (q !== '') filters.push({ column, query: q })
  })
  return { pageIndex, pageSize, sortColumn, sortOrder, filters }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** WHERE fragments for the filters; values travel as parameters only. */
export function filterSql(columns: ColumnMap, filters: Filter[]): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  for (const { column, query } of filters) {
    const spec = columns[column]!
    switch (spec.type) {
      case 'text':
        clauses.push(`unaccent(${spec.sql}) LIKE '%' || unaccent(?) || '%' ESCAPE '\\'`)
        params.push(query.replace(/[\\%_]/g, (c) => `\\${c}`))
        break
      case 'enum': {
        const values = query.split(',').map((v) => v.trim()).filter(Boolean)
        clauses.push(`${spec.sql} IN (${values.map(() => '?').join(', ')})`)
        params.push(...values)
        break
      }
      case 'boolean': {
        const v = query.toLowerCase()
        if (!['true', 'false', '1', '0', 'si', 'sí', 'no'].includes(v)) fail(400, `El filtro de «${column}» debe ser true o false.`)
        clauses.push(`${spec.sql} = ?`)
        params.push(['true', '1', 'si', 'sí'].includes(v) ? 1 : 0)
        break
      }
      case 'date':
      case 'number': {
        const [from, to] = query.includes('|') ? query.split('|') : [query, query]
        const check = (v: string) => {
          if (spec.type === 'date' ? !DATE.test(v) : !Number.isFinite(Number(v))) {
            fail(400, spec.type === 'date' ? `El filtro de «${column}» debe ser una fecha AAAA-MM-DD o un rango desde|hasta.` : `El filtro de «${column}» debe ser un número o un rango min|max.`)
          }
          return spec.type === 'date' ? v : Number(v)
        }
        if (from) {
          clauses.push(spec.type === 'date' ? `date(${spec.sql}) >= ?` : `${spec.sql} >= ?`)
          params.push(check(from))
        }
        if (to) {
          clauses.push(spec.type === 'date' ? `date(${spec.sql}) <= ?` : `${spec.sql} <= ?`)
          params.push(check(to))
        }
        break
      }
    }
  }
  return { clauses, params }
}

export interface ListQuery {
  /** `SELECT <fields> FROM … [JOIN …]` without WHERE. */
  select: string
  /** `FROM … [JOIN …]` for the count (usually the same tables). */
  from: string
  /** Conditions every row must meet (brand scope, parent id…). */
  where?: string[]
  whereParams?: unknown[]
  columns: ColumnMap
  /** ORDER BY when the request names no column, and the tie-breaker after it. */
  defaultOrder: string
}

function compose(list: ListQuery, request: PageRequest) {
  const { clauses, params } = filterSql(list.columns, request.filters)
  const all = [...(list.where ?? []), ...clauses]
  const where = all.length ? ` WHERE ${all.map((c) => `(${c})`).join(' AND ')}` : ''
  const sortSpec = request.sortColumn ? list.columns[request.sortColumn]! : undefined
  // Text sorts on the accent-free, lower-case form: «Álvaro» sits with the A, not after «Zoe».
  const sortExpr = sortSpec ? (sortSpec.type === 'text' ? `unaccent(${sortSpec.sql})` : sortSpec.sql) : ''
  const order = sortSpec ? ` ORDER BY ${sortExpr} ${request.sortOrder === 'desc' ? 'DESC' : 'ASC'}, ${list.defaultOrder}` : ` ORDER BY ${list.defaultOrder}`
  return { where, order, params: [...(list.whereParams ?? []), ...params] }
}

/** One page of a list plus the total matching the filters. */
export function pagedList<T>(db: Database.Database, list: ListQuery, request: PageRequest): Page<T> {
  const { where, order, params } = compose(list, request)
  const total = (db.prepare(`SELECT COUNT(*) AS n ${list.from}${where}`).get(...params) as { n: number }).n
  const limit = request.pageSize === -1 ? '' : ` LIMIT ${request.pageSize} OFFSET ${request.pageIndex * request.pageSize}`
  const items = db.prepare(`${list.select}${where}${order}${limit}`).all(...params) as T[]
  return { Items: items, TotalCount: total, PageIndex: request.pageIndex, PageSize: request.pageSize }
}

/** Every row matching the filters, in order, without holding them all in memory (exports). */
export function iterateList<T>(db: Database.Database, list: ListQuery, request: PageRequest): IterableIterator<T> {
  const { where, order, params } = compose(list, request)
  return db.prepare(`${list.select}${where}${order}`).iterate(...params) as IterableIterator<T>
}

/** Registers `unaccent()` so text filters match «Jose» to «José» and «nunez» to «Núñez». */
export function registerSqlFunctions(db: Database.Database): void {
  db.function('unaccent', { deterministic: true }, (value: unknown) =>
    value === null || value === undefined ? null : String(value).normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase(),
  )
}
