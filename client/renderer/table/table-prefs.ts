import type { SavedFilter } from './table-state'

/** Row height of a table: the usual one, or tighter rows for heavy days. */
export type Density = 'comfortable' | 'compact'
/** A column frozen at the left or the right edge while the rest scrolls. */
export type Pin = 'left' | 'right'

/**
 * What a user keeps of one table (`tabla:<screen>:<table>`, a server-side preference): the
 * columns shown and their order, saved filters, and the grid's layout (widths in px, pinned
 * columns, density). Older preferences hold only `columns` and `filters`.
 */
export interface TablePrefs {
  columns?: string[]
  filters?: SavedFilter[]
  widths?: Record<string, number>
  pinned?: Record<string, Pin>
  density?: Density
}

/** Narrowest and widest a stored column width may be (px): anything else is dropped. */
export const MIN_WIDTH = 40
export const MAX_WIDTH = 2000

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function savedFilterOf(v: unknown): SavedFilter | null {
  if (!isRecord(v) || typeof v.name !== 'string' || !isRecord(v.filters)) return null
  const filters = Object.fromEntries(Object.entries(v.filters).filter((e): e is [string, string] => typeof e[1] === 'string'))
  const s = v.sort
  const sort: SavedFilter['sort'] = isRecord(s) && typeof s.field === 'string' && (s.order === 'asc' || s.order === 'desc') ? { field: s.field, order: s.order } : null
  return { name: v.name, filters, sort }
}

const KNOWN = ['columns', 'filters', 'widths', 'pinned', 'density']

/**
 * The stored value as a TablePrefs, whatever was stored (another version's shape, a hand-made
 * value): each of its parts that is not what it should be is dropped, the rest kept. Keys it
 * does not know are kept as they are, so a save of one part never loses another concern's.
 */
export function parseTablePrefs(raw: unknown): TablePrefs {
  if (!isRecord(raw)) return {}
  const out: TablePrefs = Object.fromEntries(Object.entries(raw).filter(([k]) => !KNOWN.includes(k)))
  if (Array.isArray(raw.columns)) out.columns = raw.columns.filter((f): f is string => typeof f === 'string')
  if (Array.isArray(raw.filters)) out.filters = raw.filters.map(savedFilterOf).filter((f): f is SavedFilter => f !== null)
  if (isRecord(raw.widths)) {
    const widths = Object.entries(raw.widths).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] >= MIN_WIDTH && e[1] <= MAX_WIDTH)
    if (widths.length) out.widths = Object.fromEntries(widths.map(([f, w]) => [f, Math.round(w)]))
  }
  if (isRecord(raw.pinned)) {
    const pinned = Object.entries(raw.pinned).filter((e): e is [string, Pin] => e[1] === 'left' || e[1] === 'right')
    if (pinned.length) out.pinned = Object.fromEntries(pinned)
  }
  if (raw.density === 'comfortable' || raw.density === 'compact') out.density = raw.density
  return out
}
