import type { GridSort } from './DataGrid'
import { compareText } from '../text-order'

/** How two cell values compare for sorting: numbers by value, anything else as Spanish text (accents and case aside, digits as numbers). */
export function compareValues(x: unknown, y: unknown): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y
  return compareText(String(x ?? ''), String(y ?? ''))
}

/** `rows` sorted by `sort` (a stable sort: equal rows keep their order), with `sortValue` reading a row's value for a column. */
export function sortRows<R>(rows: readonly R[], sort: GridSort | null, sortValue: (row: R, key: string) => unknown): R[] {
  if (!sort) return [...rows]
  const dir = sort.order === 'desc' ? -1 : 1
  return [...rows].sort((a, b) => compareValues(sortValue(a, sort.key), sortValue(b, sort.key)) * dir)
}
