import request from 'supertest'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

let clock = Date.now()
const now = () => clock
let upstream: FakeUpstream
let bff: TestBff

beforeEach(async () => {
  clock = Date.now()
  upstream = await startFakeUpstream(now)
  upstream.tokenTtlS = 60
  bff = await buildTestBff(upstream.url, {}, { now })
})
afterEach(async () => {
  await bff.close()
  await upstream.close()
})

async function signIn() {
  const res = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: 'p', password: 'correcta' }).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

describe('an expired access token (checked against exp)', () => {
  it('is refreshed before the call when refresh is possible', async () => {
    const cookie = await signIn()
    await request(bff.app.server).get('/api/protected').set('Cookie', cookie).expect(200)
    const firstToken = upstream.requests.at(-1)!.headers.authorization
    clock += 61_000
    await request(bff.app.server).get('/api/protected').set('Cookie', cookie).expect(200)
    expect(upstream.refreshCalls).toBe(1)
    const secondToken = upstream.requests.at(-1)!.headers.authorization
    expect(secondToken).not.toBe(firstToken)
    // the refresh token travelled in the body to the upstream refresh call, never to the browser
    const refreshCall = upstream.requests.find((r) => r.url === '/api/auth/refresh')!
    expect(refreshCall.body).toEqual({ refreshToken: 'refresh-1' })
  })

  it('ends the session with 401 when the upstream refuses the refresh', async () => {
    const cookie = await signIn()
    upstream.refreshEnabled = false
    clock += 61_000
    const res = await request(bff.app.server).get('/api/protected').set('Cookie', cookie).expect(401)
    expect(String(res.headers['set-cookie'])).toMatch(/portal_session=;/)
    upstream.refreshEnabled = true
    // the session is gone for good
    await request(bff.app.server).get('/bff/auth/session').set('Cookie', cookie).expect(401)
  })

  it('ends the session when no refresh token was issued', async () => {
    upstream.issueRefreshToken = false
    const cookie = await signIn()
    clock += 61_000
    await request(bff.app.server).get('/api/protected').set('Cookie', cookie).expect(401)
    expect(upstream.refreshCalls).toBe(0)
    const manifest = await request(bff.app.server).get('/bff/manifest').set('Cookie', cookie).expect(200)
    expect(manifest.body.authenticated).toBe(false)
  })

  it('refreshes once for concurrent calls (a rotating refresh token is spent once)', async () => {
    const cookie = await signIn()
    clock += 61_000
    await Promise.all([1, 2, 3, 4].map(() => request(bff.app.server).get('/api/protected').set('Cookie', cookie).expect(200)))
    expect(upstream.refreshCalls).toBe(1)
  })

  it('stops the sign-in when the upstream token is not a string (spec §8)', async () => {
    const Fastify = (await import('fastify')).default
    const odd = Fastify()
    odd.post('/api/auth/login', async () => ({ token: 12345, refreshToken: 'x' }))
    const url = await odd.listen({ host: '127.0.0.1', port: 0 })
    const other = await buildTestBff(url)
    try {
      const res = await request(other.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: 'p', password: 'x' }).expect(502)
      expect(res.body.message).toMatch(/token no válido/)
      expect(res.headers['set-cookie']).toBeUndefined()
    } finally {
      await other.close()
      await odd.close()
    }
  })
})
