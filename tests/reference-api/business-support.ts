import ExcelJS from 'exceljs'
import type { ApiCaller } from '../helpers/api-caller'
import type { Paged } from '../../schemas/business/paged'

/** Shared bits of the business suites (tests/reference-api/business-*.test.ts). */

export const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
export const AGENTE = { username: 'agente@portal.test', password: 'Portal-Agente-2026!' }

/** The day the template database was seeded around (tests/helpers/global-setup.ts). */
export const SEED_DAY = '2026-11-01'
/** A fixed "now" for suites whose answers depend on today. */
export const NOW = Date.parse('2026-11-21T10:00:00Z')

/** Query of a paged list: `filters` become `filterColumns[i]` / `filterQueries[i]`. */
export function listQuery(
  opts: { pageIndex?: number; pageSize?: number; sortColumn?: string; sortOrder?: 'asc' | 'desc'; filters?: [string, string][] } = {},
): Record<string, string | number> {
  const q: Record<string, string | number> = {}
  if (opts.pageIndex !== undefined) q.pageIndex = opts.pageIndex
  if (opts.pageSize !== undefined) q.pageSize = opts.pageSize
  if (opts.sortColumn) q.sortColumn = opts.sortColumn
  if (opts.sortOrder) q.sortOrder = opts.sortOrder
  opts.filters?.forEach(([column, query], i) => {
    q[`filterColumns[${i}]`] = column
    q[`filterQueries[${i}]`] = query
  })
  return q
}

export async function page<T>(api: ApiCaller, path: string, opts: Parameters<typeof listQuery>[0] = {}): Promise<Paged<T>> {
  const res = await api.get<Paged<T>>(path, listQuery(opts))
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`)
  return res.body
}

/** Every row of a list (pages of 500). */
export async function allRows<T>(api: ApiCaller, path: string, opts: Parameters<typeof listQuery>[0] = {}): Promise<T[]> {
  const rows: T[] = []
  for (let pageIndex = 0; ; pageIndex++) {
    const p = await page<T>(api, path, { ...opts, pageIndex, pageSize: 500 })
    rows.push(...p.Items)
    if (rows.length >= p.TotalCount || p.Items.length === 0) return rows
  }
}

/** The first sheet of an XLSX answer: header cells and data rows. */
export async function readXlsx(bytes: Buffer): Promise<{ headers: string[]; rows: unknown[][]; sheet: ExcelJS.Worksheet }> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(bytes as unknown as ArrayBuffer)
  const sheet = wb.worksheets[0]!
  const headers = ((sheet.getRow(1).values as unknown[]) ?? []).slice(1).map(String)
  const rows: unknown[][] = []
  sheet.eachRow((row, n) => {
    if (n > 1) rows.push((row.values as unknown[]).slice(1))
  })
  return { headers, rows, sheet }
}

/** True when `values` are in `order` by `compare`. */
export function isSorted<T>(values: T[], order: 'asc' | 'desc', compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < values.length; i++) {
    const c = compare(values[i - 1]!, values[i]!)
    if (order === 'asc' ? c > 0 : c < 0) return false
  }
  return true
}

/** SQLite's NOCASE: ASCII letters folded, everything else by code point. */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())
export const byText = (a: string, b: string) => (nocase(a) < nocase(b) ? -1 : nocase(a) > nocase(b) ? 1 : 0)
export const byNumber = (a: number, b: number) => a - b
