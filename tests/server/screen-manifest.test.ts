import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Manifest, RouteDef } from '../../schemas/manifest'
import type { MenuDefinition, MenuFrame, ResolvedMenuEntry } from '../../schemas/menu'
import { APP_PAGES } from '../../schemas/app-pages'
import { PUBLIC_PAGES } from '../../schemas/public-pages'
import type { ScreenFile } from '../../schemas/screen'
import { visitValues } from '../../schemas/screen-walk'
import { deriveManifest, loadDefaultMenu, loadMenuFrame, loadRoutes, ManifestDataError, SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'
import { loadScreens, ScreenLoadError } from '../../server/screens/screen-loader'
import { buildTestBff, FAKE_USER, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

/**
 * Issue 14, one source per screen: the route table and the default menu are derived from the
 * screen files. The fixtures are server/manifest/routes.json and default-menu.json as they were
 * when the derivation replaced them, kept only to prove the derivation changed nothing: stored
 * menu versions name entry keys, and the routes are what users' links and bookmarks open.
 */
const fixture = <T,>(name: string): T => JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8')) as T
/** What was added after routes.json and default-menu.json gave way to the screen files: the screen studio and its preview page, the audit, the invoice detail, the approvals' inbox, the approval-policy editor, «Mis solicitudes» and the two bulk imports. */
const ADDED_SINCE = {
  routes: [
    { path: '/sysmanager/pantallas', screen: 'pantallas', permission: 'GESTORACCESS', title: { es: 'Pantallas', en: 'Screens' } },
    { path: '/sysmanager/auditoria', screen: 'auditoria', permission: 'GESTORACCESS', title: { es: 'Auditoría', en: 'Audit' } },
    { path: '/soluciones/facturas/{id}', screen: 'factura-detalle', title: { es: 'Factura', en: 'Invoice' } },
    { path: '/sysmanager/aprobaciones', screen: 'aprobaciones', permission: 'GESTORACCESS', title: { es: 'Aprobaciones', en: 'Approvals' } },
    { path: '/sysmanager/politicas-aprobacion', screen: 'politicas-aprobacion', permission: 'GESTORACCESS', title: { es: 'Políticas de aprobación', en: 'Approval policies' } },
    { path: '/utilidades/mis-solicitudes', screen: 'mis-solicitudes', title: { es: 'Mis solicitudes', en: 'My requests' } },
    { path: '/auth/signup', screen: 'signup', public: true, title: { es: 'Crear cuenta', en: 'Create account' } },
    { path: '/soluciones/contratos/importar', screen: 'contratos-importar', title: { es: 'Importar altas', en: 'Import sign-ups' } },
    { path: '/soluciones/renovaciones/importar', screen: 'renovaciones-importar', permission: 'VERRENOVACIONES', title: { es: 'Importar cambios de subestado', en: 'Import sub-state changes' } },
    ...APP_PAGES.map((p) => ({ ...p, title: { ...p.title } })),
  ] as RouteDef[],
  menuEntries: [
    { key: 'pantallas', label: { es: 'Pantallas', en: 'Screens' }, icon: 'pi pi-objects-column', to: '/sysmanager/pantallas' },
    { key: 'auditoria', label: { es: 'Auditoría', en: 'Audit' }, icon: 'pi pi-history', to: '/sysmanager/auditoria' },
    { key: 'aprobaciones', label: { es: 'Aprobaciones', en: 'Approvals' }, icon: 'pi pi-check-square', to: '/sysmanager/aprobaciones' },
    { key: 'politicas-aprobacion', label: { es: 'Políticas de aprobación', en: 'Approval policies' }, icon: 'pi pi-sliders-h', to: '/sysmanager/politicas-aprobacion' },
  ],
  /** Entries every signed-in user gets, at the end of Utilidades. */
  utilityEntries: [{ key: 'mis-solicitudes', label: { es: 'Mis solicitudes', en: 'My requests' }, icon: 'pi pi-inbox', to: '/utilidades/mis-solicitudes' }],
}
const byPath = (routes: RouteDef[]) => [...routes].sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : 1))

describe('the manifest derived from the screen files', () => {
  it('has exactly the route table routes.json had (the order aside: now public pages, then by path), plus the routes added since', () => {
    const before = [...fixture<RouteDef[]>('routes.before-screens.json'), ...ADDED_SINCE.routes]
    const derived = loadRoutes()
    expect(byPath(derived)).toStrictEqual(byPath(before))
    // Field for field in the same order, as the client and the menu manager saw them.
    expect(JSON.stringify(byPath(derived))).toBe(JSON.stringify(byPath(before)))
  })

  it('has exactly the default menu default-menu.json had: same keys, order, fields and texts, plus the entries added since', () => {
    const before = fixture<MenuDefinition>('default-menu.before-screens.json')
    // The screen studio and the audit join the system's user tools, after the menu manager.
    const group = (before.sections.find((s) => s.key === 'sysmanager')!.items as MenuDefinition['sections']).find((e) => e.key === 'sysmanager-usuarios')!
    group.items = [...(group.items ?? []), ...ADDED_SINCE.menuEntries]
    const utilities = before.sections.find((s) => s.key === 'utilidades')!
    utilities.items = [...(utilities.items ?? []), ...ADDED_SINCE.utilityEntries]
    expect(loadDefaultMenu()).toStrictEqual(before)
    expect(JSON.stringify(loadDefaultMenu())).toBe(JSON.stringify(before))
  })

  it('lists the public pages of schemas/public-pages.ts first, and no screen file declares a public route', () => {
    const routes = loadRoutes()
    expect(routes.slice(0, PUBLIC_PAGES.length)).toStrictEqual(PUBLIC_PAGES.map((p) => ({ ...p })))
    expect(routes.slice(PUBLIC_PAGES.length).filter((r) => r.public)).toEqual([])
  })

  it('serves no link a route does not match: every resolved link of every screen is a route path', () => {
    const screens = loadScreens(SHIPPED_SCREENS_DIR)
    const patterns = loadRoutes().map((r) => new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`, 'i'))
    const links: string[] = []
    for (const s of screens.values()) {
      visitValues(s.root, (v, at) => {
        if (typeof v === 'string' && typeof at.key === 'string' && !Array.isArray(at.parent) && ['to', 'navigate', 'link', 'rowLink'].includes(at.key)) links.push(v)
      })
    }
    expect(links.length).toBeGreaterThan(50)
    expect(links.filter((l) => !patterns.some((p) => p.test(l.split('?')[0]!)))).toEqual([])
  })
})

describe('deriving the manifest refuses what would be a guess', () => {
  const shipped = loadScreens(SHIPPED_SCREENS_DIR)
  const frame = loadMenuFrame()
  const withScreen = (screen: Partial<ScreenFile> & { id: string }) => {
    const out = new Map(shipped)
    out.set(screen.id, { schemaVersion: 1, title: { es: 'Nueva' }, root: { type: 'markdown', content: 'x' }, ...screen })
    return out
  }

  it('a path two screens declare (letter case does not tell paths apart)', () => {
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: [{ path: '/Soluciones/Facturas' }] }), frame)).toThrow(/pantalla «otra».*la ruta \/Soluciones\/Facturas ya es de la pantalla «facturas»/)
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: [{ path: '/auth/login' }] }), frame)).toThrow(/ya es de la página pública «login»/)
  })

  it('a menu key already taken, an unknown section, two siblings with one order, an entry without a route', () => {
    const route = [{ path: '/nueva' }]
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: route, menu: { section: 'contratos', key: 'facturas', order: 99 } }), frame)).toThrow(ManifestDataError)
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: route, menu: { section: 'contratos', key: 'contratos-contrato', order: 99 } }), frame)).toThrow(/clave de menú «contratos-contrato» ya es de server\/manifest\/menu-sections\.json/)
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: route, menu: { section: 'nada', key: 'otra', order: 99 } }), frame)).toThrow(/la sección de menú «nada» no existe/)
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: route, menu: { section: 'contratos', key: 'otra', order: 40 } }), frame)).toThrow(/el orden 40 en «contratos» ya es de/)
    expect(() => deriveManifest(withScreen({ id: 'otra', menu: { section: 'contratos', key: 'otra', order: 99 } }), frame)).toThrow(/ninguna ruta/)
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: [{ path: '/nueva/{id}' }], menu: { section: 'contratos', key: 'otra', order: 99 } }), frame)).toThrow(/ruta con parámetros/)
    expect(() => deriveManifest(withScreen({ id: 'otra', routes: route, menu: { section: 'contratos', key: 'otra', order: 99, brands: ['azul'] } }), frame, new Set(['verde', 'grupo', 'limpia']))).toThrow(/pantalla «otra».*la marca «azul» no existe/)
  })

  it('a section no screen fills', () => {
    const empty: MenuFrame = { sections: [...frame.sections, { key: 'vacia', label: { es: 'Vacía' }, order: 999 }] }
    expect(() => deriveManifest(shipped, empty)).toThrow(/ninguna pantalla se coloca en «vacia»/)
  })

  it('gives an entry its route’s permission unless a section above asks for it already', () => {
    const { menu } = deriveManifest(withScreen({ id: 'otra', routes: [{ path: '/nueva', permission: 'GESTORACCESS' }], menu: { section: 'contratos', key: 'otra', order: 99 } }), frame)
    const contratos = menu.sections.find((s) => s.key === 'contratos')!
    expect(contratos.items!.at(-1)).toStrictEqual({ key: 'otra', label: { es: 'Nueva' }, to: '/nueva', permission: 'GESTORACCESS' })
    const inSysmanager = deriveManifest(withScreen({ id: 'otra', routes: [{ path: '/nueva', permission: 'GESTORACCESS' }], menu: { section: 'sysmanager-api', key: 'otra', order: 99 } }), frame).menu
    const api = inSysmanager.sections.find((s) => s.key === 'sysmanager')!.items!.find((g) => g.key === 'sysmanager-api')!
    expect(api.items!.at(-1)).toStrictEqual({ key: 'otra', label: { es: 'Nueva' }, to: '/nueva' })
  })
})

describe('links that name a screen', () => {
  let dir: string
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screen-links-'))
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
  const write = (id: string, content: object) => fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ schemaVersion: 1, id, title: 'T', ...content }))
  const links = (to: unknown) => ({ root: { type: 'links', items: [{ to, label: 'Ir' }] } })

  it('become the target’s path, parameters and query filled, templates kept', () => {
    write('detalle', { routes: [{ path: '/cosas/{codigo}' }], root: { type: 'markdown', content: 'x' } })
    write('lista', { routes: [{ path: '/cosas' }], ...links({ screen: 'detalle', params: { codigo: '{row.Codigo}' }, query: { pestaña: 'datos', n: 2 } }) })
    write('inicio', links({ screen: 'login' }))
    const screens = loadScreens(dir)
    expect((screens.get('lista')!.root as { items: { to: string }[] }).items[0]!.to).toBe('/cosas/{row.Codigo}?pestaña=datos&n=2')
    expect((screens.get('inicio')!.root as { items: { to: string }[] }).items[0]!.to).toBe('/auth/login')
  })

  it('stop the start when the screen is unknown or the parameters do not match its path', () => {
    write('inicio', links({ screen: 'nadie' }))
    expect(() => loadScreens(dir)).toThrow(/inicio\.json\/root\/items\/0\/to: la pantalla «nadie» no existe o no tiene ruta/)
    write('inicio', links({ screen: 'detalle' }))
    expect(() => loadScreens(dir)).toThrow(ScreenLoadError)
    expect(() => loadScreens(dir)).toThrow(/necesita el parámetro «codigo»/)
    write('inicio', links({ screen: 'lista', params: { codigo: '1' } }))
    expect(() => loadScreens(dir)).toThrow(/no tiene el parámetro «codigo»/)
    write('inicio', links({ screen: 'lista', extra: true }))
    expect(() => loadScreens(dir)).toThrow(/inicio\.json\/root\/items\/0\/to/)
    fs.rmSync(path.join(dir, 'inicio.json'))
  })
})

/** The JSON of README.md's recipe «Add a list screen»: the test follows the recipe as written. */
function recipeScreen(): ScreenFile {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('### Add a list screen'))
  const block = /```json\n([\s\S]*?)\n```/.exec(section)
  if (!block) throw new Error('README.md: no JSON block under «Add a list screen»')
  return JSON.parse(block[1]!) as ScreenFile
}

describe('README recipe «Add a list screen»: one file, and the portal has the page', () => {
  let upstream: FakeUpstream
  let bff: TestBff
  let dir: string
  let cookie: string
  const screen = recipeScreen()
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screens-recipe-'))
    // The shipped screens (the menu's sections need their entries) plus the recipe's one file.
    fs.cpSync(SHIPPED_SCREENS_DIR, dir, { recursive: true, filter: (src) => fs.statSync(src).isDirectory() || /\.(json|md)$/.test(src) })
    fs.writeFileSync(path.join(dir, 'facturas', `${screen.id}.json`), JSON.stringify(screen, null, 2))
    upstream = await startFakeUpstream()
    bff = await buildTestBff(upstream.url, {}, { screensDir: dir })
    cookie = sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(FAKE_USER).expect(200)).headers['set-cookie'])
  })
  afterAll(async () => {
    await bff?.close()
    await upstream?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('puts its route in the manifest and its entry in the side menu, where the file says', async () => {
    const manifest = (await request(bff.app.server).get('/bff/manifest').set('Cookie', cookie).expect(200)).body as Manifest
    expect(manifest.routes).toContainEqual({ path: screen.routes![0]!.path, screen: screen.id, title: screen.title })
    const section = manifest.menu.find((s) => s.key === screen.menu!.section)!
    const keys = section.items!.map((e: ResolvedMenuEntry) => e.key)
    expect(section.items).toContainEqual({ key: screen.menu!.key, label: screen.title, icon: screen.menu!.icon, to: screen.routes![0]!.path })
    // order 45: after Facturas (40), before Renovaciones (50).
    expect(keys.indexOf(screen.menu!.key)).toBe(keys.indexOf('facturas') + 1)
  })

  it('serves the screen with its link to the contract resolved, and without its declarations', async () => {
    const served = (await request(bff.app.server).get(`/bff/screens/${screen.id}`).set('Cookie', cookie).expect(200)).body as ScreenFile
    expect(served.routes).toBeUndefined()
    expect(served.menu).toBeUndefined()
    expect(JSON.stringify(served.root)).toContain('"link":"/soluciones/contratos/{row.CodigoContrato}"')
  })
})
