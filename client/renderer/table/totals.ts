import type { Column } from '../../../schemas/screen'
import { formatValue } from '../../ui/format'

/**
 * The `Totales` of a paged answer (the sum of each summable column over the whole filtered
 * set), or null when the upstream sends none or something else: then no totals row, no error.
 */
export function totalsOf(answer: unknown): Record<string, number> | null {
  if (answer === null || typeof answer !== 'object') return null
  const raw = (answer as { Totales?: unknown }).Totales
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null
  const entries = Object.entries(raw).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
  return entries.length ? Object.fromEntries(entries) : null
}

/**
 * The totals row's cells by field, formatted as their column (money in €, energy in kWh); null
 * when no shown column has a total, so the row is left out.
 */
export function totalCells(columns: readonly Column[], totals: Record<string, number> | null): Map<string, string> | null {
  if (!totals) return null
  const cells = new Map<string, string>()
  for (const col of columns) if (col.field in totals) cells.set(col.field, formatValue(totals[col.field], col.format))
  return cells.size ? cells : null
}
