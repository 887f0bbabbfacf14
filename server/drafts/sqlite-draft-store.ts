import type Database from 'better-sqlite3'
import { openDatabase } from '../lib/sqlite'
import { DRAFT_TTL_MS, type DraftOwner, type DraftStore, type DraftStoreOptions, type SavedDraft } from './draft-store'

/** Expired rows are never answered; this only frees their space. */
const SWEEP_EVERY_MS = 3600_000

/** The embedded draft store: one SQLite file under DATA_DIR. */
export class SqliteDraftStore implements DraftStore {
  private readonly db: Database.Database
  private readonly now: () => number
  private readonly ttlMs: number
  private readonly statements
  private readonly sweeper: NodeJS.Timeout

  constructor(file: string, opts: DraftStoreOptions = {}) {
    this.now = opts.now ?? Date.now
    this.ttlMs = opts.ttlMs ?? DRAFT_TTL_MS
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS drafts (
        user_id INTEGER NOT NULL,
        brand TEXT NOT NULL,
        key TEXT NOT NULL,
        body TEXT NOT NULL,
        saved_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, brand, key)
      );
      CREATE INDEX IF NOT EXISTS drafts_saved_at ON drafts(saved_at);
    `)
    this.statements = {
      get: this.db.prepare<[number, string, string, number], { body: string; saved_at: number }>(
        'SELECT body, saved_at FROM drafts WHERE user_id = ? AND brand = ? AND key = ? AND saved_at > ?',
      ),
      put: this.db.prepare(
        `INSERT INTO drafts (user_id, brand, key, body, saved_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user_id, brand, key) DO UPDATE SET body = excluded.body, saved_at = excluded.saved_at`,
      ),
      delete: this.db.prepare('DELETE FROM drafts WHERE user_id = ? AND brand = ? AND key = ?'),
      sweep: this.db.prepare('DELETE FROM drafts WHERE saved_at <= ?'),
    }
    this.sweep()
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS)
    this.sweeper.unref()
  }

  async get(owner: DraftOwner, key: string): Promise<SavedDraft | null> {
    const row = this.statements.get.get(owner.userId, owner.brand, key, this.now() - this.ttlMs)
    return row ? { values: JSON.parse(row.body) as Record<string, unknown>, savedAt: row.saved_at } : null
  }

  async put(owner: DraftOwner, key: string, values: Record<string, unknown>): Promise<SavedDraft> {
    const savedAt = this.now()
    this.statements.put.run(owner.userId, owner.brand, key, JSON.stringify(values), savedAt)
    return { values, savedAt }
  }

  async delete(owner: DraftOwner, key: string): Promise<void> {
    this.statements.delete.run(owner.userId, owner.brand, key)
  }

  /** Deletes the expired drafts; returns how many. */
  sweep(): number {
    return this.statements.sweep.run(this.now() - this.ttlMs).changes
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    if (this.db.open) this.db.close()
  }
}
