import { Redis } from 'ioredis'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'
import { RedisAuditLog } from '../../server/audit/redis-audit-log'
import { SqliteAuditLog } from '../../server/audit/sqlite-audit-log'
import { SqliteMenuStore } from '../../server/manifest/sqlite-menu-store'
import { RedisMenuStore } from '../../server/manifest/redis-menu-store'
import { RedisSessionStore } from '../../server/session/redis-session-store'
import { sessionKey } from '../../server/session/session-store'
import { SqliteSessionStore } from '../../server/session/sqlite-session-store'
import { TokenCipher } from '../../server/session/token-cipher'
import { openStores } from '../../server/stores'
import { startTestRedis, type TestRedis } from '../helpers/redis'
import { ANA, menuStoreSuite } from './support/menu-store-suite'
import { sessionStoreSuite } from './support/session-store-suite'

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  await redis?.close()
})

/** One short-lived plain connection, behind the stores' back. */
async function withRaw<T>(work: (raw: Redis) => Promise<T>): Promise<T> {
  const raw = new Redis(redis.url, { maxRetriesPerRequest: 1 })
  try {
    return await work(raw)
  } finally {
    raw.disconnect()
  }
}

/** Every key and what it holds, read value by value (a DUMP may compress strings). */
async function dumpRedis(raw: Redis): Promise<string> {
  const out: string[] = []
  for (const key of await raw.keys('*')) {
    const type = await raw.type(key)
    const value =
      type === 'hash' ? await raw.hgetall(key)
      : type === 'set' ? await raw.smembers(key)
      : type === 'zset' ? await raw.zrange(key, '0', '-1', 'WITHSCORES')
      : type === 'string' ? await raw.get(key)
      : type === 'list' ? await raw.lrange(key, 0, -1)
      : `(${type})`
    out.push(`${key} ${JSON.stringify(value)}`)
  }
  return out.join('\n')
}

sessionStoreSuite('Redis', {
  create: async (timeouts, opts) => RedisSessionStore.open(redis.url, timeouts, opts),
  sibling: async (timeouts, opts) => RedisSessionStore.open(redis.url, timeouts, opts),
  dump: () => withRaw(dumpRedis),
  rawToken: (id, field) => withRaw(async (raw) => raw.hget(`portal:session:${sessionKey(id)}`, field)),
  setRawToken: (id, field, value) => withRaw(async (raw) => void (await raw.hset(`portal:session:${sessionKey(id)}`, field, value))),
  cleanup: () => redis.flush(),
})

menuStoreSuite('Redis', {
  create: async (clock) => RedisMenuStore.open(redis.url, { now: clock }),
  sibling: async (clock) => RedisMenuStore.open(redis.url, { now: clock }),
  cleanup: () => redis.flush(),
})

describe('Redis stores, beyond the contract', () => {
  it('keeps no usable session id in Redis, and gives every per-session key a TTL', async () => {
    const store = await RedisSessionStore.open(redis.url, { idleMs: 30 * 60_000, absoluteMs: 12 * 3600_000 }, { cipher: TokenCipher.random() })
    const raw = new Redis(redis.url)
    try {
      const s = await store.create({ userId: 1, brand: 'verde', token: 't', refreshToken: null, tokenExp: 1, user: { Id: 1, UserName: 'a', Email: 'a@portal.test', Nombre: 'A', Permisos: [] } as never })
      const keys = await raw.keys('*')
      expect(keys.some((k) => k.includes(s.id))).toBe(false)
      expect(keys).toContain(`portal:session:${sessionKey(s.id)}`)
      // The one shared index, the deadlines, is trimmed on every sign-in instead.
      expect(await raw.zrange('portal:session-deadlines', '0', '-1')).toEqual([sessionKey(s.id)])
      for (const key of keys.filter((k) => k !== 'portal:session-deadlines')) {
        const ttl = await raw.pttl(key)
        expect(ttl, key).toBeGreaterThan(0)
        expect(ttl, key).toBeLessThanOrEqual(12 * 3600_000)
      }
      expect(await raw.pttl(`portal:session:${sessionKey(s.id)}`)).toBeLessThanOrEqual(30 * 60_000)
    } finally {
      raw.disconnect()
      await store.close()
      await redis.flush()
    }
  })

  it('tells the listeners of another instance about a save', async () => {
    const one = await RedisMenuStore.open(redis.url)
    const two = await RedisMenuStore.open(redis.url)
    const seen: string[] = []
    two.subscribe((doc) => seen.push(doc))
    try {
      await one.save('menu:grupo', 0, { a: 1 }, ANA)
      await expect.poll(() => seen).toEqual(['menu:grupo'])
    } finally {
      await one.close()
      await two.close()
      await redis.flush()
    }
  })
})

describe('REDIS_URL chooses the stores', () => {
  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }
  const SESSION_ENCRYPTION_KEY = randomBytes(32).toString('base64')

  it('accepts redis:// and rediss:// only, naming the variable otherwise', () => {
    expect(loadConfig({ REDIS_URL: 'rediss://usuario:clave@redis.example:6380/2', SESSION_ENCRYPTION_KEY }).redisUrl).toBe('rediss://usuario:clave@redis.example:6380/2')
    expect(loadConfig({}).redisUrl).toBeUndefined()
    expect(() => loadConfig({ REDIS_URL: 'http://redis.example' })).toThrow(ConfigError)
    expect(() => loadConfig({ REDIS_URL: 'http://redis.example' })).toThrow(/REDIS_URL=/)
  })

  it('unset: SQLite files under DATA_DIR; set: Redis; stores passed in are kept', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-stores-'))
    try {
      const local = await openStores(loadConfig({ DATA_DIR: dir }), {}, silent)
      expect(local.sessions).toBeInstanceOf(SqliteSessionStore)
      expect(local.menus).toBeInstanceOf(SqliteMenuStore)
      expect(fs.existsSync(path.join(dir, 'bff-sessions.db')) && fs.existsSync(path.join(dir, 'bff-menus.db'))).toBe(true)
      expect(local.audit).toBeInstanceOf(SqliteAuditLog)
      expect(fs.existsSync(path.join(dir, 'bff-audit.db'))).toBe(true)

      const shared = await openStores(loadConfig({ DATA_DIR: dir, REDIS_URL: redis.url, SESSION_ENCRYPTION_KEY }), { menus: local.menus }, silent)
      expect(shared.sessions).toBeInstanceOf(RedisSessionStore)
      expect(shared.menus).toBe(local.menus)
      expect(shared.audit).toBeInstanceOf(RedisAuditLog)
      await shared.sessions.ping()
      await shared.audit.ping()
      await Promise.all([shared.audit.close(), local.audit.close(), shared.drafts.close(), local.drafts.close()])
      await shared.sessions.close()
      await local.sessions.close()
      await local.menus.close()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
