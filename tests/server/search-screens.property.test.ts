import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteDef } from '../../schemas/manifest'
import type { SearchResult } from '../../schemas/search'
import { openableRoutes, screenMatches } from '../../server/search/screen-matches'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * The palette's screens as a security boundary (issue 17): whatever is typed, every screen it
 * offers is a route the user's own manifest allows, with its permission held.
 */

let api: RunningReferenceApi
let bff: TestBff
const users: { name: string; cookie: string; allowed: Set<string> }[] = []

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  for (const [name, c] of [['admin', ADMIN], ['agente', AGENTE]] as const) {
    const cookie = sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(c).expect(200)).headers['set-cookie'])
    const manifest = (await request(bff.app.server).get('/bff/manifest').set('Cookie', cookie).expect(200)).body as { routes: RouteDef[]; user: { permissions: string[] } }
    const perms = new Set(manifest.user.permissions)
    users.push({ name, cookie, allowed: new Set(manifest.routes.filter((r) => !r.permission || perms.has(r.permission)).map((r) => r.path)) })
  }
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

/** Words of screen titles and paths, mixed with anything: most queries should hit something. */
const WORDS = ['usuarios', 'contratos', 'sys', 'api', 'grupos', 'perm', 'a', 'e', 'renov', 'bater', 'facturas', 'mapa', 'sips', 'menu', 'audit', 'pantallas', 'users', 'inicio', 'ó', 'listado', 'alta']
const query = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 }), fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a} ${b}`))

describe('palette screens never go beyond the manifest', () => {
  it('through the BFF: for any q, every screen result is a route the user’s manifest allows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1), query, fc.constantFrom('es', 'en'), async (who, q, lang) => {
        const user = users[who]!
        const res = await request(bff.app.server).get(`/bff/search?q=${encodeURIComponent(q)}&lang=${lang}`).set('Cookie', user.cookie)
        expect([200, 400]).toContain(res.status)
        if (res.status !== 200) return
        for (const r of res.body as SearchResult[]) {
          if (r.kind === 'screen') expect(user.allowed.has(r.path), `${user.name} «${q}» → ${r.path}`).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })

  it('the matcher alone: results come only from the routes given, permissions held', () => {
    const route = fc.record({
      path: fc.constantFrom('/a', '/b/c', '/usuarios/{id}', '/x-y', '/'),
      screen: fc.constant('s'),
      title: fc.record({ es: fc.string({ minLength: 1, maxLength: 10 }), en: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }) }),
      permission: fc.option(fc.constantFrom('GESTORACCESS', 'VERRENOVACIONES'), { nil: undefined }),
      public: fc.option(fc.boolean(), { nil: undefined }),
    })
    fc.assert(
      fc.property(fc.array(route, { maxLength: 8 }), fc.subarray(['GESTORACCESS', 'VERRENOVACIONES']), fc.string({ maxLength: 6 }), (routes, held, q) => {
        const perms = new Set(held)
        const open = openableRoutes(routes as RouteDef[], perms)
        for (const r of screenMatches(open, q, 'es')) {
          const source = routes.find((x) => x.path === r.path && !x.public && !x.path.includes('{') && (!x.permission || perms.has(x.permission)))
          expect(source).toBeDefined()
        }
      }),
    )
  })
})
