import { HttpError } from '../lib/errors'
import { nextDay, spainDayStart } from '../lib/spain-time'
import type { AuditFilter } from './audit-log'

/** A page of the audit, at most; the answer without `pageSize` is the newest 200 (the menu manager's trail). */
export const MAX_PAGE_SIZE = 500
const DEFAULT_PAGE_SIZE = 200
const MAX_TEXT = 200

/** The filters a table sends as `filterColumns[i]`/`filterQueries[i]` (spec §7), by column; `at` takes `desde|hasta`. */
const FILTER_COLUMNS = ['user', 'record', 'call', 'at']
const TEXT_PARAMS = ['user', 'record', 'call', 'desde', 'hasta', 'antesDe', 'brand']

export interface AuditRequest {
  filter: AuditFilter
  /** The menu trail of a brand (`?brand=`, the menu manager's): the caller checks the brand exists. */
  brand?: string
  pageIndex: number
  /** -1: every entry (exports only). */
  pageSize: number
}

/** A query the audit does not take: a Spanish 400. */
export class AuditQueryError extends HttpError {
  constructor(message: string) {
    super(400, message)
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
/** An entry's id: a Redis stream id (`1732870000000-3`) or a SQLite row id. */
const ENTRY_ID = /^\d{1,15}(-\d{1,10})?$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * The audit's query string, checked: `user`, `record` (an id, or `entity:id`), `call` (any part
 * of it), `desde`/`hasta` (a day in Spain, both included, or an ISO instant), `antesDe` (older
 * than an entry, to go on after a partial answer), paging, and the
 * table's spec §7 filters for the same. Anything else, or a value that does not fit, is refused
 * with a Spanish message (AuditQueryError).
 */
export function parseAuditQuery(query: Record<string, unknown>, opts: { exportAll?: boolean } = {}): AuditRequest {
  const text: Record<string, string> = {}
  const columns: string[] = []
  const queries: string[] = []
  let pageIndex: string | undefined
  let pageSize: string | undefined
  for (const [key, raw] of Object.entries(query)) {
    const value = single(key, raw)
    const indexed = /^(filterColumns|filterQueries)(?:\[(\d{1,2})\])?$/.exec(key)
    if (indexed) {
      const list = indexed[1] === 'filterColumns' ? columns : queries
      list[indexed[2] === undefined ? list.length : Number(indexed[2])] = value
    } else if (key === 'pageIndex') pageIndex = value
    else if (key === 'pageSize') pageSize = value
    else if (TEXT_PARAMS.includes(key)) text[key] = value
    else if (key === 'sortColumn' || key === 'sortOrder') throw new AuditQueryError('La auditoría se lista siempre de la más reciente a la más antigua: no admite «sortColumn» ni «sortOrder».')
    else throw new AuditQueryError(`El parámetro «${key.slice(0, 60)}» no se admite en la auditoría (se admiten: user, record, call, desde, hasta, antesDe).`)
  }
  if (columns.length !== queries.length || columns.includes(undefined as never) || queries.includes(undefined as never)) {
    throw new AuditQueryError('filterColumns y filterQueries deben tener el mismo número de valores.')
  }
  columns.forEach((column, i) => {
    if (!FILTER_COLUMNS.includes(column)) throw new AuditQueryError(`La auditoría no se filtra por «${column.slice(0, 60)}» (se filtra por: ${FILTER_COLUMNS.join(', ')}).`)
    const value = queries[i]!
    if (column !== 'at') text[column] = value
    else {
      const [desde = '', hasta = ''] = value.split('|')
      if (desde) text.desde = desde
      if (hasta) text.hasta = hasta
    }
  })

  const filter: AuditFilter = {}
  for (const name of ['user', 'call'] as const) {
    const value = bounded(name, text[name])
    if (value) filter[name] = value
  }
  const record = bounded('record', text.record)
  if (record) {
    const m = /^([A-Za-z][\w-]*):(.+)$/.exec(record)
    filter.record = m ? { entity: m[1]!, id: m[2]!.trim() } : { id: record }
  }
  if (text.desde) filter.from = instantOf('desde', text.desde, 'start')
  if (text.hasta) filter.until = instantOf('hasta', text.hasta, 'end')
  if (filter.from !== undefined && filter.until !== undefined && filter.from >= filter.until) throw new AuditQueryError('«desde» debe ser anterior a «hasta».')
  if (text.antesDe !== undefined) {
    if (!ENTRY_ID.test(text.antesDe)) throw new AuditQueryError('«antesDe» debe ser el identificador de una entrada de la auditoría (el «Continuar» de una respuesta parcial).')
    filter.before = text.antesDe
  }
  const brand = text.brand
  if (brand !== undefined && !/^[a-z0-9-]{1,40}$/.test(brand)) throw new AuditQueryError(`Marca desconocida: «${brand.slice(0, 40)}».`)

  return { filter, ...(brand ? { brand } : {}), pageIndex: integer('pageIndex', pageIndex, 0, 1_000_000, 0), pageSize: pageSizeOf(pageSize, opts.exportAll === true) }
}

function single(key: string, raw: unknown): string {
  if (typeof raw === 'string') return raw
  throw new AuditQueryError(`El parámetro «${key.slice(0, 60)}» se indica una sola vez.`)
}

function bounded(name: string, value: string | undefined): string | undefined {
  const trimmed = value?.trim()
  if (!trimmed) return undefined
  if (trimmed.length > MAX_TEXT) throw new AuditQueryError(`«${name}» admite como mucho ${MAX_TEXT} caracteres.`)
  return trimmed
}

/** A day's start (`desde`) or the start of the day after (`hasta`, so the day is included), or an exact instant. */
function instantOf(name: string, value: string, edge: 'start' | 'end'): number {
  const v = value.trim()
  if (DAY.test(v) && isCalendarDay(v)) return spainDayStart(edge === 'start' ? v : nextDay(v))
  const ms = INSTANT.test(v) ? Date.parse(v) : NaN
  if (Number.isNaN(ms)) throw new AuditQueryError(`«${name}» debe ser una fecha AAAA-MM-DD o una fecha y hora ISO 8601 (2026-01-15T10:30:00Z).`)
  return ms
}

/** 2026-02-30 is not one (Date would roll it over to March). */
function isCalendarDay(day: string): boolean {
  const ms = Date.parse(`${day}T00:00:00Z`)
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(day)
}

function integer(name: string, value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback
  if (!/^-?\d{1,7}$/.test(value) || Number(value) < min || Number(value) > max) throw new AuditQueryError(`«${name}» debe ser un número entero entre ${min} y ${max}.`)
  return Number(value)
}

function pageSizeOf(value: string | undefined, exportAll: boolean): number {
  if (exportAll && value === '-1') return -1
  return integer('pageSize', value, 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE)
}
