import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionUser } from '../../schemas/session-user'
import { EXPIRY_SKEW_S } from '../../server/session/auth-service'
import { CachedSessionStore } from '../../server/session/session-cache'
import type { Session, SessionData, SessionStore } from '../../server/session/session-store'
import { SqliteSessionStore } from '../../server/session/sqlite-session-store'
import { TokenCipher } from '../../server/session/token-cipher'
import { FAKE_USER, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

const TTL = 2_000
const ABSOLUTE = 12 * 3600_000
let now = 1_700_000_000_000
let dir = ''
let store: SqliteSessionStore
let reads = 0
let cache: CachedSessionStore

/** The SQLite store, counting the reads that reach it (and reading through `get` when given). */
function countingStore(inner: SessionStore, get: (id: string) => Promise<Session | null> = (id) => inner.get(id)): SessionStore {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'get') return (id: string) => (reads++, get(id))
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

function data(userId: number, extra: Partial<SessionData> = {}): SessionData {
  const email = `u${userId}@portal.test`
  const user = { Id: userId, UserName: email, Email: email, Nombre: 'Usuaria', Permisos: [] } as unknown as SessionUser
  return { userId, brand: 'verde', token: `token-${userId}`, refreshToken: `refresh-${userId}`, tokenExp: now / 1000 + 900, user, ...extra }
}

beforeEach(() => {
  now = 1_700_000_000_000
  reads = 0
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-session-cache-'))
  store = new SqliteSessionStore(path.join(dir, 'sessions.db'), { idleMs: 30 * 60_000, absoluteMs: ABSOLUTE, now: () => now }, { cipher: TokenCipher.random() })
  cache = new CachedSessionStore(countingStore(store), { ttlMs: TTL, absoluteMs: ABSOLUTE, now: () => now })
})
afterEach(async () => {
  await cache.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('the session cache in front of the store', () => {
  it('reads the store once per window, then again', async () => {
    const s = await cache.create(data(1))
    for (let i = 0; i < 5; i++) expect((await cache.get(s.id))?.userId).toBe(1)
    expect(reads).toBe(1)
    now += TTL
    expect((await cache.get(s.id))?.userId).toBe(1)
    expect(reads).toBe(2)
  })

  it('shares one store read among concurrent requests of a session', async () => {
    const s = await cache.create(data(1))
    const all = await Promise.all([1, 2, 3, 4].map(() => cache.get(s.id)))
    expect(all.map((x) => x?.id)).toEqual([s.id, s.id, s.id, s.id])
    expect(reads).toBe(1)
  })

  it('a session ended behind its back (another replica) works at most until the window ends', async () => {
    const s = await cache.create(data(1))
    await cache.get(s.id)
    await store.delete(s.id)
    now += TTL - 1
    expect(await cache.get(s.id)).not.toBeNull()
    now += 1
    expect(await cache.get(s.id)).toBeNull()
  })

  it('sign-out, password changes and an admin ending sessions through it take effect at once', async () => {
    const a = await cache.create(data(1))
    const b = await cache.create(data(1))
    const c = await cache.create(data(2))
    const d = await cache.create(data(3))
    for (const s of [a, b, c, d]) await cache.get(s.id)

    await cache.delete(a.id)
    expect(await cache.get(a.id)).toBeNull()
    await cache.deleteByUser(1)
    expect(await cache.get(b.id)).toBeNull()
    await cache.deleteByEmail('  U2@Portal.test ')
    expect(await cache.get(c.id)).toBeNull()
    expect(await cache.get(d.id)).not.toBeNull()
  })

  it('an update (token refresh, user reload) is read back at once', async () => {
    const s = await cache.create(data(1))
    await cache.get(s.id)
    await cache.update(s.id, { token: 'token-nuevo' })
    expect((await cache.get(s.id))?.token).toBe('token-nuevo')
  })

  it('never serves a session past its absolute timeout, nor one whose token is due for refresh', async () => {
    const old = await cache.create(data(1))
    now += ABSOLUTE - 500
    await cache.get(old.id)
    now += 500
    expect(await cache.get(old.id)).toBeNull()

    const due = await cache.create(data(2, { tokenExp: now / 1000 + EXPIRY_SKEW_S + 1 }))
    await cache.get(due.id)
    reads = 0
    now += 1_000
    await cache.get(due.id)
    expect(reads).toBe(1)
  })

  it('peek gives a session only while get would serve it from memory, and never reads the store', async () => {
    const s = await cache.create(data(1, { tokenExp: now / 1000 + EXPIRY_SKEW_S + 1 }))
    expect(cache.peek(s.id)).toBeUndefined()
    await cache.get(s.id)
    expect(cache.peek(s.id)?.token).toBe('token-1')
    now += 1_000 // within the window, but the token is now due for refresh: the store decides
    expect(cache.peek(s.id)).toBeUndefined()

    const t = await cache.create(data(2))
    await cache.get(t.id)
    await cache.delete(t.id)
    expect(cache.peek(t.id)).toBeUndefined()
    expect(reads).toBe(2)
  })

  it('a read that started before a change does not put the old session back', async () => {
    const s = await cache.create(data(1))
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const slowRead = async (id: string): Promise<Session | null> => {
      const found = await store.get(id)
      await gate
      return found
    }
    const slow = new CachedSessionStore(countingStore(store, slowRead), { ttlMs: TTL, absoluteMs: ABSOLUTE, now: () => now })
    const racing = slow.get(s.id)
    await slow.delete(s.id)
    release()
    expect(await racing).not.toBeNull()
    expect(await slow.get(s.id)).toBeNull()
  })
})

describe('two BFFs sharing one session store, each with its cache', () => {
  let upstream: FakeUpstream
  let a: TestBff
  let b: TestBff
  let shared: SqliteSessionStore
  const CACHE_MS = 300

  beforeEach(async () => {
    upstream = await startFakeUpstream()
    shared = new SqliteSessionStore(path.join(dir, 'shared.db'), { idleMs: 30 * 60_000, absoluteMs: ABSOLUTE }, { cipher: TokenCipher.random() })
    // The store is closed by the test, not by each BFF.
    const unclosable = Object.assign(Object.create(shared) as SqliteSessionStore, { close: async () => undefined })
    a = await buildTestBff(upstream.url, { SESSION_CACHE_MS: String(CACHE_MS) }, { sessionStore: unclosable })
    b = await buildTestBff(upstream.url, { SESSION_CACHE_MS: String(CACHE_MS) }, { sessionStore: unclosable })
  })
  afterEach(async () => {
    await a.close()
    await b.close()
    await shared.close()
    await upstream.close()
  })

  it('signing out on one ends the session there at once, and on the other within the window', async () => {
    const login = await request(a.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(FAKE_USER).expect(200)
    const cookie = sessionCookie(login.headers['set-cookie'])
    await request(a.app.server).get('/api/echo/x').set('Cookie', cookie).expect(200)
    await request(b.app.server).get('/api/echo/x').set('Cookie', cookie).expect(200)

    await request(a.app.server).post('/bff/auth/logout').set('X-CSRF', '1').set('Cookie', cookie).expect(204)
    await request(a.app.server).get('/api/echo/x').set('Cookie', cookie).expect(401)
    await expect.poll(async () => (await request(b.app.server).get('/api/echo/x').set('Cookie', cookie)).status, { timeout: 5_000, interval: 50 }).toBe(401)
  })
})
