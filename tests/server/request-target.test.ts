import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canonicalTarget } from '../../schemas/request-target'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { rawRequest, requestHead, type RawAnswer } from '../helpers/raw-http'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 13's reproductions, each sent byte for byte (no client library to tidy the target up)
 * to the BFF in front of the reference API, and to the reference API itself. On what landed
 * before, each of them reached what it should not; now each is refused before any work.
 */

let api: RunningReferenceApi
let bff: TestBff
let bffPort: number
let apiPort: number
let agente: string
let admin: string

const send = (port: number, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<RawAnswer> =>
  rawRequest(port, requestHead(method, target, { Host: `127.0.0.1:${port}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers }), body)

async function signIn(user: { username: string; password: string }): Promise<string> {
  const res = await send(bffPort, 'POST', '/bff/auth/login', { 'X-CSRF': '1' }, JSON.stringify(user))
  expect(res.status).toBe(200)
  return sessionCookie(res.headers['set-cookie'])
}

beforeAll(async () => {
  api = await startReferenceApi()
  apiPort = Number(new URL(api.url).port)
  bff = await buildTestBff(api.url)
  await bff.app.listen({ host: '127.0.0.1', port: 0 })
  bffPort = (bff.app.server.address() as { port: number }).port
  agente = await signIn(AGENTE)
  admin = await signIn(ADMIN)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

const stillSignedIn = async (cookie: string) => (await send(bffPort, 'GET', '/bff/auth/session', { Cookie: cookie })).status === 200

describe('the reproductions of issue 13, through the BFF', () => {
  it('POST /api/auth/%6cogin#%zz never hands the upstream’s tokens to the browser', async () => {
    for (const target of ['/api/auth/%6cogin#%zz', '/api/auth/%6cogin', '/api/auth/%6Cogin?x=1']) {
      const res = await send(bffPort, 'POST', target, { Cookie: agente, 'X-CSRF': '1' }, JSON.stringify(AGENTE))
      expect([400, 404], target).toContain(res.status)
      expect(res.body, target).not.toMatch(/token|refreshToken/i)
    }
    expect((await send(bffPort, 'GET', '/api/auth/%73ession', { Cookie: agente })).status).toBe(404)
    expect((await send(bffPort, 'POST', '/api/auth/%72efresh', { Cookie: agente, 'X-CSRF': '1' }, '{"refreshToken":"x"}')).status).toBe(404)
  })

  it('POST /%62ff/auth/logout and PUT /%62ff/admin/menu without CSRF and from a foreign origin are refused', async () => {
    const logout = await send(bffPort, 'POST', '/%62ff/auth/logout', { Cookie: agente, Origin: 'http://evil.example' })
    expect(logout.status).toBe(403)
    expect(await stillSignedIn(agente)).toBe(true)
    const menu = await send(bffPort, 'PUT', '/%62ff/admin/menu?brand=limpia', { Cookie: admin, Origin: 'http://evil.example' }, '{"version":1,"menu":{}}')
    expect(menu.status).toBe(403)
    expect(JSON.parse(menu.body).message).toMatch(/CSRF/)
  })

  it('/%61pi/… writes without CSRF never reach the upstream with the user’s token', async () => {
    const before = (api.db.prepare('SELECT COUNT(*) AS n FROM preferencias').get() as { n: number }).n
    const res = await send(bffPort, 'POST', '/%61pi/usuarios/preference', { Cookie: agente, Origin: 'http://evil.example' }, '{"Clave":"x","Valor":"y"}')
    expect(res.status).toBe(403)
    expect((api.db.prepare('SELECT COUNT(*) AS n FROM preferencias').get() as { n: number }).n).toBe(before)
  })

  it.each(['/api/../healthz', '/api/%2e%2e/healthz', '/api/%2E%2E/healthz', '/api/./utility/tarifas', '/api//utility/tarifas'])('%s is refused with 400, not forwarded', async (target) => {
    const res = await send(bffPort, 'GET', target, { Cookie: agente })
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).message).toMatch(/^La dirección de la petición no es válida/)
  })

  it('signed out, GET /api/agentes/..%2fauth%2fchange-password is refused, not taken for the public recovery call', async () => {
    const res = await send(bffPort, 'GET', '/api/agentes/..%2fauth%2fchange-password')
    expect(res.status).toBe(400)
  })

  it.each([
    ['an absolute-form target', 'GET', 'http://evil.example/api/utility/tarifas', {}],
    ['NUL', 'GET', '/api/utility/tarifas%00', {}],
    ['a backslash', 'GET', '/api\\utility\\tarifas', {}],
    ['an escaped backslash', 'GET', '/api/utility%5ctarifas', {}],
    ['a malformed escape', 'GET', '/api/utility/tarif%as', {}],
    ['a malformed escape in the query', 'GET', '/api/contract?pageIndex=%zz', {}],
    ['a fragment', 'GET', '/api/utility/tarifas#x', {}],
    ['two Host headers', 'GET', '/api/utility/tarifas', { host: 'otro.example' }],
  ] as const)('%s gets 400 before anything else runs', async (_what, method, target, extra) => {
    const res = await send(bffPort, method, target, { Cookie: agente, ...extra })
    expect(res.status).toBe(400)
  })

  it('the canonical spelling of a catalogued call is forwarded as the catalogue spells it', async () => {
    const res = await send(bffPort, 'GET', '/%61pi/utility/%74arifas/', { Cookie: agente })
    expect(res.status).toBe(200)
    expect(Array.isArray(JSON.parse(res.body))).toBe(true)
  })

  it('an uncatalogued call gets the BFF’s Spanish 404 and a call without its permission a 403, neither reaching the upstream', async () => {
    const missing = await send(bffPort, 'GET', '/api/utility/no-existe', { Cookie: agente })
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.body)).toEqual({ statusCode: 404, error: 'Not Found', message: 'Recurso no encontrado.' })
    const denied = await send(bffPort, 'GET', '/api/permission', { Cookie: agente })
    expect(denied.status).toBe(403)
    expect(JSON.parse(denied.body).message).toBe('No tienes permiso para acceder a este recurso.')
  })

  it('the password calls the BFF serves itself check who may call them before the body', async () => {
    const other = await send(bffPort, 'PUT', '/api/usuarios/change-pass-admin?Id=1', { Cookie: agente, 'X-CSRF': '1' }, '{"no":"válido"}')
    expect(other.status).toBe(403)
    const own = await send(bffPort, 'PUT', '/api/usuarios/password', { 'X-CSRF': '1' }, '{"no":"válido"}')
    expect(own.status).toBe(401)
  })

  it('a bad parameter gets a Spanish 400 naming it; an unknown one too', async () => {
    const bad = await send(bffPort, 'GET', '/api/contract?pageIndex=0&pageSize=abc', { Cookie: agente })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).message).toMatch(/«pageSize».*número entero/)
    const unknown = await send(bffPort, 'GET', '/api/contract?pageIndex=0&borrar=1', { Cookie: agente })
    expect(unknown.status).toBe(400)
    expect(JSON.parse(unknown.body).message).toBe('El parámetro «borrar» no se admite en esta llamada.')
    const column = await send(bffPort, 'GET', '/api/contract?sortColumn=password_hash', { Cookie: agente })
    expect(column.status).toBe(400)
    expect(JSON.parse(column.body).message).toMatch(/«sortColumn»/)
  })
})

describe('the reference API refuses the same targets itself', () => {
  it.each(['/api/../healthz', '/api/%2e%2e/healthz', '/api/agentes/..%2fauth%2fchange-password', '/api/auth/%6cogin#%zz', 'http://evil.example/api/utility/tarifas'])('%s gets 400', async (target) => {
    const res = await send(apiPort, 'GET', target, { 'X-Brand-Domain': 'energiaverde.es' })
    expect(res.status).toBe(400)
  })
})

describe('canonicalTarget (property)', () => {
  const target = fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => `/${s}`)

  it('is idempotent, and what it accepts has no dot, empty or escaped-slash segment and only upper-case escapes of reserved bytes', () => {
    fc.assert(
      fc.property(target, (raw) => {
        const once = canonicalTarget(raw)
        if (!once.ok) return
        const again = canonicalTarget(`${once.path}${once.query ? `?${once.query}` : ''}`)
        expect(again).toEqual(once)
        const segments = once.path.split('/').slice(1, -1)
        for (const s of segments) expect(['', '.', '..']).not.toContain(s)
        expect(once.path).not.toMatch(/%(?:2[fF]|5[cC]|[01][0-9a-fA-F]|7[fF])|\\|#|[\s]/)
        // Escapes of unreserved characters never survive: one spelling per path.
        expect(once.path).not.toMatch(/%(?:[46][1-9A-F]|[57][0-9A]|3[0-9]|2[DE]|5F|7E)/)
      }),
      { numRuns: 5000 },
    )
  })

  it('agrees with the WHATWG URL parser on every path it accepts: nothing left to resolve', () => {
    fc.assert(
      fc.property(target, (raw) => {
        const c = canonicalTarget(raw)
        if (!c.ok || /[^\x21-\x7e]/.test(c.path) || /["<>`{}^|]/.test(c.path)) return
        expect(new URL(c.path, 'http://x').pathname).toBe(c.path)
      }),
      { numRuns: 5000 },
    )
  })
})
