import ExcelJS from 'exceljs'
import type { Test } from 'supertest'
import type { Endpoint, PersonalKind } from '../../../schemas/catalogue/endpoint'
import { ANSWER_MASKED_KINDS } from '../../../schemas/personal-data'
import { pathSegments } from '../../../schemas/personal-paths'

/** The four list exports the BFF builds from their lists' pages, with a text filter that narrows each. */
export const LIST_EXPORTS = [
  { id: 'contract.export', path: '/api/contract/export', list: '/api/contract', filter: { column: 'Titular', query: 'garcia' }, nif: 'Nif' },
  { id: 'invoice.export', path: '/api/facturas/export', list: '/api/facturas', filter: { column: 'Titular', query: 'lopez' }, nif: 'Nif' },
  { id: 'renewal.export', path: '/api/renovaciones/export', list: '/api/renovaciones', filter: { column: 'Titular', query: 'garcia' }, nif: 'Nif' },
  { id: 'agent.export', path: '/api/agentes/export', list: '/api/agentes', filter: { column: 'Nombre', query: 'asesoria' }, nif: 'Nif' },
] as const

/** Reads a supertest answer as bytes (an XLSX). */
export const asBytes = (r: Test) =>
  r.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = []
    res.on('data', (c: Buffer) => chunks.push(c))
    res.on('end', () => done(null, Buffer.concat(chunks)))
  })

export interface Sheet {
  name: string
  headers: string[]
  /** Each data row's cells as text (dates as ISO days). */
  rows: string[][]
}

const text = (v: ExcelJS.CellValue): string => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'object' ? JSON.stringify(v) : String(v))

/** The first sheet of a workbook, as text. */
export async function readSheet(bytes: Buffer): Promise<Sheet> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(bytes as unknown as ArrayBuffer)
  const sheet = book.worksheets[0]!
  const width = sheet.getRow(1).cellCount
  const cells = (n: number) => Array.from({ length: width }, (_, i) => text(sheet.getRow(n).getCell(i + 1).value))
  return { name: sheet.name, headers: cells(1), rows: Array.from({ length: sheet.rowCount - 1 }, (_, i) => cells(i + 2)) }
}

/** Every clear value the list's answer holds at a path its catalogue entry marks with a kind the BFF masks. */
export function clearValuesOf(list: Endpoint, answer: unknown): string[] {
  const out: string[] = []
  const at = (value: unknown, segments: string[]): void => {
    if (segments.length === 0) {
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') out.push(String(value))
      return
    }
    const [head, ...rest] = segments
    if (head === '[]') {
      if (Array.isArray(value)) value.forEach((v) => at(v, rest))
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) at((value as Record<string, unknown>)[head!], rest)
  }
  for (const [path, kind] of Object.entries(list.personal ?? {}) as [string, PersonalKind][]) if (ANSWER_MASKED_KINDS.has(kind)) at(answer, pathSegments(path))
  return out
}

/** The paged query of the reference API for the same filters (`filterColumns[i]`…). */
export function listQuery(opts: { pageIndex?: number; pageSize: number; sort?: { column: string; order: string }; filters?: { column: string; query: string }[] }): Record<string, string | number> {
  const q: Record<string, string | number> = { pageIndex: opts.pageIndex ?? 0, pageSize: opts.pageSize }
  if (opts.sort) Object.assign(q, { sortColumn: opts.sort.column, sortOrder: opts.sort.order })
  opts.filters?.forEach((f, i) => Object.assign(q, { [`filterColumns[${i}]`]: f.column, [`filterQueries[${i}]`]: f.query }))
  return q
}
