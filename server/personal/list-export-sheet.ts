import { maskAnswer, type PersonalTree } from '../../schemas/personal-paths'
import { spainWallClock } from '../lib/spain-time'
import type { XlsxColumn } from '../lib/xlsx-stream'

/**
 * How an export's pages become the sheet's rows: the page's shape, each column's cells (dates
 * as Excel dates), the masking. Pure, so the export thread (`list-export-worker.ts`) runs it.
 */

export type Row = Record<string, unknown>
export interface Page {
  Items: Row[]
  TotalCount: number
}

/** What the thread needs to turn pages into the sheet, worked out by the BFF from the call. */
export interface SheetPlan {
  sheetName: string
  /** The fields exported, in order; null: the list's shape names none, so the first row's keys. */
  fields: string[] | null
  /** A header per field (null: the field's name). */
  labels: string[] | null
  /** The masking of each page (null: exported as read). */
  mask: PersonalTree | null
  /** Every row of the list (read a page at a time), or only the first page read. */
  all: boolean
  /** Rows per page read. */
  pageSize: number
}

const DAY = /^\d{4}-\d{2}-\d{2}$/
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/
const FORMATS = { day: 'dd/mm/yyyy', instant: 'dd/mm/yyyy hh:mm' } as const

/** A cell's value: dates as Excel dates (instants in Spain's time), lists joined, objects as JSON. */
function cellOf(value: unknown, kind: 'day' | 'instant' | undefined): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') {
    if (kind === 'day' && DAY.test(value)) return new Date(`${value}T00:00:00Z`)
    if (kind === 'instant' && INSTANT.test(value)) {
      const instant = Date.parse(value)
      // Without an offset the upstream wrote Spain's clock time: kept as written.
      return /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? spainWallClock(instant) : new Date(`${value.slice(0, 19)}Z`)
    }
    return value
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join(', ')
  return JSON.stringify(value)
}

/** Whether a column holds days or instants, by the first value of the first page that has one. */
function dateKindOf(rows: readonly Row[], field: string): 'day' | 'instant' | undefined {
  const sample = rows.find((r) => r[field] !== null && r[field] !== undefined)?.[field]
  if (typeof sample !== 'string') return undefined
  return DAY.test(sample) ? 'day' : INSTANT.test(sample) ? 'instant' : undefined
}

function isPage(body: unknown): body is Page {
  const page = body as Page | null
  return page !== null && typeof page === 'object' && Array.isArray(page.Items) && typeof page.TotalCount === 'number' && page.Items.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))
}

/** A page from the bytes the upstream sent, or null when they are not one (not JSON, another shape). */
export function pageOf(bytes: Uint8Array): Page | null {
  let body: unknown
  try {
    body = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))
  } catch {
    return null
  }
  return isPage(body) ? body : null
}

/** The rows exported from a page: masked as the plan says. */
export const rowsOf = (page: Page, plan: SheetPlan): Row[] => (plan.mask ? maskAnswer(page, plan.mask) : page).Items

/** The export's extent and columns, from its first page. */
export function headOf(first: Page, plan: SheetPlan): { total: number; fields: string[]; columns: XlsxColumn<Row>[] } {
  const total = plan.all ? first.TotalCount : first.Items.length
  const fields = plan.fields ?? Object.keys(first.Items[0] ?? {})
  const columns = fields.map((field, i): XlsxColumn<Row> => {
    const header = plan.labels?.[i] ?? field
    const kind = dateKindOf(first.Items, field)
    return { header, width: Math.min(40, Math.max(12, header.length + 2)), value: (row) => cellOf(row[field], kind), ...(kind ? { format: FORMATS[kind] } : {}) }
  })
  return { total, fields, columns }
}
