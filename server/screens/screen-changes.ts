import type { ScreenFile, TableNode, Text } from '../../schemas/screen'
import { visitNodes } from '../../schemas/screen-walk'

export interface ScreenChange {
  /** The JSON path of what changed (for a table's columns, the table's `columns`). */
  path: string
  type: 'hidden' | 'shown' | 'renamed' | 'reordered' | 'added' | 'removed' | 'changed'
  text: string
}

const es = (t: Text) => (typeof t === 'string' ? t : t.es)
/** A diff of a whole screen is for reading: past this many lines it says how many more. */
const MAX_CHANGES = 60

/** The table nodes of a screen by id. */
export function tablesOf(screen: ScreenFile): Map<string, TableNode> {
  const tables = new Map<string, TableNode>()
  visitNodes(screen.root, (n) => {
    if (n.type === 'table') tables.set(n.id, n)
  })
  return tables
}

/**
 * What changed between two versions of a screen, in Spanish sentences for the history and the
 * diff: a table's columns as an admin thinks of them (hidden, shown, renamed, reordered), and
 * everything else by JSON path. `before` null: the screen is new.
 */
export function describeScreenChanges(before: ScreenFile | null, after: ScreenFile | null): ScreenChange[] {
  if (!before && !after) return []
  if (!before) return [{ path: '', type: 'added', text: `Pantalla nueva «${es(after!.title)}».` }]
  if (!after) return [{ path: '', type: 'removed', text: `La pantalla «${es(before.title)}» deja de existir.` }]
  const out: ScreenChange[] = []
  // Each table's columns, by JSON path: described as columns, and left out of the generic diff.
  const columnPaths = new Map<string, string>()
  collectColumnPaths(before.root, '/root', columnPaths)
  collectColumnPaths(after.root, '/root', columnPaths)
  const was = tablesOf(before)
  for (const [tableId, table] of tablesOf(after)) {
    const old = was.get(tableId)
    if (!old) continue
    columnChanges(tableId, old, table, [...columnPaths].find(([, id]) => id === tableId)?.[0] ?? '/root', out)
  }
  jsonChanges(before, after, '', new Set(columnPaths.keys()), out)
  if (out.length > MAX_CHANGES) return [...out.slice(0, MAX_CHANGES), { path: '', type: 'changed', text: `Y ${out.length - MAX_CHANGES} cambios más.` }]
  return out
}

function columnChanges(tableId: string, old: TableNode, table: TableNode, at: string, out: ScreenChange[]) {
  const oldBy = new Map(old.columns.map((c) => [c.field, c]))
  const newBy = new Map(table.columns.map((c) => [c.field, c]))
  for (const c of old.columns) {
    if (!newBy.has(c.field)) out.push({ path: at, type: 'hidden', text: `Tabla «${tableId}»: la columna «${es(c.header)}» queda oculta.` })
  }
  for (const c of table.columns) {
    const o = oldBy.get(c.field)
    if (!o) out.push({ path: at, type: 'shown', text: `Tabla «${tableId}»: la columna «${es(c.header)}» vuelve a verse.` })
    else if (es(o.header) !== es(c.header)) out.push({ path: at, type: 'renamed', text: `Tabla «${tableId}»: la columna «${es(o.header)}» se titula ahora «${es(c.header)}».` })
    else if (JSON.stringify(o) !== JSON.stringify(c)) out.push({ path: at, type: 'changed', text: `Tabla «${tableId}»: cambia la definición de la columna «${es(c.header)}».` })
  }
  const common = (cols: { field: string }[], other: Map<string, unknown>) => cols.map((c) => c.field).filter((f) => other.has(f))
  if (JSON.stringify(common(old.columns, newBy)) !== JSON.stringify(common(table.columns, oldBy))) {
    out.push({ path: at, type: 'reordered', text: `Tabla «${tableId}»: nuevo orden de columnas: ${table.columns.map((c) => es(c.header)).join(', ')}.` })
  }
}

/** The JSON path of every table's columns, with the table's id. */
function collectColumnPaths(value: unknown, at: string, out: Map<string, string>) {
  if (!value || typeof value !== 'object') return
  if (Array.isArray(value)) return value.forEach((v, i) => collectColumnPaths(v, `${at}/${i}`, out))
  const o = value as Record<string, unknown>
  if (o.type === 'table' && Array.isArray(o.columns)) out.set(`${at}/columns`, String(o.id))
  for (const [k, v] of Object.entries(o)) collectColumnPaths(v, `${at}/${k}`, out)
}

const short = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'nada'
  return text.length > 80 ? `${text.slice(0, 77)}…` : text
}

/** Changes by JSON path: added and removed keys, changed values, arrays item by item when their length holds. */
function jsonChanges(a: unknown, b: unknown, at: string, skip: ReadonlySet<string>, out: ScreenChange[]) {
  if (skip.has(at) || JSON.stringify(a) === JSON.stringify(b)) return
  const where = at || '/'
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.forEach((v, i) => jsonChanges(v, b[i], `${at}/${i}`, skip, out))
  if (Array.isArray(a) && Array.isArray(b)) {
    out.push({ path: where, type: 'changed', text: `${where}: la lista pasa de ${a.length} a ${b.length} elementos.` })
    return
  }
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) if (!(k in b)) out.push({ path: `${at}/${k}`, type: 'removed', text: `${at}/${k}: se quita (era ${short(a[k])}).` })
    for (const [k, v] of Object.entries(b)) {
      if (!(k in a)) out.push({ path: `${at}/${k}`, type: 'added', text: `${at}/${k}: se añade ${short(v)}.` })
      else jsonChanges(a[k], v, `${at}/${k}`, skip, out)
    }
    return
  }
  out.push({ path: where, type: 'changed', text: `${where}: ${short(a)} → ${short(b)}.` })
}
