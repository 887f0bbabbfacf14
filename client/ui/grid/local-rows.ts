import { useMemo, useState } from 'react'
import type { GridSort } from './DataGrid'
import { sortRows } from './sort-rows'

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
