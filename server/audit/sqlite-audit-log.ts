import type Database from 'better-sqlite3'
import { openDatabase } from '../lib/sqlite'
import { actorText, dedupeKey, type AuditEntry, type AuditFilter, type AuditLog, type AuditPage, type NewAuditEntry } from './audit-log'

/** Retention is applied at start and then at most this often, on an append. */
const PRUNE_EVERY_MS = 3600_000
/** Rows read per step of an export. */
const BATCH = 500

export interface SqliteAuditLogOptions {
  /** Entries older than this are dropped by the store itself. */
  retentionMs: number
  now?: () => number
}

/**
 * The embedded audit log: one SQLite file under DATA_DIR. The entry is kept whole as JSON; the
 * columns beside it are what the filters search (lower-cased), indexed for a record's timeline
 * and for dates.
 */
export class SqliteAuditLog implements AuditLog {
  private readonly db: Database.Database
  private readonly now: () => number
  private lastPrune = 0

  constructor(
    file: string,
    private readonly opts: SqliteAuditLogOptions,
  ) {
    this.now = opts.now ?? Date.now
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS audit_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        dedupe TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        call TEXT NOT NULL,
        record_entity TEXT,
        record_id TEXT,
        action TEXT,
        ok INTEGER NOT NULL,
        entry TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS audit_entries_at ON audit_entries(at);
      CREATE INDEX IF NOT EXISTS audit_entries_record ON audit_entries(record_id, id);
    `)
    this.prune()
  }

  async append(entry: NewAuditEntry): Promise<void> {
    this.db
      .prepare(
        `INSERT OR IGNORE INTO audit_entries (at, dedupe, kind, actor, call, record_entity, record_id, action, ok, entry)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(Date.parse(entry.at), dedupeKey(entry), entry.kind, actorText(entry), entry.call.toLowerCase(), entry.record?.entity ?? null, entry.record?.id.toLowerCase() ?? null, entry.action ?? null, entry.outcome.ok ? 1 : 0, JSON.stringify(entry))
    if (this.now() - this.lastPrune > PRUNE_EVERY_MS) this.prune()
  }

  async query(filter: AuditFilter, page: { offset: number; limit: number }): Promise<AuditPage> {
    const { where, params } = whereOf(filter)
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM audit_entries ${where}`).get(...params) as { n: number }).n
    const rows = this.db.prepare(`SELECT id, entry FROM audit_entries ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...params, page.limit, page.offset) as Row[]
    return { items: rows.map(toEntry), total, partial: false }
  }

  async *entries(filter: AuditFilter, max: number): AsyncIterable<AuditEntry> {
    const { where, params } = whereOf(filter)
    // Keyset steps (not one open cursor): appends may run between two batches.
    let below = Number.MAX_SAFE_INTEGER
    let left = max
    while (left > 0) {
      const rows = this.db
        .prepare(`SELECT id, entry FROM audit_entries ${where ? `${where} AND` : 'WHERE'} id < ? ORDER BY id DESC LIMIT ?`)
        .all(...params, below, Math.min(BATCH, left)) as Row[]
      for (const row of rows) yield toEntry(row)
      if (rows.length < Math.min(BATCH, left)) return
      left -= rows.length
      below = rows[rows.length - 1]!.id
    }
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }

  /** Drops what the retention setting no longer keeps: the store's own housekeeping, no API's. */
  private prune(): void {
    this.lastPrune = this.now()
    this.db.prepare('DELETE FROM audit_entries WHERE at < ?').run(this.now() - this.opts.retentionMs)
  }
}

interface Row {
  id: number
  entry: string
}

function toEntry(row: Row): AuditEntry {
  return { id: String(row.id), ...(JSON.parse(row.entry) as NewAuditEntry) }
}

function whereOf(filter: AuditFilter): { where: string; params: (string | number)[] } {
  const parts: string[] = []
  const params: (string | number)[] = []
  const add = (sql: string, ...values: (string | number)[]) => {
    parts.push(sql)
    params.push(...values)
  }
  if (filter.kind) add('kind = ?', filter.kind)
  if (filter.action) add('action = ?', filter.action)
  if (filter.okOnly) add('ok = 1')
  if (filter.user) add('instr(actor, ?) > 0', filter.user.toLowerCase())
  if (filter.call) add('instr(call, ?) > 0', filter.call.toLowerCase())
  if (filter.record) add('record_id = ?', filter.record.id.toLowerCase())
  if (filter.record?.entity) add('record_entity = ?', filter.record.entity)
  if (filter.from !== undefined) add('at >= ?', filter.from)
  if (filter.until !== undefined) add('at < ?', filter.until)
  // Row ids only grow: a cursor is the row id (a Redis-shaped id's first part reads the same way).
  if (filter.before !== undefined) add('id < ?', Number(filter.before.split('-')[0]))
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params }
}
