import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiKey, ApiScope } from '../../schemas/business/access'
import type { AuditEntry } from '../../schemas/audit'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, SUPERVISOR, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * The governed API key calls through the BFF (`buildApp()`): GESTORACCESS only, audited as
 * catalogued mutations; the public API v1 honours a key's scopes behind the proxy, and the
 * key's last use records the client's address.
 */

const GRUPO = 'portal.grupoenergia.localhost'
let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''
let supervisor = ''
let apiUserId = 0

/** The upstream's answer to a generation: the key, and its secret shown once. */
type ApiKeyCreated = ApiKey & { Clave: string }

type Method = 'get' | 'put' | 'post' | 'delete'

async function signIn(creds: typeof ADMIN, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

function call(method: Method, path: string, cookie: string, body?: unknown, host = 'localhost') {
  const r = request(bff.app.server)[method](path).set('Host', host).set('X-CSRF', '1')
  if (cookie) r.set('Cookie', cookie)
  return body === undefined ? r : r.send(body as object)
}

/**
 * Generating a key needs a second person (the shipped approval policy): the admin's request is
 * held (202), the supervisor approves it, and the admin reads the upstream's answer once.
 */
async function generateKey(body: object): Promise<ApiKeyCreated> {
  const held = await call('post', '/api/apikey/generate', admin, body).expect(202)
  await call('post', `/bff/approvals/${held.body.pendingId}/approve`, supervisor, {}).expect(200)
  return (await call('get', `/bff/approvals/${held.body.pendingId}/result`, admin).expect(200)).body as ApiKeyCreated
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  admin = await signIn(ADMIN)
  supervisor = await signIn(SUPERVISOR)
  agente = await signIn(AGENTE, GRUPO)
  const user = await call('post', '/api/apiusers/register-api-user', admin, { Nombre: `BFF ámbitos ${Date.now()}`, Email: 'bff-ambitos@pruebas.test' }).expect(201)
  apiUserId = user.body.Id
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('admin calls of API keys', () => {
  it('are refused (403) to a user without GESTORACCESS, and nothing changes', async () => {
    const before = (await call('get', '/api/apikey', admin).expect(200)).body as ApiKey[]
    const key = before.find((k) => k.Estado === 'activa')!
    for (const [method, path, body] of [
      ['get', '/api/apikey/scopes', undefined],
      ['post', '/api/apikey/generate', { ApiUserId: apiUserId, Scopes: ['sips:lectura'] }],
      ['post', '/api/apikey/rotate', { ApiKey: key.ApiKey, HorasSolapamiento: 24 }],
    ] as const) {
      const res = await call(method, path, agente, body, GRUPO)
      expect(res.status, `${method} ${path}`).toBe(403)
    }
    expect(((await call('get', '/api/apikey', admin).expect(200)).body as ApiKey[]).length).toBe(before.length)
  })

  it('lists scopes, generates with scopes and rotates for an admin, each change audited with the key as its record', async () => {
    const scopes = (await call('get', '/api/apikey/scopes', admin).expect(200)).body as ApiScope[]
    expect(scopes.map((s) => s.Scope)).toContain('sips:lectura')
    const gen = { body: await generateKey({ ApiUserId: apiUserId, Scopes: ['sips:lectura'], Descripcion: 'BFF' }) }
    expect(gen.body.Scopes).toEqual(['sips:lectura'])
    const bad = await call('post', '/api/apikey/rotate', admin, { ApiKey: gen.body.ApiKey, HorasSolapamiento: 500 })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/solapamiento/)
    const rotated = await call('post', '/api/apikey/rotate', admin, { ApiKey: gen.body.ApiKey, HorasSolapamiento: 2 }).expect(201)
    expect(rotated.body.Clave).toMatch(/^pk_[0-9a-f]{16}\./)
    expect(rotated.body.Anterior).toMatchObject({ ApiKey: gen.body.ApiKey, Estado: 'en-rotacion' })
    const page = (await call('get', '/bff/admin/audit?call=apikey/rotate&pageSize=50', admin).expect(200)).body as { Items: AuditEntry[] }
    const entry = page.Items.find((e) => e.record?.id === gen.body.ApiKey)
    expect(entry, 'the rotation is in the audit').toBeDefined()
    expect(entry!.call).toBe('POST api/apikey/rotate')
    expect(entry!.record).toEqual({ entity: 'apiKey', id: gen.body.ApiKey })
    // the audit never keeps the new secret
    expect(JSON.stringify(page.Items)).not.toContain(rotated.body.Clave.split('.')[1])
  })
})

describe('the public API v1 through the BFF', () => {
  it('answers a call in the key scope, refuses one outside it naming the scope, and records the client address', async () => {
    const gen = { body: await generateKey({ ApiUserId: apiUserId, Scopes: ['precios:lectura'] }) }
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    const ok = await call('get', `/api/public/v1/precios/omie?fecha=${day}`, admin).set('X-Api-Key', gen.body.Clave)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const refused = await call('get', '/api/public/v1/contratos', admin).set('X-Api-Key', gen.body.Clave)
    expect(refused.status).toBe(403)
    // the upstream's own Spanish text, passed through
    expect(refused.text).toBe(`La clave de API ${gen.body.ApiKey} no tiene el ámbito «contratos:lectura» que necesita esta llamada.`)
    const listed = ((await call('get', `/api/apikey?apiUserId=${apiUserId}`, admin).expect(200)).body as ApiKey[]).find((k) => k.ApiKey === gen.body.ApiKey)!
    expect(listed.UltimoUso).not.toBeNull()
    // supertest connects over loopback: the BFF passes its client's address, not its own hop
    expect(listed.UltimoUsoIp).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/)
  })
})
