import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sessionKey } from '../../server/session/session-store'
import { SqliteSessionStore } from '../../server/session/sqlite-session-store'
import { sessionStoreSuite } from './support/session-store-suite'

let dir = ''
const file = () => path.join(dir, 'sessions.db')
const column = { token: 'token', refreshToken: 'refresh_token' } as const

/** The file as another program would open it, behind the store's back. */
function withFile<T>(work: (db: Database.Database) => T): T {
  const db = new Database(file())
  try {
    return work(db)
  } finally {
    db.close()
  }
}

sessionStoreSuite('embedded SQLite', {
  create: async (timeouts, opts) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sessions-'))
    return new SqliteSessionStore(file(), timeouts, opts)
  },
  sibling: async (timeouts, opts) => new SqliteSessionStore(file(), timeouts, opts),
  // The bytes a stolen copy would hold: the database file and its write-ahead log.
  dump: async () =>
    ['', '-wal', '-journal']
      .map((suffix) => file() + suffix)
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString('latin1'))
      .join('\n'),
  rawToken: async (id, field) =>
    withFile((db) => (db.prepare(`SELECT ${column[field]} AS v FROM sessions WHERE key = ?`).get(sessionKey(id)) as { v: string | null } | undefined)?.v ?? null),
  setRawToken: async (id, field, value) => {
    withFile((db) => db.prepare(`UPDATE sessions SET ${column[field]} = ? WHERE key = ?`).run(value, sessionKey(id)))
  },
  cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
})
