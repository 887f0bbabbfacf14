import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, STRONG, login, uniqueEmail, userIdByEmail } from './admin-support'
import type { Preference } from '../../schemas/business/access'

let api: RunningReferenceApi
let admin: ApiCaller
let adminId: number

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
  adminId = userIdByEmail(api.db, ADMIN.username)
})
afterAll(async () => {
  await api?.close()
})

async function newUser() {
  const email = uniqueEmail('prefs')
  const created = await admin.post<{ Id: number }>('/api/usuarios/register', { Email: email, Nombre: 'Pablo', Apellidos: 'Ortega', Password: STRONG })
  const { caller } = await login(api.url, { username: email, password: STRONG })
  return { id: created.body.Id, caller: caller! }
}

describe('preferences', () => {
  it('the admin demo account has seeded ones (column choice and saved filters of the contract list)', async () => {
    const res = await admin.get<Preference[]>('/api/usuarios/preferences', { loggedUserId: adminId })
    expect(res.status).toBe(200)
    expect(res.body.map((p) => p.Clave)).toEqual(['tabla:contratos-listado:contratos', 'tabla:facturas:facturas'])
    const contratos = res.body[0]!.Valor as { columns: string[]; filters: { name: string; filters: Record<string, string>; sort: unknown }[] }
    expect(contratos.columns).toContain('CodigoContrato')
    expect(contratos.filters[0]).toMatchObject({ name: 'Pendientes de firma', filters: { Estado: 'pendiente_firma' }, sort: { field: 'FechaAlta', order: 'desc' } })
  })

  it('creates, reads, replaces (by key) and deletes', async () => {
    const u = await newUser()
    expect((await u.caller.get<Preference[]>('/api/usuarios/preferences', { loggedUserId: u.id })).body).toEqual([])
    const layout = { lg: [{ id: 'contratos-mes', x: 0, y: 0, w: 6, h: 2 }], md: [] }
    const created = await u.caller.post<Preference>('/api/usuarios/preference', { Clave: 'dashboard:layouts', Valor: layout })
    expect(created.status, created.text).toBe(200)
    expect(created.body).toMatchObject({ Clave: 'dashboard:layouts', Valor: layout })
    expect(created.body.FechaModificacion).toMatch(/^\d{4}-\d{2}-\d{2}T/)

    const replaced = await u.caller.post<Preference>('/api/usuarios/preference', { Clave: 'dashboard:layouts', Valor: { lg: [] } })
    expect(replaced.body.Id).toBe(created.body.Id)
    expect(replaced.body.Valor).toEqual({ lg: [] })
    expect(replaced.body.FechaCreacion).toBe(created.body.FechaCreacion)

    // any JSON value: text, number, boolean, null
    for (const [clave, valor] of [['idioma', 'es'], ['tabla:facturas:tamano', 25], ['tema:oscuro', false], ['filtros:vacio', null]] as const) {
      expect((await u.caller.post<Preference>('/api/usuarios/preference', { Clave: clave, Valor: valor })).body.Valor).toEqual(valor)
    }
    const all = (await u.caller.get<Preference[]>('/api/usuarios/preferences', { loggedUserId: u.id })).body
    expect(all.map((p) => p.Clave)).toEqual(['dashboard:layouts', 'filtros:vacio', 'idioma', 'tabla:facturas:tamano', 'tema:oscuro'])
    // filtered by prefix
    expect((await u.caller.get<Preference[]>('/api/usuarios/preferences', { prefijo: 'tabla:' })).body.map((p) => p.Clave)).toEqual(['tabla:facturas:tamano'])

    const del = await u.caller.delete('/api/usuarios/preference', undefined, { loggedUserId: u.id, preferenciaId: created.body.Id })
    expect(del.status).toBe(204)
    expect((await u.caller.delete('/api/usuarios/preference', undefined, { loggedUserId: u.id, preferenciaId: created.body.Id })).status).toBe(404)
    expect((await u.caller.get<Preference[]>('/api/usuarios/preferences')).body).toHaveLength(4)

    const cleared = await u.caller.delete<{ Eliminadas: number }>('/api/usuarios/preference-all')
    expect(cleared.body).toEqual({ Eliminadas: 4 })
    expect((await u.caller.get<Preference[]>('/api/usuarios/preferences')).body).toEqual([])
  })

  it('keeps users apart', async () => {
    const [a, b] = [await newUser(), await newUser()]
    const mine = (await a.caller.post<Preference>('/api/usuarios/preference', { Clave: 'tabla:contratos-listado:columnas', Valor: ['CodigoContrato'] })).body
    await b.caller.post('/api/usuarios/preference', { Clave: 'tabla:contratos-listado:columnas', Valor: ['Titular'] })
    // reading or deleting through another user's id is refused
    const peek = await b.caller.get('/api/usuarios/preferences', { loggedUserId: a.id })
    expect(peek.status).toBe(403)
    expect(peek.text).toBe('Solo puedes gestionar tus propias preferencias.')
    expect((await b.caller.delete('/api/usuarios/preference', undefined, { loggedUserId: a.id, preferenciaId: mine.Id })).status).toBe(403)
    // someone else's preference id is simply not found
    expect((await b.caller.delete('/api/usuarios/preference', undefined, { loggedUserId: b.id, preferenciaId: mine.Id })).status).toBe(404)
    // even an administrator cannot read them
    expect((await admin.get('/api/usuarios/preferences', { loggedUserId: a.id })).status).toBe(403)
    // preference-all clears only the caller's
    await b.caller.delete('/api/usuarios/preference-all')
    expect((await a.caller.get<Preference[]>('/api/usuarios/preferences')).body.map((p) => p.Valor)).toEqual([['CodigoContrato']])
    const agente = await ApiCaller.signIn(api.url, AGENTE)
    expect((await agente.get<Preference[]>('/api/usuarios/preferences')).body.some((p) => p.Id === mine.Id)).toBe(false)
  })

  it('goes with the user when the user is deleted', async () => {
    const u = await newUser()
    await u.caller.post('/api/usuarios/preference', { Clave: 'dashboard:layouts', Valor: { lg: [] } })
    await u.caller.post('/api/usuarios/preference', { Clave: 'idioma', Valor: 'en' })
    expect(api.db.prepare('SELECT COUNT(*) AS n FROM preferencias WHERE usuario_id = ?').get(u.id)).toEqual({ n: 2 })
    expect((await admin.delete('/api/usuarios/delete', undefined, { Id: u.id })).status).toBe(204)
    expect(api.db.prepare('SELECT COUNT(*) AS n FROM preferencias WHERE usuario_id = ?').get(u.id)).toEqual({ n: 0 })
  })

  it('validates key and value', async () => {
    const u = await newUser()
    const post = (body: unknown) => u.caller.post('/api/usuarios/preference', body)
    expect((await post({ Valor: 1 })).text).toBe('Falta la clave de la preferencia (Clave).')
    expect((await post({ Clave: 'con espacios', Valor: 1 })).status).toBe(400)
    expect((await post({ Clave: 'x'.repeat(201), Valor: 1 })).status).toBe(400)
    expect((await post({ Clave: 'sin-valor' })).text).toBe('Falta el valor de la preferencia (Valor).')
    const big = await post({ Clave: 'demasiado', Valor: 'x'.repeat(110 * 1024) })
    expect(big.status).toBe(400)
    expect(big.text).toBe('El valor de la preferencia no puede ocupar más de 100 KB.')
    expect((await post({ Clave: 'casi-limite', Valor: 'x'.repeat(90 * 1024) })).status).toBe(200)
    expect((await u.caller.get('/api/usuarios/preferences', { loggedUserId: 'yo' })).status).toBe(400)
    expect((await u.caller.delete('/api/usuarios/preference', undefined, { loggedUserId: u.id })).status).toBe(400)
  })
})
