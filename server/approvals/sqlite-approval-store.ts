import type Database from 'better-sqlite3'
import { openDatabase } from '../lib/sqlite'
import { FINAL_STATUSES, type ApprovalListFilter, type ApprovalStore, type StoredApproval } from './approval-store'

/** The embedded store of held requests: one SQLite file under DATA_DIR, the request kept whole as JSON. */
export class SqliteApprovalStore implements ApprovalStore {
  private readonly db: Database.Database

  constructor(file: string) {
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS approvals (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        requester_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS approvals_status ON approvals(status, created_at);
      CREATE INDEX IF NOT EXISTS approvals_requester ON approvals(requester_id, created_at);
    `)
  }

  async create(a: StoredApproval): Promise<void> {
    this.db.prepare('INSERT INTO approvals (id, status, requester_id, created_at, data) VALUES (?, ?, ?, ?, ?)').run(a.id, a.status, a.requester.id, a.createdAt, JSON.stringify(a))
  }

  async get(id: string): Promise<StoredApproval | null> {
    const row = this.db.prepare<[string], { data: string }>('SELECT data FROM approvals WHERE id = ?').get(id)
    return row ? (JSON.parse(row.data) as StoredApproval) : null
  }

  async list(filter: ApprovalListFilter): Promise<StoredApproval[]> {
    const where: string[] = []
    const args: (string | number)[] = []
    if (filter.status) {
      where.push(`status IN (${filter.status.map(() => '?').join(', ')})`)
      args.push(...filter.status)
    }
    if (filter.requesterId !== undefined) {
      where.push('requester_id = ?')
      args.push(filter.requesterId)
    }
    const sql = `SELECT data FROM approvals ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`
    return this.db
      .prepare<(string | number)[], { data: string }>(sql)
      .all(...args, filter.limit)
      .map((r) => JSON.parse(r.data) as StoredApproval)
  }

  async transition(id: string, from: StoredApproval['status'], patch: Partial<StoredApproval> & { status: StoredApproval['status'] }): Promise<StoredApproval | null> {
    return this.db.transaction((): StoredApproval | null => {
      const row = this.db.prepare<[string, string], { data: string }>('SELECT data FROM approvals WHERE id = ? AND status = ?').get(id, from)
      if (!row) return null
      const next = { ...(JSON.parse(row.data) as StoredApproval), ...patch }
      this.db.prepare('UPDATE approvals SET status = ?, data = ? WHERE id = ?').run(next.status, JSON.stringify(next), id)
      return next
    })()
  }

  async prune(before: number): Promise<number> {
    // created_at ≤ decidedAt: the index narrows the rows, the stored decision time decides.
    const sql = `DELETE FROM approvals WHERE status IN (${FINAL_STATUSES.map(() => '?').join(', ')}) AND created_at < ?
      AND COALESCE(json_extract(data, '$.decidedAt'), created_at) < ?`
    return this.db.prepare(sql).run(...FINAL_STATUSES, before, before).changes
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }
}
