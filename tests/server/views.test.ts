import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry, AuditPageAnswer } from '../../schemas/audit'
import type { ViewForUser, ViewListAnswer } from '../../schemas/view'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, SUPERVISOR, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 17, shared views: a view of a list is private, shared with one of the owner's groups, or
 * published to the brand (GESTORACCESS); only its owner (or a publisher, for brand views) updates
 * or withdraws it; a stale version is a 409; filters, sort and columns must be the table's; the
 * saves and withdrawals of shared views are in the audit. Demo data: admin and supervisor are in
 * «Administradores», agente in «Comerciales».
 */

const VERDE = 'localhost'
const GRUPO = 'portal.grupoenergia.localhost'
const TABLE = { screen: 'contratos-listado', table: 'contratos' }

let api: RunningReferenceApi
let bff: TestBff
const cookies: Record<string, string> = {}
let adminGroup = 0
let agenteGroup = 0

type Method = 'get' | 'put' | 'post' | 'delete'
type Who = 'admin' | 'supervisor' | 'agente' | 'adminGrupo' | 'agenteGrupo'

async function signIn(creds: typeof ADMIN, host = VERDE) {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

const hostOf = (who: Who) => (who.endsWith('Grupo') ? GRUPO : VERDE)
function call(method: Method, path: string, who: Who | null, body?: unknown, host = who ? hostOf(who) : VERDE) {
  const r = request(bff.app.server)[method](path).set('Host', host).set('X-CSRF', '1')
  if (who) r.set('Cookie', cookies[who]!)
  return body === undefined ? r : r.send(body as object)
}

const list = async (who: Who, t = TABLE) => (await call('get', `/bff/views?screen=${t.screen}&table=${t.table}`, who).expect(200)).body as ViewListAnswer
const names = async (who: Who) => (await list(who)).views.map((v) => v.name)
const draft = (name: string, extra: Record<string, unknown> = {}) => ({ ...TABLE, name, filters: { Titular: 'García' }, sort: { field: 'FechaAlta', order: 'desc' }, columns: ['CodigoContrato', 'Titular', 'Estado'], visibility: 'private', ...extra })
const save = async (who: Who, body: object) => (await call('post', '/bff/views', who, body).expect(201)).body as ViewForUser
const audit = async () => (await call('get', '/bff/admin/audit?pageSize=500', 'admin').expect(200)).body as AuditPageAnswer
const auditOf = async (requestId: string): Promise<AuditEntry[]> => (await audit()).Items.filter((e) => e.requestId === requestId)

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  cookies.admin = await signIn(ADMIN)
  cookies.supervisor = await signIn(SUPERVISOR)
  cookies.agente = await signIn(AGENTE)
  cookies.adminGrupo = await signIn(ADMIN, GRUPO)
  cookies.agenteGrupo = await signIn(AGENTE, GRUPO)
  const a = await list('admin')
  adminGroup = a.groups.find((g) => g.name === 'Administradores')!.id
  agenteGroup = (await list('agente')).groups.find((g) => g.name === 'Comerciales')!.id
}, 60_000)
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('views of a list', () => {
  it('answer 401 signed out, and refuse a write without the CSRF header', async () => {
    await call('get', '/bff/views?screen=contratos-listado&table=contratos', null).expect(401)
    await call('post', '/bff/views', null, draft('x')).expect(401)
    await request(bff.app.server).post('/bff/views').set('Cookie', cookies.admin!).send(draft('sin csrf')).expect(403)
    expect(await names('admin')).not.toContain('sin csrf')
  })

  it('tell the user their groups and whether they may publish', async () => {
    const a = await list('admin')
    expect(a.canPublish).toBe(true)
    expect(a.groups.map((g) => g.name)).toEqual(['Administradores'])
    const g = await list('agente')
    expect(g.canPublish).toBe(false)
    expect(g.groups.map((x) => x.name)).toEqual(['Comerciales'])
  })

  it('a private view: saved, listed for its owner only, updated, withdrawn (CRUD)', async () => {
    const view = await save('agente', draft('  Mis García  '))
    expect(view).toMatchObject({ name: 'Mis García', visibility: 'private', version: 1, editable: true, owner: { name: 'Alberto Agente Comercial' }, brand: 'verde', filters: { Titular: 'García' } })
    expect(view.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(await names('agente')).toContain('Mis García')
    expect(await names('admin')).not.toContain('Mis García')
    expect(await names('agenteGrupo')).not.toContain('Mis García')

    const updated = (await call('put', `/bff/views/${view.id}`, 'agente', { ...draft('Mis García'), screen: undefined, table: undefined, version: 1, filters: { Titular: 'López' } }).expect(200)).body as ViewForUser
    expect(updated).toMatchObject({ version: 2, filters: { Titular: 'López' }, name: 'Mis García' })
    expect((await list('agente')).views.find((v) => v.id === view.id)?.filters).toEqual({ Titular: 'López' })

    // Another user does not learn it exists.
    await call('put', `/bff/views/${view.id}`, 'admin', { ...draft('x'), screen: undefined, table: undefined, version: 2 }).expect(404)
    await call('delete', `/bff/views/${view.id}`, 'admin').expect(404)
    await call('delete', `/bff/views/${view.id}`, 'agente').expect(204)
    expect(await names('agente')).not.toContain('Mis García')
    await call('delete', `/bff/views/${view.id}`, 'agente').expect(404)
  })

  it('a group view is seen by the group’s members only, with its owner; only the owner changes it', async () => {
    const view = await save('admin', draft('Administración: activos', { visibility: 'group', groupId: adminGroup }))
    expect(view).toMatchObject({ groupId: adminGroup, groupName: 'Administradores' })
    const seen = (await list('supervisor')).views.find((v) => v.id === view.id)
    expect(seen).toMatchObject({ owner: { name: 'Ana Administradora Portal' }, editable: false })
    expect(await names('agente')).not.toContain('Administración: activos')
    expect(await names('adminGrupo')).not.toContain('Administración: activos')
    // A member sees it but may not change nor withdraw it.
    await call('put', `/bff/views/${view.id}`, 'supervisor', { ...draft('Administración: activos', { visibility: 'group', groupId: adminGroup }), screen: undefined, table: undefined, version: 1 }).expect(403)
    const refused = await call('delete', `/bff/views/${view.id}`, 'supervisor').expect(403)
    expect(refused.body.message).toMatch(/Solo quien creó la vista/)
    expect(await names('supervisor')).toContain('Administración: activos')
    await call('delete', `/bff/views/${view.id}?version=1`, 'admin').expect(204)
    expect(await names('supervisor')).not.toContain('Administración: activos')
  })

  it('a group is one of the saver’s own', async () => {
    const res = await call('post', '/bff/views', 'agente', draft('Ajeno', { visibility: 'group', groupId: adminGroup })).expect(400)
    expect(res.body.message).toMatch(/grupos a los que perteneces/)
    await call('post', '/bff/views', 'agente', draft('Sin grupo', { visibility: 'group' })).expect(400)
    await call('post', '/bff/views', 'agente', draft('Grupo sobrante', { visibility: 'private', groupId: agenteGroup })).expect(400)
    expect(await names('agente')).not.toEqual(expect.arrayContaining(['Ajeno']))
  })

  it('a brand view: only GESTORACCESS publishes; everyone of the brand sees it, nobody of another brand', async () => {
    const refused = await call('post', '/bff/views', 'agente', draft('Para todos', { visibility: 'brand' })).expect(403)
    expect(refused.body.message).toMatch(/GESTORACCESS/)
    const view = await save('admin', draft('Publicada verde', { visibility: 'brand' }))
    expect(await names('agente')).toContain('Publicada verde')
    expect(await names('supervisor')).toContain('Publicada verde')
    expect(await names('agenteGrupo')).not.toContain('Publicada verde')
    expect(await names('adminGrupo')).not.toContain('Publicada verde')
    // The other publisher may update and withdraw it; the agent may not.
    expect((await list('supervisor')).views.find((v) => v.id === view.id)?.editable).toBe(true)
    await call('put', `/bff/views/${view.id}`, 'agente', { ...draft('Publicada verde', { visibility: 'brand' }), screen: undefined, table: undefined, version: 1 }).expect(403)
    const byOther = (await call('put', `/bff/views/${view.id}`, 'supervisor', { ...draft('Publicada verde', { visibility: 'brand' }), screen: undefined, table: undefined, version: 1, filters: {} }).expect(200)).body as ViewForUser
    expect(byOther).toMatchObject({ version: 2, owner: { name: 'Ana Administradora Portal' }, filters: {} })
    // …but not make it private (the owner's choice).
    await call('put', `/bff/views/${view.id}`, 'supervisor', { ...draft('Publicada verde'), screen: undefined, table: undefined, version: 2 }).expect(403)
    await call('delete', `/bff/views/${view.id}`, 'agente').expect(403)
    await call('delete', `/bff/views/${view.id}`, 'supervisor').expect(204)
    expect(await names('agente')).not.toContain('Publicada verde')
  })

  it('an update from a stale version is a 409 with the view as it is now; nothing changes', async () => {
    const view = await save('admin', draft('Concurrente'))
    const body = { ...draft('Concurrente'), screen: undefined, table: undefined, version: 1 }
    await call('put', `/bff/views/${view.id}`, 'admin', { ...body, filters: { Titular: 'Primero' } }).expect(200)
    const stale = await call('put', `/bff/views/${view.id}`, 'admin', { ...body, filters: { Titular: 'Segundo' } }).expect(409)
    expect(stale.body.message).toMatch(/ha cambiado esta vista/)
    expect(stale.body.current).toMatchObject({ version: 2, filters: { Titular: 'Primero' } })
    await call('delete', `/bff/views/${view.id}?version=1`, 'admin').expect(409)
    expect(await names('admin')).toContain('Concurrente')
    // Two racing updates of one version: one wins.
    const racing = await Promise.all([1, 2].map((n) => call('put', `/bff/views/${view.id}`, 'admin', { ...body, version: 2, filters: { Titular: `Carrera ${n}` } })))
    expect(racing.map((r) => r.status).sort()).toEqual([200, 409])
  })

  it('refuses bad input with a Spanish 400 and saves nothing', async () => {
    const before = (await list('admin')).views.length
    const cases: [object, RegExp][] = [
      [draft('   '), /entre 1 y 60 caracteres/],
      [draft('x'.repeat(61)), /entre 1 y 60 caracteres/],
      [draft('Columna rara', { filters: { NoExiste: '1' } }), /no tiene estas columnas: «NoExiste»/],
      [draft('Orden raro', { sort: { field: 'Inventada', order: 'asc' } }), /no tiene estas columnas: «Inventada»/],
      [draft('Columnas raras', { columns: ['CodigoContrato', 'Fantasma'] }), /no tiene estas columnas: «Fantasma»/],
      [draft('Sin filtro', { filters: { Municipio: 'Toledo' } }), /no filtra por «Municipio»/],
      [draft('Tabla rara', { table: 'otra' }), /no tiene la tabla «otra»/],
      [draft('Visibilidad', { visibility: 'todos' }), /visibility/],
      [draft('Sobra', { propietario: 1 }), /sobra «propietario»/],
      [draft('Disposición', { layout: { anchos: 'x'.repeat(9000) } }), /demasiado grande/],
    ]
    for (const [body, message] of cases) {
      const res = await call('post', '/bff/views', 'admin', body).expect(400)
      expect(res.body.message, JSON.stringify(body).slice(0, 80)).toMatch(message)
    }
    await call('post', '/bff/views', 'admin', draft('Pantalla rara', { screen: 'no-existe' })).expect(404)
    expect((await list('admin')).views.length).toBe(before)
  })

  it('a shared view may not carry personal data whole as a filter (the list shows it masked); a private one may', async () => {
    const before = (await list('supervisor')).views.length
    for (const visibility of [{ visibility: 'group', groupId: adminGroup }, { visibility: 'brand' }]) {
      const res = await call('post', '/bff/views', 'admin', draft('Un cliente', { filters: { Nif: '12345678Z', Titular: 'García' }, ...visibility })).expect(400)
      expect(res.body.message).toBe('Una vista compartida no puede filtrar por datos personales («NIF/CIF»): quita ese filtro o guárdala solo para ti.')
    }
    expect((await list('supervisor')).views.length).toBe(before)
    const mine = await save('admin', draft('Un cliente', { filters: { Nif: '12345678Z' } }))
    // Nor may a private one become shared with it.
    await call('put', `/bff/views/${mine.id}`, 'admin', { ...draft('Un cliente', { filters: { Nif: '12345678Z' }, visibility: 'brand' }), screen: undefined, table: undefined, version: 1 }).expect(400)
    await call('delete', `/bff/views/${mine.id}`, 'admin').expect(204)
  })

  it('a name is unique per owner and table (any case); another owner may use it', async () => {
    const first = await save('admin', draft('Repetida'))
    const again = await call('post', '/bff/views', 'admin', draft('REPETIDA')).expect(400)
    expect(again.body.message).toMatch(/Ya tienes una vista llamada «REPETIDA»/)
    await save('supervisor', draft('Repetida'))
    // Renaming onto a name the owner uses is refused too.
    const other = await save('admin', draft('Otra'))
    await call('put', `/bff/views/${other.id}`, 'admin', { ...draft('repetida'), screen: undefined, table: undefined, version: 1 }).expect(400)
    await call('delete', `/bff/views/${first.id}`, 'admin').expect(204)
    await call('delete', `/bff/views/${other.id}`, 'admin').expect(204)
  })

  it('keeps a view’s column layout as it was sent', async () => {
    const view = await save('admin', draft('Con disposición', { layout: { widths: { Titular: 240 }, pinned: ['CodigoContrato'], density: 'compact' } }))
    expect((await list('admin')).views.find((v) => v.id === view.id)?.layout).toEqual({ widths: { Titular: 240 }, pinned: ['CodigoContrato'], density: 'compact' })
    await call('delete', `/bff/views/${view.id}`, 'admin').expect(204)
  })

  it('audits each save, update and withdrawal of a shared view, not of a private one', async () => {
    const created = await call('post', '/bff/views', 'admin', draft('Auditada', { visibility: 'group', groupId: adminGroup })).expect(201)
    const view = created.body as ViewForUser
    expect(await auditOf(String(created.headers['x-request-id']))).toEqual([
      expect.objectContaining({ kind: 'admin', action: 'view.save', call: 'POST bff/views', record: { entity: 'vista', id: view.id }, version: 1, actor: expect.objectContaining({ email: 'admin@portal.test' }), outcome: { status: 201, ok: true } }),
    ])
    const entry = (await auditOf(String(created.headers['x-request-id'])))[0]!
    expect(entry.details).toMatchObject({ name: 'Auditada', screen: 'contratos-listado', table: 'contratos', visibility: 'group', groupName: 'Administradores' })
    const updated = await call('put', `/bff/views/${view.id}`, 'admin', { ...draft('Auditada'), screen: undefined, table: undefined, version: 1 }).expect(200)
    // Made private: still audited, since the group saw it go.
    expect(await auditOf(String(updated.headers['x-request-id']))).toEqual([expect.objectContaining({ action: 'view.update', call: 'PUT bff/views/:id', version: 2 })])
    const privateSave = await call('post', '/bff/views', 'admin', draft('Privada sin auditoría')).expect(201)
    expect(await auditOf(String(privateSave.headers['x-request-id']))).toEqual([])
    const shared = await save('admin', draft('Retirada', { visibility: 'brand' }))
    const withdrawn = await call('delete', `/bff/views/${shared.id}`, 'admin').expect(204)
    expect(await auditOf(String(withdrawn.headers['x-request-id']))).toEqual([expect.objectContaining({ action: 'view.withdraw', call: 'DELETE bff/views/:id', record: { entity: 'vista', id: shared.id }, outcome: { status: 204, ok: true } })])
  })
})
