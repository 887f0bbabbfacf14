import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, permisoId, publicMe } from './admin-support'
import type { ApiKey, ApiUserDetail, ApiUserRow } from '../../schemas/business/access'

let api: RunningReferenceApi
let admin: ApiCaller
let n = 0

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

async function newApiUser(extra: Record<string, unknown> = {}) {
  const res = await admin.post<ApiUserDetail>('/api/apiusers/register-api-user', { Nombre: `Integración de prueba ${++n}`, Email: `integracion${n}@pruebas.test`, Descripcion: 'Pruebas.', ...extra })
  expect(res.status, res.text).toBe(201)
  return res.body
}

async function generate(apiUserId: number, extra: Record<string, unknown> = {}) {
  const res = await admin.post<ApiKey & { Clave: string; Aviso: string }>('/api/apikey/generate', { ApiUserId: apiUserId, Descripcion: 'Producción', ...extra })
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** An agent of a brand nobody has linked to an API user yet. */
function freeAgent(domain: string, offset = 0): { id: number; codigo: string } {
  return api.db
    .prepare(
      `SELECT a.id, a.codigo FROM agentes a JOIN marcas m ON m.id = a.marca_id
       WHERE m.dominio = ? AND a.id NOT IN (SELECT agente_id FROM api_usuario_agentes) ORDER BY a.id DESC LIMIT 1 OFFSET ?`,
    )
    .get(domain, offset) as { id: number; codigo: string }
}

describe('seeded API users and keys', () => {
  it('lists realistic integrations with keys, some linked to agents', async () => {
    const list = await admin.get<{ Items: ApiUserRow[]; TotalCount: number }>('/api/apiusers/listado-api-user', { pageSize: 50 })
    expect(list.status).toBe(200)
    expect(list.body.TotalCount).toBeGreaterThanOrEqual(8)
    expect(list.body.Items.filter((u) => u.NumClaves > 0).length).toBeGreaterThanOrEqual(6)
    expect(list.body.Items.some((u) => u.Activo === false)).toBe(true)
    expect(list.body.Items.some((u) => u.AgenteCodigo !== null)).toBe(true)
    const keys = await admin.get<ApiKey[]>('/api/apikey')
    expect(keys.body.length).toBeGreaterThanOrEqual(10)
    expect(keys.body.some((k) => !k.Activa)).toBe(true)
    expect(keys.body.some((k) => k.Caducada)).toBe(true)
    for (const k of keys.body) expect(k.ApiKey).toMatch(/^pk_[0-9a-f]{16}$/)
  })

  it('stores only hashes: no seeded key can be used', async () => {
    const rows = api.db.prepare('SELECT public_id, secret_hash FROM api_keys').all() as { public_id: string; secret_hash: string }[]
    for (const r of rows) expect(r.secret_hash).toMatch(/^[0-9a-f]{64}$/)
    expect((await publicMe(api.url, `${rows[0]!.public_id}.${'A'.repeat(43)}`)).status).toBe(401)
  })
})

describe('API keys', () => {
  it('shows the full key once; the list never does; it authenticates the public API', async () => {
    const u = await newApiUser()
    await admin.put('/api/apiusers/add-permisos-to-user', [permisoId(api.db, 'APISIPS')], { userId: u.Id })
    const key = await generate(u.Id, { Descripcion: 'Consola de pruebas' })
    expect(key.Clave).toMatch(/^pk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/)
    expect(key.Clave.startsWith(`${key.ApiKey}.`)).toBe(true)
    expect(key).toMatchObject({ Descripcion: 'Consola de pruebas', ApiUsuarioId: u.Id, ApiUsuario: u.Nombre, Activa: true, Caducada: false, UltimoUso: null, CreadaPor: ADMIN.username })
    expect(key.Mascara).toBe(`${key.ApiKey.slice(0, 7)}…`)
    expect(key.Aviso).toMatch(/no se volverá a mostrar/)

    // the secret appears in no later answer and is not stored
    const list = await admin.get<ApiKey[]>('/api/apikey')
    const detail = await admin.get<ApiUserDetail>('/api/apiusers/api-user', { id: u.Id })
    const secret = key.Clave.split('.')[1]!
    for (const text of [list.text, detail.text, JSON.stringify(api.db.prepare('SELECT * FROM api_keys').all())]) expect(text).not.toContain(secret)
    const listed = list.body.find((k) => k.ApiKey === key.ApiKey)!
    expect(listed).not.toHaveProperty('Clave')
    expect((await admin.get<ApiKey[]>('/api/apikey', { apiUserId: u.Id })).body.map((k) => k.ApiKey)).toEqual([key.ApiKey])

    const me = await publicMe(api.url, key.Clave)
    expect(me.status, me.text).toBe(200)
    expect(me.body).toMatchObject({
      ApiUsuario: { Id: u.Id, Nombre: u.Nombre, Email: u.Email },
      ApiKey: key.ApiKey,
      Permisos: [{ NombreNormalizado: 'APISIPS' }],
      Marca: { Dominio: 'energiaverde.es' },
      Agente: null,
    })
    const used = (await admin.get<ApiKey[]>('/api/apikey', { apiUserId: u.Id })).body[0]!
    expect(used.UltimoUso).not.toBeNull()
    // a wrong secret with the right public id is refused
    expect((await publicMe(api.url, `${key.ApiKey}.${'B'.repeat(43)}`)).status).toBe(401)
  })

  it('toggle disables and enables; delete removes', async () => {
    const u = await newApiUser()
    const key = await generate(u.Id)
    const off = await admin.put<ApiKey>('/api/apikey/toggle', { ApiKey: key.ApiKey })
    expect(off.status, off.text).toBe(200)
    expect(off.body.Activa).toBe(false)
    const refused = await publicMe(api.url, key.Clave)
    expect(refused.status).toBe(401)
    expect(refused.text).toBe('La clave de API no es válida, está desactivada o ha caducado.')
    const on = await admin.put<ApiKey>('/api/apikey/toggle', { ApiKey: key.ApiKey })
    expect(on.body.Activa).toBe(true)
    expect((await publicMe(api.url, key.Clave)).status).toBe(200)
    // an explicit state is honoured (no flip)
    expect((await admin.put<ApiKey>('/api/apikey/toggle', { ApiKey: key.ApiKey, Activa: true })).body.Activa).toBe(true)

    const del = await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })
    expect(del.status).toBe(204)
    expect((await admin.get<ApiKey[]>('/api/apikey')).body.some((k) => k.ApiKey === key.ApiKey)).toBe(false)
    expect((await publicMe(api.url, key.Clave)).status).toBe(401)
    expect((await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })).status).toBe(404)
    expect((await admin.put('/api/apikey/toggle', { ApiKey: key.Clave })).text).toMatch(/no la clave completa/)
    expect((await admin.put('/api/apikey/toggle', { ApiKey: 'cualquiera' })).status).toBe(400)
    expect((await admin.put('/api/apikey/toggle', {})).text).toBe('Falta la clave de API (ApiKey).')
  })

  it('an inactive API user or an expired key cannot call', async () => {
    const u = await newApiUser()
    // (a key lives two years at most: the day a year from now)
    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10)
    const key = await generate(u.Id, { FechaExpiracion: inAYear })
    expect(key.FechaExpiracion).toBe(`${inAYear}T23:59:59Z`)
    expect((await publicMe(api.url, key.Clave)).status).toBe(200)
    expect((await admin.put<ApiUserDetail>('/api/apiusers/update', { Activo: false }, { id: u.Id })).body.Activo).toBe(false)
    expect((await publicMe(api.url, key.Clave)).status).toBe(401)
    await admin.put('/api/apiusers/update', { Activo: true }, { id: u.Id })
    api.db.prepare('UPDATE api_keys SET fecha_expiracion = ? WHERE public_id = ?').run('2020-01-01T00:00:00.000Z', key.ApiKey)
    expect((await publicMe(api.url, key.Clave)).status).toBe(401)
    expect((await admin.get<ApiKey[]>('/api/apikey', { apiUserId: u.Id })).body[0]!.Caducada).toBe(true)
    expect((await admin.post('/api/apikey/generate', { ApiUserId: u.Id, FechaExpiracion: '2020-01-01' })).status).toBe(400)
    expect((await admin.post('/api/apikey/generate', { ApiUserId: u.Id, FechaExpiracion: 'mañana' })).status).toBe(400)
  })

  it('refuses an unknown API user and too many keys', async () => {
    expect((await admin.post('/api/apikey/generate', { ApiUserId: 99999, Descripcion: 'x' })).text).toBe('El usuario de API 99999 no existe.')
    expect((await admin.post('/api/apikey/generate', { Descripcion: 'x' })).text).toBe('Falta el usuario de API (ApiUserId).')
    const u = await newApiUser()
    for (let i = 0; i < 10; i++) await generate(u.Id)
    const more = await admin.post('/api/apikey/generate', { ApiUserId: u.Id })
    expect(more.status).toBe(409)
  })
})

describe('API users', () => {
  it('registers, shows, lists, updates and deletes (with its keys)', async () => {
    const u = await newApiUser({ Nombre: 'Pasarela de pagos', Email: 'Pagos@Pruebas.test' })
    expect(u).toMatchObject({ Nombre: 'Pasarela de pagos', Email: 'pagos@pruebas.test', Descripcion: 'Pruebas.', Activo: true, CreadoPor: ADMIN.username, Permisos: [], Claves: [], Agente: null })
    expect(u.Actividad[0]).toMatchObject({ Accion: 'api_usuario.alta', Usuario: ADMIN.username })
    expect((await admin.post('/api/apiusers/register-api-user', { Nombre: 'pasarela DE PAGOS', Email: 'otro@pruebas.test' })).status).toBe(409)
    expect((await admin.post('/api/apiusers/register-api-user', { Nombre: 'Sin correo' })).status).toBe(400)

    const list = await admin.get<{ Items: ApiUserRow[]; TotalCount: number }>('/api/apiusers/listado-api-user', { 'filterColumns[0]': 'Nombre', 'filterQueries[0]': 'pasarela' })
    expect(list.body.TotalCount).toBe(1)
    expect(list.body.Items[0]).toMatchObject({ Id: u.Id, NumClaves: 0, Activo: true })

    const updated = await admin.put<ApiUserDetail>('/api/apiusers/update', { Descripcion: 'Cobros con tarjeta.' }, { id: u.Id })
    expect(updated.body.Descripcion).toBe('Cobros con tarjeta.')

    const k1 = await generate(u.Id)
    await generate(u.Id)
    await admin.put('/api/apikey/toggle', { ApiKey: k1.ApiKey })
    const row = (await admin.get<{ Items: ApiUserRow[] }>('/api/apiusers/listado-api-user', { 'filterColumns[0]': 'Id', 'filterQueries[0]': u.Id })).body.Items[0]!
    expect(row).toMatchObject({ NumClaves: 2, NumClavesActivas: 1 })
    const detail = (await admin.get<ApiUserDetail>('/api/apiusers/api-user', { id: u.Id })).body
    expect(detail.Claves).toHaveLength(2)
    expect(detail.Actividad.map((a) => a.Accion)).toEqual(expect.arrayContaining(['apikey.generada', 'apikey.desactivada', 'api_usuario.modificado']))

    const del = await admin.post<{ Id: number; ClavesEliminadas: number }>('/api/apiusers/delete', undefined, { id: u.Id })
    expect(del.status).toBe(200)
    expect(del.body).toEqual({ Id: u.Id, ClavesEliminadas: 2 })
    expect((await admin.get('/api/apiusers/api-user', { id: u.Id })).status).toBe(404)
    expect(api.db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE api_usuario_id = ?').get(u.Id)).toEqual({ n: 0 })
    expect((await publicMe(api.url, k1.Clave)).status).toBe(401)
    expect((await admin.post('/api/apiusers/delete', undefined, { id: u.Id })).status).toBe(404)
  })

  it('adds and removes permissions, one user or several, with the users\' shapes', async () => {
    const [a, b] = [await newApiUser(), await newApiUser()]
    const [sips, facturas] = [permisoId(api.db, 'APISIPS'), permisoId(api.db, 'APIFACTURAS')]
    const add = await admin.put<{ ApiUsuarioId: number; Permisos: { NombreNormalizado: string }[] }>('/api/apiusers/add-permisos-to-user', [sips, facturas], { userId: a.Id })
    expect(add.status, add.text).toBe(200)
    expect(add.body.Permisos.map((p) => p.NombreNormalizado)).toEqual(['APIFACTURAS', 'APISIPS'])
    expect((await admin.get<{ NombreNormalizado: string }[]>('/api/apiusers/permisos', { id: a.Id })).body.map((p) => p.NombreNormalizado)).toEqual(['APIFACTURAS', 'APISIPS'])
    const remove = await admin.delete<{ Permisos: unknown[] }>('/api/apiusers/remove-permisos', [sips, facturas], { userId: a.Id })
    expect(remove.body.Permisos).toEqual([])

    const many = await admin.put<{ Afectados: number; Total: number }>('/api/apiusers/add-permiso-to-users-multiple', [a.Id, b.Id], { permiso: sips })
    expect(many.body.Afectados).toBe(2)
    const key = await generate(b.Id)
    expect((await publicMe(api.url, key.Clave)).body!.Permisos).toEqual([expect.objectContaining({ NombreNormalizado: 'APISIPS' })])
    const fewer = await admin.delete<{ Afectados: number }>('/api/apiusers/remove-permiso-to-users-multiple', [a.Id, b.Id], { permiso: sips })
    expect(fewer.body.Afectados).toBe(2)
    expect((await publicMe(api.url, key.Clave)).body!.Permisos).toEqual([])

    expect((await admin.put('/api/apiusers/add-permisos-to-user', [sips], { userId: 99999 })).text).toBe('El usuario de API 99999 no existe.')
    expect((await admin.put('/api/apiusers/add-permiso-to-users-multiple', [a.Id, 99999], { permiso: sips })).status).toBe(404)
    expect((await admin.get('/api/apiusers/permisos')).status).toBe(400)
  })

  it('links an agent of the caller\'s brand, one to one per brand, and unlinks it', async () => {
    const u = await newApiUser()
    const other = await newApiUser()
    const agent = freeAgent(BRAND_DOMAINS.verde)
    const link = await admin.post<{ ApiUsuarioId: number; Agente: { Id: number; Codigo: string } }>('/api/apiusers/asociar-agente', { IdAgente: agent.id, ApiUserId: u.Id })
    expect(link.status, link.text).toBe(200)
    expect(link.body).toMatchObject({ ApiUsuarioId: u.Id, Agente: { Id: agent.id, Codigo: agent.codigo } })
    // again: idempotent
    expect((await admin.post('/api/apiusers/asociar-agente', { IdAgente: agent.id, ApiUserId: u.Id })).status).toBe(200)
    // the agent is taken; the API user already has an agent in this brand
    const taken = await admin.post('/api/apiusers/asociar-agente', { IdAgente: agent.id, ApiUserId: other.Id })
    expect(taken.status).toBe(409)
    expect(taken.text).toMatch(new RegExp(`El agente ${agent.codigo} ya está asociado`))
    expect((await admin.post('/api/apiusers/asociar-agente', { IdAgente: freeAgent(BRAND_DOMAINS.verde, 1).id, ApiUserId: u.Id })).status).toBe(409)
    // an agent of another brand is unknown here; in its brand it links too
    const grupoAgent = freeAgent(BRAND_DOMAINS.grupo)
    expect((await admin.post('/api/apiusers/asociar-agente', { IdAgente: grupoAgent.id, ApiUserId: u.Id })).status).toBe(404)
    expect((await admin.forBrand(BRAND_DOMAINS.grupo).post('/api/apiusers/asociar-agente', { IdAgente: grupoAgent.id, ApiUserId: u.Id })).status).toBe(200)

    const detail = (await admin.get<ApiUserDetail>('/api/apiusers/api-user', { id: u.Id })).body
    expect(detail.Agente).toMatchObject({ Id: agent.id })
    expect(detail.Agentes.map((a) => a.MarcaDominio).sort()).toEqual(['energiaverde.es', 'grupoenergia.es'])
    const row = (await admin.get<{ Items: ApiUserRow[] }>('/api/apiusers/listado-api-user', { 'filterColumns[0]': 'Id', 'filterQueries[0]': u.Id })).body.Items[0]!
    expect(row.AgenteCodigo).toBe(agent.codigo)
    const key = await generate(u.Id)
    expect((await publicMe(api.url, key.Clave)).body!.Agente).toMatchObject({ Id: agent.id })
    expect((await publicMe(api.url, key.Clave, BRAND_DOMAINS.grupo)).body!.Agente).toMatchObject({ Id: grupoAgent.id })
    expect((await publicMe(api.url, key.Clave, BRAND_DOMAINS.limpia)).body!.Agente).toBeNull()

    const unlink = await admin.post<{ IdAgente: number; ApiUsuarioId: number | null }>('/api/apiusers/remove-agente', { IdAgente: agent.id })
    expect(unlink.body).toEqual({ IdAgente: agent.id, ApiUsuarioId: u.Id })
    expect((await admin.post<{ ApiUsuarioId: number | null }>('/api/apiusers/remove-agente', { IdAgente: agent.id })).body.ApiUsuarioId).toBeNull()
    expect((await admin.get<ApiUserDetail>('/api/apiusers/api-user', { id: u.Id })).body.Agente).toBeNull()
    // now the other API user may take it
    expect((await admin.post('/api/apiusers/asociar-agente', { IdAgente: agent.id, ApiUserId: other.Id })).status).toBe(200)
    expect((await admin.post('/api/apiusers/remove-agente', { IdAgente: 99999999 })).status).toBe(404)
    expect((await admin.post('/api/apiusers/asociar-agente', { IdAgente: agent.id })).text).toBe('Falta el usuario de API (ApiUserId).')
  })

  it('pages, sorts and filters the list; an unknown column is 400', async () => {
    const p = await admin.get<{ Items: ApiUserRow[]; TotalCount: number; PageSize: number }>('/api/apiusers/listado-api-user', { pageSize: 3, sortColumn: 'NumClaves', sortOrder: 'desc' })
    expect(p.body.Items).toHaveLength(3)
    const counts = p.body.Items.map((r) => r.NumClaves)
    expect(counts).toEqual([...counts].sort((x, y) => y - x))
    const inactive = await admin.get<{ Items: ApiUserRow[] }>('/api/apiusers/listado-api-user', { 'filterColumns[0]': 'Activo', 'filterQueries[0]': 'false' })
    expect(inactive.body.Items.every((r) => r.Activo === false)).toBe(true)
    expect((await admin.get('/api/apiusers/listado-api-user', { sortColumn: 'secret_hash' })).status).toBe(400)
  })
})
