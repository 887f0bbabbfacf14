import type Database from 'better-sqlite3'
import type { StoreLog } from '../lib/redis-client'
import { openDatabase } from '../lib/sqlite'
import {
  newSessionId,
  sessionKey,
  type Session,
  type SessionData,
  type SessionPatch,
  type SessionStore,
  type SessionTimeouts,
} from './session-store'
import { openTokens, sealToken, UNREADABLE_SESSION, type TokenCipher } from './token-cipher'

interface Row {
  key: string
  user_id: number
  brand: string
  token: string
  refresh_token: string | null
  token_exp: number
  user_json: string
  actor_json: string | null
  created_at: number
  last_seen_at: number
}

/** Last-seen is written at most this often, so reads do not turn into writes on every request. */
const TOUCH_EVERY_MS = 5_000

export interface SqliteSessionStoreOptions {
  /** Encrypts the upstream tokens in the file. */
  cipher: TokenCipher
  log?: Pick<StoreLog, 'warn'>
}

/** The embedded session store: one SQLite file under DATA_DIR, tokens encrypted (see token-cipher). */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database
  private readonly now: () => number
  private readonly statements
  private readonly sweeper: NodeJS.Timeout
  private readonly cipher: TokenCipher
  private readonly log: Pick<StoreLog, 'warn'> | undefined

  constructor(
    file: string,
    private readonly timeouts: SessionTimeouts,
    opts: SqliteSessionStoreOptions,
  ) {
    this.now = timeouts.now ?? Date.now
    this.cipher = opts.cipher
    this.log = opts.log
    this.db = openDatabase(file)
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sessions (
        key TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL,
        brand TEXT NOT NULL,
        token TEXT NOT NULL,
        refresh_token TEXT,
        token_exp INTEGER NOT NULL,
        user_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
    `)
    // Added with view-as: a file written before has no such column.
    const columns = this.db.prepare<[], { name: string }>('PRAGMA table_info(sessions)').all()
    if (!columns.some((c) => c.name === 'actor_json')) this.db.exec('ALTER TABLE sessions ADD COLUMN actor_json TEXT')
    this.statements = {
      insert: this.db.prepare(
        `INSERT INTO sessions (key, user_id, brand, token, refresh_token, token_exp, user_json, actor_json, created_at, last_seen_at)
         VALUES (@key, @user_id, @brand, @token, @refresh_token, @token_exp, @user_json, @actor_json, @created_at, @last_seen_at)`,
      ),
      get: this.db.prepare<[string], Row>('SELECT * FROM sessions WHERE key = ?'),
      touch: this.db.prepare('UPDATE sessions SET last_seen_at = ? WHERE key = ?'),
      delete: this.db.prepare('DELETE FROM sessions WHERE key = ?'),
      deleteByUser: this.db.prepare('DELETE FROM sessions WHERE user_id = ? AND key <> ?'),
      deleteByEmail: this.db.prepare("DELETE FROM sessions WHERE lower(json_extract(user_json, '$.Email')) = lower(?)"),
      count: this.db.prepare<[number, number], { n: number }>(
        'SELECT COUNT(*) AS n FROM sessions WHERE last_seen_at > ? AND created_at > ?',
      ),
      sweep: this.db.prepare('DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?'),
    }
    this.sweeper = setInterval(() => this.sweep(), 10 * 60_000)
    this.sweeper.unref()
  }

  async create(data: SessionData): Promise<Session> {
    const id = newSessionId()
    const key = sessionKey(id)
    const now = this.now()
    this.statements.insert.run({
      key,
      user_id: data.userId,
      brand: data.brand,
      token: sealToken(this.cipher, key, 'token', data.token),
      refresh_token: data.refreshToken === null ? null : sealToken(this.cipher, key, 'refreshToken', data.refreshToken),
      token_exp: data.tokenExp,
      user_json: JSON.stringify(data.user),
      actor_json: data.actor ? JSON.stringify(data.actor) : null,
      created_at: now,
      last_seen_at: now,
    })
    return { ...data, id, createdAt: now, lastSeenAt: now }
  }

  async get(id: string): Promise<Session | null> {
    const key = sessionKey(id)
    const row = this.statements.get.get(key)
    if (!row) return null
    const now = this.now()
    if (this.expired(row.created_at, row.last_seen_at, now)) {
      this.statements.delete.run(key)
      return null
    }
    const tokens = openTokens(this.cipher, key, { token: row.token, refreshToken: row.refresh_token })
    if (!tokens) {
      // Another key, altered, or stored in clear by an older version: the session has ended.
      this.statements.delete.run(key)
      this.log?.warn(UNREADABLE_SESSION.fields, UNREADABLE_SESSION.message)
      return null
    }
    if (now - row.last_seen_at >= TOUCH_EVERY_MS) this.statements.touch.run(now, key)
    return {
      id,
      userId: row.user_id,
      brand: row.brand,
      token: tokens.token,
      refreshToken: tokens.refreshToken,
      tokenExp: row.token_exp,
      user: JSON.parse(row.user_json),
      ...(row.actor_json ? { actor: JSON.parse(row.actor_json) } : {}),
      createdAt: row.created_at,
      lastSeenAt: now,
    }
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    const sets: string[] = []
    const key = sessionKey(id)
    const values: Record<string, unknown> = { key }
    if (patch.token !== undefined) {
      sets.push('token = @token')
      values.token = sealToken(this.cipher, key, 'token', patch.token)
    }
    if (patch.refreshToken !== undefined) {
      sets.push('refresh_token = @refresh_token')
      values.refresh_token = patch.refreshToken === null ? null : sealToken(this.cipher, key, 'refreshToken', patch.refreshToken)
    }
    if (patch.tokenExp !== undefined) {
      sets.push('token_exp = @token_exp')
      values.token_exp = patch.tokenExp
    }
    if (patch.user !== undefined) {
      sets.push('user_json = @user_json')
      values.user_json = JSON.stringify(patch.user)
    }
    if (sets.length === 0) return
    this.db.prepare(`UPDATE sessions SET ${sets.join(', ')} WHERE key = @key`).run(values)
  }

  async delete(id: string): Promise<void> {
    this.statements.delete.run(sessionKey(id))
  }

  async deleteByUser(userId: number, exceptId?: string): Promise<number> {
    return this.statements.deleteByUser.run(userId, exceptId ? sessionKey(exceptId) : '').changes
  }

  async deleteByEmail(email: string): Promise<number> {
    return this.statements.deleteByEmail.run(email.trim()).changes
  }

  async countActive(): Promise<number> {
    const now = this.now()
    return this.statements.count.get(now - this.timeouts.idleMs, now - this.timeouts.absoluteMs)?.n ?? 0
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get()
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper)
    if (this.db.open) this.db.close()
  }

  private expired(createdAt: number, lastSeenAt: number, now: number): boolean {
    return now - lastSeenAt >= this.timeouts.idleMs || now - createdAt >= this.timeouts.absoluteMs
  }

  private sweep(): void {
    const now = this.now()
    this.statements.sweep.run(now - this.timeouts.idleMs, now - this.timeouts.absoluteMs)
  }
}
