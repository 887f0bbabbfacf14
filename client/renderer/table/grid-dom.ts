import { ROW_INDEX_ATTR } from '../../ui/grid/row-index'
import type { GridPos } from './grid-keys'

/**
 * The grid semantics a plain table lacks, written onto the DOM the table (ui/grid) draws, which
 * draws rows again as its virtual body scrolls: role=grid with row and column indexes, and a
 * roving tabindex — the active cell is the grid's one tab stop, every other cell and every
 * control inside a cell is reached with the keys, not with Tab.
 */

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]'

export interface GridMarks {
  /** Data rows before the loaded ones (earlier pages): aria-rowindex counts the whole set. */
  offset: number
  /** Rows of the whole filtered set. */
  total: number
  cols: number
  active: GridPos
}

export function tableOf(root: HTMLElement | null): HTMLTableElement | null {
  return root?.querySelector<HTMLTableElement>('table.p-datatable-table') ?? null
}

function bodyOf(table: HTMLTableElement): HTMLTableSectionElement | null {
  return table.tBodies[0] ?? null
}

/** The data index (from 0) of a body row, as the grid writes it on each row. */
export function rowIndexOf(tr: Element): number | null {
  const index = tr.getAttribute(ROW_INDEX_ATTR)
  return index === null ? null : Number(index)
}

/** The cell at a grid position, if it is in the DOM (a virtual scroller renders only the rows near the view). */
export function cellAt(table: HTMLTableElement, pos: GridPos): HTMLTableCellElement | null {
  if (pos.row === 0) return (table.tHead?.rows[0]?.cells[pos.col] as HTMLTableCellElement | undefined) ?? null
  const body = bodyOf(table)
  if (!body) return null
  for (const tr of body.rows) if (rowIndexOf(tr) === pos.row - 1) return (tr.cells[pos.col] as HTMLTableCellElement | undefined) ?? null
  return null
}

/** The grid position of the cell holding `el`, or null when it is outside the header and body rows. */
export function posOf(table: HTMLTableElement, el: Element): GridPos | null {
  const cell = el.closest('td, th')
  const tr = cell?.parentElement
  if (!cell || !tr || !table.contains(tr)) return null
  const col = (cell as HTMLTableCellElement).cellIndex
  if (tr.parentElement === table.tHead) return { row: 0, col }
  const index = rowIndexOf(tr)
  return index === null ? null : { row: index + 1, col }
}

/** Controls inside a cell (links, buttons, checkboxes): reached with Enter, then the arrows. */
export function widgetsIn(cell: Element): HTMLElement[] {
  return [...cell.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hasAttribute('disabled'))
}

function mark(cell: HTMLTableCellElement, col: number, role: string, tabStop: boolean) {
  if (cell.getAttribute('role') !== role) cell.setAttribute('role', role)
  cell.setAttribute('aria-colindex', String(col + 1))
  cell.tabIndex = tabStop ? 0 : -1
  for (const el of widgetsIn(cell)) el.tabIndex = -1
}

/** Writes roles, indexes and the roving tabindex; returns the active cell when it is rendered. */
export function markGrid(table: HTMLTableElement, marks: GridMarks): HTMLTableCellElement | null {
  table.setAttribute('role', 'grid')
  table.setAttribute('aria-rowcount', String(marks.total + 1))
  table.setAttribute('aria-colcount', String(marks.cols))
  let active = cellAt(table, marks.active)
  const head = table.tHead?.rows[0]
  const body = bodyOf(table)
  const dataRows = body ? [...body.rows].filter((tr) => rowIndexOf(tr) !== null) : []
  // The active row scrolled out of a virtual view: its column in the first rendered row keeps the grid reachable by Tab.
  if (!active) active = (dataRows[0]?.cells[marks.active.col] as HTMLTableCellElement | undefined) ?? (head?.cells[marks.active.col] as HTMLTableCellElement | undefined) ?? null
  if (head) {
    head.setAttribute('aria-rowindex', '1')
    ;[...head.cells].forEach((th, col) => mark(th, col, 'columnheader', th === active))
  }
  for (const tr of dataRows) {
    tr.setAttribute('aria-rowindex', String(marks.offset + rowIndexOf(tr)! + 2))
    ;[...tr.cells].forEach((td, col) => mark(td, col, 'gridcell', td === active))
  }
  // Rows that are no data (the empty state, the totals): cells of the grid too, so its roles hold.
  // A virtual body's spacers stand in for rows not drawn, hidden from assistive technology.
  for (const tr of [...(body?.rows ?? []), ...(table.tFoot?.rows ?? [])]) {
    if (rowIndexOf(tr) !== null || tr.getAttribute('aria-hidden') === 'true') continue
    if (tr.parentElement === table.tFoot) tr.setAttribute('aria-rowindex', String(marks.total + 2))
    for (const td of tr.cells) if (td.getAttribute('role') !== 'gridcell' && td.getAttribute('role') !== 'rowheader') td.setAttribute('role', 'gridcell')
  }
  return active
}
