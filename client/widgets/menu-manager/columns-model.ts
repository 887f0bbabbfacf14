import type { Column, ScreenFile, TableNode, Text } from '../../../schemas/screen'

/**
 * The column editor's view of an edit of a shipped table screen: per table, the columns in
 * order with their visibility and header. Columns not listed keep their shipped place after
 * the listed ones. Read from, and written back into, the whole screen the studio stores.
 */
export interface ColumnTweaks {
  tables: Record<string, { columns: { field: string; hidden?: boolean; header?: Text }[] }>
}

/** A table's shipped columns (what the editor shows each tweak against). */
export interface ShippedTable {
  id: string
  columns: { field: string; header: Text }[]
}

/** One column row of the editor: where it sits, whether everyone sees it, its header. */
export interface ColumnRow {
  field: string
  shippedHeader: string
  /** The admin's Spanish header; '' keeps the shipped one. */
  header: string
  hidden: boolean
}

export type TableRows = Record<string, ColumnRow[]>

const es = (t: Text) => (typeof t === 'string' ? t : t.es)
const en = (t: Text) => (typeof t === 'string' ? undefined : t.en)

/** The table nodes of a screen by id, wherever they sit (children, tabs, dialogs). */
export function tablesIn(screen: ScreenFile): Map<string, TableNode> {
  const found = new Map<string, TableNode>()
  const visit = (value: unknown) => {
    if (!value || typeof value !== 'object') return
    if (Array.isArray(value)) return value.forEach(visit)
    const o = value as Record<string, unknown>
    if (o.type === 'table' && typeof o.id === 'string' && Array.isArray(o.columns)) found.set(o.id, o as unknown as TableNode)
    Object.values(o).forEach(visit)
  }
  visit(screen.root)
  return found
}

/** The shipped tables of a screen, for the editor. */
export const shippedTables = (shipped: ScreenFile): ShippedTable[] =>
  [...tablesIn(shipped).values()].map((t) => ({ id: t.id, columns: t.columns.map((c) => ({ field: c.field, header: c.header })) }))

/** How a version of the screen differs from the shipped columns: its columns in order, renamed ones, the hidden ones last. */
export function tweaksOf(tables: ShippedTable[], screen: ScreenFile): ColumnTweaks {
  const tweaks: ColumnTweaks = { tables: {} }
  const now = tablesIn(screen)
  for (const table of tables) {
    const current = now.get(table.id)
    if (!current) continue
    const shipped = new Map(table.columns.map((c) => [c.field, c]))
    const shown = current.columns.filter((c) => shipped.has(c.field))
    const columns = [
      ...shown.map((c) => (es(c.header) === es(shipped.get(c.field)!.header) ? { field: c.field } : { field: c.field, header: c.header })),
      ...table.columns.filter((c) => !shown.some((s) => s.field === c.field)).map((c) => ({ field: c.field, hidden: true })),
    ]
    const same = columns.every((c, i) => c.field === table.columns[i]?.field && !('header' in c) && !('hidden' in c))
    if (!same) tweaks.tables[table.id] = { columns }
  }
  return tweaks
}

/**
 * The whole screen to save: `screen` with each shipped table's columns as the tweaks say
 * (listed visible ones first, the others in shipped order, headers replaced). Column
 * definitions come from `screen`, or from the shipped file for a column it hides today.
 */
export function screenWith(screen: ScreenFile, shipped: ScreenFile, tweaks: ColumnTweaks): ScreenFile {
  const copy = structuredClone(screen)
  const original = tablesIn(shipped)
  for (const [id, table] of tablesIn(copy)) {
    const base = original.get(id)
    if (!base) continue
    const defs = new Map<string, Column>([...base.columns.map((c) => [c.field, c] as const), ...table.columns.map((c) => [c.field, c] as const)])
    const listed = (tweaks.tables[id]?.columns ?? []).filter((c) => defs.has(c.field))
    // No header of the admin's: the shipped one.
    const headerOf = (c: { field: string; header?: Text }) => c.header ?? base.columns.find((b) => b.field === c.field)?.header ?? defs.get(c.field)!.header
    const rest = base.columns.filter((c) => !listed.some((l) => l.field === c.field)).map((c) => ({ ...defs.get(c.field)!, header: c.header }))
    table.columns = [...listed.filter((c) => !c.hidden).map((c) => ({ ...defs.get(c.field)!, header: headerOf(c) })), ...rest]
  }
  return copy
}

/** The editor's rows from the shipped columns and the tweaks (listed columns first, the rest in shipped order). */
export function rowsFrom(state: { tables: ShippedTable[] }, tweaks: ColumnTweaks): TableRows {
  const out: TableRows = {}
  for (const table of state.tables) {
    const tweak = tweaks.tables[table.id]?.columns ?? []
    const shipped = new Map(table.columns.map((c) => [c.field, c]))
    const listed = tweak.filter((c) => shipped.has(c.field))
    const rest = table.columns.filter((c) => !listed.some((l) => l.field === c.field))
    out[table.id] = [
      ...listed.map((c) => {
        const header = c.header !== undefined ? es(c.header) : ''
        const base = es(shipped.get(c.field)!.header)
        return { field: c.field, shippedHeader: base, header: header === base ? '' : header, hidden: !!c.hidden }
      }),
      ...rest.map((c) => ({ field: c.field, shippedHeader: es(c.header), header: '', hidden: false })),
    ]
  }
  return out
}

/** The tweaks to store: only tables that differ from how they ship. */
export function tweaksFrom(state: { tables: ShippedTable[] }, rows: TableRows): ColumnTweaks {
  const tweaks: ColumnTweaks = { tables: {} }
  for (const table of state.tables) {
    const list = rows[table.id]
    if (!list) continue
    const reordered = list.some((r, i) => r.field !== table.columns[i]?.field)
    const tweaked = list.some((r) => r.hidden || r.header.trim())
    if (!reordered && !tweaked) continue
    // Hidden columns have no place in the saved screen: listed last, in shipped order (as tweaksOf reads them back).
    const hidden = new Set(list.filter((r) => r.hidden).map((r) => r.field))
    const ordered = [...list.filter((r) => !r.hidden), ...table.columns.filter((c) => hidden.has(c.field)).map((c) => list.find((r) => r.field === c.field)!)]
    tweaks.tables[table.id] = {
      columns: ordered.map((r) => {
        const shipped = table.columns.find((c) => c.field === r.field)!
        const english = en(shipped.header)
        return {
          field: r.field,
          ...(r.hidden ? { hidden: true } : {}),
          // A hidden column's header is not kept: it is not in the saved screen.
          ...(r.header.trim() && !r.hidden ? { header: english ? { es: r.header.trim(), en: english } : r.header.trim() } : {}),
        }
      }),
    }
  }
  return tweaks
}

