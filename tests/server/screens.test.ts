import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_PAGES, isAppPage } from '../../schemas/app-pages'
import type { ScreenFile, ScreenNode } from '../../schemas/screen'
import { loadRoutes } from '../../server/manifest/manifest-data'
import { visitNodes, visitValues } from '../../schemas/screen-walk'
import { loadScreens, ScreenLoadError, upgradeScreen } from '../../server/screens/screen-loader'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { isSpecCall } from './spec-endpoints'

const screens = loadScreens(path.resolve('server/screens'))

/** Every call a screen makes: table sources and exports, form submits and initial loads, actions, option sources, validators. */
function callsOf(screen: ScreenFile): { method: string; endpoint: string; where: string }[] {
  const out: { method: string; endpoint: string; where: string }[] = []
  visitValues(
    screen.root,
    (v, at) => {
      const o = v as Record<string, unknown> | null
      if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.endpoint !== 'string') return
      out.push({ method: typeof o.method === 'string' ? o.method : 'GET', endpoint: o.endpoint, where: at.path })
    },
    screen.id,
  )
  return out
}

describe('screen files', () => {
  it('all load and validate', () => {
    expect(screens.size).toBeGreaterThan(5)
  })

  it('name only calls of spec §7', () => {
    const offending = [...screens.values()]
      .flatMap(callsOf)
      // bff/… are the BFF's own; api/comparador/… is the local stand-in of the external comparison
      // site, used only in development (spec §2: in production those entries link out).
      .filter((c) => !c.endpoint.startsWith('bff/') && !c.endpoint.startsWith('api/comparador/') && !isSpecCall(c.method, c.endpoint))
    expect(offending).toEqual([])
  })

  it('use table ids once per screen and give every table a data key and columns', () => {
    for (const screen of screens.values()) {
      const ids: string[] = []
      visitNodes(screen.root, (n: ScreenNode) => {
        if (n.type === 'table') ids.push(n.id)
      })
      expect(new Set(ids).size, screen.id).toBe(ids.length)
    }
  })

  it('give the texts of their failures and of their trees in Spanish and English', () => {
    const spanishOnly: string[] = []
    const found: string[] = []
    for (const screen of screens.values()) {
      visitValues(
        screen.root,
        (v, at) => {
          const bilingual = !!v && typeof v === 'object' && typeof (v as { es?: unknown }).es === 'string' && typeof (v as { en?: unknown }).en === 'string'
          if (at.key === 'errorArea' || at.key === 'errorMessage') (bilingual ? found : spanishOnly).push(`${screen.id}${at.path}`)
        },
        '/root',
      )
      visitNodes(screen.root, (n, p) => {
        if (n.type === 'tree' && n.detail !== undefined && (typeof n.detail === 'string' || !n.detail.en)) spanishOnly.push(`${screen.id}${p}/detail`)
      })
    }
    expect(found.length).toBeGreaterThan(10)
    expect(spanishOnly).toEqual([])
  })

  it('exist for every signed-in route (spec §2)', () => {
    // The app pages (schemas/app-pages.ts) are client code, like the public ones: every other signed-in route is a screen file's.
    const all = loadRoutes().filter((r) => !r.public)
    expect(all.filter((r) => isAppPage(r.screen)).map((r) => r.path)).toEqual(APP_PAGES.map((p) => p.path))
    const routes = all.filter((r) => !isAppPage(r.screen))
    expect(routes.filter((r) => !screens.has(r.screen)).map((r) => `${r.path} → ${r.screen}`)).toEqual([])
    for (const r of routes) expect(screens.get(r.screen)!.id).toBe(r.screen)
  })
})

describe('the screen loader', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screens-'))
  const write = (name: string, content: unknown) => fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('stops on a bad file with its path and the schema error', () => {
    write('roto.json', { schemaVersion: 1, id: 'roto', title: 'Roto', root: { type: 'table', id: 't', source: { endpoint: 'api/contract' }, dataKey: 'Id', columns: [{ field: 'A', header: 'A', format: 'rarísimo' }] } })
    expect(() => loadScreens(dir)).toThrow(ScreenLoadError)
    expect(() => loadScreens(dir)).toThrow(/roto\.json: \/root\/columns\/0\/format/)
    fs.rmSync(path.join(dir, 'roto.json'))
  })

  it('stops on invalid JSON and on an id that does not match the file', () => {
    write('malo.json', '{ "schemaVersion": 1, ')
    expect(() => loadScreens(dir)).toThrow(/malo\.json: JSON no válido/)
    fs.rmSync(path.join(dir, 'malo.json'))
    write('uno.json', { schemaVersion: 1, id: 'otro', title: 'X', root: { type: 'markdown', content: 'x' } })
    expect(() => loadScreens(dir)).toThrow(/debe coincidir con el nombre del fichero/)
    fs.rmSync(path.join(dir, 'uno.json'))
  })

  it('refuses screens without a version or newer than it understands', () => {
    expect(() => upgradeScreen({ id: 'x' }, 'x.json')).toThrow(/falta schemaVersion/)
    expect(() => upgradeScreen({ schemaVersion: 99 }, 'x.json')).toThrow(/más nueva/)
  })

  it('upgrades an older screen through its migrations, in order', () => {
    const migrations = {
      1: (s: Record<string, unknown>) => ({ ...s, title: `${s.title} (v2)` }),
      2: (s: Record<string, unknown>) => ({ ...s, root: { type: 'markdown', content: String(s.body) } }),
    }
    expect(upgradeScreen({ schemaVersion: 1, title: 'T', body: 'hola' }, 'x.json', migrations, 3)).toEqual({ schemaVersion: 3, title: 'T (v2)', body: 'hola', root: { type: 'markdown', content: 'hola' } })
    expect(() => upgradeScreen({ schemaVersion: 1 }, 'x.json', { 1: (s) => s }, 3)).toThrow(/no se puede actualizar desde schemaVersion 2/)
  })
})

describe('GET /bff/screens/:id', () => {
  let api: RunningReferenceApi
  let bff: TestBff
  let admin: string
  let agente: string
  beforeAll(async () => {
    api = await startReferenceApi()
    bff = await buildTestBff(api.url)
    const login = async (c: typeof ADMIN) =>
      sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(c).expect(200)).headers['set-cookie'])
    admin = await login(ADMIN)
    agente = await login(AGENTE)
  })
  afterAll(async () => {
    await bff?.close()
    await api?.close()
  })

  it('answers 401 without a session', async () => {
    await request(bff.app.server).get('/bff/screens/seccion-contratos').expect(401)
  })

  it('answers 404 for an unknown screen', async () => {
    const res = await request(bff.app.server).get('/bff/screens/no-existe').set('Cookie', admin).expect(404)
    expect(res.body.message).toMatch(/No existe la pantalla/)
  })

  it("answers 403 without the route's permission and logs the denial with user, route and permission", async () => {
    await request(bff.app.server).get('/bff/screens/seccion-sysmanager').set('Cookie', agente).expect(403)
    const denial = bff.logs.lines.find((l) => l.event === 'screen_denied')
    expect(denial).toMatchObject({ route: '/sysmanager', permission: 'GESTORACCESS', screen: 'seccion-sysmanager', userId: 2 })
  })

  it('drops links to pages the user may not open', async () => {
    const asAgente = await request(bff.app.server).get('/bff/screens/seccion-soluciones').set('Cookie', agente).expect(200)
    const asAdmin = await request(bff.app.server).get('/bff/screens/seccion-soluciones').set('Cookie', admin).expect(200)
    const targets = (body: ScreenFile) => ((body.root as Extract<ScreenNode, { type: 'page' }>).children[0] as Extract<ScreenNode, { type: 'links' }>).items.map((i) => i.to)
    expect(targets(asAdmin.body)).toContain('/soluciones/renovaciones')
    expect(targets(asAgente.body)).not.toContain('/soluciones/renovaciones')
    expect(targets(asAgente.body)).toContain('/soluciones/facturas')
  })

  it('drops links to sections the brand hides (clean-energy has no Comparador)', async () => {
    const res = await request(bff.app.server).get('/bff/screens/seccion-soluciones').set('Host', 'portal.energialimpia.localhost').set('Cookie', admin)
    // a cookie is per host in a browser; here the same session is reused on another host on purpose
    expect(res.status).toBe(200)
    const items = (res.body.root.children[0].items as { to: string }[]).map((i) => i.to)
    expect(items).not.toContain('/soluciones/comparador')
  })
})
