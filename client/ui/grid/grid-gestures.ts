import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react'
import { dropIndex, dropSide, moveColumn, type DropSide } from './reorder'

/** How far (px) the pointer moves with the button down before a press becomes a drag. */
const DRAG_THRESHOLD = 5
/** Narrowest a column can be dragged to (px); what a preference keeps is clamped again by its owner. */
const MIN_DRAG_WIDTH = 40

/**
 * Follows a press of the pointer until it is released: past `threshold` px it is a drag, and
 * `move` sees every move from then on; `end` is told whether it became one and whether it ended
 * in a release (not a cancel). The moves are followed on the window, so a drag that leaves the
 * table is still seen. Returns what abandons it: the listeners go and `end` hears of a cancel.
 */
function followDrag(press: { clientX: number; clientY: number }, handlers: { threshold: number; start?: (ev: PointerEvent) => void; move: (ev: PointerEvent) => void; end: (dragged: boolean, released: boolean) => void }): () => void {
  let dragging = false
  const move = (ev: PointerEvent) => {
    if (!dragging) {
      if (Math.abs(ev.clientX - press.clientX) < handlers.threshold && Math.abs(ev.clientY - press.clientY) < handlers.threshold) return
      dragging = true
      handlers.start?.(ev)
    }
    handlers.move(ev)
  }
  const end = (ev: PointerEvent | null) => {
    window.removeEventListener('pointermove', move)
    window.removeEventListener('pointerup', end)
    window.removeEventListener('pointercancel', end)
    handlers.end(dragging, ev?.type === 'pointerup')
  }
  window.addEventListener('pointermove', move)
  window.addEventListener('pointerup', end)
  window.addEventListener('pointercancel', end)
  return () => end(null)
}

/** The cell or row of `items` the pointer is over along one axis, among those `accept` takes. */
function itemAt<T extends HTMLElement>(items: T[], at: number, axis: 'x' | 'y', accept: (el: T) => boolean): T | undefined {
  return items.find((el) => {
    const r = el.getBoundingClientRect()
    const [from, to] = axis === 'x' ? [r.left, r.right] : [r.top, r.bottom]
    return at >= from && at < to && accept(el)
  })
}

export interface GridGestureOptions {
  /** The table's header row. */
  headRow: () => HTMLTableRowElement | null | undefined
  /** The table's body rows that hold data as drawn, each with its index among the rows given. */
  bodyRows: () => { el: HTMLTableRowElement; index: number }[]
  /** Keys of the columns a user may move, in their drawn order. */
  movable: readonly string[]
  onResize?: (key: string, px: number) => void
  onReorder?: (keys: string[]) => void
  /** A row dragged by its handle from index `from` to index `to` (of the rows drawn). */
  onRowMove?: (from: number, to: number) => void
}

/**
 * The grid's pointer gestures (mouse, pen or touch): a column resized by its header's edge, a
 * column moved by dragging its header, a row moved by dragging its handle. While the button is
 * down only the DOM moves (the column's width, a bar where the header or row will land); the
 * result is handed over once, on release. The click a drag ends with is swallowed, so a drag
 * never also sorts.
 */
export function useGridGestures(options: GridGestureOptions) {
  const latest = useRef(options)
  latest.current = options
  const swallowClick = useRef(false)
  // The gesture under way, abandoned (nothing reported) if the grid goes before it ends.
  const active = useRef<(() => void) | null>(null)
  useEffect(() => () => active.current?.(), [])
  const follow = (press: { clientX: number; clientY: number }, handlers: Parameters<typeof followDrag>[1]) => {
    active.current?.()
    const abandon = followDrag(press, {
      ...handlers,
      end: (dragged, released) => {
        active.current = null
        handlers.end(dragged, released)
      },
    })
    active.current = abandon
  }
  // The click that ends a gesture comes in the same task as the release, or not at all.
  const swallowNextClick = () => {
    swallowClick.current = true
    setTimeout(() => (swallowClick.current = false), 0)
  }

  /** Pointer down on a column's resizer: its width follows the pointer until release. */
  const startResize = (key: string, e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0 || !latest.current.onResize) return
    e.preventDefault()
    e.stopPropagation()
    const th = e.currentTarget.closest('th')
    const table = th?.closest('.p-datatable')
    if (!th) return
    const startWidth = th.getBoundingClientRect().width
    const before = { width: th.style.width, minWidth: th.style.minWidth }
    let width = startWidth
    table?.classList.add('p-datatable-resizing')
    follow(e, {
      threshold: 0,
      move: (ev) => {
        width = Math.max(MIN_DRAG_WIDTH, startWidth + ev.clientX - e.clientX)
        th.style.width = `${width}px`
        th.style.minWidth = `${width}px`
      },
      end: (_dragged, released) => {
        table?.classList.remove('p-datatable-resizing')
        swallowNextClick()
        // React owns the cell's style: it is given back as it was, and the new width comes back as a prop.
        th.style.width = before.width
        th.style.minWidth = before.minWidth
        if (released && Math.abs(width - startWidth) >= 1) latest.current.onResize?.(key, Math.round(width))
      },
    })
  }

  /** Pointer down on a header: past a few pixels it is a drag, dropped before or after the header under the pointer. */
  const startDrag = (key: string, e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0 || !latest.current.onReorder || !latest.current.movable.includes(key)) return
    if ((e.target as HTMLElement).closest('.p-column-resizer, input, button, a')) return
    const th = e.currentTarget
    const table = th.closest('.p-datatable')
    let target: { el: HTMLElement; key: string; side: DropSide } | null = null
    const clearMark = () => target?.el.removeAttribute('data-drop')
    follow(e, {
      threshold: DRAG_THRESHOLD,
      start: () => table?.classList.add('p-datatable-reordering'),
      move: (ev) => {
        const cells = [...(latest.current.headRow()?.cells ?? [])]
        const over = itemAt(cells, ev.clientX, 'x', (cell) => latest.current.movable.includes(cell.dataset.key ?? ''))
        clearMark()
        target = null
        if (!over || over === th) return
        const r = over.getBoundingClientRect()
        target = { el: over, key: over.dataset.key!, side: dropSide(ev.clientX, r.left, r.right) }
        over.setAttribute('data-drop', target.side)
      },
      end: (dragged, released) => {
        table?.classList.remove('p-datatable-reordering')
        clearMark()
        if (!dragged) return
        swallowNextClick()
        if (!released || !target) return
        const { movable, onReorder } = latest.current
        const next = moveColumn(movable, key, target.key, target.side)
        if (next.join('\u0000') !== movable.join('\u0000')) onReorder?.(next)
      },
    })
  }

  /** Pointer down on a row's handle: dropped above or below the row under the pointer. */
  const startRowDrag = (from: number, e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0 || !latest.current.onRowMove) return
    e.preventDefault()
    const table = e.currentTarget.closest('.p-datatable')
    let target: { el: HTMLElement; index: number; side: DropSide } | null = null
    const mark = (on: boolean) => target?.el.classList.toggle(target.side === 'before' ? 'p-datatable-dragpoint-top' : 'p-datatable-dragpoint-bottom', on)
    follow(e, {
      threshold: DRAG_THRESHOLD,
      start: () => table?.classList.add('p-datatable-reordering'),
      move: (ev) => {
        const rows = latest.current.bodyRows()
        const over = itemAt(rows.map((r) => r.el), ev.clientY, 'y', () => true)
        mark(false)
        target = null
        if (!over) return
        const r = over.getBoundingClientRect()
        target = { el: over, index: rows.find((row) => row.el === over)!.index, side: dropSide(ev.clientY, r.top, r.bottom) }
        mark(true)
      },
      end: (dragged, released) => {
        table?.classList.remove('p-datatable-reordering')
        mark(false)
        if (!dragged) return
        swallowNextClick()
        if (!released || !target) return
        const to = dropIndex(from, target.index, target.side)
        if (to !== from) latest.current.onRowMove?.(from, to)
      },
    })
  }

  /** Whether the click being handled ends a drag (and so must not sort); asking clears it. */
  const endedGesture = () => {
    const swallowed = swallowClick.current
    swallowClick.current = false
    return swallowed
  }

  return { startResize, startDrag, startRowDrag, endedGesture }
}
