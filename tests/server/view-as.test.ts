import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditPageAnswer } from '../../schemas/audit'
import type { Manifest } from '../../schemas/manifest'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 16, view-as: an admin opens the portal as another user, read-only (every change refused
 * by the BFF, and by the upstream's token too), with the user's own visibility when the upstream
 * issues a view-as token (`POST api/auth/impersonate`, an `act` claim naming the admin), and a
 * permissions-only view when it cannot; started and ended in the audit.
 */

let api: RunningReferenceApi
let bff: TestBff
let agenteId = 0

type Method = 'get' | 'put' | 'post' | 'delete'
const cookies = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? [])
const viewCookie = (res: request.Response) => cookies(res).find((c) => /^portal_view_as=/.test(c))?.split(';')[0]

function call(target: TestBff, method: Method, path: string, cookie: string, body?: unknown) {
  const r = request(target.app.server)[method](path).set('Host', 'localhost').set('X-CSRF', '1').set('Cookie', cookie)
  return body === undefined ? r : r.send(body as object)
}
async function signIn(target: TestBff, creds: typeof ADMIN) {
  const res = await request(target.app.server).post('/bff/auth/login').set('Host', 'localhost').set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}
/** Starts viewing as `userId`: the admin's cookie and the view-as one, as the browser would send them. */
async function viewAs(target: TestBff, admin: string, userId: number) {
  const res = await call(target, 'post', '/bff/view-as', admin, { userId }).expect(200)
  const view = viewCookie(res)
  expect(view).toBeDefined()
  return { body: res.body as { user: { id: number; name: string }; mode: string }, both: `${admin}; ${view}` }
}
const manifest = async (target: TestBff, cookie: string) => (await call(target, 'get', '/bff/manifest', cookie).expect(200)).body as Manifest

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  agenteId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }).id
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('starting and leaving', () => {
  it('an admin sees the portal as agente (agente’s menu, a banner naming the admin), then comes back to their own', async () => {
    const admin = await signIn(bff, ADMIN)
    const { body, both } = await viewAs(bff, admin, agenteId)
    expect(body).toMatchObject({ user: { id: agenteId }, mode: 'token' })
    const seen = await manifest(bff, both)
    expect(seen.user).toMatchObject({ id: agenteId, email: 'agente@portal.test' })
    expect(seen.user!.permissions).not.toContain('GESTORACCESS')
    expect(seen.viewAs).toEqual({ actor: { id: expect.any(Number), name: expect.stringMatching(/\S/) }, mode: 'token' })
    // Admin entries are gone from agente's menu.
    expect(JSON.stringify(seen.menu)).not.toContain('/sysmanager')

    const left = await call(bff, 'delete', '/bff/view-as', both).expect(204)
    expect(cookies(left).some((c) => /^portal_view_as=;/.test(c))).toBe(true)
    const back = await manifest(bff, admin)
    expect(back.user!.email).toBe('admin@portal.test')
    expect(back.viewAs).toBeUndefined()
    // The ended view is gone for good: its cookie, sent again, no longer counts.
    expect((await manifest(bff, both)).user!.email).toBe('admin@portal.test')
  })

  it('is for GESTORACCESS only, one at a time, not as oneself, not as a user that does not exist', async () => {
    const agente = await signIn(bff, AGENTE)
    await call(bff, 'post', '/bff/view-as', agente, { userId: 1 }).expect(403)
    await call(bff, 'post', '/bff/view-as', '', { userId: 1 }).expect(401)
    const admin = await signIn(bff, ADMIN)
    const own = (await manifest(bff, admin)).user!.id
    expect((await call(bff, 'post', '/bff/view-as', admin, { userId: own }).expect(400)).body.message).toMatch(/tú mismo/)
    expect((await call(bff, 'post', '/bff/view-as', admin, { userId: 999_999 }).expect(404)).body.message).toMatch(/no existe/)
    await call(bff, 'post', '/bff/view-as', admin, { userId: 'x' }).expect(400)
    const { both } = await viewAs(bff, admin, agenteId)
    expect((await call(bff, 'post', '/bff/view-as', both, { userId: agenteId }).expect(409)).body.message).toMatch(/sal de «Ver como»/)
    await call(bff, 'delete', '/bff/view-as', both).expect(204)
  })

  it('a view-as cookie counts only beside the admin session it was started from', async () => {
    const adminA = await signIn(bff, ADMIN)
    const adminB = await signIn(bff, ADMIN)
    const { both } = await viewAs(bff, adminA, agenteId)
    const stolen = both.split('; ')[1]!
    // With another session of the same admin, or with none, the view-as cookie is ignored and cleared.
    const res = await call(bff, 'get', '/bff/manifest', `${adminB}; ${stolen}`).expect(200)
    expect((res.body as Manifest).user!.email).toBe('admin@portal.test')
    expect(cookies(res).some((c) => /^portal_view_as=;/.test(c))).toBe(true)
    expect((await call(bff, 'get', '/bff/manifest', stolen).expect(200)).body.authenticated).toBe(false)
  })

  it('signing out while viewing ends both sessions', async () => {
    const admin = await signIn(bff, ADMIN)
    const { both } = await viewAs(bff, admin, agenteId)
    await call(bff, 'post', '/bff/auth/logout', both).expect(204)
    expect((await manifest(bff, admin)).authenticated).toBe(false)
    expect((await manifest(bff, both)).authenticated).toBe(false)
  })
})

describe('read-only', () => {
  it('reads go through with agente’s own visibility; a change is refused by the BFF, in Spanish, recorded with the admin behind it', async () => {
    const admin = await signIn(bff, ADMIN)
    const { both } = await viewAs(bff, admin, agenteId)
    // agente's own hierarchy: the upstream decides by the view-as token.
    const asAgente = (await call(bff, 'get', '/api/contract?pageIndex=0&pageSize=5', both).expect(200)).body as { TotalCount: number }
    const asAdmin = (await call(bff, 'get', '/api/contract?pageIndex=0&pageSize=5', admin).expect(200)).body as { TotalCount: number }
    expect(asAgente.TotalCount).toBeLessThan(asAdmin.TotalCount)

    const refused = await call(bff, 'post', '/api/usuarios/preference', both, { Clave: 'vista', Valor: 1 }).expect(403)
    expect(refused.body.message).toMatch(/solo lectura/)
    const entries = (await call(bff, 'get', '/bff/admin/audit?pageSize=500', admin).expect(200)).body as AuditPageAnswer
    const entry = entries.Items.find((e) => e.requestId === String(refused.headers['x-request-id']))
    expect(entry).toMatchObject({ actor: { email: 'agente@portal.test' }, onBehalfOf: { email: 'admin@portal.test' }, outcome: { status: 403, ok: false } })
    // Started, in the audit, filed under agente's record.
    expect(entries.Items.some((e) => e.action === 'viewas.start' && e.record?.id === String(agenteId) && e.actor?.email === 'admin@portal.test')).toBe(true)
    await call(bff, 'delete', '/bff/view-as', both).expect(204)
  })

  it('the BFF’s own changes are refused too (menus, drafts, sessions), leaving view-as is not', async () => {
    const admin = await signIn(bff, ADMIN)
    const { both } = await viewAs(bff, admin, agenteId)
    for (const [method, path, body] of [
      ['put', '/bff/drafts/contrato-alta', { values: {} }],
      ['delete', '/bff/admin/users/1/sessions', undefined],
      ['put', '/bff/admin/menu?brand=verde', { entries: [] }],
    ] as const) {
      const res = await call(bff, method, path, both, body).expect(403)
      expect(res.body.message, `${method} ${path}`).toMatch(/solo lectura/)
    }
    await call(bff, 'delete', '/bff/view-as', both).expect(204)
  })

  it('no catalogued mutation reaches the upstream from a view-as session (any call, any body)', async () => {
    const admin = await signIn(bff, ADMIN)
    const { both } = await viewAs(bff, admin, agenteId)
    const mutations = loadCatalogue().calls.filter((c) => c.effect === 'mutation' && (c.access ?? 'session') === 'session' && !c.path.includes('{') && !c.path.startsWith('api/__test'))
    expect(mutations.length).toBeGreaterThan(20)
    const before = api.db.prepare('SELECT total_changes() AS n').get() as { n: number }
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...mutations), fc.oneof(fc.object({ maxDepth: 2 }), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })), async (m, body) => {
        const res = await call(bff, m.method.toLowerCase() as Method, `/${m.path}`, both, m.body?.kind === 'json' ? body : undefined)
        // Refused before the upstream: by view-as (403), or by the catalogue's own checks of the call.
        expect([400, 403, 411, 415]).toContain(res.status)
      }),
      { numRuns: 60 },
    )
    const after = api.db.prepare('SELECT total_changes() AS n').get() as { n: number }
    expect(after.n).toBe(before.n)
    await call(bff, 'delete', '/bff/view-as', both).expect(204)
  })

  it('the upstream refuses a change made with a view-as token, whatever sits in front of it', async () => {
    const admin = await signIn(bff, ADMIN)
    const login = await request(api.url).post('/api/auth/login').set('X-Brand-Domain', 'energiaverde.es').send(ADMIN).expect(200)
    const issued = await request(api.url).post('/api/auth/impersonate').set('X-Brand-Domain', 'energiaverde.es').set('Authorization', `Bearer ${login.body.token}`).send({ UserId: agenteId }).expect(200)
    const token = issued.body.token as string
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; act: { sub: string } }
    expect(claims.sub).toBe(String(agenteId))
    expect(Number(claims.act.sub)).toBe((await manifest(bff, admin)).user!.id)
    const session = await request(api.url).get('/api/auth/session').set('X-Brand-Domain', 'energiaverde.es').set('Authorization', `Bearer ${token}`).expect(200)
    expect(session.body.Email).toBe('agente@portal.test')
    const refused = await request(api.url).post('/api/usuarios/preference').set('X-Brand-Domain', 'energiaverde.es').set('Authorization', `Bearer ${token}`).send({ Clave: 'x', Valor: 1 }).expect(403)
    expect(refused.text).toMatch(/solo lectura/)
    // Only admins get one, and not from a view-as token.
    const agente = await request(api.url).post('/api/auth/login').set('X-Brand-Domain', 'energiaverde.es').send(AGENTE).expect(200)
    await request(api.url).post('/api/auth/impersonate').set('X-Brand-Domain', 'energiaverde.es').set('Authorization', `Bearer ${agente.body.token}`).send({ UserId: 1 }).expect(403)
    await request(api.url).post('/api/auth/impersonate').set('X-Brand-Domain', 'energiaverde.es').set('Authorization', `Bearer ${token}`).send({ UserId: 1 }).expect(403)
  })
})

describe('an upstream without view-as', () => {
  let plain: RunningReferenceApi
  let plainBff: TestBff
  beforeAll(async () => {
    plain = await startReferenceApi({ REFERENCE_API_FAULTS: 'POST /api/auth/impersonate=404' })
    plainBff = await buildTestBff(plain.url)
  })
  afterAll(async () => {
    await plainBff?.close()
    await plain?.close()
  })

  it('falls back to agente’s permissions over the admin’s token, says so, and is read-only all the same', async () => {
    const admin = await signIn(plainBff, ADMIN)
    const { body, both } = await viewAs(plainBff, admin, agenteId)
    expect(body.mode).toBe('permissions')
    const seen = await manifest(plainBff, both)
    expect(seen.viewAs?.mode).toBe('permissions')
    expect(seen.user).toMatchObject({ id: agenteId, email: 'agente@portal.test' })
    expect(seen.user!.permissions).not.toContain('GESTORACCESS')
    // GESTORACCESS calls are refused by agente's permissions, though the token is the admin's.
    await call(plainBff, 'get', '/bff/admin/audit', both).expect(403)
    // The session answer stays agente's (reading it with the admin's token would give the admin).
    expect((await call(plainBff, 'get', '/bff/auth/session', both).expect(200)).body.user.Email).toBe('agente@portal.test')
    expect((await call(plainBff, 'post', '/api/usuarios/preference', both, { Clave: 'x', Valor: 1 }).expect(403)).body.message).toMatch(/solo lectura/)
  })
})
