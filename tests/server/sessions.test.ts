import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

let api: RunningReferenceApi
let bff: TestBff

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

const login = (creds: { username: string; password: string }, cookie?: string) => {
  const r = request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(creds)
  return cookie ? r.set('Cookie', cookie) : r
}

describe('sign-in through the BFF against the reference API', () => {
  it('sets an httpOnly, SameSite=Lax session cookie and returns the user but no token', async () => {
    const res = await login(ADMIN).expect(200)
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
    expect(setCookie).toHaveLength(1)
    const cookie = setCookie[0]!
    expect(cookie).toMatch(/^portal_session=[A-Za-z0-9_-]{43};/)
    expect(cookie).toMatch(/; HttpOnly/i)
    expect(cookie).toMatch(/; SameSite=Lax/i)
    expect(cookie).toMatch(/; Path=\//)
    expect(cookie).not.toMatch(/Domain=/i)
    // Plain http in a test run: not Secure (Secure comes with https and in production).
    expect(cookie).not.toMatch(/; Secure/i)
    expect(res.body.user.Email).toBe('admin@portal.test')
    expect(res.body.user.Permisos.map((p: { NombreNormalizado: string }) => p.NombreNormalizado).sort()).toEqual(['GESTORACCESS', 'MENUPRODUCTOSBATERIAS', 'VERDATOSPERSONALES', 'VERRENOVACIONES'])
    const body = JSON.stringify(res.body)
    expect(body).not.toMatch(/token/i)
    expect(body).not.toMatch(/eyJ/) // no JWT anywhere
    expect(body).not.toContain(ADMIN.password)
  })

  it('marks the cookie Secure when the request came over https (behind a trusted proxy)', async () => {
    const proxied = await buildTestBff(api.url, { TRUST_PROXY: 'true' })
    try {
      const res = await request(proxied.app.server).post('/bff/auth/login').set('X-CSRF', '1').set('X-Forwarded-Proto', 'https').send(ADMIN).expect(200)
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure/i)
    } finally {
      await proxied.close()
    }
  })

  it('refuses bad credentials with a Spanish 401 and no cookie', async () => {
    const res = await login({ username: ADMIN.username, password: 'incorrecta' }).expect(401)
    expect(res.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Usuario o contraseña incorrectos.' })
    expect(res.headers['set-cookie']).toBeUndefined()
  })

  it('validates the body of the sign-in', async () => {
    const res = await login({ username: '', password: 'x' } as never).expect(400)
    expect(res.body.message).toMatch(/no son válidos/)
  })

  it('gives a new session id on every sign-in and ends the previous one', async () => {
    const first = sessionCookie((await login(ADMIN).expect(200)).headers['set-cookie'])
    const second = sessionCookie((await login(ADMIN, first).expect(200)).headers['set-cookie'])
    expect(second).not.toBe(first)
    await request(bff.app.server).get('/bff/auth/session').set('Cookie', first).expect(401)
    await request(bff.app.server).get('/bff/auth/session').set('Cookie', second).expect(200)
  })

  it('answers the session, refreshes, and signs out (the cookie is cleared and no longer works)', async () => {
    const cookie = sessionCookie((await login(AGENTE).expect(200)).headers['set-cookie'])
    const session = await request(bff.app.server).get('/bff/auth/session').set('Cookie', cookie).expect(200)
    expect(session.body.user.Email).toBe('agente@portal.test')
    expect(session.body.user.Agente).toMatchObject({ Codigo: expect.stringMatching(/^AGEV-\d{4}$/) })
    const refreshed = await request(bff.app.server).post('/bff/auth/refresh').set('X-CSRF', '1').set('Cookie', cookie).expect(200)
    expect(refreshed.body.user.Email).toBe('agente@portal.test')
    expect(JSON.stringify(refreshed.body)).not.toMatch(/eyJ/)
    const out = await request(bff.app.server).post('/bff/auth/logout').set('X-CSRF', '1').set('Cookie', cookie).expect(204)
    expect(String(out.headers['set-cookie'])).toMatch(/portal_session=;/)
    await request(bff.app.server).get('/bff/auth/session').set('Cookie', cookie).expect(401)
    await request(bff.app.server).get('/api/utility/tarifas').set('Cookie', cookie).expect(401)
  })

  it('revokes the upstream refresh token on sign-out', async () => {
    const cookie = sessionCookie((await login(ADMIN).expect(200)).headers['set-cookie'])
    const before = api.db.prepare('SELECT COUNT(*) AS n FROM refresh_tokens WHERE revoked_at IS NOT NULL').get() as { n: number }
    await request(bff.app.server).post('/bff/auth/logout').set('X-CSRF', '1').set('Cookie', cookie).expect(204)
    const after = api.db.prepare('SELECT COUNT(*) AS n FROM refresh_tokens WHERE revoked_at IS NOT NULL').get() as { n: number }
    expect(after.n).toBe(before.n + 1)
  })

  it('answers 401 without a session, and on a forged cookie', async () => {
    await request(bff.app.server).get('/bff/auth/session').expect(401)
    await request(bff.app.server).get('/bff/auth/session').set('Cookie', 'portal_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').expect(401)
    const res = await request(bff.app.server).get('/api/utility/provincias').expect(401)
    expect(res.body.message).toMatch(/sesión/)
  })

  it('requires X-CSRF: 1 on state-changing calls, including sign-in', async () => {
    const res = await request(bff.app.server).post('/bff/auth/login').send(ADMIN).expect(403)
    expect(res.body.message).toMatch(/CSRF/)
    await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').set('Origin', 'https://evil.example').send(ADMIN).expect(403)
  })

  it('gives the manifest with user and menu only when signed in', async () => {
    const anon = await request(bff.app.server).get('/bff/manifest').expect(200)
    expect(anon.body.authenticated).toBe(false)
    expect(anon.body.menu).toEqual([])
    expect(anon.body.user).toBeUndefined()
    expect(anon.body.routes.length).toBeGreaterThan(40)
    const cookie = sessionCookie((await login(AGENTE).expect(200)).headers['set-cookie'])
    const signed = await request(bff.app.server).get('/bff/manifest').set('Cookie', cookie).expect(200)
    expect(signed.body.authenticated).toBe(true)
    expect(signed.body.user).toMatchObject({ email: 'agente@portal.test', permissions: [] })
    expect(signed.body.menu.map((s: { key: string }) => s.key)).not.toContain('usuarios')
  })
})
