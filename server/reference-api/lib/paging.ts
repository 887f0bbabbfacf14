import type Database from 'better-sqlite3'
import { fail } from './http'
import { keyedPage, type KeyedTables } from './keyed-page'
import { listTotals } from './list-totals'
import { foldText, openReader } from './sql-functions'
import type { Paged } from '../../../schemas/business/paged'

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
  /**
   * Text of ASCII codes stored in one case (contract codes, NIF, CUPS, postcodes): sorted and
   * matched as stored, without folding accents per row, so an index on `sql` serves it
   * (`LIKE` already ignores ASCII case).
   */
  code?: boolean
  /**
   * For a `code` column stored upper case: a query this pattern matches (tested upper-cased) can
   * only occur at the start of a value, by the code's fixed shape (two letters and a dash start
   * a contract code and appear nowhere else in it), so «contains» is «starts with»: a range
   * over `sql` that its index serves, instead of testing every row (the palette types codes).
   */
  anchored?: RegExp
  /**
   * A name looked up by a key (`sql` is then a CASE over `key`): a catalog's, or the brand's
   * agents'. Filters become `key IN (…)` and sorts go by the names' rank, so neither computes a
   * name per row nor needs the key's table.
   */
  catalog?: Catalog
}

export interface Catalog {
  /** SQL of the key column. */
  key: string
  /** `[key, name]` pairs. */
  entries: readonly (readonly [string | number, string])[]
  /**
   * The index on the key's table holding the names' rank (db/catalog-indexes.ts): a page sorted
   * by the name walks it by name, as SQLite, blind to what LIMIT saves, prefers a narrower index
   * and a sort of every row.
   */
  index?: string
}

const sqlLiteral = (v: string | number) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`)

/**
 * `(CASE key WHEN k THEN n … END)`: each key's position when the names are sorted as the list
 * sorts the column (text: accent- and case-blind; equal names share a position).
 */
export function catalogRankSql(key: string, entries: Catalog['entries'], type: ColumnType): string {
  if (entries.length === 0) return 'NULL'
  const sortText = (name: string) => (type === 'text' ? foldText(name) : name)
  const names = [...new Set(entries.map(([, name]) => sortText(name)))].sort()
  const rank = new Map(names.map((name, i) => [name, i]))
  return `(CASE ${key} ${entries.map(([k, name]) => `WHEN ${sqlLiteral(k)} THEN ${rank.get(sortText(name))}`).join(' ')} ELSE NULL END)`
}

/** `key IN (…)` of the catalog entries whose name passes. */
function catalogIn(catalog: Catalog, keep: (name: string) => boolean): { clause: string; params: unknown[] } {
  const keys = catalog.entries.filter(([, name]) => keep(name)).map(([k]) => k)
  return { clause: `${catalog.key} IN (${keys.map(() => '?').join(', ')})`, params: keys }
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
        if (spec.catalog) {
          const needle = foldText(query)
          const { clause, params: keys } = catalogIn(spec.catalog, (name) => foldText(name).includes(needle))
          clauses.push(clause)
          params.push(...keys)
          break
        }
        // The query as LIKE compares it (folded like `unaccent(?)`, ASCII case ignored), when plain ASCII.
        const upper = spec.anchored ? foldText(query).toUpperCase() : ''
        if (spec.code && spec.anchored?.test(upper) && /^[\x20-\x7e]*$/.test(upper)) {
          // Every value that starts with the query, and only those: its upper bound sorts after any continuation.
          clauses.push(`${spec.sql} >= ? AND ${spec.sql} < ?`)
          params.push(upper, `${upper}\uffff`)
          break
        }
        clauses.push(`${spec.code ? spec.sql : `unaccent(${spec.sql})`} LIKE '%' || unaccent(?) || '%' ESCAPE '\\'`)
        params.push(query.replace(/[\\%_]/g, (c) => `\\${c}`))
        break
      case 'enum': {
        const values = query.split(',').map((v) => v.trim()).filter(Boolean)
        if (spec.catalog) {
          const { clause, params: keys } = catalogIn(spec.catalog, (name) => values.includes(name))
          clauses.push(clause)
          params.push(...keys)
          break
        }
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
        // Dates and ISO timestamps compare as text, so an index on the column serves the range:
        // a value of day D is ≥ 'D' and < 'D~' ('~' sorts after the 'T' of a timestamp).
        if (from) {
          clauses.push(`${spec.sql} >= ?`)
          params.push(check(from))
        }
        if (to) {
          clauses.push(spec.type === 'date' ? `${spec.sql} < ?` : `${spec.sql} <= ?`)
          params.push(spec.type === 'date' ? `${check(to)}~` : check(to))
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
  /**
   * For large lists: the list's own table and its joins (lib/keyed-page.ts). Pages then count
   * and find their keys with only the joins the filters and sort need, and read whole rows for
   * the page's keys alone.
   */
  keyed?: KeyedTables
  /**
   * Fields of `columns` whose totals over every matching row the page adds as `Totales` (the
   * catalogue's `summable`, lib/summable-of-call.ts): summed by the count's own query.
   */
  summable?: readonly string[]
}

/** A list request as SQL: the conditions (scope first, then filters), their parameters and the ORDER BY terms. */
export interface ComposedList {
  where: string
  conditions: string[]
  params: unknown[]
  /** How many of `conditions` and `params` are the list's own scope (the rest are filters). */
  scopeConditions: number
  scopeParams: number
  /** The sort column's expression ('' for the default order). */
  sortExpr: string
  /** The index a walk in sort order must use, if the column names one. */
  sortIndex: string | undefined
  /** `ORDER BY` terms, without the keywords. */
  orderBy: string
}

function compose(list: ListQuery, request: PageRequest): ComposedList {
  const { clauses, params } = filterSql(list.columns, request.filters)
  const conditions = [...(list.where ?? []), ...clauses]
  const where = conditions.length ? ` WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}` : ''
  const sortSpec = request.sortColumn ? list.columns[request.sortColumn]! : undefined
  // Text sorts on the accent-free, lower-case form: «Álvaro» sits with the A, not after «Zoe».
  const sortExpr = !sortSpec
    ? ''
    : sortSpec.catalog
      ? catalogRankSql(sortSpec.catalog.key, sortSpec.catalog.entries, sortSpec.type)
      : sortSpec.type === 'text' && !sortSpec.code
        ? `unaccent(${sortSpec.sql})`
        : sortSpec.sql
  const orderBy = sortSpec ? `${sortExpr} ${request.sortOrder === 'desc' ? 'DESC' : 'ASC'}, ${list.defaultOrder}` : list.defaultOrder
  const scope = list.whereParams ?? []
  const sortIndex = sortSpec?.catalog?.index
  return { where, conditions, params: [...scope, ...params], scopeConditions: list.where?.length ?? 0, scopeParams: scope.length, sortExpr, sortIndex, orderBy }
}

/** One page of a list plus the total matching the filters (and, for `summable` fields, their totals). */
export function pagedList<T>(db: Database.Database, list: ListQuery, request: PageRequest): Paged<T> {
  const composed = compose(list, request)
  const summable = request.pageSize === -1 ? [] : (list.summable ?? [])
  const sumExprs = summable.map((field) => {
    const spec = list.columns[field]
    if (!spec || spec.type !== 'number') throw new Error(`La columna sumable «${field}» no es una columna numérica de la lista.`)
    return spec.sql
  })
  const page = { PageIndex: request.pageIndex, PageSize: request.pageSize }
  if (list.keyed && request.pageSize !== -1) {
    const { items, total, sums } = keyedPage<T>(db, list.select, list.keyed, composed, { offset: request.pageIndex * request.pageSize, limit: request.pageSize }, sumExprs)
    return { Items: items, TotalCount: total, ...page, ...totalsOf(summable, sums) }
  }
  const { where, params } = composed
  const order = ` ORDER BY ${composed.orderBy}`
  // The count and the sums in one pass over the matching rows.
  const [total, ...sums] = listTotals(db, `SELECT ${['COUNT(*)', ...sumExprs.map(totalSql)].join(', ')} ${list.from}${where}`, params)
  const limit = request.pageSize === -1 ? '' : ` LIMIT ${request.pageSize} OFFSET ${request.pageIndex * request.pageSize}`
  const items = db.prepare(`${list.select}${where}${order}${limit}`).all(...params) as T[]
  return { Items: items, TotalCount: total!, ...page, ...totalsOf(summable, sums) }
}

/** SQLite's TOTAL: 0.0 over no rows (SUM would be NULL). */
const totalSql = (expr: string) => `TOTAL(${expr})`

/** `{ Totales }` of the summed fields, to two decimals (cents, hundredths of a kWh); nothing when none are summed. */
function totalsOf(fields: readonly string[], sums: readonly number[]): { Totales?: Record<string, number> } {
  if (fields.length === 0) return {}
  return { Totales: Object.fromEntries(fields.map((field, i) => [field, Math.round((sums[i] ?? 0) * 100) / 100])) }
}

/**
 * Every row matching the filters, in order, without holding them all in memory (exports). The
 * rows come from a reader connection of their own (opened at the first row, closed at the last
 * or when the consumer stops), so writes go on while a slow download streams.
 */
export function iterateList<T>(db: Database.Database, list: ListQuery, request: PageRequest): Generator<T, void, undefined> {
  // Composed now, so a bad filter is a 400 before the file starts.
  const { where, orderBy, params } = compose(list, request)
  const sql = `${list.select}${where} ORDER BY ${orderBy}`
  return (function* () {
    const { reader, close } = openReader(db)
    try {
      yield* reader.prepare(sql).iterate(...params) as IterableIterator<T>
    } finally {
      close()
    }
  })()
}
