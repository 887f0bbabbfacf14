import type { TableNode } from '../../../schemas/screen'
import type { View } from '../../../schemas/view'
import type { SavedFilter, TableState } from './table-state'

/** What a view keeps of a table: filters, sort and (optionally) the columns shown, in order. */
export type ViewContent = Pick<View, 'filters' | 'sort' | 'columns'>

/** A view made to fit the table as it is now, and the columns it named that the table no longer has (or no longer filters or sorts by). */
export interface FittedView {
  filters: TableState['filters']
  sort: TableState['sort']
  /** Undefined: the view says nothing of columns (or none of its columns is left), the table's own choice stays. */
  columns: string[] | undefined
  dropped: string[]
}

/**
 * Fits a view to the table: a screen may have lost or changed a column since the view was
 * saved. What still fits is applied; the rest is named, so the user is told what was dropped.
 */
export function fitView(node: TableNode, content: ViewContent): FittedView {
  const byField = new Map(node.columns.map((c) => [c.field, c]))
  const dropped = new Set<string>()
  const filters: Record<string, string> = {}
  for (const [field, value] of Object.entries(content.filters)) {
    if (!value) continue
    if (byField.get(field)?.filter) filters[field] = value
    else dropped.add(field)
  }
  let sort: TableState['sort'] = null
  if (content.sort) {
    if (byField.get(content.sort.field)?.sortable) sort = content.sort
    else dropped.add(content.sort.field)
  }
  const kept = content.columns?.filter((f) => {
    if (byField.has(f)) return true
    dropped.add(f)
    return false
  })
  return { filters, sort, columns: kept?.length ? kept : undefined, dropped: [...dropped] }
}

/** The names of dropped columns as the user knows them: the column's header when the table still has it, else its field. */
export function droppedLabels(node: TableNode, dropped: string[], label: (header: TableNode['columns'][number]['header']) => string): string[] {
  return dropped.map((f) => {
    const col = node.columns.find((c) => c.field === f)
    return col ? label(col.header) : f
  })
}

/** What the table shows now, as a view keeps it. */
export function contentOf(state: TableState, columns: string[]): ViewContent {
  const filters = Object.fromEntries(Object.entries(state.filters).filter(([, v]) => !!v))
  return { filters, sort: state.sort, columns }
}

/** An old saved filter (a preference) as a private view to move into the store, fitted to the table (the store refuses unknown columns). */
export function legacyContent(node: TableNode, saved: SavedFilter): ViewContent {
  const fitted = fitView(node, { filters: saved.filters ?? {}, sort: saved.sort ?? null })
  return { filters: fitted.filters, sort: fitted.sort }
}

const sameContent = (a: ViewContent, b: ViewContent) => JSON.stringify([a.filters, a.sort]) === JSON.stringify([b.filters, b.sort])

/**
 * The name an old saved filter takes in the store: its own, unless the user already has a
 * different view of that name (then «name (2)», «name (3)»…); null when that very view is
 * already there (moved before).
 */
export function legacyName(saved: SavedFilter, content: ViewContent, mine: Pick<View, 'name' | 'filters' | 'sort'>[], taken: Set<string>): string | null {
  const same = mine.find((v) => v.name.toLocaleLowerCase('es') === saved.name.trim().toLocaleLowerCase('es'))
  if (same && sameContent(same, content)) return null
  const base = saved.name.trim().slice(0, 54) || 'Filtro'
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base} (${n})`
    if (!taken.has(name.toLocaleLowerCase('es'))) return name
  }
}
