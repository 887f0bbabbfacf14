import type Database from 'better-sqlite3'

/** The tables whose records can be deleted and whose ids the audit and links refer to. */
export type RetiringTable = 'usuarios' | 'grupos' | 'permisos' | 'api_usuarios' | 'carpetas' | 'archivos'

const statements = new WeakMap<Database.Database, Map<RetiringTable, Database.Statement>>()

/**
 * The id of a new record: above every id the table holds and every id it ever deleted
 * (migration 012), so an id is never given to a second record. Call it inside the transaction
 * that inserts.
 */
export function nextId(db: Database.Database, table: RetiringTable): number {
  let byTable = statements.get(db)
  if (!byTable) statements.set(db, (byTable = new Map()))
  let statement = byTable.get(table)
  if (!statement) {
    // The table name comes from the closed list above, never from a request.
    statement = db.prepare(`SELECT max(COALESCE((SELECT max(id) FROM ${table}), 0), COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = ?), 0)) + 1 AS id`)
    byTable.set(table, statement)
  }
  return (statement.get(table) as { id: number }).id
}
