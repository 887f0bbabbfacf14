import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { SqliteMenuStore } from '../../server/manifest/sqlite-menu-store'
import { menuStoreSuite } from './support/menu-store-suite'

let dir = ''
const file = () => path.join(dir, 'menus.db')

menuStoreSuite('embedded SQLite', {
  create: async (clock) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-menus-'))
    return new SqliteMenuStore(file(), { now: clock })
  },
  sibling: async (clock) => new SqliteMenuStore(file(), { now: clock }),
  cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
})
