/** Where a dragged column or row is dropped: before or after the one it was dropped on. */
export type DropSide = 'before' | 'after'

/**
 * The columns' keys after moving `moved` to one side of `target`; the same order when either
 * is not among them or the move changes nothing.
 */
export function moveColumn(keys: readonly string[], moved: string, target: string, side: DropSide): string[] {
  if (moved === target || !keys.includes(moved) || !keys.includes(target)) return [...keys]
  const rest = keys.filter((k) => k !== moved)
  const at = rest.indexOf(target) + (side === 'after' ? 1 : 0)
  return [...rest.slice(0, at), moved, ...rest.slice(at)]
}

/** The side of a header cell spanning `left`…`right` that a pointer at `x` is on. */
export function dropSide(x: number, left: number, right: number): DropSide {
  return x < (left + right) / 2 ? 'before' : 'after'
}

/**
 * The index a row at `from` ends at when dropped on one side of the row at `target` (indexes
 * of the list before the move); `from` itself when the drop leaves it where it was.
 */
export function dropIndex(from: number, target: number, side: DropSide): number {
  const insertAt = side === 'after' ? target + 1 : target
  return insertAt > from ? insertAt - 1 : insertAt
}

/** `items` with the one at `from` moved to `to` (a drag, or a step up or down); a copy of the same order when either is outside the list. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items]
  if (from < 0 || from >= items.length || to < 0 || to >= items.length || from === to) return next
  const [item] = next.splice(from, 1)
  next.splice(to, 0, item!)
  return next
}
