import Database from 'better-sqlite3'

/** Lower case without accents: what text filters and sorts compare («Núñez» → «nunez»). */
export function foldText(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
}

/**
 * Registers `unaccent()` so text filters match «Jose» to «José» and «nunez» to «Núñez». Indexes
 * on `unaccent(…)` need it on every connection that writes their tables, so the database opens
 * with it (db/database.ts).
 */
export function registerSqlFunctions(db: Database.Database): void {
  db.function('unaccent', { deterministic: true }, (value: unknown) => (value === null || value === undefined ? null : foldText(String(value))))
}

/**
 * A read-only connection to the same database file, for a long read such as a streamed export:
 * while a statement iterates, its connection refuses writes, and in WAL mode this one's reads
 * (one consistent snapshot) leave the main connection free. An in-memory database has no
 * file to share: it answers itself.
 */
export function openReader(db: Database.Database): { reader: Database.Database; close: () => void } {
  if (db.memory) return { reader: db, close: () => {} }
  const reader = new Database(db.name, { readonly: true, fileMustExist: true })
  registerSqlFunctions(reader)
  return { reader, close: () => reader.close() }
}
