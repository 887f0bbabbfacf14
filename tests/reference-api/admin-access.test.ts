import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, STRONG, grupoId, permisoId, publicMe, snapshot, userIdByEmail } from './admin-support'

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

type Call = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, query?: Record<string, string | number>]

/** Every call that needs GESTORACCESS, each with inputs that would succeed for an administrator. */
function gatedCalls(): Call[] {
  const db = api.db
  const staff = (db.prepare("SELECT id FROM usuarios WHERE email NOT IN ('admin@portal.test', 'agente@portal.test') ORDER BY id LIMIT 2").all() as { id: number }[]).map((r) => r.id)
  const [u1, u2] = staff as [number, number]
  const backoffice = grupoId(db, 'Backoffice')
  const renov = permisoId(db, 'VERRENOVACIONES')
  const key = (db.prepare('SELECT public_id FROM api_keys WHERE activa = 1 ORDER BY id LIMIT 1').get() as { public_id: string }).public_id
  const apiUser = (db.prepare('SELECT id FROM api_usuarios ORDER BY id LIMIT 1').get() as { id: number }).id
  const agent = (db.prepare("SELECT a.id FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'energiaverde.es' ORDER BY a.id DESC LIMIT 1").get() as { id: number }).id
  return [
    ['GET', '/api/usuarios'],
    ['POST', '/api/usuarios/register', { Email: 'intruso@pruebas.test', Nombre: 'Intruso', Apellidos: 'Prueba', Password: STRONG }],
    ['PUT', '/api/usuarios/update', { Nombre: 'Cambiado' }, { Id: u1 }],
    ['DELETE', '/api/usuarios/delete', undefined, { Id: u1 }],
    ['PUT', '/api/usuarios/change-pass-admin', { Password: STRONG }, { Id: u1 }],
    ['GET', `/api/usuarios/${u1}`],
    ['POST', '/api/usuarios/add-user-group', undefined, { userId: u1, userGroup: backoffice }],
    ['POST', '/api/usuarios/add-user-group-multiple', [u1, u2], { userGroup: backoffice }],
    ['DELETE', '/api/usuarios/remove-user-group', [backoffice], { userId: u1 }],
    ['DELETE', '/api/usuarios/remove-user-group-multiple', [u1, u2], { userGroup: backoffice }],
    ['GET', '/api/permission'],
    ['POST', '/api/permission', { Nombre: 'Permiso intruso' }],
    ['PUT', '/api/permission/add-permisos-to-user', [renov], { userId: u1 }],
    ['DELETE', '/api/permission/remove-permisos', [renov], { userId: u1 }],
    ['PUT', '/api/permission/add-permiso-to-users-multiple', [u1, u2], { permiso: renov }],
    ['DELETE', '/api/permission/remove-permiso-to-users-multiple', [u1, u2], { permiso: renov }],
    ['POST', '/api/grupousuarios/create-user-group', { Nombre: 'Grupo intruso' }],
    ['GET', '/api/grupousuarios/user-groups'],
    ['POST', '/api/grupousuarios/asignar-permiso-a-user-group', { PermisoId: renov, GrupoId: backoffice }],
    ['DELETE', '/api/grupousuarios/remove-permiso-a-user-group', { PermisoId: renov, GrupoId: backoffice }],
    ['GET', '/api/apikey'],
    ['POST', '/api/apikey/generate', { ApiUserId: apiUser, Descripcion: 'intrusa' }],
    ['PUT', '/api/apikey/toggle', { ApiKey: key }],
    ['DELETE', '/api/apikey/delete', { ApiKey: key }],
    ['GET', '/api/apiusers/listado-api-user'],
    ['GET', '/api/apiusers/api-user', undefined, { id: apiUser }],
    ['POST', '/api/apiusers/register-api-user', { Nombre: 'Integración intrusa', Email: 'x@pruebas.test' }],
    ['PUT', '/api/apiusers/update', { Activo: false }, { id: apiUser }],
    ['POST', '/api/apiusers/delete', undefined, { id: apiUser }],
    ['GET', '/api/apiusers/permisos', undefined, { id: apiUser }],
    ['PUT', '/api/apiusers/add-permisos-to-user', [renov], { userId: apiUser }],
    ['DELETE', '/api/apiusers/remove-permisos', [renov], { userId: apiUser }],
    ['PUT', '/api/apiusers/add-permiso-to-users-multiple', [apiUser], { permiso: renov }],
    ['DELETE', '/api/apiusers/remove-permiso-to-users-multiple', [apiUser], { permiso: renov }],
    ['POST', '/api/apiusers/asociar-agente', { IdAgente: agent, ApiUserId: apiUser }],
    ['POST', '/api/apiusers/remove-agente', { IdAgente: agent }],
  ]
}

describe('GESTORACCESS on the administration calls', () => {
  it('refuses every administration call to a user without it (403, Spanish text) and changes nothing', async () => {
    const calls = gatedCalls()
    const before = snapshot(api.db, { ignore: ['refresh_tokens'] })
    for (const [method, path, body, query] of calls) {
      const res = await agente.call(method, path, { body, query })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      expect(res.text).toMatch(/No tienes permiso.*GESTORACCESS/)
    }
    expect(snapshot(api.db, { ignore: ['refresh_tokens'] })).toBe(before)
  })

  it('refuses a malformed body with 403 too: the permission is checked before the input', async () => {
    const res = await agente.call('POST', '/api/usuarios/register', { body: '{roto', headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(403)
  })

  it('answers an administrator on the same calls (none is a 403 or a 500)', async () => {
    const calls = gatedCalls()
    const removesEntity = (c: Call) => c[1] === '/api/usuarios/delete' || c[1] === '/api/apiusers/delete'
    for (const [method, path, body, query] of [...calls.filter((c) => !removesEntity(c)), ...calls.filter(removesEntity)]) {
      const res = await admin.call(method, path, { body, query })
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300)
    }
  })

  it('asks for a session first (401 without a bearer token)', async () => {
    const anonymous = new ApiCaller(api.url, null)
    expect((await anonymous.get('/api/usuarios')).status).toBe(401)
    expect((await anonymous.get('/api/usuarios/preferences')).status).toBe(401)
    expect((await anonymous.put('/api/usuarios/password', { OldPassword: 'a', NewPassword: 'b' })).status).toBe(401)
  })

  it('lets any signed-in user manage their own preferences and password', async () => {
    const agenteId = userIdByEmail(api.db, AGENTE.username)
    expect((await agente.get('/api/usuarios/preferences', { loggedUserId: agenteId })).status).toBe(200)
    const saved = await agente.post<{ Id: number }>('/api/usuarios/preference', { Clave: 'tabla:facturas:columnas', Valor: ['Numero'] })
    expect(saved.status).toBe(200)
    expect((await agente.delete('/api/usuarios/preference', undefined, { loggedUserId: agenteId, preferenciaId: saved.body.Id })).status).toBe(204)
    // wrong current password: refused for a reason other than permission
    const pass = await agente.put('/api/usuarios/password', { OldPassword: 'no-es-esta', NewPassword: STRONG })
    expect(pass.status).toBe(400)
  })

  it('keeps the public integration API apart: a bearer token is not a key', async () => {
    const res = await fetch(`${api.url}/api/public/v1/me`, { headers: { authorization: `Bearer ${admin.token}`, 'x-brand-domain': 'energiaverde.es' } })
    expect(res.status).toBe(401)
    expect(await res.text()).toBe('Falta la clave de API (cabecera X-Api-Key).')
    expect((await publicMe(api.url, 'pk_0000000000000000.' + 'A'.repeat(43))).status).toBe(401)
    expect((await publicMe(api.url, 'no-es-una-clave')).status).toBe(401)
  })
})
