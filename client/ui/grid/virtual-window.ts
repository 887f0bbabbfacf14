import { useCallback, useLayoutEffect, useState, type RefObject } from 'react'

/** Rows drawn beyond each edge of the view, so a short scroll never shows a blank. */
const OVERSCAN = 10

export interface RowWindow {
  /** First row drawn (from 0). */
  start: number
  /** One past the last row drawn. */
  end: number
}

/**
 * The rows of a list of `count` rows of `rowHeight` px that a scroller showing `viewHeight` px
 * from `scrollTop` needs drawn (the rows start `headHeight` px down, under the header), with
 * `overscan` more on each side.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, viewHeight: number, headHeight = 0, overscan = OVERSCAN): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 }
  const top = Math.max(0, scrollTop - headHeight)
  const first = Math.min(count - 1, Math.floor(top / rowHeight))
  const shown = Math.ceil(Math.max(viewHeight, rowHeight) / rowHeight) + 1
  return { start: Math.max(0, first - overscan), end: Math.min(count, first + shown + overscan) }
}

/**
 * The scroll position that brings row `index` into a view of `viewHeight` px, or null when it
 * is in view already; `headHeight` and `footHeight` are the sticky header and totals row,
 * which cover the view's edges.
 */
export function scrollTopFor(index: number, rowHeight: number, scrollTop: number, viewHeight: number, headHeight = 0, footHeight = 0): number | null {
  const rowTop = headHeight + index * rowHeight
  const rowBottom = rowTop + rowHeight
  if (rowTop - headHeight < scrollTop) return rowTop - headHeight
  if (rowBottom > scrollTop + viewHeight - footHeight) return rowBottom - viewHeight + footHeight
  return null
}

/**
 * The window of rows to draw, following the scroller's position and size; everything when
 * `enabled` is false. State changes only when the window does, not on every scroll event.
 */
export function useRowWindow(scrollerRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, enabled: boolean): RowWindow {
  const [range, setRange] = useState<RowWindow>(() => rowWindow(count, rowHeight, 0, 800))
  const measure = useCallback(() => {
    const el = scrollerRef.current
    if (!el) return
    const head = el.querySelector('thead')?.getBoundingClientRect().height ?? 0
    const next = rowWindow(count, rowHeight, el.scrollTop, el.clientHeight, head)
    setRange((prev) => (prev.start === next.start && prev.end === next.end ? prev : next))
  }, [scrollerRef, count, rowHeight])
  useLayoutEffect(() => {
    const el = scrollerRef.current
    if (!enabled || !el) return
    measure()
    el.addEventListener('scroll', measure, { passive: true })
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(el)
    return () => {
      el.removeEventListener('scroll', measure)
      observer?.disconnect()
    }
  }, [enabled, measure, scrollerRef])
  return enabled ? { start: Math.min(range.start, count), end: Math.min(range.end, count) } : { start: 0, end: count }
}
