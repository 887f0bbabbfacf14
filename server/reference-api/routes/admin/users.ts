import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { hashPassword, passwordWeakness, verifyPassword } from '../../auth/passwords'
import type { UserRow } from '../../auth/users-repo'
import { NO_PASSWORD } from '../../db/seed/seed-access'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { pagedList, parsePageRequest, type ColumnMap } from '../../lib/paging'
import {
  checkEmail,
  checkPhone,
  idList,
  objectBody,
  optionalBoolean,
  optionalQueryId,
  optionalText,
  password as passwordField,
  pathId,
  queryId,
  requiredText,
} from './input'
import { assertCurrentVersion, sendVersioned } from '../../lib/record-version'
import { assertGestorRemains, audit, bool, permisosOfUser, requireIds, today } from './shared'
import type { GroupRef, PermissionRef } from '../../../../schemas/business/access'
import { nextId } from '../../lib/next-id'

const GRUPOS_SQL = `(SELECT group_concat(g.nombre, ', ' ORDER BY g.nombre COLLATE NOCASE) FROM grupos g
  JOIN usuario_grupos ug ON ug.grupo_id = g.id WHERE ug.usuario_id = u.id)`

/** Columns of `GET api/usuarios`; the agent ones are those of the caller's brand. */
function userColumns(marcaId: number): ColumnMap {
  if (!Number.isSafeInteger(marcaId)) throw new Error('marca id')
  const agente = (field: string) => `(SELECT a.${field} FROM agentes a WHERE a.usuario_id = u.id AND a.marca_id = ${marcaId})`
  return {
    Id: { sql: 'u.id', type: 'number' },
    Email: { sql: 'u.email', type: 'text' },
    Nombre: { sql: 'u.nombre', type: 'text' },
    Apellidos: { sql: 'u.apellidos', type: 'text' },
    NombreCompleto: { sql: "u.nombre || ' ' || u.apellidos", type: 'text' },
    Telefono: { sql: 'u.telefono', type: 'text' },
    Activo: { sql: 'u.activo', type: 'boolean' },
    FechaAlta: { sql: 'u.fecha_alta', type: 'date' },
    UltimoAcceso: { sql: 'u.ultimo_acceso', type: 'date' },
    Grupos: { sql: GRUPOS_SQL, type: 'text' },
    AgenteId: { sql: agente('id'), type: 'number' },
    AgenteCodigo: { sql: agente('codigo'), type: 'text' },
    AgenteNombre: { sql: agente('nombre'), type: 'text' },
  }
}

interface UserListRow {
  Id: number
  Activo: number | boolean
  Grupos: string | null
  [key: string]: unknown
}

export function groupsOfUser(db: Database.Database, userId: number): GroupRef[] {
  return db
    .prepare('SELECT g.id AS Id, g.nombre AS Nombre FROM grupos g JOIN usuario_grupos ug ON ug.grupo_id = g.id WHERE ug.usuario_id = ? ORDER BY g.nombre COLLATE NOCASE')
    .all(userId) as GroupRef[]
}

export function effectivePermisos(db: Database.Database, userId: number): (PermissionRef & { Directo: boolean; Grupos: string[] })[] {
  const rows = db
    .prepare(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado,
         EXISTS (SELECT 1 FROM usuario_permisos up WHERE up.usuario_id = ? AND up.permiso_id = p.id) AS Directo,
         (SELECT json_group_array(g.nombre) FROM grupos g JOIN grupo_permisos gp ON gp.grupo_id = g.id
            JOIN usuario_grupos ug ON ug.grupo_id = g.id WHERE ug.usuario_id = ? AND gp.permiso_id = p.id) AS Grupos
       FROM permisos p
       WHERE p.id IN (SELECT permiso_id FROM usuario_permisos WHERE usuario_id = ?)
          OR p.id IN (SELECT gp.permiso_id FROM grupo_permisos gp JOIN usuario_grupos ug ON ug.grupo_id = gp.grupo_id WHERE ug.usuario_id = ?)
       ORDER BY p.nombre_normalizado`,
    )
    .all(userId, userId, userId, userId) as { Id: number; Nombre: string; NombreNormalizado: string; Directo: number; Grupos: string }[]
  return rows.map((r) => ({ ...r, Directo: bool(r.Directo), Grupos: (JSON.parse(r.Grupos) as string[]).sort() }))
}

/** `GET api/usuarios/{id}`: the user with groups, direct and effective permissions and agents. */
export function userDetail(db: Database.Database, userId: number, marcaId: number) {
  const user = db.prepare('SELECT * FROM usuarios WHERE id = ?').get(userId) as UserRow | undefined
  if (!user) fail(404, `El usuario ${userId} no existe.`)
  const agentes = db
    .prepare(
      `SELECT a.id AS Id, a.codigo AS Codigo, a.nombre AS Nombre, m.id AS MarcaId, m.dominio AS MarcaDominio, m.nombre AS MarcaNombre
       FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE a.usuario_id = ? ORDER BY m.id`,
    )
    .all(userId) as { Id: number; Codigo: string; Nombre: string; MarcaId: number; MarcaDominio: string; MarcaNombre: string }[]
  const here = agentes.find((a) => a.MarcaId === marcaId)
  return {
    Id: user.id,
    Email: user.email,
    Nombre: user.nombre,
    Apellidos: user.apellidos,
    Telefono: user.telefono,
    Activo: bool(user.activo),
    FechaAlta: user.fecha_alta,
    UltimoAcceso: user.ultimo_acceso,
    TieneContrasena: user.password_hash.startsWith('scrypt$'),
    Grupos: groupsOfUser(db, userId),
    Permisos: permisosOfUser(db, userId),
    PermisosEfectivos: effectivePermisos(db, userId),
    Agente: here ? { Id: here.Id, Codigo: here.Codigo, Nombre: here.Nombre } : null,
    Agentes: agentes,
  }
}

/** Ends every session of the user: their refresh tokens stop working (the access token lives out its short TTL). */
export function revokeSessions(db: Database.Database, userId: number, nowMs: number, keep: (row: { jti: string; issued_at: number }) => boolean = () => false): number {
  const rows = db
    .prepare('SELECT jti, issued_at FROM refresh_tokens WHERE usuario_id = ? AND revoked_at IS NULL AND replaced_by IS NULL')
    .all(userId) as { jti: string; issued_at: number }[]
  const revoke = db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE jti = ?')
  let n = 0
  for (const row of rows) {
    if (keep(row)) continue
    revoke.run(Math.floor(nowMs / 1000), row.jti)
    n++
  }
  // Rotated-out tokens still inside their grace window must not come back either.
  db.prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE usuario_id = ? AND revoked_at IS NULL AND replaced_by IS NOT NULL').run(Math.floor(nowMs / 1000), userId)
  return n
}

/** Seconds-since-epoch `iat` of the caller's bearer token (verified by the access hook already). */
function bearerIssuedAt(request: FastifyRequest): number | null {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
  const payload = token?.split('.')[1]
  if (!payload) return null
  try {
    const iat = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iat?: unknown }).iat
    return typeof iat === 'number' ? iat : null
  } catch {
    return null
  }
}

function userExists(db: Database.Database, userId: number): void {
  requireIds(db, 'usuarios', [userId])
}

function groupIdsFromRequest(request: FastifyRequest): number[] {
  const single = optionalQueryId(request.query, ['userGroup', 'UserGroup', 'grupoId', 'GrupoId'], 'grupo')
  if (single !== undefined) return [single]
  if (request.body === undefined || request.body === null) fail(400, 'Indica el grupo (parámetro userGroup) o una lista de grupos en el cuerpo.')
  return idList(request.body, 'grupos', ['Grupos', 'grupos', 'userGroups', 'GrupoIds'])
}

/** Users (spec §7 "Users"): list, register, update, delete, passwords, detail and group membership. */
export async function userRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/usuarios', async (request) => {
    const columns = userColumns(request.marca.id)
    const page = parsePageRequest(request.query as Record<string, unknown>, columns)
    const cols = Object.entries(columns)
      .map(([name, spec]) => `${spec.sql} AS ${name}`)
      .join(', ')
    const result = pagedList<UserListRow>(
      db,
      {
        select: `SELECT ${cols} FROM usuarios u`,
        from: 'FROM usuarios u',
        columns,
        defaultOrder: 'u.apellidos COLLATE NOCASE, u.nombre COLLATE NOCASE, u.id',
      },
      page,
    )
    return { ...result, Items: result.Items.map((r) => ({ ...r, Activo: bool(r.Activo), Grupos: r.Grupos ?? '' })) }
  })

  app.post('/api/usuarios/register', async (request, reply) => {
    const body = objectBody(request.body)
    const email = checkEmail(requiredText(body, 'Email', 'el correo electrónico (Email)', 254))
    const nombre = requiredText(body, 'Nombre', 'el nombre (Nombre)', 100)
    const apellidos = optionalText(body, 'Apellidos', 'los apellidos (Apellidos)', 150) ?? ''
    const telefono = checkPhone(optionalText(body, 'Telefono', 'el teléfono (Telefono)', 30)) ?? null
    const activo = optionalBoolean(body, 'Activo', 'Activo') ?? true
    const password = passwordField(body, 'Password', 'la contraseña (Password)')
    if (password) {
      const weakness = passwordWeakness(password)
      if (weakness) fail(400, weakness)
    }
    const grupos = body.Grupos === undefined || body.Grupos === null || (Array.isArray(body.Grupos) && body.Grupos.length === 0) ? [] : idList(body.Grupos, 'grupos')
    requireIds(db, 'grupos', grupos)
    if (db.prepare('SELECT 1 FROM usuarios WHERE email = ?').get(email)) fail(409, `Ya existe un usuario con el correo electrónico ${email}.`)
    const hash = password ? await hashPassword(password) : NO_PASSWORD
    const id = db.transaction(() => {
      // Checked again inside the transaction: the hash above gave another request time to register the address.
      if (db.prepare('SELECT 1 FROM usuarios WHERE email = ?').get(email)) fail(409, `Ya existe un usuario con el correo electrónico ${email}.`)
      const userId = Number(
        db
          .prepare('INSERT INTO usuarios (id, email, nombre, apellidos, telefono, password_hash, activo, fecha_alta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(nextId(db, 'usuarios'), email, nombre, apellidos, telefono, hash, activo ? 1 : 0, today(now)).lastInsertRowid,
      )
      const link = db.prepare('INSERT OR IGNORE INTO usuario_grupos (usuario_id, grupo_id) VALUES (?, ?)')
      for (const g of grupos) link.run(userId, g)
      audit(db, request, now(), { accion: 'usuario.alta', entidad: 'usuario', entidadId: userId, detalle: { Email: email, Grupos: grupos, ConContrasena: Boolean(password) } })
      return userId
    })()
    return reply.code(201).send(userDetail(db, id, request.marca.id))
  })

  app.put('/api/usuarios/update', async (request, reply) => {
    const id = queryId(request.query, ['Id', 'id'], 'usuario')
    const body = objectBody(request.body)
    const email = optionalText(body, 'Email', 'el correo electrónico (Email)', 254)
    const nombre = optionalText(body, 'Nombre', 'el nombre (Nombre)', 100)
    const apellidos = optionalText(body, 'Apellidos', 'los apellidos (Apellidos)', 150)
    const telefono = checkPhone(optionalText(body, 'Telefono', 'el teléfono (Telefono)', 30))
    const activo = optionalBoolean(body, 'Activo', 'Activo')
    if (email === null || email === '') fail(400, 'El correo electrónico (Email) no puede quedar vacío.')
    if (nombre === null || nombre === '') fail(400, 'El nombre (Nombre) no puede quedar vacío.')
    const normalEmail = email === undefined ? undefined : checkEmail(email)
    const user = db.prepare('SELECT * FROM usuarios WHERE id = ?').get(id) as UserRow | undefined
    if (!user) fail(404, `El usuario ${id} no existe.`)
    if (activo === false && id === request.caller!.userId) fail(409, 'No puedes desactivar tu propio usuario.')
    if (normalEmail !== undefined && db.prepare('SELECT 1 FROM usuarios WHERE email = ? AND id <> ?').get(normalEmail, id)) {
      fail(409, `Ya existe un usuario con el correo electrónico ${normalEmail}.`)
    }
    // Synchronous from the version check to the write: no other save can land in between.
    db.transaction(() => {
      assertCurrentVersion(request, userDetail(db, id, request.marca.id), `El usuario ${user.email}`)
      const next = {
        email: normalEmail ?? user.email,
        nombre: nombre ?? user.nombre,
        apellidos: apellidos === undefined ? user.apellidos : (apellidos ?? ''),
        telefono: telefono === undefined ? user.telefono : telefono,
        activo: activo === undefined ? user.activo : activo ? 1 : 0,
      }
      db.prepare('UPDATE usuarios SET email = @email, nombre = @nombre, apellidos = @apellidos, telefono = @telefono, activo = @activo WHERE id = @id').run({ ...next, id })
      // Activated by hand: a sign-up waiting for approval no longer waits.
      if (next.activo) db.prepare('UPDATE usuarios SET alta_pendiente_marca_id = NULL, alta_retirada_hash = NULL WHERE id = ?').run(id)
      let revoked = 0
      if (user.activo && !next.activo) {
        assertGestorRemains(db)
        revoked = revokeSessions(db, id, now())
      }
      const changed = Object.fromEntries(
        Object.entries(next).filter(([k, v]) => v !== (user as unknown as Record<string, unknown>)[k]),
      )
      audit(db, request, now(), { accion: 'usuario.modificado', entidad: 'usuario', entidadId: id, detalle: { ...changed, SesionesCerradas: revoked } })
    })()
    return sendVersioned(reply, userDetail(db, id, request.marca.id))
  })

  app.delete('/api/usuarios/delete', async (request, reply) => {
    const id = queryId(request.query, ['Id', 'id'], 'usuario')
    userExists(db, id)
    if (id === request.caller!.userId) fail(409, 'No puedes eliminar tu propio usuario.')
    db.transaction(() => {
      const email = (db.prepare('SELECT email FROM usuarios WHERE id = ?').get(id) as { email: string }).email
      // Preferences, group and permission links, refresh tokens and reset requests go with it
      // (ON DELETE CASCADE); the agent it was linked to stays, unlinked.
      db.prepare('DELETE FROM usuarios WHERE id = ?').run(id)
      assertGestorRemains(db)
      audit(db, request, now(), { accion: 'usuario.baja', entidad: 'usuario', entidadId: id, detalle: { Email: email } })
    })()
    return reply.code(204).send()
  })

  app.put('/api/usuarios/change-pass-admin', async (request, reply) => {
    const id = queryId(request.query, ['Id', 'id'], 'usuario')
    const body = objectBody(request.body)
    const password = passwordField(body, 'Password', 'la nueva contraseña (Password)')
    if (!password) fail(400, 'Falta la nueva contraseña (Password).')
    userExists(db, id)
    const weakness = passwordWeakness(password)
    if (weakness) fail(400, weakness)
    const hash = await hashPassword(password)
    db.transaction(() => {
      db.prepare('UPDATE usuarios SET password_hash = ? WHERE id = ?').run(hash, id)
      db.prepare('UPDATE password_resets SET used_at = ? WHERE usuario_id = ? AND used_at IS NULL').run(Math.floor(now() / 1000), id)
      const revoked = revokeSessions(db, id, now())
      audit(db, request, now(), { accion: 'usuario.contrasena_admin', entidad: 'usuario', entidadId: id, detalle: { SesionesCerradas: revoked } })
    })()
    return reply.code(204).send()
  })

  app.get<{ Params: { id: string } }>('/api/usuarios/:id', async (request, reply) => sendVersioned(reply, userDetail(db, pathId(request.params.id, 'usuario'), request.marca.id)))

  // Group membership: one user and one or several groups, or one group and several users.
  app.post('/api/usuarios/add-user-group', async (request) => {
    const userId = queryId(request.query, ['userId', 'UserId', 'Id', 'id'], 'usuario')
    const groups = groupIdsFromRequest(request)
    userExists(db, userId)
    requireIds(db, 'grupos', groups)
    db.transaction(() => {
      const link = db.prepare('INSERT OR IGNORE INTO usuario_grupos (usuario_id, grupo_id) VALUES (?, ?)')
      const added = groups.filter((g) => link.run(userId, g).changes > 0)
      if (added.length) audit(db, request, now(), { accion: 'usuario.grupos_anadidos', entidad: 'usuario', entidadId: userId, detalle: { Grupos: added } })
    })()
    return { UsuarioId: userId, Grupos: groupsOfUser(db, userId) }
  })

  app.delete('/api/usuarios/remove-user-group', async (request) => {
    const userId = queryId(request.query, ['userId', 'UserId', 'Id', 'id'], 'usuario')
    const groups = groupIdsFromRequest(request)
    userExists(db, userId)
    requireIds(db, 'grupos', groups)
    db.transaction(() => {
      const unlink = db.prepare('DELETE FROM usuario_grupos WHERE usuario_id = ? AND grupo_id = ?')
      const removed = groups.filter((g) => unlink.run(userId, g).changes > 0)
      assertGestorRemains(db)
      if (removed.length) audit(db, request, now(), { accion: 'usuario.grupos_quitados', entidad: 'usuario', entidadId: userId, detalle: { Grupos: removed } })
    })()
    return { UsuarioId: userId, Grupos: groupsOfUser(db, userId) }
  })

  app.post('/api/usuarios/add-user-group-multiple', async (request) => {
    const groupId = queryId(request.query, ['userGroup', 'UserGroup', 'grupoId', 'GrupoId'], 'grupo')
    const users = idList(request.body, 'usuarios', ['Usuarios', 'usuarios', 'userIds', 'UserIds'])
    requireIds(db, 'grupos', [groupId])
    requireIds(db, 'usuarios', users)
    const afectados = db.transaction(() => {
      const link = db.prepare('INSERT OR IGNORE INTO usuario_grupos (usuario_id, grupo_id) VALUES (?, ?)')
      const added = users.filter((u) => link.run(u, groupId).changes > 0)
      if (added.length) audit(db, request, now(), { accion: 'grupo.usuarios_anadidos', entidad: 'grupo', entidadId: groupId, detalle: { Usuarios: added } })
      return added.length
    })()
    return { GrupoId: groupId, Afectados: afectados, NumUsuarios: groupSize(db, groupId) }
  })

  app.delete('/api/usuarios/remove-user-group-multiple', async (request) => {
    const groupId = queryId(request.query, ['userGroup', 'UserGroup', 'grupoId', 'GrupoId'], 'grupo')
    const users = idList(request.body, 'usuarios', ['Usuarios', 'usuarios', 'userIds', 'UserIds'])
    requireIds(db, 'grupos', [groupId])
    requireIds(db, 'usuarios', users)
    const afectados = db.transaction(() => {
      const unlink = db.prepare('DELETE FROM usuario_grupos WHERE usuario_id = ? AND grupo_id = ?')
      const removed = users.filter((u) => unlink.run(u, groupId).changes > 0)
      assertGestorRemains(db)
      if (removed.length) audit(db, request, now(), { accion: 'grupo.usuarios_quitados', entidad: 'grupo', entidadId: groupId, detalle: { Usuarios: removed } })
      return removed.length
    })()
    return { GrupoId: groupId, Afectados: afectados, NumUsuarios: groupSize(db, groupId) }
  })
}

function groupSize(db: Database.Database, groupId: number): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM usuario_grupos WHERE grupo_id = ?').get(groupId) as { n: number }).n
}

/**
 * The caller's own password (no GESTORACCESS needed): the current one must match; the caller's
 * other sessions end, this one goes on.
 */
export async function ownPasswordRoute(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.put('/api/usuarios/password', async (request, reply) => {
    const body = objectBody(request.body)
    const rawOld = passwordField(body, 'OldPassword', 'la contraseña actual (OldPassword)')
    const rawNew = passwordField(body, 'NewPassword', 'la nueva contraseña (NewPassword)')
    if (!rawOld) fail(400, 'Falta la contraseña actual (OldPassword).')
    if (!rawNew) fail(400, 'Falta la nueva contraseña (NewPassword).')
    const userId = request.caller!.userId
    const user = db.prepare('SELECT * FROM usuarios WHERE id = ?').get(userId) as UserRow
    const ok = user.password_hash.startsWith('scrypt$') && (await verifyPassword(rawOld, user.password_hash))
    if (!ok) fail(400, 'La contraseña actual no es correcta.')
    if (rawNew === rawOld) fail(400, 'La nueva contraseña debe ser distinta de la actual.')
    const weakness = passwordWeakness(rawNew)
    if (weakness) fail(400, weakness)
    const hash = await hashPassword(rawNew)
    const iat = bearerIssuedAt(request)
    db.transaction(() => {
      db.prepare('UPDATE usuarios SET password_hash = ? WHERE id = ?').run(hash, userId)
      db.prepare('UPDATE password_resets SET used_at = ? WHERE usuario_id = ? AND used_at IS NULL').run(Math.floor(now() / 1000), userId)
      // This session's refresh token was issued with its access token (sign-in or rotation):
      // keep it; every other session ends.
      const revoked = revokeSessions(db, userId, now(), (row) => iat !== null && Math.abs(row.issued_at - iat) <= 1)
      audit(db, request, now(), { accion: 'usuario.contrasena_propia', entidad: 'usuario', entidadId: userId, detalle: { SesionesCerradas: revoked } })
    })()
    return reply.code(204).send()
  })
}
