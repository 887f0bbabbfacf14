import type Database from 'better-sqlite3'
import { EventEmitter } from 'node:events'
import { openDatabase } from '../lib/sqlite'
import { VersionConflictError, type Author, type MenuStore, type StoredVersion } from './menu-store'

interface VersionRow {
  doc: string
  version: number
  body: string
  author_id: number
  author_name: string
  author_email: string
  created_at: number
  kind: 'edit' | 'rollback'
  restored_from: number | null
}

/** The embedded menu store: one SQLite file under DATA_DIR. Saves are atomic with their version check. */
export class SqliteMenuStore implements MenuStore {
  private readonly db: Database.Database
  private readonly events = new EventEmitter()
  private readonly now: () => number

  constructor(file: string, opts: { now?: () => number } = {}) {
    this.now = opts.now ?? Date.now
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS versions (
        doc TEXT NOT NULL,
        version INTEGER NOT NULL,
        body TEXT NOT NULL,
        author_id INTEGER NOT NULL,
        author_name TEXT NOT NULL,
        author_email TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        kind TEXT NOT NULL,
        restored_from INTEGER,
        PRIMARY KEY (doc, version)
      );
    `)
    this.events.setMaxListeners(0)
  }

  private toVersion<T>(row: VersionRow): StoredVersion<T> {
    return {
      doc: row.doc,
      version: row.version,
      body: JSON.parse(row.body) as T,
      author: { id: row.author_id, name: row.author_name, email: row.author_email },
      createdAt: row.created_at,
      kind: row.kind,
      restoredFrom: row.restored_from,
    }
  }

  async current<T>(doc: string): Promise<StoredVersion<T> | null> {
    const row = this.db.prepare<[string], VersionRow>('SELECT * FROM versions WHERE doc = ? ORDER BY version DESC LIMIT 1').get(doc)
    return row ? this.toVersion<T>(row) : null
  }

  async get<T>(doc: string, version: number): Promise<StoredVersion<T> | null> {
    const row = this.db.prepare<[string, number], VersionRow>('SELECT * FROM versions WHERE doc = ? AND version = ?').get(doc, version)
    return row ? this.toVersion<T>(row) : null
  }

  async history<T>(doc: string, limit = 100): Promise<StoredVersion<T>[]> {
    return this.db
      .prepare<[string, number], VersionRow>('SELECT * FROM versions WHERE doc = ? ORDER BY version DESC LIMIT ?')
      .all(doc, limit)
      .map((r) => this.toVersion<T>(r))
  }

  async save<T>(doc: string, expectedVersion: number, body: T, author: Author, kind: StoredVersion['kind'] = 'edit', restoredFrom: number | null = null): Promise<StoredVersion<T>> {
    const saved = this.db.transaction((): StoredVersion<T> => {
      const top = (this.db.prepare<[string], { v: number | null }>('SELECT MAX(version) AS v FROM versions WHERE doc = ?').get(doc)?.v ?? 0) as number
      if (top !== expectedVersion) throw new VersionConflictError(null)
      const row: VersionRow = {
        doc,
        version: top + 1,
        body: JSON.stringify(body),
        author_id: author.id,
        author_name: author.name,
        author_email: author.email,
        created_at: this.now(),
        kind,
        restored_from: restoredFrom,
      }
      this.db
        .prepare(
          'INSERT INTO versions (doc, version, body, author_id, author_name, author_email, created_at, kind, restored_from) VALUES (@doc, @version, @body, @author_id, @author_name, @author_email, @created_at, @kind, @restored_from)',
        )
        .run(row)
      return this.toVersion<T>(row)
    })
    let result: StoredVersion<T>
    try {
      result = saved()
    } catch (err) {
      if (err instanceof VersionConflictError) throw new VersionConflictError(await this.current(doc))
      throw err
    }
    this.events.emit('change', doc)
    return result
  }

  subscribe(listener: (doc: string) => void): () => void {
    this.events.on('change', listener)
    return () => this.events.off('change', listener)
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    this.events.removeAllListeners()
    if (this.db.open) this.db.close()
  }
}
