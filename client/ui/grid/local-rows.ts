import { useMemo, useState } from 'react'
import type { GridSort } from './DataGrid'

const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' })

/** How two cell values compare for sorting: numbers by value, anything else as Spanish text (accents and case aside, digits as numbers). */
export function compareValues(x: unknown, y: unknown): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y
  return collator.compare(String(x ?? ''), String(y ?? ''))
}

/** `rows` sorted by `sort` (a stable sort: equal rows keep their order), with `sortValue` reading a row's value for a column. */
export function sortRows<R>(rows: readonly R[], sort: GridSort | null, sortValue: (row: R, key: string) => unknown): R[] {
  if (!sort) return [...rows]
  const dir = sort.order === 'desc' ? -1 : 1
  return [...rows].sort((a, b) => compareValues(sortValue(a, sort.key), sortValue(b, sort.key)) * dir)
}

const byKey = (row: unknown, key: string) => (row as Record<string, unknown>)[key]

/**
 * Sorting and paging of rows the browser holds whole, for LocalGrid: `pageSize` rows a page,
 * back to the first page on a new sort or when the rows shrink below the page shown.
 */
export function useLocalRows<R>(rows: readonly R[], { pageSize, sortValue = byKey }: { pageSize: number; sortValue?: (row: R, key: string) => unknown }) {
  const [page, setPage] = useState(0)
  const [sort, setSort] = useState<GridSort | null>(null)
  const sorted = useMemo(() => sortRows(rows, sort, sortValue), [rows, sort, sortValue])
  const last = Math.max(0, Math.ceil(rows.length / pageSize) - 1)
  const shown = Math.min(page, last)
  return {
    rows: sorted.slice(shown * pageSize, (shown + 1) * pageSize),
    sort,
    onSort: (next: GridSort | null) => {
      setSort(next)
      setPage(0)
    },
    pager: rows.length > pageSize ? { page: shown, size: pageSize, total: rows.length, onChange: (p: number) => setPage(p) } : null,
  }
}
