import { useEffect, useState, type RefObject } from 'react'
import { ROW_INDEX_ATTR } from '../../ui/grid/row-index'
import { tableOf } from './grid-dom'

/**
 * The height of a body row as drawn (badges, action buttons and the density decide it), for
 * the virtual scroller, which places rows by a fixed height: starts from `guess`, then takes
 * the height the drawn rows really have (the scroller draws them after the data arrives, so
 * they are watched for).
 */
export function useRowHeight(rootRef: RefObject<HTMLElement | null>, guess: number, active: boolean, rows: unknown): number {
  const [measured, setMeasured] = useState<{ guess: number; height: number } | null>(null)
  const height = measured?.guess === guess ? measured.height : guess
  useEffect(() => {
    const root = rootRef.current
    if (!active || !root) return
    const measure = () => {
      const row = tableOf(root)?.querySelector(`:scope > tbody > tr[${ROW_INDEX_ATTR}]`)
      const drawn = row ? Math.ceil(row.getBoundingClientRect().height) : 0
      if (drawn > height) setMeasured({ guess, height: drawn })
    }
    measure()
    const observer = new MutationObserver(measure)
    observer.observe(root, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [active, guess, height, rootRef, rows])
  return height
}
