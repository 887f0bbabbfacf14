import type { Column } from '../../../schemas/screen'
import { MAX_WIDTH, MIN_WIDTH, type Density, type Pin, type TablePrefs } from './table-prefs'

/** How a table is drawn from the user's layout: widths, pinned sides and density. */
export interface GridLayout {
  widths: Record<string, number>
  pinned: Record<string, Pin>
  density: Density
}

export function layoutOf(prefs: TablePrefs): GridLayout {
  return { widths: prefs.widths ?? {}, pinned: prefs.pinned ?? {}, density: prefs.density ?? 'comfortable' }
}

/**
 * The shown columns in drawing order: the left-pinned ones first and the right-pinned ones
 * last (a frozen column must sit at its edge), each group in the user's order.
 */
export function arrangeColumns(columns: readonly Column[], pinned: Record<string, Pin>): Column[] {
  const side = (c: Column) => pinned[c.field]
  return [...columns.filter((c) => side(c) === 'left'), ...columns.filter((c) => !side(c)), ...columns.filter((c) => side(c) === 'right')]
}

/** A column's new width (px, clamped to what a preference keeps). */
export function withWidth(prefs: TablePrefs, field: string, px: number): TablePrefs {
  const width = Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, px)))
  return { ...prefs, widths: { ...prefs.widths, [field]: width } }
}

/** Pins a column to a side, or (`null`) unpins it. */
export function withPin(prefs: TablePrefs, field: string, side: Pin | null): TablePrefs {
  const { [field]: _, ...rest } = prefs.pinned ?? {}
  const pinned: Record<string, Pin> = side ? { ...rest, [field]: side } : rest
  const { pinned: _old, ...others } = prefs
  return Object.keys(pinned).length ? { ...others, pinned } : others
}

export function withDensity(prefs: TablePrefs, density: Density): TablePrefs {
  return { ...prefs, density }
}

/** The shown columns in a new order (a drag of a header): kept as the column choice. */
export function withOrder(prefs: TablePrefs, fields: readonly string[]): TablePrefs {
  return { ...prefs, columns: [...fields] }
}

/** «Restablecer»: the screen's columns, order, widths, pins and density again; saved filters stay. */
export function resetLayout(prefs: TablePrefs): TablePrefs {
  const { columns: _c, widths: _w, pinned: _p, density: _d, ...rest } = prefs
  return rest
}

/** Whether anything of the layout differs from the screen's own. */
export function hasLayout(prefs: TablePrefs): boolean {
  return prefs.columns !== undefined || prefs.widths !== undefined || prefs.pinned !== undefined || prefs.density !== undefined
}
