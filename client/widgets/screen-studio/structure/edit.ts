import { moveItem } from '../../../ui/grid/reorder'

/** Small immutable edits the structure editors share: a list's item moved, replaced or removed; an object's keys set or removed. */

/** `list` with the item at `i` moved by `by` places (±1); the same list when it would leave the ends. */
export function moved<T>(list: readonly T[], i: number, by: number): T[] {
  return moveItem(list, i, i + by)
}

export const replaced = <T>(list: readonly T[], i: number, item: T): T[] => list.map((x, j) => (j === i ? item : x))

export const removed = <T>(list: readonly T[], i: number): T[] => list.filter((_, j) => j !== i)

/**
 * `value` with `patch` applied, a key whose new value is undefined (or an empty list, when
 * `dropEmpty`) left out: an optional field the admin empties leaves the screen file, as it would
 * be written by hand.
 */
export function withProps<T extends object>(value: T, patch: { [K in keyof T]?: T[K] | undefined }, dropEmpty = false): T {
  const next = { ...value } as Record<string, unknown>
  for (const [key, v] of Object.entries(patch)) {
    if (v === undefined || (dropEmpty && Array.isArray(v) && v.length === 0)) delete next[key]
    else next[key] = v
  }
  return next as T
}
