import { randomBytes } from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STORE_UNAVAILABLE_MESSAGE } from '../../server/lib/store-errors'
import { RedisMenuStore } from '../../server/manifest/redis-menu-store'
import { ADMIN, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startTestRedis, type TestRedis } from '../helpers/redis'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ANA } from './support/menu-store-suite'

let redis: TestRedis
let api: RunningReferenceApi
let bff: TestBff
/** With REDIS_URL the BFF requires the key every replica shares. */
const SESSION_ENCRYPTION_KEY = randomBytes(32).toString('base64')

beforeAll(async () => {
  redis = await startTestRedis()
  api = await startReferenceApi()
  bff = await buildTestBff(api.url, { REDIS_URL: redis.url, SESSION_ENCRYPTION_KEY })
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
  await redis?.close()
})

const server = () => bff.app.server
const signIn = async () => sessionCookie((await request(server()).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN).expect(200)).headers['set-cookie'])
const ready = async () => (await request(server()).get('/readyz')).status

/** Every way a request that needs a store can fail must be this: a 503 with the Spanish message. */
function expectCleanUnavailable(res: request.Response) {
  expect(res.status).toBe(503)
  expect(res.headers['content-type']).toMatch(/application\/json/)
  expect(res.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: STORE_UNAVAILABLE_MESSAGE })
}

async function requestsNeedingTheStores(cookie: string) {
  return [
    await request(server()).get('/bff/auth/session').set('Cookie', cookie),
    await request(server()).get('/bff/manifest').set('Cookie', cookie),
    await request(server()).get('/api/permission').set('Cookie', cookie),
    await request(server()).get('/bff/admin/menu?brand=grupo').set('Cookie', cookie),
    await request(server()).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN),
  ]
}

describe('with REDIS_URL, the BFF keeps sessions and menus in Redis and survives losing it', () => {
  it('serves from Redis while it is up', async () => {
    const cookie = await signIn()
    expect((await request(server()).get('/bff/auth/session').set('Cookie', cookie).expect(200)).body.user.Email).toBe(ADMIN.username)
    expect((await request(server()).get('/readyz').expect(200)).body.checks).toEqual({ sessionStore: 'ok', menuStore: 'ok', upstream: 'ok' })
  })

  it('Redis stopped: /readyz is 503 naming both stores, requests needing them fail cleanly, the rest still works', async () => {
    const cookie = await signIn()
    await redis.stop()
    try {
      const readyz = await request(server()).get('/readyz').expect(503)
      expect(readyz.body).toMatchObject({ status: 'unavailable', checks: { sessionStore: 'error', menuStore: 'error', upstream: 'ok' } })
      expect(readyz.body.failed.sort()).toEqual(['menuStore', 'sessionStore'])
      for (const res of await requestsNeedingTheStores(cookie)) expectCleanUnavailable(res)
      // No store needed: liveness, and the signed-out manifest.
      await request(server()).get('/healthz').expect(200)
      expect((await request(server()).get('/bff/manifest').expect(200)).body.authenticated).toBe(false)
      expect(bff.logs.lines.some((l) => l.event === 'redis_down')).toBe(true)
      expect(bff.logs.lines.filter((l) => l.msg === 'unhandled error')).toEqual([])
    } finally {
      await redis.start()
    }
    // Back without a restart of the BFF (this Redis keeps nothing: the old session is gone).
    await expect.poll(ready, { timeout: 10_000, interval: 100 }).toBe(200)
    expect(bff.logs.lines.some((l) => l.event === 'redis_up')).toBe(true)
    await request(server()).get('/bff/auth/session').set('Cookie', cookie).expect(401)
    const again = await signIn()
    await request(server()).get('/bff/auth/session').set('Cookie', again).expect(200)
    await request(server()).get('/api/permission').set('Cookie', again).expect(200)
  })

  it('Redis frozen (connected, never answering): requests end in a 503 instead of hanging, and the session survives', async () => {
    const cookie = await signIn()
    redis.pause()
    try {
      expectCleanUnavailable(await request(server()).get('/bff/auth/session').set('Cookie', cookie))
      expect((await request(server()).get('/readyz')).status).toBe(503)
    } finally {
      redis.resume()
    }
    await expect.poll(ready, { timeout: 10_000, interval: 100 }).toBe(200)
    await request(server()).get('/bff/auth/session').set('Cookie', cookie).expect(200)
  })

  it('starts while Redis is down, answering 503 until it is up', async () => {
    await redis.stop()
    let up = false
    let late: TestBff | undefined
    try {
      late = await buildTestBff(api.url, { REDIS_URL: redis.url, SESSION_ENCRYPTION_KEY })
      expect((await request(late.app.server).get('/readyz')).status).toBe(503)
      expectCleanUnavailable(await request(late.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN))
      await redis.start()
      up = true
      await expect.poll(async () => (await request(late!.app.server).get('/readyz')).status, { timeout: 10_000, interval: 100 }).toBe(200)
      const cookie = sessionCookie((await request(late.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN).expect(200)).headers['set-cookie'])
      // Both instances share the one Redis (the first one lost it too: once it is back for it).
      await expect.poll(ready, { timeout: 10_000, interval: 100 }).toBe(200)
      await request(server()).get('/bff/auth/session').set('Cookie', cookie).expect(200)
    } finally {
      if (!up) await redis.start()
      await late?.close()
    }
  })

  it('the menu store hears other instances again after Redis comes back, also when it opened while Redis was down', async () => {
    let version = 0
    /** Saves through `other` until `listener` has heard of one: notices sent before it subscribed again are lost. */
    const heard = async (other: RedisMenuStore, seen: string[]) => {
      seen.length = 0
      await expect
        .poll(
          async () => {
            await other.save('menu:grupo', version, { version }, ANA)
            version++
            return seen.length
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBeGreaterThan(0)
    }
    await redis.stop()
    const opened = await RedisMenuStore.open(redis.url)
    await redis.start()
    const other = await RedisMenuStore.open(redis.url)
    const seen: string[] = []
    opened.subscribe((doc) => seen.push(doc))
    try {
      await heard(other, seen)
      await redis.stop()
      await redis.start()
      version = 0
      await heard(other, seen)
      expect(seen.every((doc) => doc === 'menu:grupo')).toBe(true)
    } finally {
      await opened.close()
      await other.close()
    }
  })
})
