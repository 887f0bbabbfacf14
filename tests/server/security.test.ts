import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MailMessage } from '../../server/reference-api/mail/mailer'
import { SqliteSessionStore } from '../../server/session/sqlite-session-store'
import { TokenCipher } from '../../server/session/token-cipher'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/** Issue 7, Security: each point with a test that fails when it is broken. */

const mails: MailMessage[] = []
let api: RunningReferenceApi
beforeAll(async () => {
  api = await startReferenceApi({}, { mailer: { send: async (m) => void mails.push(m) } })
})
afterAll(async () => {
  await api?.close()
})

const VERDE = 'portal.energiaverde.es'

async function signIn(bff: TestBff, creds: { username: string; password: string }, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return sessionCookie(res.headers['set-cookie'])
}
const sessionOf = (bff: TestBff, cookie: string, host = 'localhost') => request(bff.app.server).get('/bff/auth/session').set('Host', host).set('Cookie', cookie)

async function withBff<T>(env: Record<string, string>, run: (bff: TestBff) => Promise<T>, deps = {}): Promise<T> {
  const bff = await buildTestBff(api.url, env, deps)
  try {
    return await run(bff)
  } finally {
    await bff.close()
  }
}

describe('the session cookie in production', () => {
  it('is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/, without Domain, with at least 128 random bits', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      const ids = new Set<string>()
      for (let i = 0; i < 3; i++) {
        const res = await request(bff.app.server).post('/bff/auth/login').set('Host', VERDE).set('X-CSRF', '1').send(ADMIN).expect(200)
        const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!
        const [pair, ...attributes] = cookie.split(/;\s*/)
        const [name, value] = pair!.split('=')
        expect(name).toBe('__Host-portal_session')
        // base64url: 6 bits a character
        expect(value!.length * 6).toBeGreaterThanOrEqual(128)
        expect(attributes.map((a) => a.toLowerCase())).toEqual(expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax']))
        expect(attributes.some((a) => /^domain=/i.test(a))).toBe(false)
        ids.add(value!)
      }
      expect(ids.size).toBe(3)
    })
  })
})

describe('idle and absolute timeouts, enforced by the server (the store’s clock is moved)', () => {
  it('ends a session idle for 30 minutes, and any session 12 hours after sign-in however busy', async () => {
    let now = Date.now()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-timeouts-'))
    const store = new SqliteSessionStore(path.join(dir, 's.db'), { idleMs: 30 * 60_000, absoluteMs: 12 * 3600_000, now: () => now }, { cipher: TokenCipher.random() })
    try {
      await withBff(
        {},
        async (bff) => {
          // idle
          const idle = await signIn(bff, AGENTE)
          now += 29 * 60_000
          await sessionOf(bff, idle).expect(200)
          now += 31 * 60_000
          const gone = await sessionOf(bff, idle).expect(401)
          expect(gone.body.message).toBe('Tu sesión ha caducado o no has iniciado sesión.')
          // absolute: used every 20 minutes, still ends at 12 h
          const busy = await signIn(bff, AGENTE)
          for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
            now += 20 * 60_000
            await sessionOf(bff, busy).expect(200)
          }
          now += 25 * 60_000
          await sessionOf(bff, busy).expect(401)
        },
        { sessionStore: store },
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('ending sessions', () => {
  let bff: TestBff
  beforeAll(async () => {
    bff = await buildTestBff(api.url)
  })
  afterAll(async () => {
    await bff?.close()
  })

  it('sign-out ends the session on the server; replaying its cookie gets 401', async () => {
    const cookie = await signIn(bff, AGENTE)
    await request(bff.app.server).post('/bff/auth/logout').set('X-CSRF', '1').set('Cookie', cookie).expect(204)
    await sessionOf(bff, cookie).expect(401)
    await request(bff.app.server).get('/api/contract').set('Cookie', cookie).expect(401)
  })

  it('changing one’s own password ends the other sessions and keeps this one', async () => {
    const here = await signIn(bff, AGENTE)
    const elsewhere = await signIn(bff, AGENTE)
    const other = await signIn(bff, ADMIN)
    const changed = await request(bff.app.server)
      .put('/api/usuarios/password')
      .set('X-CSRF', '1')
      .set('Cookie', here)
      .send({ OldPassword: AGENTE.password, NewPassword: 'Portal-Agente-2027!' })
    expect(changed.status, JSON.stringify(changed.body)).toBeLessThan(300)
    await sessionOf(bff, elsewhere).expect(401)
    await sessionOf(bff, here).expect(200)
    await sessionOf(bff, other).expect(200)
    expect(bff.logs.lines.some((l) => l.event === 'password_changed' && l.sessionsEnded === 1)).toBe(true)
    // back to the demo password for the other tests
    await request(bff.app.server).put('/api/usuarios/password').set('X-CSRF', '1').set('Cookie', here).send({ OldPassword: 'Portal-Agente-2027!', NewPassword: AGENTE.password }).expect((r) => expect(r.status).toBeLessThan(300))
  })

  it('a wrong current password changes nothing and ends nothing', async () => {
    const here = await signIn(bff, AGENTE)
    const elsewhere = await signIn(bff, AGENTE)
    const res = await request(bff.app.server).put('/api/usuarios/password').set('X-CSRF', '1').set('Cookie', here).send({ OldPassword: 'no-es-esta', NewPassword: 'Portal-Agente-2028!' })
    expect(res.status).toBeGreaterThanOrEqual(400)
    await sessionOf(bff, elsewhere).expect(200)
  })

  it('a password set by an admin ends all of that user’s sessions', async () => {
    const agente = await signIn(bff, AGENTE)
    const admin = await signIn(bff, ADMIN)
    const me = (await sessionOf(bff, agente).expect(200)).body.user.Id as number
    const res = await request(bff.app.server).put(`/api/usuarios/change-pass-admin?Id=${me}`).set('X-CSRF', '1').set('Cookie', admin).send({ Password: AGENTE.password })
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
    await sessionOf(bff, agente).expect(401)
    await sessionOf(bff, admin).expect(200)
  })

  it('a password recovered by e-mail ends all of that user’s sessions', async () => {
    const agente = await signIn(bff, AGENTE)
    mails.length = 0
    await request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').send({ email: AGENTE.username }).expect((r) => expect(r.status).toBeLessThan(300))
    const link = /https?:\/\/\S+token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text ?? '')
    expect(link, 'the recovery mail holds a link with a token').not.toBeNull()
    const res = await request(bff.app.server)
      .post('/api/auth/change-password')
      .set('X-CSRF', '1')
      .send({ email: 'Agente@Portal.test', token: link![1], newPassword: AGENTE.password })
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
    await sessionOf(bff, agente).expect(401)
  })

  it('an admin can end a user’s sessions; an agente cannot', async () => {
    const agente = await signIn(bff, AGENTE)
    const second = await signIn(bff, AGENTE)
    const admin = await signIn(bff, ADMIN)
    const me = (await sessionOf(bff, agente).expect(200)).body.user.Id as number
    await request(bff.app.server).delete(`/bff/admin/users/${me}/sessions`).set('X-CSRF', '1').set('Cookie', agente).expect(403)
    const res = await request(bff.app.server).delete(`/bff/admin/users/${me}/sessions`).set('X-CSRF', '1').set('Cookie', admin).expect(200)
    expect(res.body.ended).toBeGreaterThanOrEqual(2)
    await sessionOf(bff, agente).expect(401)
    await sessionOf(bff, second).expect(401)
    await sessionOf(bff, admin).expect(200)
    await request(bff.app.server).delete('/bff/admin/users/abc/sessions').set('X-CSRF', '1').set('Cookie', admin).expect(400)
  })
})

describe('sign-in throttling', () => {
  it('refuses an account after repeated failures with 429, a Spanish message and Retry-After, even with the right password', async () => {
    await withBff({ SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3', SIGNIN_THROTTLE_WINDOW_S: '600' }, async (bff) => {
      const attempt = (password: string, username = AGENTE.username) =>
        request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username, password })
      for (let i = 0; i < 3; i++) await attempt('mal').expect(401)
      const refused = await attempt(AGENTE.password).expect(429)
      expect(refused.body.message).toBe('Demasiados intentos de acceso fallidos. Vuelve a intentarlo en 10 minutos.')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(590)
      expect(refused.headers['set-cookie']).toBeUndefined()
      // the account's address is not in the logs
      expect(bff.logs.raw.join('\n')).not.toContain(AGENTE.username)
      // other accounts still sign in
      await signIn(bff, ADMIN)
    })
  })

  it('refuses an address after repeated failures across accounts', async () => {
    await withBff({ SIGNIN_MAX_FAILURES_PER_IP: '4' }, async (bff) => {
      for (let i = 0; i < 4; i++) await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: `nadie${i}@portal.test`, password: 'x' }).expect(401)
      await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN).expect(429)
    })
  })

  it('counts failures only: a success clears the account', async () => {
    await withBff({ SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3' }, async (bff) => {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 2; i++) await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ ...AGENTE, password: 'mal' }).expect(401)
        await signIn(bff, AGENTE)
      }
    })
  })
})

describe('host names', () => {
  const hostStatus = (bff: TestBff, host: string, path = '/bff/manifest', headers: Record<string, string> = {}) =>
    request(bff.app.server).get(path).set('Host', host).set(headers).then((r) => r.status)

  it('in production serves only portal.<Domain> of each brand and ALLOWED_HOSTS', async () => {
    await withBff({ NODE_ENV: 'production', ALLOWED_HOSTS: 'intranet.example.es' }, async (bff) => {
      for (const host of ['portal.energiaverde.es', 'portal.grupoenergia.es', 'PORTAL.EnergiaLimpia.es:443', 'intranet.example.es']) expect(await hostStatus(bff, host), host).toBe(200)
      for (const host of ['evil.example', 'localhost', '127.0.0.1', 'energiaverde.es', 'portal.energiaverde.es.evil.example', 'portal.energiaverde.localhost']) {
        expect(await hostStatus(bff, host), host).toBe(421)
      }
      const refused = await request(bff.app.server).get('/bff/manifest').set('Host', 'evil.example')
      expect(refused.body).toEqual({ statusCode: 421, error: 'Misdirected Request', message: 'Este portal no atiende ese nombre de servidor.' })
      // probes answer on any name
      expect(await hostStatus(bff, '10.0.0.7:3000', '/healthz')).toBe(200)
    })
  })

  it('in development also serves localhost, *.localhost and IP literals', async () => {
    await withBff({}, async (bff) => {
      for (const host of ['localhost:3000', 'portal.grupoenergia.localhost:4321', '127.0.0.1:3000', '[::1]:3000', 'portal.energiaverde.es']) expect(await hostStatus(bff, host), host).toBe(200)
      expect(await hostStatus(bff, 'evil.example')).toBe(421)
    })
  })

  it('honours X-Forwarded-Host and X-Forwarded-Proto only with TRUST_PROXY=true', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      // not trusted: the forwarded name neither opens the door nor picks the brand
      expect(await hostStatus(bff, 'evil.example', '/bff/manifest', { 'X-Forwarded-Host': 'portal.energiaverde.es' })).toBe(421)
      const res = await request(bff.app.server).get('/bff/manifest').set('Host', 'portal.energiaverde.es').set('X-Forwarded-Host', 'portal.grupoenergia.es')
      expect(res.body.brand.key).toBe('verde')
    })
    await withBff({ NODE_ENV: 'production', TRUST_PROXY: 'true' }, async (bff) => {
      const res = await request(bff.app.server).get('/bff/manifest').set('Host', '10.0.0.5:3000').set('X-Forwarded-Host', 'portal.grupoenergia.es').set('X-Forwarded-Proto', 'https')
      expect(res.status).toBe(200)
      expect(res.body.brand.key).toBe('grupo')
    })
    await withBff({ TRUST_PROXY: 'true' }, async (bff) => {
      const login = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').set('X-Forwarded-Proto', 'https').send(AGENTE).expect(200)
      expect(String(login.headers['set-cookie'])).toMatch(/; Secure/i)
    })
  })
})

describe('security headers', () => {
  it('sends a strict CSP and the usual protections; HSTS only in production', async () => {
    await withBff({}, async (bff) => {
      const res = await request(bff.app.server).get('/bff/manifest').expect(200)
      const csp = String(res.headers['content-security-policy'])
      const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? ''
      expect(directive('script-src')).toBe("script-src 'self'")
      expect(directive('default-src')).toBe("default-src 'self'")
      expect(directive('object-src')).toBe("object-src 'none'")
      expect(directive('base-uri')).toBe("base-uri 'none'")
      expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'")
      expect(csp).not.toMatch(/unsafe-eval/)
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['referrer-policy']).toBe('same-origin')
      expect(res.headers['x-frame-options']).toBe('DENY')
      expect(res.headers['strict-transport-security']).toBeUndefined()
      expect(res.headers['x-powered-by']).toBeUndefined()
    })
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      const res = await request(bff.app.server).get('/bff/manifest').set('Host', VERDE).expect(200)
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000; includeSubDomains/)
      expect(res.headers['content-security-policy']).toMatch(/upgrade-insecure-requests/)
    })
  })

  it('sends them on every kind of answer: proxied, refused, not found, static', async () => {
    await withBff({}, async (bff) => {
      const cookie = await signIn(bff, ADMIN)
      const answers: [string, request.Response][] = [
        ['proxied', await request(bff.app.server).get('/api/utility/prueba-carga').set('Cookie', cookie).expect(200)],
        ['no session', await request(bff.app.server).get('/api/utility/prueba-carga').expect(401)],
        ['no CSRF header', await request(bff.app.server).post('/bff/auth/logout').expect(403)],
        ['not found', await request(bff.app.server).get('/bff/no-existe').expect(404)],
        ['brand artwork', await request(bff.app.server).get('/favicon.ico').expect(200)],
      ]
      for (const [what, res] of answers) {
        expect(String(res.headers['content-security-policy']), what).toMatch(/^default-src 'self';/)
        expect(res.headers['x-frame-options'], what).toBe('DENY')
        expect(res.headers['cross-origin-resource-policy'], what).toBe('same-origin')
      }
    })
  })

  it('lets this origin alone frame the studio preview page; every other page, and its data, stay unframeable', async () => {
    await withBff({}, async (bff) => {
      const frameAncestors = (res: request.Response) => String(res.headers['content-security-policy']).split(';').map((d) => d.trim()).find((d) => d.startsWith('frame-ancestors'))
      for (const url of ['/sysmanager/pantallas/vista-previa', '/SYSMANAGER/Pantallas/Vista-Previa/', '/sysmanager/pantallas/vista-previa?x=1']) {
        const res = await request(bff.app.server).get(url)
        expect(frameAncestors(res), url).toBe("frame-ancestors 'self'")
        expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN')
      }
      for (const url of ['/sysmanager/pantallas', '/sysmanager/pantallas/vista-previa/otra', '/bff/admin/screens/preview', '/']) {
        const res = await request(bff.app.server).get(url)
        expect(frameAncestors(res), url).toBe("frame-ancestors 'none'")
        expect(res.headers['x-frame-options'], url).toBe('DENY')
      }
    })
  })

  it('leaves the document-only headers off data answers (/api/*, /bff/*) and keeps the rest there', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      const server = bff.app.server
      const cookie = await signIn(bff, ADMIN, VERDE)
      const documentOnly = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-xss-protection']
      const kept = ['content-security-policy', 'strict-transport-security', 'x-content-type-options', 'x-frame-options', 'cross-origin-resource-policy', 'referrer-policy', 'x-permitted-cross-domain-policies']
      const page = await request(server).get('/favicon.ico').set('Host', VERDE).expect(200)
      for (const name of [...documentOnly, ...kept]) expect(page.headers[name], `artwork: ${name}`).toBeDefined()
      const data: [string, request.Response][] = [
        ['proxied', await request(server).get('/api/utility/prueba-carga').set('Host', VERDE).set('Cookie', cookie).expect(200)],
        ['proxied, refused', await request(server).get('/api/utility/prueba-carga').set('Host', VERDE).expect(401)],
        ['BFF', await request(server).get('/bff/manifest').set('Host', VERDE).set('Cookie', cookie).expect(200)],
        ['BFF, not found', await request(server).get('/bff/no-existe').set('Host', VERDE).expect(404)],
      ]
      for (const [what, res] of data) {
        for (const name of documentOnly) expect(res.headers[name], `${what}: ${name}`).toBeUndefined()
        for (const name of kept) expect(res.headers[name], `${what}: ${name}`).toBe(page.headers[name])
      }
    })
  })
})

describe('body limits and validation', () => {
  it('caps bodies streamed through the proxy by their declared length, and refuses bodies without one, before the upstream sees them', async () => {
    await withBff({ API_BODY_LIMIT_MB: '1' }, async (bff) => {
      const cookie = await signIn(bff, ADMIN)
      const big = Buffer.alloc(1024 * 1024 + 1, 97)
      const tooBig = await request(bff.app.server).post('/api/save-files').set('X-CSRF', '1').set('Cookie', cookie).set('Content-Type', 'application/octet-stream').send(big)
      expect(tooBig.status).toBe(413)
      expect(tooBig.body.message).toBe('La petición es demasiado grande: el máximo son 1 MB.')
      // A streamed body without a declared length (chunked): sent by hand, as supertest always declares one.
      const address = await bff.app.listen({ host: '127.0.0.1', port: 0 })
      const chunked = await new Promise<number>((resolve, reject) => {
        const req = http.request(`${address}/api/save-files`, { method: 'POST', headers: { 'X-CSRF': '1', Cookie: cookie, 'Content-Type': 'application/octet-stream' } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.write('abc')
        req.end('def')
      })
      expect(chunked).toBe(411)
      expect(bff.logs.lines.filter((l) => l.event === 'body_too_large')).toHaveLength(1)
    })
  })

  it('caps JSON bodies of the BFF’s own routes', async () => {
    await withBff({}, async (bff) => {
      const res = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: 'x'.repeat(2 * 1024 * 1024), password: 'y' })
      expect(res.status).toBe(413)
      expect(res.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'La petición es demasiado grande.' })
    })
  })

  it('answers invalid bodies with one 400 shape and a Spanish sentence naming the field', async () => {
    await withBff({}, async (bff) => {
      const missing = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: 'a@b.es' }).expect(400)
      expect(missing.body).toEqual({ statusCode: 400, error: 'Bad Request', message: 'Los datos enviados no son válidos: falta «password».' })
      const extra = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: 'a@b.es', password: 'x', admin: true }).expect(400)
      expect(extra.body.message).toBe('Los datos enviados no son válidos: sobra «admin».')
      const cookie = await signIn(bff, AGENTE)
      const short = await request(bff.app.server).put('/api/usuarios/password').set('X-CSRF', '1').set('Cookie', cookie).send({ OldPassword: '', NewPassword: 'x' }).expect(400)
      expect(short.body.message).toBe('Los datos enviados no son válidos: «OldPassword» no debe tener menos de 1 caracteres.')
    })
  })
})
