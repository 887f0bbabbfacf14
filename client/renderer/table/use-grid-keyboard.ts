import { useCallback, useEffect, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react'
import { ROW_INDEX_ATTR } from '../../ui/grid/row-index'
import { cellAt, markGrid, posOf, tableOf, widgetsIn } from './grid-dom'
import { clampPos, gridKey, type GridPos, type GridShape } from './grid-keys'

export interface GridKeyboardOptions {
  /** Holds the grid's table (and nothing else that takes keys). */
  rootRef: RefObject<HTMLElement | null>
  /** Data rows loaded. */
  rows: number
  cols: number
  /** Rows of the pages before this one (aria-rowindex counts the whole set). */
  offset: number
  total: number
  hasPrevPage: boolean
  hasNextPage: boolean
  /** Brings a loaded row into the DOM (a virtual scroller renders only the rows near the view). */
  scrollToRow?: (index: number) => void
  /** Enter on a data row (index from 0). */
  onOpen: (index: number) => void
  /** Space on a data row; absent when the table has no selection. */
  onToggle?: (index: number) => void
  /** Shift+Up/Down from row `from` to `to`, the range started at `anchor` (indexes from 0). */
  onExtend?: (anchor: number, from: number, to: number) => void
  /** PageUp at the first row or PageDown at the last: the pager's previous or next page. */
  onPage: (delta: -1 | 1) => void
}

/** Height of a body row, measured (the density changes it), for PageUp/PageDown. */
function pageRowsOf(table: HTMLTableElement, root: HTMLElement): number {
  // A data row: a virtual body's first row can be the spacer standing for the rows above the view.
  const row = table.tBodies[0]?.querySelector(`:scope > tr[${ROW_INDEX_ATTR}]`)
  const height = row?.getBoundingClientRect().height || 40
  const scroller = root.querySelector<HTMLElement>('.p-virtualscroller')
  const view = scroller?.clientHeight || window.innerHeight
  return Math.max(1, Math.floor(view / height) - 1)
}

/**
 * Keyboard use of a table as an ARIA grid: one tab stop (the active cell, roving tabindex),
 * arrows between cells and rows, Home/End, Ctrl+Home/End, PageUp/PageDown (across pager
 * pages at the edges), Enter opens the row (or follows the cell's one link), Space and
 * Shift+Up/Down select. Tab leaves the grid. Controls inside a cell are reached with Enter and
 * left with Escape.
 */
export function useGridKeyboard(opts: GridKeyboardOptions) {
  const latest = useRef(opts)
  latest.current = opts
  const active = useRef<GridPos>({ row: 1, col: 0 })
  // Keyboard focus is in the grid: a cell rendered later (next page, virtual scroll) takes it.
  const wantsFocus = useRef(false)
  const pendingEdge = useRef<'first' | 'last' | null>(null)
  const anchor = useRef<number | null>(null)
  const lastOffset = useRef(opts.offset)

  const apply = useCallback(() => {
    const { rootRef, rows, cols, offset, total } = latest.current
    const table = tableOf(rootRef.current)
    if (!table) return
    if (pendingEdge.current && offset !== lastOffset.current && rows > 0) {
      active.current = { row: pendingEdge.current === 'first' ? 1 : rows, col: active.current.col }
      pendingEdge.current = null
    }
    lastOffset.current = offset
    active.current = clampPos(active.current, { rows, cols, pageRows: 1, hasPrevPage: false, hasNextPage: false })
    markGrid(table, { offset, total, cols, active: active.current })
    const cell = cellAt(table, active.current)
    if (wantsFocus.current && cell && document.activeElement !== cell && !cell.contains(document.activeElement)) cell.focus()
  }, [])

  // After every render, and whenever the table's rows change under it (virtual scrolling). The
  // table comes and goes (loading and error states draw none): watched whenever it is there.
  useLayoutEffect(apply)
  const watched = useRef<{ root: HTMLElement; observer: MutationObserver } | null>(null)
  useEffect(() => {
    const root = opts.rootRef.current
    if (watched.current?.root === root) return
    watched.current?.observer.disconnect()
    watched.current = null
    if (!root) return
    const observer = new MutationObserver(apply)
    observer.observe(root, { childList: true, subtree: true })
    watched.current = { root, observer }
  })
  useEffect(() => () => watched.current?.observer.disconnect(), [])

  const focusActive = (table: HTMLTableElement) => {
    wantsFocus.current = true
    const cell = cellAt(table, active.current)
    if (cell) {
      apply()
      cell.focus()
      cell.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
    } else if (active.current.row > 0) latest.current.scrollToRow?.(active.current.row - 1)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.defaultPrevented) return
    const o = latest.current
    const table = tableOf(o.rootRef.current)
    const target = e.target as HTMLElement
    if (!table || !table.contains(target)) return
    const pos = posOf(table, target)
    if (!pos) return
    const cell = cellAt(table, pos)
    if (!cell) return
    // A control inside a cell: Escape goes back to the cell, the arrows go along the cell's controls.
    if (target !== cell) {
      const widgets = widgetsIn(cell)
      const i = widgets.indexOf(target)
      if (e.key === 'Escape') cell.focus()
      else if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && i >= 0) widgets[Math.min(widgets.length - 1, Math.max(0, i + (e.key === 'ArrowLeft' ? -1 : 1)))]!.focus()
      else return
      e.preventDefault()
      return
    }
    active.current = pos
    const shape: GridShape = { rows: o.rows, cols: o.cols, pageRows: pageRowsOf(table, o.rootRef.current!), hasPrevPage: o.hasPrevPage, hasNextPage: o.hasNextPage }
    const step = gridKey(pos, { key: e.key, shift: e.shiftKey, ctrl: e.ctrlKey || e.metaKey }, shape)
    if (!step) {
      // Enter or Space on a header cell with a control (the page's checkbox): that control.
      if (pos.row === 0 && (e.key === ' ' || e.key === 'Enter')) {
        const [widget] = widgetsIn(cell)
        if (widget) {
          e.preventDefault()
          widget.click()
        }
      }
      return
    }
    e.preventDefault()
    const effect = step.effect
    if (!e.shiftKey && effect?.type !== 'extend') anchor.current = null
    if (effect?.type === 'open') {
      const widgets = widgetsIn(cell)
      const [widget] = widgets
      // A cell of controls (the row's actions): Enter goes into it; a cell whose one control is
      // a link (a record's code) follows it, as Enter on a link does; elsewhere Enter opens the row.
      if (!widget || widget.classList.contains('row-link')) o.onOpen(effect.row - 1)
      else if (widgets.length === 1 && widget.matches('a[href]')) widget.click()
      else widget.focus()
      return
    }
    if (effect?.type === 'toggle') {
      anchor.current = effect.row - 1
      o.onToggle?.(effect.row - 1)
      return
    }
    if (effect?.type === 'extend' && o.onExtend) {
      anchor.current ??= effect.from - 1
      o.onExtend(anchor.current, effect.from - 1, effect.to - 1)
    }
    if (effect?.type === 'page') {
      pendingEdge.current = effect.focus
      wantsFocus.current = true
      o.onPage(effect.delta)
      return
    }
    active.current = step.pos
    focusActive(table)
  }

  const onFocus = (e: FocusEvent<HTMLElement>) => {
    const table = tableOf(latest.current.rootRef.current)
    const pos = table && posOf(table, e.target)
    if (!pos) return
    active.current = pos
    wantsFocus.current = true
    apply()
  }

  const onBlur = (e: FocusEvent<HTMLElement>) => {
    const root = e.currentTarget
    const left = e.target
    // Focus left the grid (Tab, a click elsewhere): a later render does not pull it back. A cell
    // a virtual scroller removed loses focus too; then the grid keeps it for the row drawn next.
    queueMicrotask(() => {
      if (left.isConnected && !root.contains(document.activeElement)) wantsFocus.current = false
    })
  }

  return { onKeyDown, onFocus, onBlur }
}
