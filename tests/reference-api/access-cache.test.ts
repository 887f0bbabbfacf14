import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, STRONG, permisoId, uniqueEmail, userIdByEmail } from './admin-support'

// The API remembers verified tokens and, while the database is unchanged, the brand and the
// caller's permissions (auth/tokens.ts, lib/unchanged-db-cache.ts). What must not change:
// every write counts on the very next call, and an expired token is refused even when known.

let clock = Date.parse('2026-11-22T09:00:00Z')
let api: RunningReferenceApi
let admin: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi({ ACCESS_TOKEN_TTL_S: '900' }, { now: () => clock })
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

/** A new staff user with no permission at all, signed in. */
async function newStaffUser(): Promise<{ id: number; caller: ApiCaller }> {
  const email = uniqueEmail('cache')
  const created = await admin.call('POST', '/api/usuarios/register', { body: { Email: email, Nombre: 'Caché', Apellidos: 'Prueba', Password: STRONG } })
  expect(created.status).toBe(201)
  return { id: userIdByEmail(api.db, email), caller: await ApiCaller.signIn(api.url, { username: email, password: STRONG }) }
}

describe('remembered reads of the access check', () => {
  it('applies a permission granted or removed on the next call of the same token', async () => {
    const { id, caller } = await newStaffUser()
    const gestor = permisoId(api.db, 'GESTORACCESS')
    expect((await caller.call('GET', '/api/permission')).status).toBe(403)
    expect((await caller.call('GET', '/api/permission')).status).toBe(403)

    expect((await admin.call('PUT', '/api/permission/add-permisos-to-user', { body: [gestor], query: { userId: id } })).status).toBe(200)
    expect((await caller.call('GET', '/api/permission')).status).toBe(200)

    expect((await admin.call('DELETE', '/api/permission/remove-permisos', { body: [gestor], query: { userId: id } })).status).toBe(200)
    const refused = await caller.call('GET', '/api/permission')
    expect(refused.status).toBe(403)
    expect(refused.text).toContain('requiere GESTORACCESS')
  })

  it('refuses the still-valid token of a user deactivated meanwhile', async () => {
    const { id, caller } = await newStaffUser()
    expect((await caller.call('GET', '/api/utility/prueba-carga')).status).toBe(200)
    expect((await admin.call('PUT', '/api/usuarios/update', { body: { Activo: false }, query: { Id: id } })).status).toBe(200)
    const refused = await caller.call('GET', '/api/utility/prueba-carga')
    expect(refused.status).toBe(401)
    expect(refused.text).toBe('El usuario no existe o está desactivado.')
  })

  it('refuses a known token once it expires, and never takes an access token for a refresh token', async () => {
    const { caller } = await newStaffUser()
    expect((await caller.call('GET', '/api/utility/prueba-carga')).status).toBe(200)
    const refreshWithAccess = await fetch(`${api.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-brand-domain': caller.brandDomain },
      body: JSON.stringify({ refreshToken: caller.token }),
    })
    expect(refreshWithAccess.status).toBe(401)

    clock += 899_000
    expect((await caller.call('GET', '/api/utility/prueba-carga')).status).toBe(200)
    clock += 1_000
    const expired = await caller.call('GET', '/api/utility/prueba-carga')
    expect(expired.status).toBe(401)
    expect(expired.text).toBe('Token no válido o caducado.')
  })

  it('still refuses an unknown brand after a known one was remembered', async () => {
    const admin = await ApiCaller.signIn(api.url, ADMIN)
    expect((await admin.call('GET', '/api/utility/prueba-carga')).status).toBe(200)
    const unknown = await admin.forBrand('desconocida.es').call('GET', '/api/utility/prueba-carga')
    expect(unknown.status).toBe(400)
    expect(unknown.text).toBe('Marca desconocida: desconocida.es.')
  })
})
