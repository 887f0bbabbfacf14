import type { ScreenFile, ScreenOverlay, TableNode } from '../../schemas/screen'
import { visitNodes } from '../../schemas/screen-walk'

export class ScreenOverlayError extends Error {}

/** The table nodes of a screen by id. */
export function tablesOf(screen: ScreenFile): Map<string, TableNode> {
  const tables = new Map<string, TableNode>()
  visitNodes(screen.root, (n) => {
    if (n.type === 'table') tables.set(n.id, n)
  })
  return tables
}

/** Checks an overlay against the shipped screen: its tables and columns exist, headers make sense, a column stays visible. */
export function validateScreenOverlay(screen: ScreenFile, overlay: ScreenOverlay): void {
  const tables = tablesOf(screen)
  for (const [tableId, tweak] of Object.entries(overlay.tables)) {
    const table = tables.get(tableId)
    if (!table) throw new ScreenOverlayError(`La pantalla «${screen.id}» no tiene la tabla «${tableId}».`)
    const fields = new Set(table.columns.map((c) => c.field))
    const seen = new Set<string>()
    for (const c of tweak.columns) {
      if (!fields.has(c.field)) throw new ScreenOverlayError(`La tabla «${tableId}» no tiene la columna «${c.field}».`)
      if (seen.has(c.field)) throw new ScreenOverlayError(`La columna «${c.field}» aparece dos veces en la tabla «${tableId}».`)
      seen.add(c.field)
      const header = typeof c.header === 'string' ? c.header : c.header?.es
      if (c.header !== undefined && (!header || !header.trim() || header.length > 60)) throw new ScreenOverlayError(`El título de la columna «${c.field}» debe tener entre 1 y 60 caracteres.`)
    }
    const hidden = new Set(tweak.columns.filter((c) => c.hidden).map((c) => c.field))
    if (table.columns.every((c) => hidden.has(c.field))) throw new ScreenOverlayError(`La tabla «${tableId}» debe conservar al menos una columna visible.`)
  }
}

/**
 * The screen with an admin's tweaks applied: per table, the listed columns first in the given
 * order, the others after in their shipped order; hidden columns removed for everyone;
 * headers replaced. Works on a copy; tweaks naming things that no longer exist are skipped.
 */
export function applyScreenOverlay(screen: ScreenFile, overlay: ScreenOverlay | null | undefined): ScreenFile {
  if (!overlay || Object.keys(overlay.tables).length === 0) return screen
  const copy = structuredClone(screen)
  for (const [tableId, table] of tablesOf(copy)) {
    const tweak = overlay.tables[tableId]
    if (!tweak) continue
    const byField = new Map(table.columns.map((c) => [c.field, c]))
    const listed = tweak.columns.filter((c) => byField.has(c.field))
    const rest = table.columns.filter((c) => !listed.some((l) => l.field === c.field))
    table.columns = [
      ...listed.filter((c) => !c.hidden).map((c) => ({ ...byField.get(c.field)!, ...(c.header !== undefined ? { header: c.header } : {}) })),
      ...rest,
    ]
  }
  return copy
}
