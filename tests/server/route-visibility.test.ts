import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RouteDef } from '../../schemas/manifest'
import { loadDefaultMenu, loadRoutes } from '../../server/manifest/manifest-data'
import { routeView } from '../../server/manifest/route-visibility'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 13: the routes a brand or the environment hides (dev-only entries, the Comparador where
 * a brand has none, its local pages that link out in production) are left out of the manifest
 * and their screens answer 404, like a page that does not exist. Permissions are another matter:
 * a route the user lacks the permission for stays, and is refused (spec §5).
 */

const routes = loadRoutes()
const menu = loadDefaultMenu()
const BRANDS = ['verde', 'grupo', 'limpia'] as const
type BrandKey = (typeof BRANDS)[number]
const HOSTS: Record<BrandKey, string> = { verde: 'portal.energiaverde.es', grupo: 'portal.grupoenergia.es', limpia: 'portal.energialimpia.es' }
const ADMIN_PERMS = new Set(['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS'])
const COMPARADOR = 'https://comparador.example.es'

/** Route path → its screen, for the paths below. */
const screenOf = (path: string) => routes.find((r) => r.path === path)!.screen

const DEV_ONLY = ['/utilidades/map', '/auth', '/auth/Error', '/auth/Access', '/otros', '/otros/Empty', '/otros/Landing']
const COMPARADOR_LOCAL = ['/soluciones/comparador/comparativa', '/soluciones/comparador/listado']
const COMPARADOR_ALL = ['/soluciones/comparador', ...COMPARADOR_LOCAL, '/soluciones/comparador/historico']

/** Spec §2: what each brand and environment leaves out. */
function expectedHidden(brand: BrandKey, production: boolean): string[] {
  const comparador = brand === 'limpia' ? COMPARADOR_ALL : brand === 'grupo' || production ? COMPARADOR_LOCAL : []
  return [...(production ? DEV_ONLY : []), ...comparador].sort()
}

const missing = (list: RouteDef[]) => routes.filter((r) => !list.some((x) => x.path === r.path)).map((r) => r.path).sort()

describe.each(BRANDS)('the routes of brand %s', (brand) => {
  describe.each([
    ['development', false],
    ['production', true],
  ] as const)('in %s', (_env, production) => {
    it('leave out exactly what the brand and environment hide, for any permissions', () => {
      for (const permissions of [ADMIN_PERMS, new Set<string>()]) {
        const view = routeView(menu, routes, { brand, permissions, production, comparadorUrl: COMPARADOR })
        expect(missing(view.routes)).toEqual(expectedHidden(brand, production))
        for (const path of expectedHidden(brand, production)) expect(view.hiddenLinks.has(path.toLowerCase()), path).toBe(true)
      }
    })

    it('keep the routes a user lacks the permission for (refused with 401, not unknown)', () => {
      const view = routeView(menu, routes, { brand, permissions: new Set(), production, comparadorUrl: COMPARADOR })
      const paths = view.routes.map((r) => r.path)
      expect(paths).toEqual(expect.arrayContaining(['/usuarios/listado', '/sysmanager', '/soluciones/renovaciones', '/productos/baterias']))
      // ...but a screen does not link to them (their menu entries are hidden for this user).
      expect(view.hiddenLinks.has('/soluciones/renovaciones')).toBe(true)
    })
  })
})

describe('the rule', () => {
  it('never leaves out a public route', () => {
    for (const production of [false, true]) {
      const view = routeView(menu, routes, { brand: 'limpia', permissions: new Set(), production, comparadorUrl: COMPARADOR })
      expect(view.routes.filter((r) => r.public)).toEqual(routes.filter((r) => r.public))
    }
  })

  it('keeps the page of an entry an admin hid from the menu (screens only stop linking to it), leaves out a dev-only route in production, and matches paths as the router does', () => {
    const edited = structuredClone(menu)
    const utilidades = edited.sections.find((s) => s.key === 'utilidades')!.items!
    const sips = utilidades.find((e) => e.key === 'sips')!
    sips.hidden = true
    const dev = routeView(edited, routes, { brand: 'verde', permissions: ADMIN_PERMS, production: false, comparadorUrl: COMPARADOR })
    expect(missing(dev.routes)).toEqual([])
    expect(dev.hiddenLinks.has('/utilidades/sips')).toBe(true)
    // Meant for another brand, and written with another case and a trailing slash.
    sips.hidden = false
    sips.brands = ['grupo']
    sips.to = '/UTILIDADES/Sips/'
    const withDevOnly = routes.map((r) => (r.path === '/documentacion' ? { ...r, devOnly: true } : r))
    const other = routeView(edited, withDevOnly, { brand: 'verde', permissions: ADMIN_PERMS, production: false, comparadorUrl: COMPARADOR })
    expect(missing(other.routes)).toEqual(['/utilidades/sips'])
    const prod = routeView(edited, withDevOnly, { brand: 'verde', permissions: ADMIN_PERMS, production: true, comparadorUrl: COMPARADOR })
    expect(missing(prod.routes)).toEqual(['/documentacion', '/utilidades/sips', ...expectedHidden('verde', true)].sort())
    expect(prod.hiddenLinks.has('/documentacion')).toBe(true)
  })
})

describe.each([
  ['development', false],
  ['production', true],
] as const)('the BFF in %s', (env, production) => {
  let api: RunningReferenceApi
  let bff: TestBff
  const cookies = new Map<string, string>()
  const signIn = async (brand: BrandKey, who: typeof ADMIN) => {
    const key = `${brand}:${who.username}`
    if (!cookies.has(key)) {
      const res = await request(bff.app.server).post('/bff/auth/login').set('Host', HOSTS[brand]).set('X-CSRF', '1').send(who).expect(200)
      cookies.set(key, sessionCookie(res.headers['set-cookie']))
    }
    return cookies.get(key)!
  }
  const get = (brand: BrandKey, url: string, cookie?: string) => {
    const req = request(bff.app.server).get(url).set('Host', HOSTS[brand])
    return cookie ? req.set('Cookie', cookie) : req
  }

  beforeAll(async () => {
    api = await startReferenceApi()
    bff = await buildTestBff(api.url, { NODE_ENV: env === 'production' ? 'production' : 'test' })
  })
  afterAll(async () => {
    await bff?.close()
    await api?.close()
  })

  describe.each(BRANDS)('on brand %s', (brand) => {
    const hidden = expectedHidden(brand, production)

    it('gives a manifest without the hidden routes, signed in or not', async () => {
      const manifests = [await get(brand, '/bff/manifest').expect(200), await get(brand, '/bff/manifest', await signIn(brand, ADMIN)).expect(200), await get(brand, '/bff/manifest', await signIn(brand, AGENTE)).expect(200)]
      expect(manifests.map((m) => m.body.authenticated)).toEqual([false, true, true])
      for (const m of manifests) {
        expect(m.body.environment).toBe(env)
        expect(missing(m.body.routes)).toEqual(hidden)
      }
    })

    it('answers 404 for the screens of hidden routes, and serves the others', async () => {
      const admin = await signIn(brand, ADMIN)
      for (const path of [...DEV_ONLY, ...COMPARADOR_ALL]) {
        const res = await get(brand, `/bff/screens/${screenOf(path)}`, admin)
        expect(`${path} ${res.status}`).toBe(`${path} ${hidden.includes(path) ? 404 : 200}`)
        if (res.status === 404) expect(res.body.message).toMatch(/No existe la pantalla/)
      }
      for (const path of ['/', '/soluciones', '/utilidades', '/utilidades/sips', '/soluciones/contratos/listado', '/sysmanager/menumanager']) {
        await get(brand, `/bff/screens/${screenOf(path)}`, admin).expect(200)
      }
    })

    it('still refuses with 403 a visible route the user lacks the permission for', async () => {
      await get(brand, '/bff/screens/seccion-sysmanager', await signIn(brand, AGENTE)).expect(403)
      await get(brand, '/bff/screens/baterias', await signIn(brand, AGENTE)).expect(403)
    })

    it('drops links to hidden routes from section screens', async () => {
      const res = await get(brand, '/bff/screens/seccion-utilidades', await signIn(brand, ADMIN)).expect(200)
      const links = JSON.stringify(res.body)
      expect(links.includes('"/utilidades/map"')).toBe(!production)
    })
  })
})
