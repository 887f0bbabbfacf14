import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { bodyId, objectBody, optionalText, requiredText } from './input'
import { assertGestorRemains, audit, requireIds } from './shared'
import type { Group, PermissionRef } from '../../../../schemas/business/access'
import { nextId } from '../../lib/next-id'

export function listGroups(db: Database.Database, onlyId?: number): Group[] {
  const groups = db
    .prepare(
      `SELECT g.id AS Id, g.nombre AS Nombre, g.descripcion AS Descripcion,
         (SELECT COUNT(*) FROM usuario_grupos ug WHERE ug.grupo_id = g.id) AS NumUsuarios
       FROM grupos g WHERE (? IS NULL OR g.id = ?) ORDER BY g.nombre COLLATE NOCASE`,
    )
    .all(onlyId ?? null, onlyId ?? null) as Omit<Group, 'Permisos'>[]
  const permisos = db
    .prepare(
      `SELECT gp.grupo_id AS GrupoId, p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado
       FROM grupo_permisos gp JOIN permisos p ON p.id = gp.permiso_id ORDER BY p.nombre_normalizado`,
    )
    .all() as (PermissionRef & { GrupoId: number })[]
  return groups.map((g) => ({
    ...g,
    Permisos: permisos.filter((p) => p.GrupoId === g.Id).map(({ Id, Nombre, NombreNormalizado }) => ({ Id, Nombre, NombreNormalizado })),
  }))
}

/** User groups (spec §7 "Groups"): create, list, and a group's permissions. */
export async function groupRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/grupousuarios/user-groups', async () => listGroups(db))

  app.post('/api/grupousuarios/create-user-group', async (request, reply) => {
    const body = objectBody(request.body)
    const nombre = requiredText(body, 'Nombre', 'el nombre del grupo (Nombre)', 100)
    const descripcion = optionalText(body, 'Descripcion', 'la descripción (Descripcion)', 500) ?? ''
    const id = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM grupos WHERE nombre = ?').get(nombre)) fail(409, `Ya existe el grupo «${nombre}».`)
      const grupoId = Number(db.prepare('INSERT INTO grupos (id, nombre, descripcion) VALUES (?, ?, ?)').run(nextId(db, 'grupos'), nombre, descripcion).lastInsertRowid)
      audit(db, request, now(), { accion: 'grupo.alta', entidad: 'grupo', entidadId: grupoId, detalle: { Nombre: nombre } })
      return grupoId
    })()
    return reply.code(201).send(listGroups(db, id)[0])
  })

  // {PermisoId, GrupoId} in the body (or, for a DELETE sent without one, in the query string).
  const readLink = (request: FastifyRequest) => {
    const body = objectBody(request.body ?? { ...(request.query as object) })
    const permisoId = bodyId(body, 'PermisoId', 'el permiso (PermisoId)')
    const grupoId = bodyId(body, 'GrupoId', 'el grupo (GrupoId)')
    requireIds(db, 'grupos', [grupoId])
    requireIds(db, 'permisos', [permisoId])
    return { permisoId, grupoId }
  }

  app.post('/api/grupousuarios/asignar-permiso-a-user-group', async (request) => {
    const { permisoId, grupoId } = readLink(request)
    db.transaction(() => {
      const added = db.prepare('INSERT OR IGNORE INTO grupo_permisos (grupo_id, permiso_id) VALUES (?, ?)').run(grupoId, permisoId).changes
      if (added) audit(db, request, now(), { accion: 'grupo.permiso_anadido', entidad: 'grupo', entidadId: grupoId, detalle: { PermisoId: permisoId } })
    })()
    return listGroups(db, grupoId)[0]
  })

  app.delete('/api/grupousuarios/remove-permiso-a-user-group', async (request) => {
    const { permisoId, grupoId } = readLink(request)
    db.transaction(() => {
      const removed = db.prepare('DELETE FROM grupo_permisos WHERE grupo_id = ? AND permiso_id = ?').run(grupoId, permisoId).changes
      assertGestorRemains(db)
      if (removed) audit(db, request, now(), { accion: 'grupo.permiso_quitado', entidad: 'grupo', entidadId: grupoId, detalle: { PermisoId: permisoId } })
    })()
    return listGroups(db, grupoId)[0]
  })
}
