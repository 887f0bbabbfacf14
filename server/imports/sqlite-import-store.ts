import type Database from 'better-sqlite3'
import { openDatabase } from '../lib/sqlite'
import { IMPORT_JOB_TTL_MS, PEEK_CHUNK, type ImportedKey, type ImportStore, type StoredJob } from './import-store'

/** The embedded import store: one SQLite file under DATA_DIR. */
export class SqliteImportStore implements ImportStore {
  private readonly db: Database.Database

  constructor(
    file: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS import_jobs (id TEXT PRIMARY KEY, at INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS import_rows (id TEXT PRIMARY KEY, at INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS import_keys (
        brand TEXT NOT NULL, definition TEXT NOT NULL, key TEXT NOT NULL,
        job TEXT NOT NULL, row INTEGER NOT NULL, record TEXT, unique_value TEXT,
        PRIMARY KEY (brand, definition, key)
      );
      CREATE INDEX IF NOT EXISTS import_keys_unique ON import_keys (brand, definition, unique_value);
    `)
  }

  private expire(): void {
    const before = this.now() - IMPORT_JOB_TTL_MS
    this.db.prepare('DELETE FROM import_jobs WHERE at < ?').run(before)
    this.db.prepare('DELETE FROM import_rows WHERE at < ?').run(before)
  }

  async saveJob(job: StoredJob): Promise<void> {
    this.db.prepare('INSERT INTO import_jobs (id, at, data) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data').run(job.id, job.createdAt, JSON.stringify(job))
  }

  async job(id: string): Promise<StoredJob | null> {
    this.expire()
    const row = this.db.prepare<[string], { data: string }>('SELECT data FROM import_jobs WHERE id = ?').get(id)
    return row ? (JSON.parse(row.data) as StoredJob) : null
  }

  async saveRows(id: string, sealed: string): Promise<void> {
    this.db.prepare('INSERT OR REPLACE INTO import_rows (id, at, data) VALUES (?, ?, ?)').run(id, this.now(), sealed)
  }

  async rows(id: string): Promise<string | null> {
    return this.db.prepare<[string], { data: string }>('SELECT data FROM import_rows WHERE id = ?').get(id)?.data ?? null
  }

  async claim(brand: string, definition: string, key: string, entry: ImportedKey): Promise<ImportedKey | null> {
    const taken = this.db
      .prepare('INSERT OR IGNORE INTO import_keys (brand, definition, key, job, row, record, unique_value) VALUES (?, ?, ?, ?, ?, NULL, ?)')
      .run(brand, definition, key, entry.job, entry.row, entry.unique ?? null)
    if (taken.changes === 1) return null
    const row = this.db
      .prepare<[string, string, string], { job: string; row: number; record: string | null; unique_value: string | null }>('SELECT job, row, record, unique_value FROM import_keys WHERE brand = ? AND definition = ? AND key = ?')
      .get(brand, definition, key)
    return row ? held(row) : null
  }

  async peekMany(brand: string, definition: string, keys: readonly string[]): Promise<Map<string, ImportedKey>> {
    const out = new Map<string, ImportedKey>()
    for (let i = 0; i < keys.length; i += PEEK_CHUNK) {
      const chunk = keys.slice(i, i + PEEK_CHUNK)
      const rows = this.db
        .prepare<unknown[], KeyRow & { key: string }>(`SELECT key, job, row, record, unique_value FROM import_keys WHERE brand = ? AND definition = ? AND key IN (${chunk.map(() => '?').join(',')})`)
        .all(brand, definition, ...chunk)
      for (const row of rows) out.set(row.key, held(row))
    }
    return out
  }

  async settle(brand: string, definition: string, key: string, entry: ImportedKey): Promise<void> {
    this.db
      .prepare('INSERT OR REPLACE INTO import_keys (brand, definition, key, job, row, record, unique_value) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(brand, definition, key, entry.job, entry.row, entry.record ?? null, entry.unique ?? null)
  }

  async release(brand: string, definition: string, key: string): Promise<void> {
    this.db.prepare('DELETE FROM import_keys WHERE brand = ? AND definition = ? AND key = ?').run(brand, definition, key)
  }

  async uniqueHolders(brand: string, definition: string, values: readonly string[]): Promise<Map<string, ImportedKey & { key: string }>> {
    const out = new Map<string, ImportedKey & { key: string }>()
    for (let i = 0; i < values.length; i += PEEK_CHUNK) {
      const chunk = values.slice(i, i + PEEK_CHUNK)
      const rows = this.db
        .prepare<unknown[], KeyRow & { key: string }>(
          `SELECT key, job, row, record, unique_value FROM import_keys WHERE brand = ? AND definition = ? AND record IS NOT NULL AND unique_value IN (${chunk.map(() => '?').join(',')})`,
        )
        .all(brand, definition, ...chunk)
      for (const row of rows) if (!out.has(row.unique_value!)) out.set(row.unique_value!, { key: row.key, ...held(row) })
    }
    return out
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }
}

interface KeyRow {
  job: string
  row: number
  record: string | null
  unique_value: string | null
}

function held(row: KeyRow): ImportedKey {
  return { job: row.job, row: row.row, ...(row.record ? { record: row.record } : {}), ...(row.unique_value ? { unique: row.unique_value } : {}) }
}
