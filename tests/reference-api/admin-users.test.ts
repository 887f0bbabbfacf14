import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, STRONG, grupoId, login, refresh, uniqueEmail, userIdByEmail } from './admin-support'
import type { UserDetail, UserRow } from '../../schemas/business/access'
import type { Paged } from '../../schemas/business/paged'

let api: RunningReferenceApi
let admin: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

async function register(extra: Record<string, unknown> = {}) {
  const email = uniqueEmail('alta')
  const res = await admin.post<UserDetail>('/api/usuarios/register', { Email: email, Nombre: 'Lucía', Apellidos: 'Fernández Ruiz', Telefono: '612 345 678', ...extra })
  expect(res.status, res.text).toBe(201)
  return res.body
}

describe('users: register, find, update, deactivate, delete', () => {
  it('goes round trip', async () => {
    const backoffice = grupoId(api.db, 'Backoffice')
    const created = await register({ Password: STRONG, Grupos: [backoffice] })
    expect(created).toMatchObject({ Nombre: 'Lucía', Apellidos: 'Fernández Ruiz', Telefono: '612345678', Activo: true, TieneContrasena: true, UltimoAcceso: null })
    expect(created.Grupos).toEqual([{ Id: backoffice, Nombre: 'Backoffice' }])
    expect(created.PermisosEfectivos.map((p) => p.NombreNormalizado)).toEqual(['VERRENOVACIONES'])
    expect(created.FechaAlta).toMatch(/^\d{4}-\d{2}-\d{2}$/)

    // found in the list by a text filter, and by its detail
    const list = await admin.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'Email', 'filterQueries[0]': created.Email })
    expect(list.status).toBe(200)
    expect(list.body.TotalCount).toBe(1)
    expect(list.body.Items[0]).toMatchObject({ Id: created.Id, Email: created.Email, Activo: true, Grupos: 'Backoffice', AgenteCodigo: null })
    expect((await admin.get<UserDetail>(`/api/usuarios/${created.Id}`)).body.Email).toBe(created.Email)

    // the new user signs in
    const session = await login(api.url, { username: created.Email, password: STRONG })
    expect(session.status).toBe(200)

    // update: whole record sent back with a change (unknown fields ignored)
    const updated = await admin.put<UserDetail>('/api/usuarios/update', { ...created, Nombre: 'Lucía María', Telefono: null }, { Id: created.Id })
    expect(updated.status, updated.text).toBe(200)
    expect(updated.body).toMatchObject({ Nombre: 'Lucía María', Apellidos: 'Fernández Ruiz', Telefono: null, Email: created.Email })

    // deactivate: cannot sign in, the open session can no longer refresh
    const off = await admin.put<UserDetail>('/api/usuarios/update', { Activo: false }, { Id: created.Id })
    expect(off.body.Activo).toBe(false)
    expect((await login(api.url, { username: created.Email, password: STRONG })).status).toBe(401)
    expect(await refresh(api.url, session.pair!.refreshToken)).toBe(401)
    expect((await session.caller!.get('/api/auth/session')).status).toBe(401)
    const inactive = await admin.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'Email', 'filterQueries[0]': created.Email, 'filterColumns[1]': 'Activo', 'filterQueries[1]': 'false' })
    expect(inactive.body.TotalCount).toBe(1)

    // delete: gone, and its group links with it
    const del = await admin.delete(`/api/usuarios/delete`, undefined, { Id: created.Id })
    expect(del.status).toBe(204)
    expect((await admin.get(`/api/usuarios/${created.Id}`)).status).toBe(404)
    expect(api.db.prepare('SELECT COUNT(*) AS n FROM usuario_grupos WHERE usuario_id = ?').get(created.Id)).toEqual({ n: 0 })
    expect((await admin.delete(`/api/usuarios/delete`, undefined, { Id: created.Id })).status).toBe(404)
  })

  it('never gives a deleted user’s id to a new one, even when it was the newest: its history stays its own', async () => {
    const newest = await register()
    expect((await admin.delete(`/api/usuarios/delete`, undefined, { Id: newest.Id })).status).toBe(204)
    const next = await register()
    expect(next.Id).toBeGreaterThan(newest.Id)
    // The same holds across the other tables whose records can be deleted.
    const group = await admin.post<{ Id: number }>('/api/grupousuarios/create-user-group', { Nombre: `Grupo efímero ${Date.now()}` })
    expect(group.status).toBe(201)
    api.db.prepare('DELETE FROM grupos WHERE id = ?').run(group.body.Id)
    const again = await admin.post<{ Id: number }>('/api/grupousuarios/create-user-group', { Nombre: `Grupo efímero ${Date.now()}-2` })
    expect(again.status).toBe(201)
    expect(again.body.Id).toBeGreaterThan(group.body.Id)
  })

  it('registers without a password: the account exists but cannot sign in', async () => {
    const created = await register()
    expect(created.TieneContrasena).toBe(false)
    expect((await login(api.url, { username: created.Email, password: '!' })).status).toBe(401)
  })

  it('refuses a duplicate e-mail with 409, whatever its letter case', async () => {
    const created = await register()
    const again = await admin.post('/api/usuarios/register', { Email: created.Email.toUpperCase(), Nombre: 'Otra', Apellidos: 'Persona' })
    expect(again.status).toBe(409)
    expect(again.text).toBe(`Ya existe un usuario con el correo electrónico ${created.Email}.`)
    const other = await register()
    const clash = await admin.put('/api/usuarios/update', { Email: created.Email }, { Id: other.Id })
    expect(clash.status).toBe(409)
  })

  it('validates the input with Spanish 400s', async () => {
    const bad = async (body: unknown) => {
      const res = await admin.post('/api/usuarios/register', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
      return res.text
    }
    expect(await bad({ Email: 'no-es-un-correo', Nombre: 'X', Apellidos: 'Y' })).toMatch(/no es válido/)
    expect(await bad({ Email: uniqueEmail('x'), Apellidos: 'Y' })).toBe('Falta el nombre (Nombre).')
    expect(await bad({ Email: uniqueEmail('x'), Nombre: 'X', Apellidos: 'Y', Password: 'corta' })).toBe('La contraseña debe tener al menos 10 caracteres.')
    expect(await bad({ Email: uniqueEmail('x'), Nombre: 'X', Apellidos: 'Y', Password: 'todominusculas123' })).toMatch(/mayúsculas, minúsculas y números/)
    expect(await bad({ Email: uniqueEmail('x'), Nombre: 'X', Apellidos: 'Y', Grupos: ['uno'] })).toMatch(/identificador no válido/)
    expect(await bad([1, 2])).toBe('El cuerpo de la petición debe ser un objeto JSON.')
    const unknownGroup = await admin.post('/api/usuarios/register', { Email: uniqueEmail('x'), Nombre: 'X', Apellidos: 'Y', Grupos: [9999] })
    expect(unknownGroup.status).toBe(404)
    expect(unknownGroup.text).toBe('El grupo 9999 no existe.')
    expect((await admin.put('/api/usuarios/update', { Nombre: 'X' }, { Id: 'abc' })).status).toBe(400)
    expect((await admin.put('/api/usuarios/update', { Nombre: 'X' })).status).toBe(400)
    expect((await admin.put('/api/usuarios/update', { Nombre: 'X' }, { Id: 999999 })).status).toBe(404)
    expect((await admin.get('/api/usuarios/abc')).status).toBe(400)
    const broken = await admin.call('POST', '/api/usuarios/register', { body: undefined, headers: { 'content-type': 'application/json' } })
    expect(broken.status).toBe(400)
    const res = await fetch(`${api.url}/api/usuarios/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'x-brand-domain': 'energiaverde.es', 'content-type': 'application/json' },
      body: '{"Email": ',
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toBe('El cuerpo de la petición no es un JSON válido.')
  })

  it('never lets administrators delete or deactivate themselves', async () => {
    const me = userIdByEmail(api.db, ADMIN.username)
    const del = await admin.delete('/api/usuarios/delete', undefined, { Id: me })
    expect(del.status).toBe(409)
    expect(del.text).toBe('No puedes eliminar tu propio usuario.')
    expect((await admin.put('/api/usuarios/update', { Activo: false }, { Id: me })).status).toBe(409)
    expect((await admin.get<UserDetail>(`/api/usuarios/${me}`)).body.Activo).toBe(true)
  })

  it('shows the user detail with groups, direct and effective permissions and agents per brand', async () => {
    const agenteId = userIdByEmail(api.db, 'agente@portal.test')
    const detail = (await admin.get<UserDetail>(`/api/usuarios/${agenteId}`)).body
    expect(detail.Grupos.map((g) => g.Nombre)).toEqual(['Comerciales'])
    expect(detail.Permisos).toEqual([])
    expect(detail.Agente).not.toBeNull()
    expect(detail.Agentes.map((a) => a.MarcaDominio).sort()).toEqual(['energialimpia.es', 'energiaverde.es', 'grupoenergia.es'])
    // the list shows the agent of the caller's brand only
    const grupo = admin.forBrand('grupoenergia.es')
    const row = (await grupo.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'Email', 'filterQueries[0]': 'agente@portal.test' })).body.Items[0]!
    expect(row.AgenteCodigo).toBe(detail.Agentes.find((a) => a.MarcaDominio === 'grupoenergia.es')!.Codigo)
  })
})

describe('passwords', () => {
  it('an administrator sets a password: the new one signs in, the old sessions end', async () => {
    const created = await register({ Password: STRONG })
    const first = await login(api.url, { username: created.Email, password: STRONG })
    const res = await admin.put('/api/usuarios/change-pass-admin', { Password: 'Otra-Clave-2028' }, { Id: created.Id })
    expect(res.status, res.text).toBe(204)
    expect((await login(api.url, { username: created.Email, password: STRONG })).status).toBe(401)
    expect((await login(api.url, { username: created.Email, password: 'Otra-Clave-2028' })).status).toBe(200)
    expect(await refresh(api.url, first.pair!.refreshToken)).toBe(401)
    // a weak one is refused, an unknown user is 404
    expect((await admin.put('/api/usuarios/change-pass-admin', { Password: 'debil' }, { Id: created.Id })).status).toBe(400)
    expect((await admin.put('/api/usuarios/change-pass-admin', { Password: 'Otra-Clave-2029' }, { Id: 999999 })).status).toBe(404)
    expect((await admin.put('/api/usuarios/change-pass-admin', {}, { Id: created.Id })).text).toBe('Falta la nueva contraseña (Password).')
  })

  it('a user changes their own: wrong current password is 400; other sessions end, this one goes on', async () => {
    const created = await register({ Password: STRONG })
    const other = await login(api.url, { username: created.Email, password: STRONG })
    // the other session signed in a minute earlier
    api.db.prepare('UPDATE refresh_tokens SET issued_at = issued_at - 60 WHERE usuario_id = ?').run(created.Id)
    const current = await login(api.url, { username: created.Email, password: STRONG })

    const wrong = await current.caller!.put('/api/usuarios/password', { OldPassword: 'No-Es-La-2026', NewPassword: 'Mia-Nueva-2027' })
    expect(wrong.status).toBe(400)
    expect(wrong.text).toBe('La contraseña actual no es correcta.')
    const weak = await current.caller!.put('/api/usuarios/password', { OldPassword: STRONG, NewPassword: 'corta' })
    expect(weak.status).toBe(400)
    const same = await current.caller!.put('/api/usuarios/password', { OldPassword: STRONG, NewPassword: STRONG })
    expect(same.text).toBe('La nueva contraseña debe ser distinta de la actual.')

    const ok = await current.caller!.put('/api/usuarios/password', { OldPassword: STRONG, NewPassword: 'Mia-Nueva-2027' })
    expect(ok.status, ok.text).toBe(204)
    expect(await refresh(api.url, other.pair!.refreshToken)).toBe(401)
    expect(await refresh(api.url, current.pair!.refreshToken)).toBe(200)
    expect((await login(api.url, { username: created.Email, password: 'Mia-Nueva-2027' })).status).toBe(200)
    expect((await login(api.url, { username: created.Email, password: STRONG })).status).toBe(401)
  })
})

describe('group membership', () => {
  it('adds and removes one user to groups, by query or by a list body, idempotently', async () => {
    const u = await register()
    const [backoffice, productos, comerciales] = [grupoId(api.db, 'Backoffice'), grupoId(api.db, 'Productos'), grupoId(api.db, 'Comerciales')]
    const one = await admin.post<{ Grupos: { Nombre: string }[] }>('/api/usuarios/add-user-group', undefined, { userId: u.Id, userGroup: backoffice })
    expect(one.status, one.text).toBe(200)
    expect(one.body.Grupos.map((g) => g.Nombre)).toEqual(['Backoffice'])
    const list = await admin.post<{ Grupos: { Nombre: string }[] }>('/api/usuarios/add-user-group', [productos, comerciales, backoffice], { userId: u.Id })
    expect(list.body.Grupos.map((g) => g.Nombre)).toEqual(['Backoffice', 'Comerciales', 'Productos'])
    const detail = (await admin.get<UserDetail>(`/api/usuarios/${u.Id}`)).body
    expect(detail.PermisosEfectivos.map((p) => p.NombreNormalizado)).toEqual(['MENUPRODUCTOSBATERIAS', 'VERRENOVACIONES'])

    const removeOne = await admin.delete<{ Grupos: { Nombre: string }[] }>('/api/usuarios/remove-user-group', undefined, { userId: u.Id, userGroup: productos })
    expect(removeOne.body.Grupos.map((g) => g.Nombre)).toEqual(['Backoffice', 'Comerciales'])
    const removeList = await admin.delete<{ Grupos: unknown[] }>('/api/usuarios/remove-user-group', [backoffice, comerciales, productos], { userId: u.Id })
    expect(removeList.body.Grupos).toEqual([])

    expect((await admin.post('/api/usuarios/add-user-group', undefined, { userId: u.Id, userGroup: 9999 })).status).toBe(404)
    expect((await admin.post('/api/usuarios/add-user-group', undefined, { userId: 999999, userGroup: backoffice })).status).toBe(404)
    expect((await admin.post('/api/usuarios/add-user-group', undefined, { userId: u.Id })).status).toBe(400)
    expect((await admin.post('/api/usuarios/add-user-group', [], { userId: u.Id })).status).toBe(400)
  })

  it('adds and removes several users to one group', async () => {
    const [a, b, c] = [await register(), await register(), await register()]
    const productos = grupoId(api.db, 'Productos')
    const before = (api.db.prepare('SELECT COUNT(*) AS n FROM usuario_grupos WHERE grupo_id = ?').get(productos) as { n: number }).n
    const add = await admin.post<{ GrupoId: number; Afectados: number; NumUsuarios: number }>('/api/usuarios/add-user-group-multiple', [a.Id, b.Id, c.Id], { userGroup: productos })
    expect(add.status, add.text).toBe(200)
    expect(add.body).toEqual({ GrupoId: productos, Afectados: 3, NumUsuarios: before + 3 })
    const again = await admin.post<{ Afectados: number }>('/api/usuarios/add-user-group-multiple', [a.Id, b.Id], { userGroup: productos })
    expect(again.body.Afectados).toBe(0)
    const remove = await admin.delete<{ Afectados: number; NumUsuarios: number }>('/api/usuarios/remove-user-group-multiple', [a.Id, b.Id], { userGroup: productos })
    expect(remove.body).toMatchObject({ Afectados: 2, NumUsuarios: before + 1 })
    expect((await admin.get<UserDetail>(`/api/usuarios/${c.Id}`)).body.Grupos.map((g) => g.Nombre)).toEqual(['Productos'])
    // an unknown user anywhere in the list: nothing applied
    const unknown = await admin.post('/api/usuarios/add-user-group-multiple', [a.Id, 999998, 999999], { userGroup: productos })
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('Los usuarios 999998 y 999999 no existen.')
    expect((await admin.get<UserDetail>(`/api/usuarios/${a.Id}`)).body.Grupos).toEqual([])
  })

  it('refuses a change that would leave nobody able to administer the portal', async () => {
    const me = userIdByEmail(api.db, ADMIN.username)
    const admins = grupoId(api.db, 'Administradores')
    // The demo's second approver is an administrator too: without them, admin is the last one.
    const supervisor = userIdByEmail(api.db, 'supervisor@portal.test')
    const supervisorGroups = api.db.prepare('SELECT grupo_id FROM usuario_grupos WHERE usuario_id = ?').all(supervisor) as { grupo_id: number }[]
    api.db.prepare('DELETE FROM usuario_grupos WHERE usuario_id = ?').run(supervisor)
    const res = await admin.delete('/api/usuarios/remove-user-group', undefined, { userId: me, userGroup: admins })
    for (const g of supervisorGroups) api.db.prepare('INSERT INTO usuario_grupos (usuario_id, grupo_id) VALUES (?, ?)').run(supervisor, g.grupo_id)
    expect(res.status).toBe(409)
    expect(res.text).toMatch(/sin ningún usuario activo con el permiso GESTORACCESS/)
    expect((await admin.get<UserDetail>(`/api/usuarios/${me}`)).body.Grupos.map((g) => g.Nombre)).toEqual(['Administradores'])
  })
})

describe('the user list: paging, sorting and filtering', () => {
  it('pages with a total', async () => {
    const total = (api.db.prepare('SELECT COUNT(*) AS n FROM usuarios').get() as { n: number }).n
    const p0 = (await admin.get<Paged<UserRow>>('/api/usuarios', { pageIndex: 0, pageSize: 5 })).body
    const p1 = (await admin.get<Paged<UserRow>>('/api/usuarios', { pageIndex: 1, pageSize: 5 })).body
    expect(p0).toMatchObject({ TotalCount: total, PageIndex: 0, PageSize: 5 })
    expect(p0.Items).toHaveLength(5)
    expect(p1.Items).toHaveLength(5)
    expect(new Set([...p0.Items, ...p1.Items].map((u) => u.Id)).size).toBe(10)
    expect((await admin.get<Paged<UserRow>>('/api/usuarios')).body.PageSize).toBe(10)
  })

  it('sorts by a column both ways', async () => {
    const asc = (await admin.get<Paged<UserRow>>('/api/usuarios', { sortColumn: 'Email', sortOrder: 'asc', pageSize: 500 })).body.Items.map((u) => u.Email)
    const desc = (await admin.get<Paged<UserRow>>('/api/usuarios', { sortColumn: 'Email', sortOrder: 'desc', pageSize: 500 })).body.Items.map((u) => u.Email)
    expect(asc).toEqual([...asc].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })))
    expect(desc).toEqual([...asc].reverse())
    const byDate = (await admin.get<Paged<UserRow>>('/api/usuarios', { sortColumn: 'FechaAlta', sortOrder: 'desc', pageSize: 500 })).body.Items.map((u) => u.FechaAlta)
    expect(byDate).toEqual([...byDate].sort().reverse())
  })

  it('filters by text (accent-insensitive), groups, boolean and date range', async () => {
    const u = await register({ Nombre: 'Íñigo', Apellidos: 'Muñoz Peña' })
    const byName = (await admin.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'Apellidos', 'filterQueries[0]': 'munoz pena' })).body
    expect(byName.Items.map((r) => r.Id)).toContain(u.Id)
    const backoffice = (await admin.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'Grupos', 'filterQueries[0]': 'backoffice', pageSize: 500 })).body
    expect(backoffice.TotalCount).toBeGreaterThan(0)
    expect(backoffice.Items.every((r) => r.Grupos.includes('Backoffice'))).toBe(true)
    const active = (await admin.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'Activo', 'filterQueries[0]': 'true', pageSize: 500 })).body
    expect(active.Items.every((r) => r.Activo === true)).toBe(true)
    const since = (await admin.get<Paged<UserRow>>('/api/usuarios', { 'filterColumns[0]': 'FechaAlta', 'filterQueries[0]': `${u.FechaAlta}|`, pageSize: 500 })).body
    expect(since.Items.map((r) => r.Id)).toContain(u.Id)
    expect(since.Items.every((r) => r.FechaAlta >= u.FechaAlta)).toBe(true)
  })

  it('refuses an unknown column or bad paging with 400', async () => {
    const sort = await admin.get('/api/usuarios', { sortColumn: 'password_hash' })
    expect(sort.status).toBe(400)
    expect(sort.text).toBe('No se puede ordenar por la columna «password_hash».')
    const filter = await admin.get('/api/usuarios', { 'filterColumns[0]': 'PasswordHash', 'filterQueries[0]': 'x' })
    expect(filter.status).toBe(400)
    expect((await admin.get('/api/usuarios', { pageSize: -1 })).status).toBe(400)
    expect((await admin.get('/api/usuarios', { pageIndex: 'x' })).status).toBe(400)
    expect((await admin.get('/api/usuarios', { 'filterColumns[0]': 'Activo', 'filterQueries[0]': 'quizá' })).status).toBe(400)
  })
})
