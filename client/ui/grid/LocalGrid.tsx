import { DataGrid, type DataGridProps } from './DataGrid'
import { useLocalRows } from './local-rows'

/**
 * A DataGrid over rows the browser holds whole (a widget's results, an import's problems):
 * sorted and paged here, `pageSize` rows a page, a pager only when there is more than one.
 */
export function LocalGrid<R>({ rows, pageSize = 25, sortValue, ...props }: Omit<DataGridProps<R>, 'sort' | 'onSort' | 'pager'> & { pageSize?: number; sortValue?: (row: R, key: string) => unknown }) {
  const local = useLocalRows(rows, { pageSize, sortValue })
  return <DataGrid<R> {...props} {...local} />
}
