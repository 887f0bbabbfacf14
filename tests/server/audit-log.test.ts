import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { moveSqliteMenuTrail } from '../../server/audit/legacy-menu-trail'
import { SqliteAuditLog } from '../../server/audit/sqlite-audit-log'
import { auditLogSuite, callEntry } from './support/audit-log-suite'

const DAY = 24 * 3600_000
let dir = ''
const file = () => path.join(dir, 'audit.db')

auditLogSuite('embedded SQLite', {
  create: async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-audit-'))
    return new SqliteAuditLog(file(), { retentionMs: 30 * DAY })
  },
  sibling: async () => new SqliteAuditLog(file(), { retentionMs: 30 * DAY }),
  cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
})

describe('the embedded audit log’s own housekeeping', () => {
  let folder = ''
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }))

  it('drops what the retention setting no longer keeps: at start, and then at most hourly as entries come', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-audit-'))
    let now = Date.parse('2026-03-01T10:00:00Z')
    const at = (ms: number) => new Date(ms).toISOString()
    const log = new SqliteAuditLog(path.join(folder, 'audit.db'), { retentionMs: 10 * DAY, now: () => now })
    await log.append(callEntry({ requestId: 'vieja', at: at(now - 11 * DAY) }))
    await log.append(callEntry({ requestId: 'reciente', at: at(now - 2 * DAY) }))
    // Within the hour of the last pass: nothing dropped yet.
    expect((await log.query({}, { offset: 0, limit: 10 })).total).toBe(2)
    now += 2 * 3600_000
    await log.append(callEntry({ requestId: 'nueva', at: at(now) }))
    expect((await log.query({}, { offset: 0, limit: 10 })).items.map((e) => e.requestId)).toEqual(['nueva', 'reciente'])
    await log.close()
    now += 9 * DAY
    const reopened = new SqliteAuditLog(path.join(folder, 'audit.db'), { retentionMs: 10 * DAY, now: () => now })
    expect((await reopened.query({}, { offset: 0, limit: 10 })).items.map((e) => e.requestId)).toEqual(['nueva'])
    await reopened.close()
  })

  it('moves the menu store’s old trail in once, oldest first, as admin entries filed under their documents', async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-audit-'))
    const menus = path.join(folder, 'bff-menus.db')
    const old = new Database(menus)
    old.exec('CREATE TABLE audit (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_id INTEGER NOT NULL, actor_name TEXT NOT NULL, actor_email TEXT NOT NULL, action TEXT NOT NULL, doc TEXT NOT NULL, version INTEGER, details TEXT NOT NULL)')
    const insert = old.prepare('INSERT INTO audit (at, actor_id, actor_name, actor_email, action, doc, version, details) VALUES (?, 1, ?, ?, ?, ?, ?, ?)')
    insert.run(Date.parse('2026-01-10T09:00:00Z'), 'Ana Admin', 'ana@portal.test', 'menu.save', 'menu:grupo', 1, JSON.stringify({ changes: ['«Facturas» se llama ahora «Mis facturas».'] }))
    insert.run(Date.parse('2026-01-11T09:00:00Z'), 'Ana Admin', 'ana@portal.test', 'screen.publish', 'screen:contratos-listado', 2, '{}')
    old.close()

    const log = new SqliteAuditLog(path.join(folder, 'bff-audit.db'), { retentionMs: 3650 * DAY })
    expect(await moveSqliteMenuTrail(menus, log)).toBe(2)
    expect(await moveSqliteMenuTrail(menus, log)).toBe(0)
    const items = (await log.query({}, { offset: 0, limit: 10 })).items
    expect(items).toEqual([
      expect.objectContaining({ kind: 'admin', action: 'screen.publish', doc: 'screen:contratos-listado', record: { entity: 'screen', id: 'contratos-listado' }, call: 'POST bff/admin/screens/:id/publish', at: '2026-01-11T09:00:00.000Z', outcome: { status: 200, ok: true } }),
      expect.objectContaining({ kind: 'admin', action: 'menu.save', doc: 'menu:grupo', version: 1, brand: 'grupo', actor: { id: 1, name: 'Ana Admin', email: 'ana@portal.test' }, details: { changes: ['«Facturas» se llama ahora «Mis facturas».'] } }),
    ])
    const gone = new Database(menus, { readonly: true })
    expect(gone.prepare("SELECT name FROM sqlite_master WHERE name = 'audit'").get()).toBeUndefined()
    gone.close()
    await log.close()
  })
})
