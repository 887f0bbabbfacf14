import type { Column, ScreenFile, TableNode } from '../../schemas/screen'
import { nodesOf } from '../../schemas/screen-walk'
import type { View } from '../../schemas/view'

/** The table `tableId` of a screen, wherever it sits in the screen's tree. */
export function tableOf(screen: ScreenFile, tableId: string): TableNode | undefined {
  return nodesOf(screen.root).find((n): n is TableNode => n.type === 'table' && n.id === tableId)
}

const list = (fields: Iterable<string>) => [...new Set(fields)].map((f) => `«${f}»`).join(', ')

/**
 * Why a view's filters, sort and columns do not fit the table, as one Spanish sentence, or
 * null when they do: columns the table lacks, filters on a column without a filter, a sort on
 * a column that does not sort.
 */
export function columnProblem(table: TableNode, content: Pick<View, 'filters' | 'sort' | 'columns'>): string | null {
  const byField = new Map<string, Column>(table.columns.map((c) => [c.field, c]))
  const named = [...Object.keys(content.filters), ...(content.sort ? [content.sort.field] : []), ...(content.columns ?? [])]
  const unknown = named.filter((f) => !byField.has(f))
  if (unknown.length) return `La tabla «${table.id}» no tiene estas columnas: ${list(unknown)}.`
  const unfiltered = Object.keys(content.filters).filter((f) => !byField.get(f)!.filter)
  if (unfiltered.length) return `La tabla «${table.id}» no filtra por ${list(unfiltered)}.`
  if (content.sort && !byField.get(content.sort.field)!.sortable) return `La tabla «${table.id}» no ordena por «${content.sort.field}».`
  if (content.columns && content.columns.length === 0) return 'Una vista muestra al menos una columna.'
  return null
}
