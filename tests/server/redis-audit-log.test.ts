import { Redis } from 'ioredis'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { moveRedisMenuTrail } from '../../server/audit/legacy-menu-trail'
import { RedisAuditLog } from '../../server/audit/redis-audit-log'
import { startTestRedis, type TestRedis } from '../helpers/redis'
import { auditLogSuite, callEntry } from './support/audit-log-suite'

const DAY = 24 * 3600_000
let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  await redis?.close()
})

auditLogSuite('Redis streams', {
  create: async () => RedisAuditLog.open(redis.url, { retentionMs: 30 * DAY }),
  sibling: async () => RedisAuditLog.open(redis.url, { retentionMs: 30 * DAY }),
  cleanup: () => redis.flush(),
})

describe('the Redis audit log', () => {
  it('drops by MINID what the retention setting no longer keeps, in the log and in the records’ streams', async () => {
    const log = await RedisAuditLog.open(redis.url, { retentionMs: 300 })
    try {
      await log.append(callEntry({ requestId: 'primera' }))
      await delay(400)
      await log.append(callEntry({ requestId: 'segunda' }))
      expect((await log.query({}, { offset: 0, limit: 10 })).items.map((e) => e.requestId)).toEqual(['segunda'])
      expect((await log.query({ record: { id: '42' } }, { offset: 0, limit: 10 })).items.map((e) => e.requestId)).toEqual(['segunda'])
    } finally {
      await log.close()
      await redis.flush()
    }
  })

  it('moves the menu store’s old trail in once, filed at the time each entry happened', async () => {
    const raw = new Redis(redis.url, { maxRetriesPerRequest: 1 })
    const log = await RedisAuditLog.open(redis.url, { retentionMs: 3650 * DAY })
    try {
      const old = (at: string, action: string, doc: string, version: number) => JSON.stringify({ at: Date.parse(at), actor: { id: 1, name: 'Ana Admin', email: 'ana@portal.test' }, action, doc, version, details: {} })
      // Pushed newest first, as the menu store did.
      await raw.lpush('portal:menu-audit', old('2026-01-10T09:00:00Z', 'menu.save', 'menu:grupo', 1), old('2026-01-11T09:00:00Z', 'menu.rollback', 'menu:grupo', 2))
      await raw.lpush('portal:menu-audit:menu:grupo', 'x')
      expect(await moveRedisMenuTrail(redis.url, log)).toBe(2)
      expect(await moveRedisMenuTrail(redis.url, log)).toBe(0)
      expect(await raw.exists('portal:menu-audit', 'portal:menu-audit:menu:grupo')).toBe(0)
      const inJanuary = await log.query({ from: Date.parse('2026-01-01T00:00:00Z'), until: Date.parse('2026-01-11T00:00:00Z') }, { offset: 0, limit: 10 })
      expect(inJanuary.items.map((e) => [e.action, e.at, e.record])).toEqual([['menu.save', '2026-01-10T09:00:00.000Z', { entity: 'menu', id: 'grupo' }]])
      expect((await log.query({ record: { entity: 'menu', id: 'grupo' } }, { offset: 0, limit: 10 })).items.map((e) => e.action)).toEqual(['menu.rollback', 'menu.save'])
    } finally {
      raw.disconnect()
      await log.close()
      await redis.flush()
    }
  })

  it('a read looks at a bounded part of the log, says so, and a record’s own stream reaches further', async () => {
    const log = await RedisAuditLog.open(redis.url, { retentionMs: 30 * DAY, scanLimit: 5 })
    try {
      await log.append(callEntry({ requestId: 'del-42', record: { entity: 'usuario', id: '42' } }))
      for (let i = 0; i < 6; i++) await log.append(callEntry({ requestId: `otra-${i}`, record: { entity: 'usuario', id: '7' } }))
      const bounded = await log.query({ call: 'usuarios' }, { offset: 0, limit: 10 })
      expect(bounded.total).toBe(5)
      expect(bounded.partial).toBe(true)
      const mine = await log.query({ record: { id: '42' } }, { offset: 0, limit: 10 })
      expect(mine).toMatchObject({ total: 1, partial: false })
      expect(mine.items[0]!.requestId).toBe('del-42')
      // The partial answer says where it stopped; reading on from there finds the rest, once.
      expect(bounded.next).toBe(bounded.items.at(-1)!.id)
      const rest = await log.query({ call: 'usuarios', before: bounded.next! }, { offset: 0, limit: 10 })
      expect(rest).toMatchObject({ total: 2, partial: false })
      expect(rest.next).toBeUndefined()
      expect([...bounded.items, ...rest.items].map((e) => e.requestId)).toEqual(['otra-5', 'otra-4', 'otra-3', 'otra-2', 'otra-1', 'otra-0', 'del-42'])
    } finally {
      await log.close()
      await redis.flush()
    }
  })

  it('a date window busier than the scan bound is read whole by following `next`, though dates are widened for clock skew', async () => {
    const log = await RedisAuditLog.open(redis.url, { retentionMs: 30 * DAY, scanLimit: 4 })
    try {
      const since = Date.now() - 1000
      for (let i = 0; i < 11; i++) await log.append(callEntry({ requestId: `r${i}`, at: new Date().toISOString() }))
      // `until` widened by minutes: each read starts after every entry, so only the cursor gets further back.
      const filter = { from: since, until: Date.now() + 1000 }
      const seen: string[] = []
      let before: string | undefined
      for (let reads = 0; reads < 10; reads++) {
        const page = await log.query({ ...filter, ...(before ? { before } : {}) }, { offset: 0, limit: 10 })
        seen.push(...page.items.map((e) => e.requestId))
        if (!page.partial) break
        before = page.next
      }
      expect(seen).toEqual(Array.from({ length: 11 }, (_, i) => `r${10 - i}`))
    } finally {
      await log.close()
      await redis.flush()
    }
  })
})
