import type { Endpoint } from '../../schemas/catalogue/endpoint'
import type { CallIndex } from '../../schemas/catalogue/match'
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

/** Kinds of personal data a filter value would show whole to whoever applies a shared view (free text and notes aside). */
const IDENTIFYING = new Set(['iban', 'nif', 'phone', 'email', 'address', 'cups'])

/**
 * The table's columns whose values the endpoint catalogue marks as personal data in the rows of
 * its call (`Items[].Nif`): lists show them masked, so a shared view must not carry one whole
 * as a filter value.
 */
export function personalColumns(table: TableNode, catalogue: CallIndex): Set<string> {
  const call: Endpoint | null = table.source.endpoint ? catalogue.findTemplate('GET', table.source.endpoint) : null
  if (!call?.personal) return new Set()
  const paged = table.source.paged !== false && !table.source.fromData
  const rows = table.source.rowsPath ?? (paged ? 'Items' : '')
  const prefix = rows ? `${rows}[].` : '[].'
  return new Set(table.columns.filter((c) => IDENTIFYING.has(call.personal![`${prefix}${c.field}`] ?? '')).map((c) => c.field))
}

/** Why a shared view may not keep these filters (personal data), or null. */
export function sharedFilterProblem(table: TableNode, filters: View['filters'], catalogue: CallIndex): string | null {
  const personal = personalColumns(table, catalogue)
  const found = Object.keys(filters).filter((f) => filters[f] && personal.has(f))
  if (found.length === 0) return null
  const names = found.map((f) => {
    const header = table.columns.find((c) => c.field === f)!.header
    return `«${typeof header === 'string' ? header : header.es}»`
  })
  return `Una vista compartida no puede filtrar por datos personales (${names.join(', ')}): quita ese filtro o guárdala solo para ti.`
}
