import Database from 'better-sqlite3'
import { Redis } from 'ioredis'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRAFT_TTL_MS } from '../../server/drafts/draft-store'
import { RedisDraftStore } from '../../server/drafts/redis-draft-store'
import { SqliteDraftStore } from '../../server/drafts/sqlite-draft-store'
import { EncryptedDraftStore } from '../../server/drafts/encrypted-draft-store'
import { TokenCipher } from '../../server/session/token-cipher'
import { loadConfig } from '../../server/config'
import { StoreUnavailableError } from '../../server/lib/store-errors'
import { openStores } from '../../server/stores'
import { startTestRedis, type TestRedis } from '../helpers/redis'
import { draftStoreSuite, LUCIA, PABLO } from './support/draft-store-suite'

let dir = ''
const file = () => path.join(dir, 'drafts.db')

draftStoreSuite('embedded SQLite', {
  create: async (opts) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-drafts-'))
    return new SqliteDraftStore(file(), opts)
  },
  sibling: async (opts) => new SqliteDraftStore(file(), opts),
  cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
})

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  await redis?.close()
})

draftStoreSuite('Redis', {
  create: async (opts) => RedisDraftStore.open(redis.url, opts),
  sibling: async (opts) => RedisDraftStore.open(redis.url, opts),
  cleanup: () => redis.flush(),
})

// Sealed, over either adapter: the same contract holds.
const cipher = TokenCipher.random()
draftStoreSuite('sealed over SQLite', {
  create: async (opts) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-drafts-'))
    return new EncryptedDraftStore(new SqliteDraftStore(file(), opts), cipher)
  },
  sibling: async (opts) => new EncryptedDraftStore(new SqliteDraftStore(file(), opts), cipher),
  cleanup: async () => fs.rmSync(dir, { recursive: true, force: true }),
})

describe('sealed drafts', () => {
  const typed = { Nif: '12345678Z', Iban: 'ES9121000418450200051332', Telefono: '612345678' }

  it('keep nothing a user typed in the SQLite file, nor in Redis', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-drafts-'))
    const sqlite = new EncryptedDraftStore(new SqliteDraftStore(file()), cipher)
    await sqlite.put(LUCIA, 'contrato-alta', typed)
    expect((await sqlite.get(LUCIA, 'contrato-alta'))?.values).toEqual(typed)
    await sqlite.close()
    const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f)))).toString('latin1')
    for (const value of Object.values(typed)) expect(bytes).not.toContain(value)
    fs.rmSync(dir, { recursive: true, force: true })

    const shared = new EncryptedDraftStore(await RedisDraftStore.open(redis.url), cipher)
    await shared.put(LUCIA, 'contrato-alta', typed)
    const raw = new Redis(redis.url)
    const keys = await raw.keys('*')
    const stored = (await Promise.all(keys.map((k) => raw.get(k)))).join('\n')
    for (const value of Object.values(typed)) expect(stored).not.toContain(value)
    await raw.quit()
    await shared.close()
    await redis.flush()
  })

  it('do not open for another owner, form or key: a draft moved or read with another key is none', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-drafts-'))
    const inner = new SqliteDraftStore(file())
    const sealed = new EncryptedDraftStore(inner, cipher)
    await sealed.put(LUCIA, 'contrato-alta', typed)
    const copied = await inner.get(LUCIA, 'contrato-alta')
    await inner.put(PABLO, 'contrato-alta', copied!.values)
    expect(await sealed.get(PABLO, 'contrato-alta')).toBeNull()
    expect(await new EncryptedDraftStore(inner, TokenCipher.random()).get(LUCIA, 'contrato-alta')).toBeNull()
    await sealed.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })
})

describe('draft stores, beyond the contract', () => {
  it('SQLite: sweeps expired rows out of the file, and only those', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-drafts-'))
    let now = 1_700_000_000_000
    const store = new SqliteDraftStore(path.join(folder, 'drafts.db'), { now: () => now })
    const rows = () => {
      const db = new Database(path.join(folder, 'drafts.db'), { readonly: true })
      try {
        return (db.prepare('SELECT user_id AS userId FROM drafts ORDER BY user_id').all() as { userId: number }[]).map((r) => r.userId)
      } finally {
        db.close()
      }
    }
    try {
      await store.put(LUCIA, 'contrato-alta', { nif: '12345678Z' })
      now += 3 * 24 * 3600_000
      await store.put(PABLO, 'contrato-alta', { nif: '87654321X' })
      now += 4 * 24 * 3600_000
      // Lucía's is past 7 days: not answered, but still in the file until swept.
      expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
      expect(rows()).toEqual([1, 2])
      expect(store.sweep()).toBe(1)
      expect(rows()).toEqual([2])
      // Opening the file sweeps too (a BFF that was down for a week).
      await store.close()
      now += 7 * 24 * 3600_000
      const reopened = new SqliteDraftStore(path.join(folder, 'drafts.db'), { now: () => now })
      expect(rows()).toEqual([])
      await reopened.close()
    } finally {
      await store.close()
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })

  it('Redis: one key per draft, with a TTL of 7 days at most', async () => {
    const store = await RedisDraftStore.open(redis.url)
    const raw = new Redis(redis.url, { maxRetriesPerRequest: 1 })
    try {
      await store.put(LUCIA, 'contrato-alta', { nif: '12345678Z' })
      expect(await raw.keys('*')).toEqual(['portal:draft:1:verde:contrato-alta'])
      const ttl = await raw.pttl('portal:draft:1:verde:contrato-alta')
      expect(ttl).toBeGreaterThan(DRAFT_TTL_MS - 60_000)
      expect(ttl).toBeLessThanOrEqual(DRAFT_TTL_MS)
      await store.delete(LUCIA, 'contrato-alta')
      expect(await raw.keys('*')).toEqual([])
    } finally {
      raw.disconnect()
      await store.close()
      await redis.flush()
    }
  })

  it('Redis: a Redis that does not answer is a 503 naming the draft store, not a 500', async () => {
    const store = await RedisDraftStore.open('redis://127.0.0.1:1')
    try {
      const err = await store.get(LUCIA, 'contrato-alta').catch((e: unknown) => e)
      expect(err).toBeInstanceOf(StoreUnavailableError)
      expect(err).toMatchObject({ statusCode: 503, store: 'draftStore' })
    } finally {
      await store.close()
    }
  })

  it('REDIS_URL chooses the adapter: unset, a file under DATA_DIR; set, Redis', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-stores-'))
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }
    try {
      const local = await openStores(loadConfig({ DATA_DIR: folder }), {}, silent)
      expect(local.drafts).toBeInstanceOf(EncryptedDraftStore)
      expect(fs.existsSync(path.join(folder, 'bff-drafts.db'))).toBe(true)
      const shared = await openStores(
        loadConfig({ DATA_DIR: folder, REDIS_URL: redis.url, SESSION_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }),
        { sessions: local.sessions, menus: local.menus, attempts: local.attempts },
        silent,
      )
      expect(shared.drafts).toBeInstanceOf(EncryptedDraftStore)
      await shared.drafts.ping()
      await Promise.all([shared.drafts.close(), local.drafts.close(), local.sessions.close(), local.menus.close(), local.attempts.close(), local.audit.close(), shared.audit.close()])
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })
})
