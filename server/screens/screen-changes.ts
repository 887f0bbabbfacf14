import type { ScreenFile, ScreenOverlay, Text } from '../../schemas/screen'
import { applyScreenOverlay, tablesOf } from './screen-overlay'

export interface ScreenChange {
  table: string
  field: string | null
  type: 'hidden' | 'shown' | 'renamed' | 'reordered'
  text: string
}

const es = (t: Text) => (typeof t === 'string' ? t : t.es)

/** What changed in a screen's tables between two overlays, in Spanish sentences for the history. */
export function describeScreenChanges(screen: ScreenFile, before: ScreenOverlay | null, after: ScreenOverlay): ScreenChange[] {
  const was = tablesOf(applyScreenOverlay(screen, before))
  const now = tablesOf(applyScreenOverlay(screen, after))
  const out: ScreenChange[] = []
  for (const [tableId, table] of now) {
    const old = was.get(tableId)
    if (!old) continue
    const oldBy = new Map(old.columns.map((c) => [c.field, c]))
    const newBy = new Map(table.columns.map((c) => [c.field, c]))
    for (const c of old.columns) {
      if (!newBy.has(c.field)) out.push({ table: tableId, field: c.field, type: 'hidden', text: `Tabla «${tableId}»: la columna «${es(c.header)}» queda oculta.` })
    }
    for (const c of table.columns) {
      const o = oldBy.get(c.field)
      if (!o) out.push({ table: tableId, field: c.field, type: 'shown', text: `Tabla «${tableId}»: la columna «${es(c.header)}» vuelve a verse.` })
      else if (es(o.header) !== es(c.header)) out.push({ table: tableId, field: c.field, type: 'renamed', text: `Tabla «${tableId}»: la columna «${es(o.header)}» se titula ahora «${es(c.header)}».` })
    }
    const common = (cols: { field: string }[], other: Map<string, unknown>) => cols.map((c) => c.field).filter((f) => other.has(f))
    if (JSON.stringify(common(old.columns, newBy)) !== JSON.stringify(common(table.columns, oldBy))) {
      out.push({ table: tableId, field: null, type: 'reordered', text: `Tabla «${tableId}»: nuevo orden de columnas: ${table.columns.map((c) => es(c.header)).join(', ')}.` })
    }
  }
  return out
}
