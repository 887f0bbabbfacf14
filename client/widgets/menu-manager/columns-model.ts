import type { ScreenOverlay, Text } from '../../../schemas/screen'
import type { ScreenState } from './admin-api'

/** One column row of the editor: where it sits, whether everyone sees it, its header. */
export interface ColumnRow {
  field: string
  shippedHeader: string
  /** The admin's Spanish header; '' keeps the shipped one. */
  header: string
  hidden: boolean
}

export type TableRows = Record<string, ColumnRow[]>

const es = (t: Text) => (typeof t === 'string' ? t : t.es)
const en = (t: Text) => (typeof t === 'string' ? undefined : t.en)

/** The editor's rows from the shipped columns and the stored overlay (listed columns first, the rest in shipped order). */
export function rowsFrom(state: Pick<ScreenState, 'tables'>, overlay: ScreenOverlay): TableRows {
  const out: TableRows = {}
  for (const table of state.tables) {
    const tweak = overlay.tables[table.id]?.columns ?? []
    const shipped = new Map(table.columns.map((c) => [c.field, c]))
    const listed = tweak.filter((c) => shipped.has(c.field))
    const rest = table.columns.filter((c) => !listed.some((l) => l.field === c.field))
    out[table.id] = [
      ...listed.map((c) => {
        const header = c.header !== undefined ? es(c.header) : ''
        const base = es(shipped.get(c.field)!.header)
        return { field: c.field, shippedHeader: base, header: header === base ? '' : header, hidden: !!c.hidden }
      }),
      ...rest.map((c) => ({ field: c.field, shippedHeader: es(c.header), header: '', hidden: false })),
    ]
  }
  return out
}

/** The overlay to store: only tables that differ from how they ship. */
export function overlayFrom(state: Pick<ScreenState, 'tables'>, rows: TableRows): ScreenOverlay {
  const overlay: ScreenOverlay = { tables: {} }
  for (const table of state.tables) {
    const list = rows[table.id]
    if (!list) continue
    const reordered = list.some((r, i) => r.field !== table.columns[i]?.field)
    const tweaked = list.some((r) => r.hidden || r.header.trim())
    if (!reordered && !tweaked) continue
    overlay.tables[table.id] = {
      columns: list.map((r) => {
        const shipped = table.columns.find((c) => c.field === r.field)!
        const english = en(shipped.header)
        return {
          field: r.field,
          ...(r.hidden ? { hidden: true } : {}),
          ...(r.header.trim() ? { header: english ? { es: r.header.trim(), en: english } : r.header.trim() } : {}),
        }
      }),
    }
  }
  return overlay
}

export function moveRow(rows: ColumnRow[], index: number, delta: -1 | 1): ColumnRow[] {
  const to = index + delta
  if (to < 0 || to >= rows.length) return rows
  const next = [...rows]
  ;[next[index], next[to]] = [next[to]!, next[index]!]
  return next
}
