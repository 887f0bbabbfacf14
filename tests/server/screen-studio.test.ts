import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { ResolvedMenuEntry } from '../../schemas/menu'
import { SCREEN_SCHEMA_VERSION } from '../../schemas/screen'
import { SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'
import { RedisMenuStore } from '../../server/manifest/redis-menu-store'
import type { ScreenMigration } from '../../server/screens/screen-loader'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startTestRedis } from '../helpers/redis'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * The screen studio's server contract: drafts nobody sees, staged publication per brand and
 * user group, history, diff, rollback (the first publish undone withdraws the screen), the
 * fallback when a version fails in browsers, replicas through Redis, and stored screens
 * upgraded to the schema of the day.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const LIMPIA = 'portal.energialimpia.localhost'
let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''
let agenteGroup = 0

async function signIn(app: TestBff, creds: typeof ADMIN, host = 'localhost') {
  const res = await request(app.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url, {}, { screenFailureThreshold: 2 })
  admin = await signIn(bff, ADMIN)
  agente = await signIn(bff, AGENTE, GRUPO)
  const session = await request(bff.app.server).get('/bff/auth/session').set('Host', GRUPO).set('Cookie', agente).expect(200)
  agenteGroup = (session.body.user.Grupos as { Id: number }[])[0]!.Id
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

type Method = 'get' | 'put' | 'post'
const call = (method: Method, url: string, cookie: string, body?: unknown, host = 'localhost', app = bff) => {
  const r = request(app.app.server)[method](url).set('Host', host).set('X-CSRF', '1')
  if (cookie) r.set('Cookie', cookie)
  return body === undefined ? r : r.send(body as object)
}

/** A screen made in the studio: its own route and an entry in the «Contratos» section. */
function newScreen(id: string, text: string, extra: Record<string, unknown> = {}) {
  return {
    schemaVersion: SCREEN_SCHEMA_VERSION,
    id,
    title: { es: `Pantalla ${id}`, en: `Screen ${id}` },
    routes: [{ path: `/soluciones/estudio/${id}` }],
    menu: { section: 'contratos', key: id, order: 900 + id.length, label: { es: `Menú ${id}`, en: `Menu ${id}` } },
    root: { type: 'markdown', content: text },
    ...extra,
  }
}

const labels = (entries: ResolvedMenuEntry[], prefix = ''): string[] => entries.flatMap((e) => [`${prefix}${e.label.es}`, ...labels(e.items ?? [], `${prefix}${e.label.es} › `)])

/** What a user sees of a screen: its text and version, or the status when it does not exist for them. */
async function seen(id: string, cookie: string, host: string, app = bff): Promise<{ text: string; version: string } | number> {
  const res = await request(app.app.server).get(`/bff/screens/${id}`).set('Host', host).set('Cookie', cookie)
  if (res.status !== 200) return res.status
  return { text: res.body.root.content as string, version: res.headers['x-screen-version'] as string }
}

async function manifestOf(cookie: string, host: string, app = bff) {
  const m = (await request(app.app.server).get('/bff/manifest').set('Host', host).set('Cookie', cookie).expect(200)).body as Manifest
  return { paths: m.routes.map((r) => r.path), menu: labels(m.menu) }
}

const stateOf = async (id: string, app = bff, cookie = admin) => (await call('get', `/bff/admin/screens/${id}`, cookie, undefined, 'localhost', app).expect(200)).body

describe('non-admins are refused before anything is read', () => {
  const ID = 'contratos-listado'
  const endpoints: [Method, string, unknown][] = [
    ['get', '/bff/admin/screens', undefined],
    ['get', `/bff/admin/screens/${ID}`, undefined],
    ['post', '/bff/admin/screens', { screen: { no: 'vale' } }],
    ['put', `/bff/admin/screens/${ID}`, { screen: 1, expectedVersion: -3 }],
    ['post', `/bff/admin/screens/${ID}/publish`, { audience: { brands: ['NO VALE'] } }],
    ['get', `/bff/admin/screens/${ID}/history`, undefined],
    ['get', `/bff/admin/screens/${ID}/diff?from=x&to=y`, undefined],
    ['post', `/bff/admin/screens/${ID}/rollback`, { version: 'cero' }],
  ]
  it.each(endpoints)('%s %s: 401 signed out, 403 for agente whatever the body', async (method, url, body) => {
    await call(method, url, '', body).expect(401)
    const denied = await call(method, url, agente, body, GRUPO).expect(403)
    expect(denied.body.message).toBe('No tienes permiso para acceder a este recurso.')
    if (method !== 'get') {
      // Not even parsed: a body that is not JSON gets the same answer.
      const raw = await request(bff.app.server)[method](url).set('Host', GRUPO).set('X-CSRF', '1').set('Cookie', agente).set('Content-Type', 'application/json').send('{"screen": [[[')
      expect(raw.status).toBe(403)
    }
  })
  it('a screen an agente tried to create does not exist', async () => {
    await call('post', '/bff/admin/screens', agente, { screen: newScreen('estudio-intruso', 'x') }, GRUPO).expect(403)
    await call('get', '/bff/admin/screens/estudio-intruso', admin).expect(404)
  })
})

describe('invalid screens are refused with a Spanish message naming the JSON path', () => {
  const table = (columns: unknown[], endpoint = 'api/contract') => ({ type: 'table', id: 't', source: { endpoint }, dataKey: 'Id', columns })
  it.each([
    ['a blank column header', newScreen('estudio-mal', 'x', { root: table([{ field: 'A', header: '' }]) }), /^La pantalla no es válida: \/root\/columns\/0\/header: /],
    ['an unknown node type', newScreen('estudio-mal', 'x', { root: { type: 'carrusel' } }), /^La pantalla no es válida: \/root\/type: tipo de nodo desconocido «carrusel»/],
    ['a call the catalogue does not declare', newScreen('estudio-mal', 'x', { root: table([{ field: 'A', header: 'A' }], 'api/no-existe') }), /^La pantalla no es válida: \/root\/source: la llamada GET api\/no-existe no está en el catálogo de llamadas\./],
    ['a link to a screen that does not exist', newScreen('estudio-mal', 'x', { root: { type: 'links', items: [{ label: 'Ir', to: { screen: 'no-existe' } }] } }), /^La pantalla no es válida: \/root\/items\/0\/to: la pantalla «no-existe» no existe/],
    ['no schema version', { ...newScreen('estudio-mal', 'x'), schemaVersion: undefined }, /falta schemaVersion/],
    ['not an object', 'pantalla', /^La pantalla no es válida: \/screen: debe ser un objeto JSON\./],
  ])('%s', async (_name, screen, message) => {
    const res = await call('post', '/bff/admin/screens', admin, { screen }).expect(400)
    expect(res.body.message).toMatch(message)
    expect(res.body.message).not.toMatch(/must |Error:/)
    await call('get', '/bff/admin/screens/estudio-mal', admin).expect(404)
  })
  it('an edit must keep the screen it edits, and a route no other screen has', async () => {
    const shipped = (await stateOf('contratos-listado')).screen
    const renamed = await call('put', '/bff/admin/screens/contratos-listado', admin, { screen: { ...shipped, id: 'otra' } }).expect(400)
    expect(renamed.body.message).toBe('La pantalla no es válida: /screen/id: debe ser «contratos-listado», el de la pantalla que editas.')
    await call('post', '/bff/admin/screens', admin, { screen: newScreen('estudio-ruta', 'x', { routes: [{ path: '/soluciones/contratos/listado' }] }) }).expect(201)
    const clash = await call('post', '/bff/admin/screens/estudio-ruta/publish', admin, {}).expect(400)
    expect(clash.body.message).toMatch(/^No se puede publicar la versión 1: .*la ruta \/soluciones\/contratos\/listado ya es de la pantalla «contratos-listado»/)
    await call('post', '/bff/admin/screens/estudio-ruta/publish', admin, { audience: { brands: ['otra'] } }).expect(400)
    expect((await stateOf('estudio-ruta')).status).toBe('draft')
  })
})

describe('the life cycle of a new screen', () => {
  const ID = 'estudio-avisos'
  const PATH = `/soluciones/estudio/${ID}`

  it('a draft nobody sees, a brand first, then everyone', async () => {
    const created = await call('post', '/bff/admin/screens', admin, { screen: newScreen(ID, 'Primera versión') }).expect(201)
    expect(created.body).toEqual({ id: ID, version: 1, status: 'draft' })
    await call('post', '/bff/admin/screens', admin, { screen: newScreen(ID, 'Otra') }).expect(409)
    await call('post', '/bff/admin/screens', admin, { screen: { ...(await stateOf('contratos-listado')).screen } }).expect(409)
    expect(await stateOf(ID)).toMatchObject({ version: 1, status: 'draft', audience: { everyone: null, staged: null }, screen: { id: ID, root: { content: 'Primera versión' } } })
    expect(await seen(ID, agente, GRUPO)).toBe(404)
    expect(await seen(ID, admin, 'localhost')).toBe(404)
    expect((await manifestOf(agente, GRUPO)).paths).not.toContain(PATH)

    const staged = await call('post', `/bff/admin/screens/${ID}/publish`, admin, { audience: { brands: ['grupo'] } }).expect(200)
    expect(staged.body.audience).toEqual({ everyone: null, staged: { version: 1, brands: ['grupo'], groups: [] } })
    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Primera versión', version: '1' })
    const inGrupo = await manifestOf(agente, GRUPO)
    expect(inGrupo.paths).toContain(PATH)
    expect(inGrupo.menu).toContain(`Contratos › Menú ${ID}`)
    // outside the audience: no such screen at all
    expect(await seen(ID, admin, 'localhost')).toBe(404)
    expect(await seen(ID, agente, LIMPIA)).toBe(404)
    expect((await manifestOf(admin, 'localhost')).paths).not.toContain(PATH)
    expect((await manifestOf(admin, 'localhost')).menu).not.toContain(`Contratos › Menú ${ID}`)
    expect((await stateOf(ID)).status).toBe('staged')

    await call('post', `/bff/admin/screens/${ID}/publish`, admin, { version: 1 }).expect(200)
    expect(await seen(ID, admin, 'localhost')).toEqual({ text: 'Primera versión', version: '1' })
    expect((await manifestOf(admin, 'localhost')).menu).toContain(`Contratos › Menú ${ID}`)
    expect((await stateOf(ID)).status).toBe('published')
  })

  it('a new version is a draft; a group gets it first, the others keep the published one', async () => {
    const saved = await call('put', `/bff/admin/screens/${ID}`, admin, { screen: newScreen(ID, 'Segunda versión'), expectedVersion: 1 }).expect(200)
    expect(saved.body).toMatchObject({ version: 2, status: 'draft', changes: [{ path: '/root/content', type: 'changed' }] })
    const clash = await call('put', `/bff/admin/screens/${ID}`, admin, { screen: newScreen(ID, 'Tercera'), expectedVersion: 1 }).expect(409)
    expect(clash.body.message).toMatch(/guardó la versión 2\. Revisa sus cambios/)
    expect(clash.body.current).toMatchObject({ version: 2, author: { email: 'admin@portal.test' } })
    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Primera versión', version: '1' })

    await call('post', `/bff/admin/screens/${ID}/publish`, admin, { audience: { groups: [agenteGroup] } }).expect(200)
    // the agente's group, on any brand
    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Segunda versión', version: '2' })
    expect(await seen(ID, agente, LIMPIA)).toEqual({ text: 'Segunda versión', version: '2' })
    expect(await seen(ID, admin, 'localhost')).toEqual({ text: 'Primera versión', version: '1' })

    await call('post', `/bff/admin/screens/${ID}/publish`, admin, {}).expect(200)
    expect(await seen(ID, admin, 'localhost')).toEqual({ text: 'Segunda versión', version: '2' })
  })

  it('history, diff between any two versions, rollback, and the shared audit trail', async () => {
    const history = (await call('get', `/bff/admin/screens/${ID}/history`, admin).expect(200)).body
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual([2, 1])
    expect(history.versions[1].changes.map((c: { type: string }) => c.type)).toEqual(['added'])
    expect(history.releases.map((r: { action: string; version: number }) => [r.action, r.version])).toEqual([
      ['publish', 2],
      ['publish', 2],
      ['publish', 1],
      ['publish', 1],
    ])
    expect(history.releases[0].author.email).toBe('admin@portal.test')

    const diff = (await call('get', `/bff/admin/screens/${ID}/diff?from=1&to=2`, admin).expect(200)).body
    expect(diff.changes).toEqual([{ path: '/root/content', type: 'changed', text: '/root/content: "Primera versión" → "Segunda versión".' }])
    await call('get', `/bff/admin/screens/${ID}/diff?from=0&to=2`, admin).expect(404)
    await call('get', `/bff/admin/screens/${ID}/diff?from=1&to=99`, admin).expect(404)

    // no version: the last publish undone (v2 back to the agente's group only)
    const undone = await call('post', `/bff/admin/screens/${ID}/rollback`, admin, {}).expect(200)
    expect(undone.body.audience).toEqual({ everyone: 1, staged: { version: 2, brands: [], groups: [agenteGroup] } })
    expect(await seen(ID, admin, 'localhost')).toEqual({ text: 'Primera versión', version: '1' })
    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Segunda versión', version: '2' })
    // a version: that one for everyone
    await call('post', `/bff/admin/screens/${ID}/rollback`, admin, { version: 1 }).expect(200)
    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Primera versión', version: '1' })
    await call('post', `/bff/admin/screens/${ID}/rollback`, admin, { version: 7 }).expect(404)

    const audit = (await call('get', '/bff/admin/audit', admin).expect(200)).body.Items as { action: string; doc: string; actor: { email: string } }[]
    const mine = audit.filter((a) => a.doc === `screen:${ID}`).map((a) => a.action)
    expect(mine).toEqual(['screen.rollback', 'screen.rollback', 'screen.publish', 'screen.publish', 'screen.save', 'screen.publish', 'screen.publish', 'screen.create'])
  })

  it('undoing the first publish withdraws a new screen from every manifest', async () => {
    const id = 'estudio-retirada'
    await call('post', '/bff/admin/screens', admin, { screen: newScreen(id, 'Efímera') }).expect(201)
    await call('post', `/bff/admin/screens/${id}/publish`, admin, {}).expect(200)
    expect((await manifestOf(agente, GRUPO)).paths).toContain(`/soluciones/estudio/${id}`)
    expect((await manifestOf(admin, 'localhost')).menu).toContain(`Contratos › Menú ${id}`)

    const back = await call('post', `/bff/admin/screens/${id}/rollback`, admin, {}).expect(200)
    expect(back.body.audience).toEqual({ everyone: null, staged: null })
    for (const [cookie, host] of [[agente, GRUPO], [admin, 'localhost']] as const) {
      const m = await manifestOf(cookie, host)
      expect(m.paths).not.toContain(`/soluciones/estudio/${id}`)
      expect(m.menu).not.toContain(`Contratos › Menú ${id}`)
      expect(await seen(id, cookie, host)).toBe(404)
    }
    expect((await stateOf(id)).status).toBe('withdrawn')
    const again = await call('post', `/bff/admin/screens/${id}/rollback`, admin, {}).expect(400)
    expect(again.body.message).toBe(`La pantalla «${id}» no tiene ninguna publicación que deshacer.`)
  })
})

describe('a shipped screen edited in the studio', () => {
  it('is an overlay version, staged per brand like any other', async () => {
    const ID = 'contratos-listado'
    const state = await stateOf(ID)
    expect(state).toMatchObject({ version: 0, status: 'published', shipped: true, audience: { everyone: 0, staged: null }, underneath: [] })
    const screen = structuredClone(state.screen)
    screen.root.description = { es: 'Solo para Grupo Energía', en: 'Grupo Energía only' }
    const saved = await call('put', `/bff/admin/screens/${ID}`, admin, { screen }).expect(200)
    await call('post', `/bff/admin/screens/${ID}/publish`, admin, { version: saved.body.version, audience: { brands: ['grupo'] } }).expect(200)
    const description = async (cookie: string, host: string) => (await request(bff.app.server).get(`/bff/screens/${ID}`).set('Host', host).set('Cookie', cookie).expect(200)).body.root.description.es
    expect(await description(agente, GRUPO)).toBe('Solo para Grupo Energía')
    expect(await description(agente, LIMPIA)).toMatch(/^Contratos de suministro/)
    await call('post', `/bff/admin/screens/${ID}/rollback`, admin, {}).expect(200)
    expect(await description(agente, GRUPO)).toMatch(/^Contratos de suministro/)
  })
})

describe('a version that fails to render in browsers', () => {
  const ID = 'estudio-fallo'
  it('falls back to the last good version for everyone once two users report it, and the admins see why', async () => {
    await call('post', '/bff/admin/screens', admin, { screen: newScreen(ID, 'Buena') }).expect(201)
    await call('post', `/bff/admin/screens/${ID}/publish`, admin, {}).expect(200)
    await call('put', `/bff/admin/screens/${ID}`, admin, { screen: newScreen(ID, 'Rota') }).expect(200)
    await call('post', `/bff/admin/screens/${ID}/publish`, admin, {}).expect(200)
    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Rota', version: '2' })

    const report = (cookie: string, host: string, body: unknown) => request(bff.app.server).post(`/bff/screens/${ID}/render-error`).set('Host', host).set('X-CSRF', '1').set('Cookie', cookie).send(body as object)
    // signed out, or without the CSRF header: refused
    await request(bff.app.server).post(`/bff/screens/${ID}/render-error`).set('X-CSRF', '1').send({ version: 2 }).expect(401)
    await request(bff.app.server).post(`/bff/screens/${ID}/render-error`).set('Host', GRUPO).set('Cookie', agente).send({ version: 2 }).expect(403)
    // a version this user is not served is not counted
    expect((await report(agente, GRUPO, { version: 1 }).expect(202)).body).toEqual({ counted: false, fallback: false })
    // one user twice is one user
    expect((await report(agente, GRUPO, { version: 2, message: 'TypeError: x is undefined' }).expect(202)).body).toEqual({ counted: true, fallback: false })
    expect((await report(agente, GRUPO, { version: 2 }).expect(202)).body).toEqual({ counted: true, fallback: false })
    expect(await seen(ID, admin, 'localhost')).toEqual({ text: 'Rota', version: '2' })
    expect((await report(admin, 'localhost', { version: 2 }).expect(202)).body).toEqual({ counted: true, fallback: true })

    expect(await seen(ID, agente, GRUPO)).toEqual({ text: 'Buena', version: '1' })
    expect(await seen(ID, admin, 'localhost')).toEqual({ text: 'Buena', version: '1' })
    const state = await stateOf(ID)
    expect(state).toMatchObject({ status: 'fallback', audience: { everyone: 1, staged: null }, fallback: { version: 2, reason: expect.stringMatching(/^Falló al pintarse en el navegador de 2 usuarios/) } })
    const list = (await call('get', '/bff/admin/screens', admin).expect(200)).body as { id: string; status: string }[]
    expect(list.find((s) => s.id === ID)?.status).toBe('fallback')
    const history = (await call('get', `/bff/admin/screens/${ID}/history`, admin).expect(200)).body
    expect(history.releases[0]).toMatchObject({ action: 'fallback', version: 2, after: { everyone: 1 }, author: { id: 0 } })
    expect(bff.logs.lines.some((l) => l.event === 'screen_fallback' && l.screen === ID && l.failed === 2)).toBe(true)
    const audit = (await call('get', '/bff/admin/audit', admin).expect(200)).body.Items as { action: string; doc: string }[]
    expect(audit.filter((a) => a.doc === `screen:${ID}`).map((a) => a.action).slice(0, 3)).toEqual(['screen.fallback', 'screen.render-error', 'screen.render-error'])
    // the broken version no longer served: further reports change nothing
    expect((await report(agente, GRUPO, { version: 2 }).expect(202)).body).toEqual({ counted: false, fallback: false })
  })
})

describe('several BFF replicas sharing Redis', () => {
  it('a publish on one reaches the screens and manifests of another within 5 seconds', async () => {
    const redis = await startTestRedis()
    const [one, two] = await Promise.all([
      RedisMenuStore.open(redis.url).then((menuStore) => buildTestBff(api.url, {}, { menuStore })),
      RedisMenuStore.open(redis.url).then((menuStore) => buildTestBff(api.url, {}, { menuStore })),
    ])
    try {
      const adminOne = await signIn(one, ADMIN)
      const agenteTwo = await signIn(two, AGENTE, GRUPO)
      const id = 'estudio-replicas'
      await call('post', '/bff/admin/screens', adminOne, { screen: newScreen(id, 'En dos réplicas') }, 'localhost', one).expect(201)
      // warm the other replica's caches, so the publish has to reach it
      expect(await seen(id, agenteTwo, GRUPO, two)).toBe(404)
      expect((await manifestOf(agenteTwo, GRUPO, two)).paths).not.toContain(`/soluciones/estudio/${id}`)
      await call('post', `/bff/admin/screens/${id}/publish`, adminOne, { audience: { brands: ['grupo'] } }, 'localhost', one).expect(200)
      await expect.poll(async () => (await manifestOf(agenteTwo, GRUPO, two)).paths, { timeout: 5_000, interval: 200 }).toContain(`/soluciones/estudio/${id}`)
      expect(await seen(id, agenteTwo, GRUPO, two)).toEqual({ text: 'En dos réplicas', version: '1' })
      await call('post', `/bff/admin/screens/${id}/rollback`, adminOne, {}, 'localhost', one).expect(200)
      await expect.poll(async () => seen(id, agenteTwo, GRUPO, two), { timeout: 5_000, interval: 200 }).toBe(404)
    } finally {
      await Promise.all([one.close(), two.close()])
      await redis.close()
    }
  })
})

describe('stored screens across a schema change', () => {
  it('a screen stored under the current version is upgraded when read after the schema moves on', async () => {
    const id = 'estudio-esquema'
    await call('post', '/bff/admin/screens', admin, { screen: newScreen(id, 'Texto de antes') }).expect(201)
    await call('post', `/bff/admin/screens/${id}/publish`, admin, {}).expect(200)
    // The next format (test-local): markdown text moves under a prefix, so the read shows it went through.
    const migrations: Record<number, ScreenMigration> = {
      [SCREEN_SCHEMA_VERSION]: (s) => ({ ...s, root: { ...(s.root as object), content: `Migrada: ${(s.root as { content: string }).content}` } }),
    }
    const later = await buildTestBff(api.url, { DATA_DIR: bff.dataDir }, { screenSchema: { migrations, version: SCREEN_SCHEMA_VERSION + 1 } })
    try {
      const adminLater = await signIn(later, ADMIN)
      const state = await stateOf(id, later, adminLater)
      expect(state.screen).toMatchObject({ schemaVersion: SCREEN_SCHEMA_VERSION + 1, root: { content: 'Migrada: Texto de antes' } })
      expect(await seen(id, adminLater, 'localhost', later)).toEqual({ text: 'Migrada: Texto de antes', version: '1' })
    } finally {
      await later.app.close()
    }
    // the stored version itself is untouched: today's server reads it as it was
    expect((await stateOf(id)).screen.root.content).toBe('Texto de antes')
  })

  it('a release that changes a shipped screen shows the admin what changed underneath an edit, and keeps the edit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screens-release-'))
    try {
      fs.cpSync(SHIPPED_SCREENS_DIR, dir, { recursive: true, filter: (src) => !src.endsWith('.ts') })
      const ID = 'contratos-listado'
      // on the shipped file, not on the edit of the test above
      const edited = (await call('get', `/bff/admin/screens/${ID}?version=0`, admin).expect(200)).body.screen
      const table = edited.root.children.find((c: { id?: string }) => c.id === 'contratos')
      table.columns = table.columns.filter((c: { field: string }) => c.field !== 'Nif')
      const saved = await call('put', `/bff/admin/screens/${ID}`, admin, { screen: edited }).expect(200)
      await call('post', `/bff/admin/screens/${ID}/publish`, admin, { version: saved.body.version }).expect(200)
      const diff = (await call('get', `/bff/admin/screens/${ID}/diff?from=0&to=${saved.body.version}`, admin).expect(200)).body
      expect(diff.changes).toEqual([{ path: '/root/children/0/columns', type: 'hidden', text: 'Tabla «contratos»: la columna «NIF/CIF» queda oculta.' }])

      const file = path.join(dir, 'contratos', `${ID}.json`)
      const shipped = JSON.parse(fs.readFileSync(file, 'utf8'))
      shipped.root.description = { es: 'Descripción de la nueva versión del portal.', en: 'New release description.' }
      fs.writeFileSync(file, JSON.stringify(shipped))
      const released = await buildTestBff(api.url, { DATA_DIR: bff.dataDir }, { screensDir: dir })
      try {
        const adminThere = await signIn(released, ADMIN)
        const there = await stateOf(ID, released, adminThere)
        expect(there.underneath).toEqual([expect.objectContaining({ path: '/root/description/es', type: 'changed' }), expect.objectContaining({ path: '/root/description/en', type: 'changed' })])
        const served = (await request(released.app.server).get(`/bff/screens/${ID}`).set('Cookie', adminThere).expect(200)).body
        expect(served.root.description.es).toBe('Descripción de la nueva versión del portal.')
        expect(served.root.children[0].columns.map((c: { field: string }) => c.field)).not.toContain('Nif')
      } finally {
        await released.app.close()
      }
      await call('post', `/bff/admin/screens/${ID}/rollback`, admin, { version: 0 }).expect(200)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
