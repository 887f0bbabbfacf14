import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCREEN_SCHEMA_VERSION } from '../../schemas/screen'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * The studio's preview (`POST /bff/admin/screens/preview`): the screen being edited, checked
 * like a save and pruned as the BFF would serve it to the chosen user; and the catalogue the
 * studio picks calls from (`GET /bff/admin/catalogue`). Spec §4: agente lacks GESTORACCESS.
 */
let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''
let agenteId = 0

const signIn = async (creds: typeof ADMIN) => sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(creds).expect(200)).headers['set-cookie'])
const post = (url: string, cookie: string, body: unknown) => request(bff.app.server).post(url).set('X-CSRF', '1').set('Cookie', cookie).send(body as object)

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  admin = await signIn(ADMIN)
  agente = await signIn(AGENTE)
  agenteId = (await request(bff.app.server).get('/bff/auth/session').set('Cookie', agente).expect(200)).body.user.Id as number
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

/** A list over the access tariffs, with an admin-only action and a link to the users' list. */
function tariffs(permission?: string) {
  return {
    schemaVersion: SCREEN_SCHEMA_VERSION,
    id: 'tarifas-acceso',
    title: { es: 'Tarifas de acceso', en: 'Access tariffs' },
    routes: [{ path: '/utilidades/tarifas', ...(permission ? { permission } : {}) }],
    root: {
      type: 'page',
      actions: [{ id: 'gestionar', label: 'Gestionar usuarios', kind: 'navigate', to: '/usuarios/listado', permission: 'GESTORACCESS' }],
      children: [{ type: 'table', id: 'lista', source: { endpoint: 'api/utility/tarifas', paged: false }, dataKey: 'Codigo', columns: [{ field: 'Codigo', header: 'Código' }] }],
    },
  }
}

describe('the studio preview', () => {
  it('as the admin: the whole screen, nothing stored', async () => {
    const res = await post('/bff/admin/screens/preview', admin, { screen: tariffs() }).expect(200)
    expect(res.body.as).toBeNull()
    expect(res.body.allowed).toBe(true)
    expect(res.body.screen.root.actions.map((a: { id: string }) => a.id)).toEqual(['gestionar'])
    // A preview is not a save: the screen does not exist for anyone.
    await request(bff.app.server).get('/bff/admin/screens/tarifas-acceso').set('Cookie', admin).expect(404)
  })

  it('as agente: their permissions and groups from the upstream prune it, and a route they may not open says so', async () => {
    const open = await post('/bff/admin/screens/preview', admin, { screen: tariffs(), userId: agenteId }).expect(200)
    expect(open.body.as).toMatchObject({ id: agenteId, name: 'Alberto Agente Comercial' })
    expect(open.body.as.permissions).not.toContain('GESTORACCESS')
    expect(open.body.allowed).toBe(true)
    expect(open.body.screen.root.actions).toEqual([])
    const closed = await post('/bff/admin/screens/preview', admin, { screen: tariffs('GESTORACCESS'), userId: agenteId }).expect(200)
    expect(closed.body.allowed).toBe(false)
  })

  it('an invalid screen is a Spanish 400 naming the JSON path; an uncatalogued call too; an unknown user a 404', async () => {
    const bad = tariffs() as { root: { children: { dataKey?: string }[] } }
    delete bad.root.children[0]!.dataKey
    const invalid = await post('/bff/admin/screens/preview', admin, { screen: bad }).expect(400)
    expect(invalid.body.message).toMatch(/^La pantalla no es válida: \/root\/children\/0/)
    const uncatalogued = tariffs() as { root: { children: { source: { endpoint: string } }[] } }
    uncatalogued.root.children[0]!.source.endpoint = 'api/utility/no-existe'
    const refused = await post('/bff/admin/screens/preview', admin, { screen: uncatalogued }).expect(400)
    expect(refused.body.message).toContain('no está en el catálogo de llamadas')
    const nobody = await post('/bff/admin/screens/preview', admin, { screen: tariffs(), userId: 999999 }).expect(404)
    expect(nobody.body.message).toBe('No existe el usuario 999999.')
  })

  it('agente is refused before the body is read', async () => {
    await post('/bff/admin/screens/preview', agente, { screen: tariffs() }).expect(403)
    const raw = await request(bff.app.server).post('/bff/admin/screens/preview').set('X-CSRF', '1').set('Cookie', agente).set('Content-Type', 'application/json').send('{"screen": [[[')
    expect(raw.status).toBe(403)
    await request(bff.app.server).post('/bff/admin/screens/preview').set('X-CSRF', '1').send({ screen: tariffs() }).expect(401)
  })
})

describe('the catalogue the studio picks calls from', () => {
  it('lists the catalogued calls a screen may make, with their paging; admins only', async () => {
    const res = await request(bff.app.server).get('/bff/admin/catalogue').set('Cookie', admin).expect(200)
    const calls = res.body as { id: string; method: string; path: string; effect: string; list?: { sortable: string[] } }[]
    expect(calls.find((c) => c.path === 'api/utility/tarifas')).toMatchObject({ method: 'GET', effect: 'read', shape: 'utility.tariffs' })
    expect(calls.find((c) => c.id === 'contract.list')?.list?.sortable.length).toBeGreaterThan(0)
    // The BFF's own sign-in calls are never a screen's.
    expect(calls.some((c) => c.path === 'api/auth/login')).toBe(false)
    await request(bff.app.server).get('/bff/admin/catalogue').set('Cookie', agente).expect(403)
  })
})
