import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { registerSqlFunctions } from '../lib/sql-functions'
import { syncCatalogIndexes } from './catalog-indexes'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Opens the reference API's database (its own file and settings: it shares no code with the
 * BFF's stores, being a separate service) and applies pending migrations (`db/migrations/NNN-*.sql`,
 * in order). Its SQL functions come first: indexes on `unaccent(…)` need them to write.
 */
export function openReferenceDb(file: string): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  // A locked file is waited for (5 s), not an error. WAL with normal sync: list reads never
  // wait for a write and a commit costs no fsync. Foreign keys on: the migrations' REFERENCES
  // and ON DELETE CASCADE hold only with them (SQLite leaves them off per connection).
  const db = new Database(file, { timeout: 5000 })
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON')
  registerSqlFunctions(db)
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
  const current = Number((db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value?: string } | undefined)?.value ?? 0)
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{3}-.+\.sql$/.test(f))
    .sort()
  for (const file of files) {
    const version = Number(file.slice(0, 3))
    if (version <= current) continue
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
    db.transaction(() => {
      db.exec(sql)
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(version))
    })()
  }
  syncCatalogIndexes(db)
  return db
}

export function metaValue(db: Database.Database, key: string): string | undefined {
  return (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value?: string } | undefined)?.value
}

export function setMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value)
}
