import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { idList, objectBody, optionalText, queryId, requiredText } from './input'
import { assertGestorRemains, audit, normalizePermissionName, permisosOfUser, requireIds } from './shared'
import { effectivePermisos } from './users'
import type { Permission } from '../../../../schemas/business/access'
import { nextId } from '../../lib/next-id'

export function listPermissions(db: Database.Database) {
  return db
    .prepare(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado, p.descripcion AS Descripcion,
         (SELECT COUNT(*) FROM usuario_permisos up WHERE up.permiso_id = p.id) AS NumUsuarios,
         (SELECT COUNT(*) FROM grupo_permisos gp WHERE gp.permiso_id = p.id) AS NumGrupos,
         (SELECT COUNT(*) FROM api_usuario_permisos ap WHERE ap.permiso_id = p.id) AS NumApiUsuarios,
         (SELECT COUNT(*) FROM usuarios u WHERE
            EXISTS (SELECT 1 FROM usuario_permisos up WHERE up.usuario_id = u.id AND up.permiso_id = p.id)
            OR EXISTS (SELECT 1 FROM usuario_grupos ug JOIN grupo_permisos gp ON gp.grupo_id = ug.grupo_id
                       WHERE ug.usuario_id = u.id AND gp.permiso_id = p.id)) AS NumUsuariosEfectivos
       FROM permisos p ORDER BY p.nombre COLLATE NOCASE`,
    )
    .all() as Permission[]
}

function permissionOf(db: Database.Database, id: number) {
  return listPermissions(db).find((p) => p.Id === id)!
}

/**
 * Permission links of a kind of principal (portal users or API users): one principal and
 * several permissions, or one permission and several principals. Shared by
 * `api/permission/*` and `api/apiusers/*` (spec: "the same shapes as for users").
 */
export function permissionLinkRoutes(
  app: FastifyInstance,
  opts: ApiContext,
  kind: {
    base: string
    table: 'usuario_permisos' | 'api_usuario_permisos'
    column: 'usuario_id' | 'api_usuario_id'
    entity: 'usuarios' | 'api_usuarios'
    auditEntity: 'usuario' | 'api_usuario'
    label: string
    labelMany: string
    answer: (id: number) => Record<string, unknown>
  },
) {
  const { db, now } = opts
  const checksAccess = kind.entity === 'usuarios'
  const link = db.prepare(`INSERT OR IGNORE INTO ${kind.table} (${kind.column}, permiso_id) VALUES (?, ?)`)
  const unlink = db.prepare(`DELETE FROM ${kind.table} WHERE ${kind.column} = ? AND permiso_id = ?`)
  const principal = (request: FastifyRequest) => queryId(request.query, ['userId', 'UserId', 'id', 'Id'], kind.label)
  const permiso = (request: FastifyRequest) => queryId(request.query, ['permiso', 'Permiso', 'permisoId', 'PermisoId'], 'permiso')
  const permisoIds = (request: FastifyRequest) => idList(request.body, 'permisos', ['Permisos', 'permisos', 'PermisoIds'])
  const principalIds = (request: FastifyRequest) => idList(request.body, kind.labelMany, ['Usuarios', 'usuarios', 'userIds', 'UserIds', 'ApiUserIds'])

  app.put(`${kind.base}/add-permisos-to-user`, async (request) => {
    const id = principal(request)
    const permisos = permisoIds(request)
    requireIds(db, kind.entity, [id])
    requireIds(db, 'permisos', permisos)
    db.transaction(() => {
      const added = permisos.filter((p) => link.run(id, p).changes > 0)
      if (added.length) audit(db, request, now(), { accion: 'permisos_anadidos', entidad: kind.auditEntity, entidadId: id, detalle: { Permisos: added } })
    })()
    return kind.answer(id)
  })

  app.delete(`${kind.base}/remove-permisos`, async (request) => {
    const id = principal(request)
    const permisos = permisoIds(request)
    requireIds(db, kind.entity, [id])
    requireIds(db, 'permisos', permisos)
    db.transaction(() => {
      const removed = permisos.filter((p) => unlink.run(id, p).changes > 0)
      if (checksAccess) assertGestorRemains(db)
      if (removed.length) audit(db, request, now(), { accion: 'permisos_quitados', entidad: kind.auditEntity, entidadId: id, detalle: { Permisos: removed } })
    })()
    return kind.answer(id)
  })

  app.put(`${kind.base}/add-permiso-to-users-multiple`, async (request) => {
    const permisoId = permiso(request)
    const ids = principalIds(request)
    requireIds(db, 'permisos', [permisoId])
    requireIds(db, kind.entity, ids)
    const afectados = db.transaction(() => {
      const added = ids.filter((u) => link.run(u, permisoId).changes > 0)
      if (added.length) audit(db, request, now(), { accion: `permiso.${kind.auditEntity}s_anadidos`, entidad: 'permiso', entidadId: permisoId, detalle: { Ids: added } })
      return added.length
    })()
    return { PermisoId: permisoId, Afectados: afectados, Total: countLinks(db, kind.table, permisoId) }
  })

  app.delete(`${kind.base}/remove-permiso-to-users-multiple`, async (request) => {
    const permisoId = permiso(request)
    const ids = principalIds(request)
    requireIds(db, 'permisos', [permisoId])
    requireIds(db, kind.entity, ids)
    const afectados = db.transaction(() => {
      const removed = ids.filter((u) => unlink.run(u, permisoId).changes > 0)
      if (checksAccess) assertGestorRemains(db)
      if (removed.length) audit(db, request, now(), { accion: `permiso.${kind.auditEntity}s_quitados`, entidad: 'permiso', entidadId: permisoId, detalle: { Ids: removed } })
      return removed.length
    })()
    return { PermisoId: permisoId, Afectados: afectados, Total: countLinks(db, kind.table, permisoId) }
  })
}

function countLinks(db: Database.Database, table: 'usuario_permisos' | 'api_usuario_permisos', permisoId: number): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE permiso_id = ?`).get(permisoId) as { n: number }).n
}

/** Permissions (spec §7 "Permissions"): list, create, and add to / remove from users. */
export async function permissionRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/permission', async () => listPermissions(db))

  app.post('/api/permission', async (request, reply) => {
    const body = objectBody(request.body)
    const nombre = requiredText(body, 'Nombre', 'el nombre del permiso (Nombre)', 100)
    const descripcion = optionalText(body, 'Descripcion', 'la descripción (Descripcion)', 500) ?? ''
    const normalizado = normalizePermissionName(nombre)
    if (!normalizado) fail(400, 'El nombre del permiso (Nombre) debe contener letras o números.')
    if (normalizado.length > 60) fail(400, 'El nombre normalizado del permiso no puede tener más de 60 caracteres.')
    const id = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM permisos WHERE nombre_normalizado = ?').get(normalizado)) fail(409, `Ya existe el permiso ${normalizado}.`)
      const permisoId = Number(db.prepare('INSERT INTO permisos (id, nombre, nombre_normalizado, descripcion) VALUES (?, ?, ?, ?)').run(nextId(db, 'permisos'), nombre, normalizado, descripcion).lastInsertRowid)
      audit(db, request, now(), { accion: 'permiso.alta', entidad: 'permiso', entidadId: permisoId, detalle: { Nombre: nombre, NombreNormalizado: normalizado } })
      return permisoId
    })()
    return reply.code(201).send(permissionOf(db, id))
  })

  permissionLinkRoutes(app, opts, {
    base: '/api/permission',
    table: 'usuario_permisos',
    column: 'usuario_id',
    entity: 'usuarios',
    auditEntity: 'usuario',
    label: 'usuario',
    labelMany: 'usuarios',
    answer: (id) => ({ UsuarioId: id, Permisos: permisosOfUser(db, id), PermisosEfectivos: effectivePermisos(db, id) }),
  })
}
