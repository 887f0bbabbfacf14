import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, STRONG, grupoId, login, uniqueEmail } from './admin-support'
import type { Group, Permission } from '../../schemas/business/access'

let api: RunningReferenceApi
let admin: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

/** A fresh user with a password, signed in. */
async function signedInUser() {
  const email = uniqueEmail('permisos')
  const created = await admin.post<{ Id: number }>('/api/usuarios/register', { Email: email, Nombre: 'Carmen', Apellidos: 'Vidal', Password: STRONG })
  expect(created.status).toBe(201)
  const { caller } = await login(api.url, { username: email, password: STRONG })
  return { id: created.body.Id, caller: caller! }
}

async function sessionPermissions(caller: ApiCaller): Promise<string[]> {
  const res = await caller.get<{ Permisos: { NombreNormalizado: string }[] }>('/api/auth/session')
  expect(res.status).toBe(200)
  return res.body.Permisos.map((p) => p.NombreNormalizado)
}

describe('permissions', () => {
  it('lists the seeded permissions with their counts', async () => {
    const res = await admin.get<Permission[]>('/api/permission')
    expect(res.status).toBe(200)
    const names = res.body.map((p) => p.NombreNormalizado)
    expect(names).toEqual(expect.arrayContaining(['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS', 'APICONTRATOSLECTURA']))
    const gestor = res.body.find((p) => p.NombreNormalizado === 'GESTORACCESS')!
    expect(gestor).toMatchObject({ Nombre: 'Gestión de accesos', NumGrupos: 1, NumUsuarios: 0 })
    expect(gestor.NumUsuariosEfectivos).toBeGreaterThanOrEqual(1)
    expect(res.body.find((p) => p.NombreNormalizado === 'APICONTRATOSLECTURA')!.NumApiUsuarios).toBeGreaterThan(0)
  })

  it('creates one with a derived normalised name; a duplicate is 409', async () => {
    const res = await admin.post<Permission>('/api/permission', { Nombre: 'Ver facturas ópticas', Descripcion: 'Acceso a las facturas.' })
    expect(res.status, res.text).toBe(201)
    expect(res.body).toMatchObject({ Nombre: 'Ver facturas ópticas', NombreNormalizado: 'VERFACTURASOPTICAS', Descripcion: 'Acceso a las facturas.', NumUsuarios: 0, NumGrupos: 0 })
    const dup = await admin.post('/api/permission', { Nombre: 'ver  facturas opticas' })
    expect(dup.status).toBe(409)
    expect(dup.text).toBe('Ya existe el permiso VERFACTURASOPTICAS.')
    expect((await admin.post('/api/permission', { Nombre: '¡¿?!' })).status).toBe(400)
    expect((await admin.post('/api/permission', {})).text).toBe('Falta el nombre del permiso (Nombre).')
  })

  it('adds to and removes from one user; the session shows it', async () => {
    const perm = (await admin.post<Permission>('/api/permission', { Nombre: 'Exportar clientes' })).body
    const renov = (await admin.get<Permission[]>('/api/permission')).body.find((p) => p.NombreNormalizado === 'VERRENOVACIONES')!
    const user = await signedInUser()
    expect(await sessionPermissions(user.caller)).toEqual([])

    const add = await admin.put<{ Permisos: { NombreNormalizado: string }[]; PermisosEfectivos: unknown[] }>('/api/permission/add-permisos-to-user', [perm.Id, renov.Id], { userId: user.id })
    expect(add.status, add.text).toBe(200)
    expect(add.body.Permisos.map((p) => p.NombreNormalizado)).toEqual(['EXPORTARCLIENTES', 'VERRENOVACIONES'])
    expect(await sessionPermissions(user.caller)).toEqual(['EXPORTARCLIENTES', 'VERRENOVACIONES'])
    // idempotent
    expect((await admin.put('/api/permission/add-permisos-to-user', [perm.Id], { userId: user.id })).status).toBe(200)

    const remove = await admin.delete<{ Permisos: { NombreNormalizado: string }[] }>('/api/permission/remove-permisos', [renov.Id], { userId: user.id })
    expect(remove.body.Permisos.map((p) => p.NombreNormalizado)).toEqual(['EXPORTARCLIENTES'])
    expect(await sessionPermissions(user.caller)).toEqual(['EXPORTARCLIENTES'])

    expect((await admin.put('/api/permission/add-permisos-to-user', [99999], { userId: user.id })).text).toBe('El permiso 99999 no existe.')
    expect((await admin.put('/api/permission/add-permisos-to-user', [perm.Id], { userId: 999999 })).status).toBe(404)
    expect((await admin.put('/api/permission/add-permisos-to-user', { no: 'lista' }, { userId: user.id })).status).toBe(400)
  })

  it('adds to and removes from several users at once', async () => {
    const perm = (await admin.post<Permission>('/api/permission', { Nombre: 'Descargar documentos' })).body
    const [a, b] = [await signedInUser(), await signedInUser()]
    const add = await admin.put<{ PermisoId: number; Afectados: number; Total: number }>('/api/permission/add-permiso-to-users-multiple', [a.id, b.id], { permiso: perm.Id })
    expect(add.body).toEqual({ PermisoId: perm.Id, Afectados: 2, Total: 2 })
    expect(await sessionPermissions(a.caller)).toContain('DESCARGARDOCUMENTOS')
    expect(await sessionPermissions(b.caller)).toContain('DESCARGARDOCUMENTOS')
    const remove = await admin.delete<{ Afectados: number; Total: number }>('/api/permission/remove-permiso-to-users-multiple', [a.id], { permiso: perm.Id })
    expect(remove.body).toMatchObject({ Afectados: 1, Total: 1 })
    expect(await sessionPermissions(a.caller)).not.toContain('DESCARGARDOCUMENTOS')
    expect(await sessionPermissions(b.caller)).toContain('DESCARGARDOCUMENTOS')
    expect((await admin.put('/api/permission/add-permiso-to-users-multiple', [a.id], { permiso: 99999 })).status).toBe(404)
    expect((await admin.put('/api/permission/add-permiso-to-users-multiple', [a.id])).text).toMatch(/Falta el parámetro permiso/)
  })

  it('takes away GESTORACCESS only while someone keeps it', async () => {
    const gestor = (await admin.get<Permission[]>('/api/permission')).body.find((p) => p.NombreNormalizado === 'GESTORACCESS')!
    const admins = grupoId(api.db, 'Administradores')
    const res = await admin.delete('/api/grupousuarios/remove-permiso-a-user-group', { PermisoId: gestor.Id, GrupoId: admins })
    expect(res.status).toBe(409)
    // with a second holder, it can go from the group
    const other = await signedInUser()
    await admin.put('/api/permission/add-permisos-to-user', [gestor.Id], { userId: other.id })
    expect((await admin.delete('/api/grupousuarios/remove-permiso-a-user-group', { PermisoId: gestor.Id, GrupoId: admins })).status).toBe(200)
    expect((await admin.get('/api/usuarios')).status).toBe(403)
    expect((await other.caller.get('/api/usuarios')).status).toBe(200)
    // put it back
    expect((await other.caller.post('/api/grupousuarios/asignar-permiso-a-user-group', { PermisoId: gestor.Id, GrupoId: admins })).status).toBe(200)
    expect((await admin.get('/api/usuarios')).status).toBe(200)
  })
})

describe('groups', () => {
  it('creates a group, lists it, assigns and removes a permission; members get it through the group', async () => {
    const created = await admin.post<Group>('/api/grupousuarios/create-user-group', { Nombre: 'Atención al cliente', Descripcion: 'Equipo de soporte.' })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ Nombre: 'Atención al cliente', Descripcion: 'Equipo de soporte.', NumUsuarios: 0, Permisos: [] })
    expect((await admin.post('/api/grupousuarios/create-user-group', { Nombre: 'atención al CLIENTE' })).status).toBe(409)

    const perm = (await admin.post<Permission>('/api/permission', { Nombre: 'Ver incidencias' })).body
    const user = await signedInUser()
    await admin.post('/api/usuarios/add-user-group', undefined, { userId: user.id, userGroup: created.body.Id })

    const assigned = await admin.post<Group>('/api/grupousuarios/asignar-permiso-a-user-group', { PermisoId: perm.Id, GrupoId: created.body.Id })
    expect(assigned.status, assigned.text).toBe(200)
    expect(assigned.body.Permisos).toEqual([{ Id: perm.Id, Nombre: 'Ver incidencias', NombreNormalizado: 'VERINCIDENCIAS' }])
    expect(await sessionPermissions(user.caller)).toEqual(['VERINCIDENCIAS'])

    const groups = (await admin.get<Group[]>('/api/grupousuarios/user-groups')).body
    const mine = groups.find((g) => g.Id === created.body.Id)!
    expect(mine).toMatchObject({ NumUsuarios: 1, Permisos: [{ NombreNormalizado: 'VERINCIDENCIAS' }] })
    expect(groups.find((g) => g.Nombre === 'Administradores')!.Permisos.map((p) => p.NombreNormalizado)).toEqual(['GESTORACCESS', 'MENUPRODUCTOSBATERIAS', 'VERDATOSPERSONALES', 'VERRENOVACIONES'])

    const removed = await admin.delete<Group>('/api/grupousuarios/remove-permiso-a-user-group', { PermisoId: perm.Id, GrupoId: created.body.Id })
    expect(removed.body.Permisos).toEqual([])
    expect(await sessionPermissions(user.caller)).toEqual([])

    expect((await admin.post('/api/grupousuarios/asignar-permiso-a-user-group', { PermisoId: perm.Id, GrupoId: 9999 })).text).toBe('El grupo 9999 no existe.')
    expect((await admin.post('/api/grupousuarios/asignar-permiso-a-user-group', { GrupoId: created.body.Id })).text).toBe('Falta el permiso (PermisoId).')
  })
})
