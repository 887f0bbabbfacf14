/**
 * The keyboard model of a table grid, without DOM: where a key moves the active cell and what
 * it asks the table to do. Row 0 is the header row; rows 1…n are the loaded data rows.
 */

export interface GridPos {
  row: number
  col: number
}

export interface GridShape {
  /** Data rows loaded (the header row is not counted). */
  rows: number
  cols: number
  /** How far PageUp/PageDown move (the rows that fit in view). */
  pageRows: number
  hasPrevPage: boolean
  hasNextPage: boolean
}

export interface GridKeyEvent {
  key: string
  shift?: boolean
  ctrl?: boolean
}

/** What the table does besides moving: open the row, toggle it, extend the selection, or turn the pager's page. */
export type GridEffect =
  | { type: 'open'; row: number }
  | { type: 'toggle'; row: number }
  | { type: 'extend'; from: number; to: number }
  | { type: 'page'; delta: -1 | 1; focus: 'first' | 'last' }

export interface GridStep {
  pos: GridPos
  effect?: GridEffect
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n))

/** The active cell kept inside the grid when its shape changes (fewer rows, fewer columns). */
export function clampPos(pos: GridPos, shape: GridShape): GridPos {
  return { row: clamp(pos.row, 0, shape.rows), col: clamp(pos.col, 0, Math.max(0, shape.cols - 1)) }
}

/** The step a key takes from `pos`; null for a key the grid leaves to the browser (Tab among them). */
export function gridKey(from: GridPos, e: GridKeyEvent, shape: GridShape): GridStep | null {
  const pos = clampPos(from, shape)
  const lastRow = shape.rows
  const firstData = shape.rows > 0 ? 1 : 0
  const lastCol = Math.max(0, shape.cols - 1)
  const at = (row: number, col = pos.col): GridPos => ({ row: clamp(row, 0, lastRow), col: clamp(col, 0, lastCol) })
  switch (e.key) {
    case 'ArrowUp':
    case 'ArrowDown': {
      const next = at(pos.row + (e.key === 'ArrowUp' ? -1 : 1))
      // Shift extends the selection over data rows only (the header row selects nothing).
      if (e.shift && pos.row >= 1 && next.row >= 1 && next.row !== pos.row) return { pos: next, effect: { type: 'extend', from: pos.row, to: next.row } }
      return { pos: next }
    }
    case 'ArrowLeft':
      return { pos: at(pos.row, pos.col - 1) }
    case 'ArrowRight':
      return { pos: at(pos.row, pos.col + 1) }
    case 'Home':
      return { pos: e.ctrl ? at(firstData, 0) : at(pos.row, 0) }
    case 'End':
      return { pos: e.ctrl ? at(lastRow, lastCol) : at(pos.row, lastCol) }
    case 'PageDown':
      if (pos.row >= lastRow && shape.hasNextPage) return { pos: at(firstData), effect: { type: 'page', delta: 1, focus: 'first' } }
      return { pos: at(Math.max(pos.row, firstData) + shape.pageRows) }
    case 'PageUp':
      if (pos.row <= firstData && shape.hasPrevPage) return { pos, effect: { type: 'page', delta: -1, focus: 'last' } }
      return { pos: at(Math.max(firstData, pos.row - shape.pageRows)) }
    case 'Enter':
      return pos.row >= 1 ? { pos, effect: { type: 'open', row: pos.row } } : null
    case ' ':
      return pos.row >= 1 ? { pos, effect: { type: 'toggle', row: pos.row } } : null
    default:
      return null
  }
}

/**
 * The selection after Shift+Up/Down from row `from` to `to` (data rows, from 1): the rows
 * between the anchor and `to` are selected; moving back towards the anchor unselects the row
 * left behind, as in a file list.
 */
export function extendSelection(selected: ReadonlySet<number>, anchor: number, from: number, to: number): Set<number> {
  const next = new Set(selected)
  const towardsAnchor = Math.abs(to - anchor) < Math.abs(from - anchor)
  if (towardsAnchor) next.delete(from)
  else {
    next.add(from)
    next.add(to)
  }
  return next
}
