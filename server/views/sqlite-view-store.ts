import type Database from 'better-sqlite3'
import { openDatabase } from '../lib/sqlite'
import { nameKey, VIEW_LIMITS, type View, type ViewStore, type ViewWriteResult } from './view-store'

/** The embedded view store: one SQLite file under DATA_DIR; the unique index keeps names apart. */
export class SqliteViewStore implements ViewStore {
  private readonly db: Database.Database

  constructor(file: string) {
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS views (
        id TEXT PRIMARY KEY,
        brand TEXT NOT NULL,
        screen TEXT NOT NULL,
        table_id TEXT NOT NULL,
        owner_id INTEGER NOT NULL,
        name_key TEXT NOT NULL,
        version INTEGER NOT NULL,
        data TEXT NOT NULL,
        UNIQUE (brand, owner_id, screen, table_id, name_key)
      );
      CREATE INDEX IF NOT EXISTS views_by_table ON views (brand, screen, table_id);
      CREATE INDEX IF NOT EXISTS views_by_owner ON views (brand, owner_id);
    `)
  }

  async listTable(brand: string, screen: string, table: string): Promise<View[]> {
    return this.db
      .prepare<[string, string, string], { data: string }>('SELECT data FROM views WHERE brand = ? AND screen = ? AND table_id = ?')
      .all(brand, screen, table)
      .map((r) => JSON.parse(r.data) as View)
  }

  async get(id: string): Promise<View | null> {
    const row = this.db.prepare<[string], { data: string }>('SELECT data FROM views WHERE id = ?').get(id)
    return row ? (JSON.parse(row.data) as View) : null
  }

  async create(view: View, limits = VIEW_LIMITS): Promise<ViewWriteResult> {
    return this.db.transaction((): ViewWriteResult => {
      const key = nameKey(view.name)
      const same = this.db
        .prepare<[string, number, string, string], { id: string; name_key: string }>('SELECT id, name_key FROM views WHERE brand = ? AND owner_id = ? AND screen = ? AND table_id = ?')
        .all(view.brand, view.owner.id, view.screen, view.table)
      if (same.some((r) => r.name_key === key)) return 'name-taken'
      if (same.length >= limits.perTable) return 'table-full'
      const owned = this.db.prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM views WHERE brand = ? AND owner_id = ?').get(view.brand, view.owner.id)!.n
      if (owned >= limits.perOwner) return 'owner-full'
      this.db
        .prepare('INSERT INTO views (id, brand, screen, table_id, owner_id, name_key, version, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(view.id, view.brand, view.screen, view.table, view.owner.id, key, view.version, JSON.stringify(view))
      return 'ok'
    }).immediate()
  }

  async replace(next: View, expectedVersion: number): Promise<ViewWriteResult> {
    return this.db.transaction((): ViewWriteResult => {
      const row = this.db.prepare<[string], { version: number; brand: string; owner_id: number; screen: string; table_id: string }>('SELECT version, brand, owner_id, screen, table_id FROM views WHERE id = ?').get(next.id)
      if (!row) return 'missing'
      if (row.version !== expectedVersion) return 'stale'
      const key = nameKey(next.name)
      const taken = this.db
        .prepare<[string, number, string, string, string, string], { id: string }>('SELECT id FROM views WHERE brand = ? AND owner_id = ? AND screen = ? AND table_id = ? AND name_key = ? AND id <> ?')
        .get(row.brand, row.owner_id, row.screen, row.table_id, key, next.id)
      if (taken) return 'name-taken'
      this.db.prepare('UPDATE views SET name_key = ?, version = ?, data = ? WHERE id = ?').run(key, next.version, JSON.stringify(next), next.id)
      return 'ok'
    }).immediate()
  }

  async remove(id: string, expectedVersion?: number): Promise<ViewWriteResult> {
    return this.db.transaction((): ViewWriteResult => {
      const row = this.db.prepare<[string], { version: number }>('SELECT version FROM views WHERE id = ?').get(id)
      if (!row) return 'missing'
      if (expectedVersion !== undefined && row.version !== expectedVersion) return 'stale'
      this.db.prepare('DELETE FROM views WHERE id = ?').run(id)
      return 'ok'
    }).immediate()
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }
}
