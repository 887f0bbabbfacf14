import type Database from 'better-sqlite3'
import { openDatabase } from '../lib/sqlite'
import { NOTICE_TTL_MS, type Notice, type NoticeStore } from './notice-store'

/** The embedded notice store: one SQLite file under DATA_DIR. */
export class SqliteNoticeStore implements NoticeStore {
  private readonly db: Database.Database

  constructor(
    file: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS notices (
        id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        at INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (user_id, id)
      );
    `)
  }

  async add(userId: number, notice: Notice): Promise<void> {
    this.db.prepare('INSERT OR IGNORE INTO notices (id, user_id, at, data) VALUES (?, ?, ?, ?)').run(notice.id, userId, Date.parse(notice.at), JSON.stringify(notice))
  }

  async pending(userId: number): Promise<Notice[]> {
    this.db.prepare('DELETE FROM notices WHERE at < ?').run(this.now() - NOTICE_TTL_MS)
    return this.db
      .prepare<[number], { data: string }>('SELECT data FROM notices WHERE user_id = ? ORDER BY at, id')
      .all(userId)
      .map((r) => JSON.parse(r.data) as Notice)
  }

  async dismiss(userId: number, ids: string[]): Promise<void> {
    const drop = this.db.prepare('DELETE FROM notices WHERE user_id = ? AND id = ?')
    this.db.transaction(() => {
      for (const id of ids) drop.run(userId, id)
    })()
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close()
  }
}
