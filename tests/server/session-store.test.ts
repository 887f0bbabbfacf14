import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SqliteSessionStore } from '../../server/session/sqlite-session-store'
import { sessionStoreSuite } from './support/session-store-suite'

let dir = ''
const file = () => path.join(dir, 'sessions.db')

sessionStoreSuite('embedded SQLite', {
  create: async (timeouts) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sessions-'))
    return new SqliteSessionStore(file(), timeouts)
  },
  sibling: async (timeouts) => new SqliteSessionStore(file(), timeouts),
  cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
})
