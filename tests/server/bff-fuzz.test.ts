import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import http from 'node:http'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 13, as a property: whatever body, content type, query or path parameter reaches a
 * route of the BFF, signed out, as agente or as admin, the answer is never a 500.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const
type Method = (typeof METHODS)[number]

let api: RunningReferenceApi
let bff: TestBff
/**
 * Thousands of requests: over one kept-alive connection to a listening BFF, not a server and
 * a connection of their own each (supertest's default), which would run through the machine's
 * ephemeral ports while other suites need them.
 */
let base = ''
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 })
const cookies: Record<Role, string> = { 'sin sesión': '', agente: '', admin: '' }
type Role = 'sin sesión' | 'agente' | 'admin'
const HOST: Record<Role, string> = { 'sin sesión': 'localhost', agente: GRUPO, admin: 'localhost' }

async function signIn(creds: typeof ADMIN, host: string) {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  cookies.admin = await signIn(ADMIN, HOST.admin)
  cookies.agente = await signIn(AGENTE, HOST.agente)
  base = await bff.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  keepAlive.destroy()
  await bff?.close()
  await api?.close()
})

/**
 * The routes the BFF declares, with their methods, read from its route tree so that a route
 * added later is covered too. The catch-all (the /api proxy and the client's files) is
 * another module's.
 */
function declaredRoutes(app: FastifyInstance): { path: string; methods: string[] }[] {
  const parents: string[] = []
  const out: { path: string; methods: string[] }[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line)
    if (!match) continue
    const depth = match[1]!.length / 4
    parents.length = depth
    const path = (parents[depth - 1] ?? '') + match[2]
    parents.push(path)
    if (match[3] && path !== '*') out.push({ path, methods: match[3].split(', ') })
  }
  return out
}

/** Path parameters: a value the route knows, or anything, escaped. Never a small number, so no user of the seed loses their sessions. */
const param = fc.oneof(
  fc.constantFrom('contratos-listado', 'no-existe', 'verde', 'logo.svg', '99999999'),
  fc.string({ maxLength: 30 }).filter((s) => !(Number.isFinite(Number(s)) && Math.abs(Number(s)) < 1e7)),
)
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?brand=grupo', '?from=0&to=0', '?brand=NO&from=-1&to=1e400', '?%', '?brand=%E0%A4%A', '?brand[]=a&brand=b', '?Id=99999999'),
  fc.dictionary(fc.constantFrom('brand', 'from', 'to', 'Id', 'x', '__proto__', 'constructor'), fc.string({ maxLength: 20 }), { maxKeys: 4 }).map((q) => `?${new URLSearchParams(q)}`),
)

/** Field names the BFF's bodies use, so generated bodies get past the parser into the schemas and handlers. */
const field = fc.constantFrom('version', 'expectedVersion', 'menu', 'sections', 'items', 'key', 'label', 'es', 'to', 'overlay', 'tables', 'columns', 'field', 'hidden', 'permissions', 'production', 'username', 'password', 'email', 'token', 'newPassword', '__proto__', 'constructor', 'prototype')
const { shaped } = fc.letrec<{ shaped: unknown }>((tie) => ({
  shaped: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.integer({ min: -2, max: 3 }),
    fc.dictionary(field, tie('shaped'), { maxKeys: 5 }),
    fc.array(tie('shaped'), { maxLength: 4 }),
  ),
}))

/** Nesting around the bound, and far past it: plain arrays, objects, and menu entries inside a menu preview (a recursive schema). */
const levels = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constantFrom(600, 5_000))
const nestedText = fc.tuple(levels, fc.constantFrom('array', 'object', 'menu')).map(([n, shape]) => {
  if (shape === 'array') return '['.repeat(n) + ']'.repeat(n)
  if (shape === 'object') return '{"a":'.repeat(n) + '1' + '}'.repeat(n)
  const entry = '{"key":"a","label":{"es":"A"},"items":['.repeat(n) + '{"key":"a","label":{"es":"A"}}' + ']}'.repeat(n)
  return `{"menu":{"sections":[${entry}]},"permissions":[],"production":false}`
})

/** Bodies: JSON of every shape, nested past any bound, cut short, or not JSON at all. */
const bodyText = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? ''), weight: 2 },
  { arbitrary: shaped.map((v) => JSON.stringify(v) ?? ''), weight: 3 },
  { arbitrary: nestedText, weight: 3 },
  { arbitrary: fc.json({ maxDepth: 3 }).chain((text) => fc.nat({ max: text.length }).map((cut) => text.slice(0, cut))), weight: 1 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', 'null', '"', '\\', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '\uFEFF{}', '[1,]', '{"a":1}{"a":2}'), weight: 1 },
)
const contentType = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 6 },
  { arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'application/json;;', 'application/vnd.api+json'), weight: 2 },
  { arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'multipart/form-data; boundary=x', undefined), weight: 2 },
  { arbitrary: fc.string({ maxLength: 30 }).filter((s) => /^[\x21-\x7e][\x20-\x7e]*$/.test(s)), weight: 1 },
)
const call = fc.record({
  query,
  param,
  body: fc.option(fc.record({ text: bodyText, type: contentType }), { nil: undefined, freq: 5 }),
  csrf: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
})

/**
 * Bodies the BFF may refuse unread (a 401/403 before parsing): past the socket's buffers, the
 * connection can close while the client is still writing, which a test client sees as a reset
 * instead of the answer. Smaller bodies must always get an answer.
 */
const MAY_RESET_ABOVE = 32 * 1024

describe('no input to a route of the BFF gives a 500', () => {
  it('the route tree is read', () => {
    const paths = declaredRoutes(bff.app).map((r) => r.path)
    expect(paths).toEqual(expect.arrayContaining(['/bff/auth/login', '/bff/admin/menu', '/bff/admin/menu/preview', '/bff/admin/screens/:id/rollback', '/bff/admin/users/:id/sessions', '/bff/manifest']))
  })

  const roles: Role[] = ['sin sesión', 'agente', 'admin']
  it.each(roles)('%s: every route, GET/POST/PUT/DELETE', async (role) => {
    // Signing out would end the session the other runs use: that route is fuzzed signed out.
    const routes = declaredRoutes(bff.app).filter((r) => role === 'sin sesión' || r.path !== '/bff/auth/logout')
    for (const route of routes) {
      for (const method of METHODS) {
        // The declared methods get most of the runs; the others should all be plain 404s.
        const numRuns = route.methods.includes(method) ? 100 : 10
        await fc.assert(
          fc.asyncProperty(call, async (c) => {
            const path = route.path.replace(/:[^/]+/g, () => encodeURIComponent(c.param)) + c.query
            const r = request(base)[method.toLowerCase() as Lowercase<Method>](path).agent(keepAlive).set('Host', HOST[role])
            if (cookies[role]) r.set('Cookie', cookies[role])
            if (c.csrf) r.set('X-CSRF', '1')
            // An event stream (GET /bff/events) never ends: its status is what is checked, then it is closed.
            r.buffer(true).parse((parsed, done) => {
              // In Node, superagent hands the parser the raw answer.
              const answer = parsed as unknown as http.IncomingMessage
              if (String(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) {
                answer.destroy()
                return done(null, '')
              }
              let text = ''
              answer.setEncoding('utf8')
              answer.on('data', (chunk: string) => (text += chunk))
              answer.on('end', () => done(null, text))
            })
            if (c.body) {
              if (c.body.type !== undefined) r.set('Content-Type', c.body.type)
              r.send(c.body.text)
            }
            let res
            try {
              res = await r
            } catch (err) {
              const code = (err as { code?: string }).code
              if ((code === 'ECONNRESET' || code === 'EPIPE') && Buffer.byteLength(c.body?.text ?? '') > MAY_RESET_ABOVE) return
              throw err
            }
            expect(res.status, `${method} ${path} → ${res.status} ${String(res.body ?? '').slice(0, 200)}`).not.toBe(500)
          }),
          { numRuns },
        )
      }
    }
    expect(bff.logs.lines.filter((l) => l.msg === 'unhandled error')).toEqual([])
    // The signed-in runs kept their sessions throughout, so they tested what they meant to.
    if (role !== 'sin sesión') await request(bff.app.server).get('/bff/auth/session').set('Host', HOST[role]).set('Cookie', cookies[role]).expect(200)
  }, 180_000)
})
