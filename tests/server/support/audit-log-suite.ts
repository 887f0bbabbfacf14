import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { NewAuditEntry } from '../../../schemas/audit'
import type { AuditLog } from '../../../server/audit/audit-log'

export interface AuditLogFactory {
  /** A fresh, empty log. */
  create(): Promise<AuditLog>
  /** A second handle on the same storage, as another BFF instance would have. */
  sibling(): Promise<AuditLog>
  cleanup?(): Promise<void>
}

let requests = 0

/** A proxied call's entry at this moment (dates are real: the Redis adapter files entries by its own clock). */
export function callEntry(over: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    at: new Date().toISOString(),
    kind: 'call',
    actor: { id: 1, email: 'ana@portal.test', name: 'Ana Admin' },
    brand: 'verde',
    call: 'PUT api/usuarios/update',
    callId: 'user.update',
    record: { entity: 'usuario', id: '42' },
    summary: '{"Nombre":"Ana"}',
    outcome: { status: 200, ok: true },
    requestId: `req-${++requests}`,
    ...over,
  }
}

/**
 * The AuditLog contract (issue 16): every adapter (embedded SQLite, Redis streams) runs this
 * same suite. Entries are appended and read, never edited nor deleted.
 */
export function auditLogSuite(name: string, factory: AuditLogFactory) {
  describe(`AuditLog contract: ${name}`, () => {
    let log: AuditLog

    beforeEach(async () => {
      log = await factory.create()
    })
    afterEach(async () => {
      await log.close()
      await factory.cleanup?.()
    })

    const all = async (filter = {}) => (await log.query(filter, { offset: 0, limit: 100 })).items

    it('starts empty, and lists what is appended newest first, each with an id of its own', async () => {
      expect(await log.query({}, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0, partial: false })
      const first = callEntry({ requestId: 'primera' })
      const second = callEntry({ requestId: 'segunda', call: 'DELETE api/usuarios/delete', callId: 'user.delete' })
      await log.append(first)
      await log.append(second)
      const items = await all()
      expect(items.map((e) => e.requestId)).toEqual(['segunda', 'primera'])
      expect(items[1]).toEqual({ ...first, id: expect.any(String) })
      expect(new Set(items.map((e) => e.id)).size).toBe(2)
    })

    it('filters by user (e-mail or name, any case), record (id in any case, and entity), call (any part), kind, action and success', async () => {
      await log.append(callEntry({ requestId: 'ana-update' }))
      await log.append(callEntry({ requestId: 'luis-group', actor: { id: 2, email: 'luis@portal.test', name: 'Luis Gestor' }, call: 'POST api/grupousuarios/create-user-group', callId: 'group.create', record: undefined }))
      await log.append(callEntry({ requestId: 'ana-contract', call: 'PUT api/contract/update/situacion', record: { entity: 'contrato', id: 'CT-2024-000123' }, outcome: { status: 409, ok: false } }))
      await log.append(callEntry({ requestId: 'ana-menu', kind: 'admin', call: 'PUT bff/admin/menu', record: { entity: 'menu', id: 'grupo' }, action: 'menu.save', doc: 'menu:grupo', version: 1, details: {} }))
      const ids = async (filter: Parameters<AuditLog['query']>[0]) => (await all(filter)).map((e) => e.requestId)

      expect(await ids({ user: 'LUIS@' })).toEqual(['luis-group'])
      expect(await ids({ user: 'gestor' })).toEqual(['luis-group'])
      expect(await ids({ record: { id: 'ct-2024-000123' } })).toEqual(['ana-contract'])
      expect(await ids({ record: { entity: 'contrato', id: 'CT-2024-000123' } })).toEqual(['ana-contract'])
      expect(await ids({ record: { entity: 'usuario', id: 'CT-2024-000123' } })).toEqual([])
      expect(await ids({ record: { id: 'CT-2024' } })).toEqual([])
      expect(await ids({ call: 'create-USER' })).toEqual(['luis-group'])
      expect(await ids({ call: 'api/' })).toEqual(['ana-contract', 'luis-group', 'ana-update'])
      expect(await ids({ kind: 'admin' })).toEqual(['ana-menu'])
      expect(await ids({ action: 'menu.save' })).toEqual(['ana-menu'])
      expect(await ids({ okOnly: true, user: 'ana' })).toEqual(['ana-menu', 'ana-update'])
      expect(await ids({ user: 'ana', call: 'contract' })).toEqual(['ana-contract'])
    })

    it('filters by dates: from included, until excluded', async () => {
      await log.append(callEntry({ requestId: 'antes' }))
      await delay(15)
      const between = Date.now()
      await delay(15)
      await log.append(callEntry({ requestId: 'despues' }))
      const ids = async (filter: Parameters<AuditLog['query']>[0]) => (await all(filter)).map((e) => e.requestId)
      expect(await ids({ until: between })).toEqual(['antes'])
      expect(await ids({ from: between })).toEqual(['despues'])
      expect(await ids({ from: between - 60_000, until: between + 60_000 })).toEqual(['despues', 'antes'])
      const at = Date.parse((await all({ user: 'ana' }))[0]!.at)
      expect(await ids({ from: at, until: at + 1 })).toEqual(['despues'])
    })

    it('pages with the total the filter keeps', async () => {
      for (let i = 1; i <= 7; i++) await log.append(callEntry({ requestId: `p${i}`, call: i % 2 ? 'PUT api/usuarios/update' : 'POST api/permission' }))
      const page = await log.query({ call: 'usuarios' }, { offset: 1, limit: 2 })
      expect(page.items.map((e) => e.requestId)).toEqual(['p5', 'p3'])
      expect(page.total).toBe(4)
      expect(page.partial).toBe(false)
      expect((await log.query({}, { offset: 6, limit: 5 })).items.map((e) => e.requestId)).toEqual(['p1'])
    })

    it('reads on from an entry: `before` lists only what is older than it, with the other filters', async () => {
      for (let i = 1; i <= 6; i++) await log.append(callEntry({ requestId: `c${i}`, call: i % 2 ? 'PUT api/usuarios/update' : 'POST api/permission' }))
      const newest = await log.query({}, { offset: 0, limit: 10 })
      const c4 = newest.items.find((e) => e.requestId === 'c4')!
      expect((await log.query({ before: c4.id }, { offset: 0, limit: 10 })).items.map((e) => e.requestId)).toEqual(['c3', 'c2', 'c1'])
      expect((await log.query({ before: c4.id, call: 'usuarios' }, { offset: 0, limit: 10 })).items.map((e) => e.requestId)).toEqual(['c3', 'c1'])
      const oldest = newest.items.at(-1)!
      expect(await log.query({ before: oldest.id }, { offset: 0, limit: 10 })).toMatchObject({ items: [], total: 0, partial: false })
    })

    it('keeps an entry once when its append is repeated (a retried write)', async () => {
      const entry = callEntry({ requestId: 'repetida' })
      await log.append(entry)
      await log.append(entry)
      await Promise.all([log.append(entry), log.append(entry)])
      expect((await all()).map((e) => e.requestId)).toEqual(['repetida'])
      // Two admin entries of one request (a render failure and the fallback it caused) are two entries.
      await log.append(callEntry({ requestId: 'una', kind: 'admin', action: 'screen.render-error', doc: 'screen:x', call: 'POST bff/screens/:id/render-error' }))
      await log.append(callEntry({ requestId: 'una', kind: 'admin', action: 'screen.fallback', doc: 'screen:x', call: 'POST bff/screens/:id/render-error' }))
      expect(await all({ kind: 'admin' })).toHaveLength(2)
    })

    it('reads every entry a filter keeps, newest first, up to a bound, a batch at a time (exports)', async () => {
      for (let i = 1; i <= 12; i++) await log.append(callEntry({ requestId: `x${i}`, call: i % 3 ? 'PUT api/usuarios/update' : 'POST api/permission' }))
      const read = async (filter: Parameters<AuditLog['entries']>[0], max: number) => {
        const out: string[] = []
        for await (const e of log.entries(filter, max)) out.push(e.requestId)
        return out
      }
      expect(await read({ call: 'permission' }, 100)).toEqual(['x12', 'x9', 'x6', 'x3'])
      expect(await read({}, 5)).toEqual(['x12', 'x11', 'x10', 'x9', 'x8'])
      expect(await read({ user: 'nadie' }, 100)).toEqual([])
    })

    it('keeps the menu manager’s and the studio’s trail, newest first, by document', async () => {
      const admin = (requestId: string, action: string, doc: string, version: number, details: Record<string, unknown>) =>
        callEntry({ requestId, kind: 'admin', call: 'PUT bff/admin/menu', action, doc, record: { entity: doc.split(':')[0]!, id: doc.split(':')[1]! }, version, details })
      await log.append(admin('m1', 'menu.save', 'menu:grupo', 1, { changes: ['x'] }))
      await log.append(admin('m2', 'menu.rollback', 'menu:grupo', 2, { restoredFrom: 0 }))
      await log.append(admin('s1', 'screen.save', 'screen:contratos', 1, {}))
      expect((await all()).map((e) => e.action)).toEqual(['screen.save', 'menu.rollback', 'menu.save'])
      const grupo = await all({ record: { entity: 'menu', id: 'grupo' } })
      expect(grupo.map((e) => [e.action, e.doc, e.version, e.details, e.actor?.email])).toEqual([
        ['menu.rollback', 'menu:grupo', 2, { restoredFrom: 0 }, 'ana@portal.test'],
        ['menu.save', 'menu:grupo', 1, { changes: ['x'] }, 'ana@portal.test'],
      ])
      expect((await log.query({ record: { entity: 'menu', id: 'grupo' } }, { offset: 0, limit: 1 })).items).toHaveLength(1)
    })

    it('another instance sees what one appended, and each append lands once across both', async () => {
      const other = await factory.sibling()
      try {
        const entry = callEntry({ requestId: 'compartida' })
        await Promise.all([log.append(entry), other.append(entry)])
        await other.append(callEntry({ requestId: 'de-la-otra' }))
        expect((await all()).map((e) => e.requestId)).toEqual(['de-la-otra', 'compartida'])
      } finally {
        await other.close()
      }
    })
  })
}
