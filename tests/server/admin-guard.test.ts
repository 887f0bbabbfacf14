import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH } from '../../server/lib/json-body'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 13: the admin routes decide on the session and the permission before the body is
 * read, so a caller without GESTORACCESS gets the same 401/403 whatever it sends, and no body
 * (too deep, not JSON) reaches a 500.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const SCREEN = 'contratos-listado'
let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''

async function signIn(creds: typeof ADMIN, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  admin = await signIn(ADMIN)
  agente = await signIn(AGENTE, GRUPO)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

type Method = 'get' | 'put' | 'post' | 'delete'

/** A raw body sent as JSON: the text goes on the wire as it is. */
const json = (text: string) => ({ text, type: 'application/json' })
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)
const nestedObject = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1)

const BODIES = {
  deep: json(`{"version":0,"menu":${nested(600)}}`),
  notJson: json('{"version":0,"menu":{"sections":['),
}

/** Every admin route, with a body its schema accepts and one it refuses. */
const ROUTES: { method: Method; path: string; valid: unknown; invalid: unknown }[] = [
  { method: 'get', path: '/bff/admin/menu', valid: undefined, invalid: { brand: 1 } },
  { method: 'put', path: '/bff/admin/menu', valid: { version: 0, menu: { sections: [] } }, invalid: { version: 'x', menu: 1, sobra: true } },
  { method: 'get', path: '/bff/admin/menu/history', valid: undefined, invalid: [] },
  { method: 'get', path: '/bff/admin/menu/diff?from=0&to=0', valid: undefined, invalid: {} },
  { method: 'post', path: '/bff/admin/menu/preview', valid: { menu: { sections: [] }, permissions: [], production: false }, invalid: { menu: { secciones: [] } } },
  { method: 'post', path: '/bff/admin/menu/rollback', valid: { version: 0, expectedVersion: 0 }, invalid: { version: -1 } },
  { method: 'get', path: '/bff/admin/audit', valid: undefined, invalid: 'x' },
  { method: 'get', path: '/bff/admin/screens', valid: undefined, invalid: null },
  { method: 'get', path: `/bff/admin/screens/${SCREEN}`, valid: undefined, invalid: 1 },
  { method: 'post', path: '/bff/admin/screens', valid: { screen: { schemaVersion: 1, id: 'nueva', title: 'Nueva', root: { type: 'markdown', content: 'x' } } }, invalid: { screen: { id: 'nueva', root: { type: 'carrusel' } } } },
  { method: 'put', path: `/bff/admin/screens/${SCREEN}`, valid: { screen: { schemaVersion: 1, id: SCREEN, title: 'X', root: { type: 'markdown', content: 'x' } }, expectedVersion: 0 }, invalid: { screen: { root: { type: 'table', columns: [{}] } }, expectedVersion: -1 } },
  { method: 'post', path: `/bff/admin/screens/${SCREEN}/publish`, valid: { version: 0 }, invalid: { audience: { brands: 'todas' } } },
  { method: 'get', path: `/bff/admin/screens/${SCREEN}/history`, valid: undefined, invalid: true },
  { method: 'get', path: `/bff/admin/screens/${SCREEN}/diff?from=0&to=0`, valid: undefined, invalid: true },
  { method: 'post', path: `/bff/admin/screens/${SCREEN}/rollback`, valid: { version: 0 }, invalid: { version: 'cero' } },
  { method: 'delete', path: '/bff/admin/users/999999/sessions', valid: undefined, invalid: { todo: true } },
]

/** Paths whose query or parameters the schemas refuse: the guard answers first there too. */
const BAD_TARGETS: [Method, string][] = [
  ['get', '/bff/admin/menu?brand=NO%20VALE&sobra=1'],
  ['get', '/bff/admin/menu/diff?from=x'],
  ['get', '/bff/admin/screens/NO_VALE'],
  ['get', `/bff/admin/screens/${SCREEN}/diff?from=x`],
  ['delete', '/bff/admin/users/abc/sessions'],
]

function call(method: Method, path: string, cookie: string, body?: unknown, host = 'localhost') {
  const r = request(bff.app.server)[method](path).set('Host', host).set('X-CSRF', '1')
  if (cookie) r.set('Cookie', cookie)
  if (body === undefined) return r
  if (typeof body === 'object' && body !== null && 'text' in body && 'type' in body) {
    const raw = body as { text: string; type: string }
    return r.set('Content-Type', raw.type).send(raw.text)
  }
  return r.set('Content-Type', 'application/json').send(JSON.stringify(body))
}

const unhandled = () => bff.logs.lines.filter((l) => l.level === 50 || l.msg === 'unhandled error')

describe('signed out is 401 and without GESTORACCESS 403, whatever the body', () => {
  const cases = ROUTES.flatMap((r) =>
    (
      [
        ['a valid body', r.valid],
        ['an invalid body', r.invalid],
        ['a 600-level nested body', BODIES.deep],
        ['invalid JSON', BODIES.notJson],
      ] as const
    ).map(([what, body]) => [r.method.toUpperCase(), r.path, what, r.method, body] as const),
  )

  it.each(cases)('%s %s with %s', async (_m, path, _what, method, body) => {
    const anonymous = await call(method, path, '', body).expect(401)
    expect(anonymous.body.message).toBe('Tu sesión ha caducado o no has iniciado sesión.')
    const denied = await call(method, path, agente, body, GRUPO).expect(403)
    expect(denied.body.message).toBe('No tienes permiso para acceder a este recurso.')
    expect(unhandled()).toEqual([])
  })

  it.each(BAD_TARGETS)('%s %s: the guard answers before the query and parameters are checked', async (method, path) => {
    await call(method, path, '').expect(401)
    await call(method, path, agente, undefined, GRUPO).expect(403)
    await call(method, path, admin).expect(400)
  })

  it('the refusal is logged with the route, before the body was read', async () => {
    await call('put', '/bff/admin/menu', agente, BODIES.deep, GRUPO).expect(403)
    const line = bff.logs.lines.findLast((l) => l.event === 'admin_denied')
    expect(line).toMatchObject({ route: '/bff/admin/menu', permission: 'GESTORACCESS' })
  })
})

describe('the admin: JSON bodies are bounded and refused with a Spanish 400', () => {
  const withBody = ROUTES.filter((r) => r.method !== 'get')

  it.each(withBody.map((r) => [r.method.toUpperCase(), r.path, r.method] as const))('%s %s: 600 levels deep is 400 naming the depth', async (_m, path, method) => {
    const res = await call(method, path, admin, BODIES.deep).expect(400)
    expect(res.body.message).toBe(`El cuerpo de la petición tiene demasiados niveles de anidamiento: el máximo son ${MAX_JSON_DEPTH}.`)
  })

  it.each(withBody.map((r) => [r.method.toUpperCase(), r.path, r.method] as const))('%s %s: invalid JSON is 400', async (_m, path, method) => {
    const res = await call(method, path, admin, BODIES.notJson).expect(400)
    expect(res.body.message).toBe('El cuerpo de la petición no es un JSON válido.')
  })

  it('an empty body declared as JSON is 400', async () => {
    const res = await call('post', '/bff/admin/menu/preview', admin, json('')).expect(400)
    expect(res.body.message).toBe('El cuerpo de la petición está vacío, pero se ha declarado como JSON.')
  })

  it(`${MAX_JSON_DEPTH} levels pass the parser (the schema then decides), one more does not`, async () => {
    const allowed = await call('post', '/bff/admin/menu/rollback', admin, json(`{"version":0,"expectedVersion":0,"x":${nestedObject(MAX_JSON_DEPTH - 1)}}`)).expect(400)
    expect(allowed.body.message).toMatch(/^Los datos enviados no son válidos: sobra «x»/)
    const refused = await call('post', '/bff/admin/menu/rollback', admin, json(`{"version":0,"expectedVersion":0,"x":${nestedObject(MAX_JSON_DEPTH)}}`)).expect(400)
    expect(refused.body.message).toMatch(/anidamiento/)
  })

  it('brackets inside strings do not count as nesting', async () => {
    const res = await call('post', '/bff/admin/menu/rollback', admin, json(JSON.stringify({ version: 'x', expectedVersion: 0, s: '[{'.repeat(500) }))).expect(400)
    expect(res.body.message).toMatch(/^Los datos enviados no son válidos/)
    expect(res.body.message).not.toMatch(/anidamiento/)
  })

  it('prototype poisoning is still refused, as Fastify refuses it', async () => {
    for (const text of ['{"version":0,"expectedVersion":0,"__proto__":{"x":1}}', '{"version":0,"expectedVersion":0,"constructor":{"prototype":{"x":1}}}']) {
      const res = await call('post', '/bff/admin/menu/rollback', admin, json(text)).expect(400)
      expect(res.body.message).toBe('El cuerpo de la petición no es un JSON válido.')
    }
  })

  it('a menu nested past the menu rules is refused by the rules, not by a crash', async () => {
    // 12 levels of entries: within the JSON bound, deeper than sections › groups › entries.
    let entry: Record<string, unknown> = { key: 'hoja', label: { es: 'Hoja' }, to: '/soluciones/facturas' }
    for (let i = 0; i < 12; i++) entry = { key: `nivel-${i}`, label: { es: `Nivel ${i}` }, items: [entry] }
    const current = (await call('get', '/bff/admin/menu?brand=grupo', admin).expect(200)).body as { version: number }
    const res = await call('put', '/bff/admin/menu?brand=grupo', admin, { version: current.version, menu: { sections: [entry] } }).expect(400)
    expect(res.body.message).toMatch(/demasiado anidada/)
    await call('post', '/bff/admin/menu/preview?brand=grupo', admin, { menu: { sections: [entry] }, permissions: [], production: false }).expect(200)
    expect(unhandled()).toEqual([])
  })
})
