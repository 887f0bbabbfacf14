import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FAKE_USER, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

/**
 * Issue 13: sign-in and password recovery are throttled per account+address and per
 * address, and an account attacked from many addresses gets growing waits, never a lockout
 * of its owner. The BFF trusts X-Forwarded-For here, so each test acts from several addresses.
 */

let upstream: FakeUpstream
beforeAll(async () => {
  upstream = await startFakeUpstream()
})
afterAll(async () => {
  await upstream?.close()
})
beforeEach(() => {
  upstream.requests.length = 0
})

async function withBff(env: Record<string, string>, run: (bff: TestBff) => Promise<void>): Promise<void> {
  const bff = await buildTestBff(upstream.url, { TRUST_PROXY: 'true', ...env })
  try {
    await run(bff)
  } finally {
    await bff.close()
  }
}

const calls = (path: string) => upstream.requests.filter((r) => r.url === path).length

const login = (bff: TestBff, from: string, password: string, username = FAKE_USER.username) =>
  request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').set('X-Forwarded-For', from).send({ username, password })

const askLink = (bff: TestBff, from: string, email: string) =>
  request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').set('X-Forwarded-For', from).send({ email })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('sign-in throttling per account and address', () => {
  it('refuses the pair at the 6th failure with 429 and Retry-After, before the upstream is asked', async () => {
    await withBff({}, async (bff) => {
      for (let i = 0; i < 5; i++) await login(bff, '203.0.113.1', 'mal').expect(401)
      expect(calls('/api/auth/login')).toBe(5)
      const refused = await login(bff, '203.0.113.1', 'mal').expect(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(890)
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(900)
      expect(refused.body.message).toBe('Demasiados intentos de acceso fallidos. Vuelve a intentarlo en 15 minutos.')
      expect(calls('/api/auth/login')).toBe(5)
      // even the right password, from that address
      await login(bff, '203.0.113.1', FAKE_USER.password).expect(429)
      expect(calls('/api/auth/login')).toBe(5)
      expect(bff.logs.raw.join('\n')).not.toContain(FAKE_USER.username)
    })
  })

  it('still lets the right password in from a second address after the first was locked out for that account', async () => {
    await withBff({}, async (bff) => {
      for (let i = 0; i < 5; i++) await login(bff, '203.0.113.1', 'mal').expect(401)
      await login(bff, '203.0.113.1', FAKE_USER.password).expect(429)
      const res = await login(bff, '198.51.100.7', FAKE_USER.password).expect(200)
      expect(sessionCookie(res.headers['set-cookie'])).toMatch(/portal_session=/)
      // the success cleared that pair only: the first address stays refused until its window ends
      await login(bff, '198.51.100.7', 'mal').expect(401)
      await login(bff, '203.0.113.1', FAKE_USER.password).expect(429)
    })
  })

  it('slows an account attacked from many addresses with waits that grow, and a success clears them', async () => {
    await withBff({ SIGNIN_ACCOUNT_BACKOFF_AFTER: '3', SIGNIN_ACCOUNT_BACKOFF_S: '1' }, async (bff) => {
      for (let i = 1; i <= 3; i++) await login(bff, `192.0.2.${i}`, 'mal').expect(401)
      // three failures: no wait yet
      await login(bff, '192.0.2.4', 'mal').expect(401)
      // the fourth imposed 1 s on everyone, the owner included
      const first = await login(bff, '198.51.100.9', FAKE_USER.password).expect(429)
      expect(first.headers['retry-after']).toBe('1')
      expect(first.body.message).toBe('Demasiados intentos de acceso fallidos. Vuelve a intentarlo en 1 segundo.')
      await sleep(1_100)
      await login(bff, '192.0.2.5', 'mal').expect(401)
      const second = await login(bff, '198.51.100.9', FAKE_USER.password).expect(429)
      expect(second.headers['retry-after']).toBe('2')
      expect(second.body.message).toBe('Demasiados intentos de acceso fallidos. Vuelve a intentarlo en 2 segundos.')
      // refusals during the wait reach nobody and do not lengthen it (further steps: attempt-counter.test.ts)
      await login(bff, '192.0.2.6', 'mal').expect(429)
      expect(Number((await login(bff, '198.51.100.9', FAKE_USER.password).expect(429)).headers['retry-after'])).toBeLessThanOrEqual(2)
      expect(calls('/api/auth/login')).toBe(5)
      await sleep(2_100)
      await login(bff, '198.51.100.9', FAKE_USER.password).expect(200)
      // the success cleared the account's count: the next failure imposes no wait
      await login(bff, '192.0.2.7', 'mal').expect(401)
      await login(bff, '198.51.100.9', FAKE_USER.password).expect(200)
    })
  }, 30_000)

  it('keeps the per-address limit across accounts', async () => {
    await withBff({}, async (bff) => {
      for (let i = 0; i < 20; i++) await login(bff, '203.0.113.50', 'mal', `nadie${i}@portal.test`).expect(401)
      await login(bff, '203.0.113.50', FAKE_USER.password).expect(429)
      await login(bff, '203.0.113.51', FAKE_USER.password).expect(200)
    })
  })
})

describe('password recovery throttling', () => {
  it('answers the 6th request for one account from one address 429 with Retry-After, without asking the upstream', async () => {
    await withBff({}, async (bff) => {
      // the e-mail is normalised: these are one account
      const spellings = ['persona@portal.test', 'Persona@Portal.test', ' PERSONA@portal.test ', 'persona@portal.test', 'persona@PORTAL.TEST']
      for (const email of spellings) await askLink(bff, '203.0.113.1', email).expect(200)
      expect(calls('/api/auth/request-change-password')).toBe(5)
      const refused = await askLink(bff, '203.0.113.1', 'persona@portal.test').expect(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(890)
      expect(refused.body).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Demasiadas solicitudes de cambio de contraseña. Vuelve a intentarlo en 15 minutos.',
      })
      expect(calls('/api/auth/request-change-password')).toBe(5)
      // setting the new password shares the count
      await request(bff.app.server)
        .post('/api/auth/change-password')
        .set('X-CSRF', '1')
        .set('X-Forwarded-For', '203.0.113.1')
        .send({ email: 'persona@portal.test', token: 'codigo-de-prueba', newPassword: 'Nueva-2026!' })
        .expect(429)
      expect(calls('/api/auth/change-password')).toBe(0)
      // another address for that account, and that address for another account, are served
      await askLink(bff, '198.51.100.7', 'persona@portal.test').expect(200)
      await askLink(bff, '203.0.113.1', 'otra@portal.test').expect(200)
      expect(calls('/api/auth/request-change-password')).toBe(7)
      const log = bff.logs.raw.join('\n')
      expect(log).toContain('recovery_throttled')
      expect(log.toLowerCase()).not.toContain('persona@portal.test')
    })
  })

  it('answers the 21st request from one address 429, whatever the accounts', async () => {
    await withBff({}, async (bff) => {
      for (let i = 0; i < 20; i++) await askLink(bff, '203.0.113.9', `usuario${i}@portal.test`).expect(200)
      const refused = await askLink(bff, '203.0.113.9', 'usuario20@portal.test').expect(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(890)
      expect(calls('/api/auth/request-change-password')).toBe(20)
      await askLink(bff, '203.0.113.10', 'usuario20@portal.test').expect(200)
    })
  })

  it('counts every request, the answer whatever it is, and counts sign-in apart', async () => {
    await withBff({ SIGNIN_MAX_FAILURES_PER_ACCOUNT: '2' }, async (bff) => {
      await askLink(bff, '203.0.113.20', FAKE_USER.username).expect(200)
      await askLink(bff, '203.0.113.20', FAKE_USER.username).expect(200)
      await askLink(bff, '203.0.113.20', FAKE_USER.username).expect(429)
      await login(bff, '203.0.113.20', FAKE_USER.password).expect(200)
    })
  })

  it('checks the body before counting or forwarding, and keeps it small', async () => {
    await withBff({}, async (bff) => {
      await request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').send({}).expect(400)
      await request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').send({ email: 'a@b.es', extra: 1 }).expect(400)
      await request(bff.app.server)
        .post('/api/auth/request-change-password')
        .set('X-CSRF', '1')
        .send({ email: `${'a'.repeat(8000)}@b.es` })
        .expect(413)
      expect(upstream.requests).toHaveLength(0)
    })
  })

  it('another spelling of a recovery path does not reach the upstream unthrottled', async () => {
    await withBff({}, async (bff) => {
      for (let i = 0; i < 5; i++) await askLink(bff, '203.0.113.30', 'persona@portal.test').expect(200)
      for (const path of ['/api/auth/Request-Change-Password', '/api/AUTH/request-change-password', '/api/auth/request%2Dchange-password', '/api/auth/request-change-password/', '/api/auth//request-change-password']) {
        const res = await request(bff.app.server).post(path).set('X-CSRF', '1').set('X-Forwarded-For', '203.0.113.30').send({ email: 'persona@portal.test' })
        expect(res.status, path).toBeGreaterThanOrEqual(400)
      }
      expect(upstream.requests).toHaveLength(5)
    })
  })
})
