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
    } finally {
      await log.close()
      await redis.flush()
    }
  })
})
