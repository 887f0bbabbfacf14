import type Database from 'better-sqlite3'
import type { FastifyRequest } from 'fastify'
import { fail } from '../../lib/http'
import { isoInstant } from '../../lib/instants'
import { listText } from './input'
import type { PermissionRef } from '../../../../schemas/business/access'

/** The permission that opens every administration call (spec §6). */
export const GESTOR = 'GESTORACCESS'

/** Tables whose rows the administration calls name by id, with how a missing one is told. */
const ENTITIES = {
  usuarios: { one: 'El usuario', many: 'Los usuarios', sg: 'no existe', pl: 'no existen' },
  grupos: { one: 'El grupo', many: 'Los grupos', sg: 'no existe', pl: 'no existen' },
  permisos: { one: 'El permiso', many: 'Los permisos', sg: 'no existe', pl: 'no existen' },
  api_usuarios: { one: 'El usuario de API', many: 'Los usuarios de API', sg: 'no existe', pl: 'no existen' },
} as const
export type Entity = keyof typeof ENTITIES

/** 404 naming the ids that do not exist. */
export function requireIds(db: Database.Database, table: Entity, ids: readonly number[]): void {
  if (ids.length === 0) return
  const found = new Set(
    (db.prepare(`SELECT id FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as { id: number }[]).map((r) => r.id),
  )
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length === 0) return
  const e = ENTITIES[table]
  fail(404, missing.length === 1 ? `${e.one} ${missing[0]} ${e.sg}.` : `${e.many} ${listText(missing)} ${e.pl}.`)
}

/** Upper case, no accents, letters and digits only: «Ver facturas» → VERFACTURAS. */
export function normalizePermissionName(nombre: string): string {
  return nombre
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
}

export function permisosOfUser(db: Database.Database, userId: number): PermissionRef[] {
  return db
    .prepare(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado
       FROM permisos p JOIN usuario_permisos up ON up.permiso_id = p.id WHERE up.usuario_id = ? ORDER BY p.nombre_normalizado`,
    )
    .all(userId) as PermissionRef[]
}

export function permisosOfApiUser(db: Database.Database, apiUserId: number): PermissionRef[] {
  return db
    .prepare(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado
       FROM permisos p JOIN api_usuario_permisos ap ON ap.permiso_id = p.id WHERE ap.api_usuario_id = ? ORDER BY p.nombre_normalizado`,
    )
    .all(apiUserId) as PermissionRef[]
}

/** Active users holding GESTORACCESS directly or through a group. */
function activeGestores(db: Database.Database): number {
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM usuarios u WHERE u.activo = 1 AND (
           EXISTS (SELECT 1 FROM usuario_permisos up JOIN permisos p ON p.id = up.permiso_id
                   WHERE up.usuario_id = u.id AND p.nombre_normalizado = ?)
           OR EXISTS (SELECT 1 FROM usuario_grupos ug JOIN grupo_permisos gp ON gp.grupo_id = ug.grupo_id
                      JOIN permisos p ON p.id = gp.permiso_id WHERE ug.usuario_id = u.id AND p.nombre_normalizado = ?))`,
      )
      .get(GESTOR, GESTOR) as { n: number }
  ).n
}

/**
 * Run inside the transaction of a change that can take access away: the portal must keep at
 * least one active user able to administer it, else the change is refused (and rolled back).
 */
export function assertGestorRemains(db: Database.Database): void {
  if (activeGestores(db) === 0) {
    fail(409, `El cambio dejaría el portal sin ningún usuario activo con el permiso ${GESTOR}; no se ha aplicado.`)
  }
}

export interface AuditEntry {
  accion: string
  entidad: 'usuario' | 'grupo' | 'permiso' | 'api_usuario' | 'preferencia'
  entidadId: number | string
  detalle?: unknown
}

/** Records an administrative change and who made it. */
export function audit(db: Database.Database, request: FastifyRequest | null, now: number, entry: AuditEntry): void {
  const userId = request?.caller?.userId ?? null
  const email = userId === null ? null : ((db.prepare('SELECT email FROM usuarios WHERE id = ?').get(userId) as { email: string } | undefined)?.email ?? null)
  db.prepare('INSERT INTO auditoria_admin (fecha, usuario_id, usuario_email, accion, entidad, entidad_id, detalle) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    isoInstant(now),
    userId,
    email,
    entry.accion,
    entry.entidad,
    String(entry.entidadId),
    entry.detalle === undefined ? null : JSON.stringify(entry.detalle),
  )
}

export function isoNow(now: () => number): string {
  return isoInstant(now())
}

export function today(now: () => number): string {
  return new Date(now()).toISOString().slice(0, 10)
}

/** Stored 0/1 as a JSON boolean. */
export function bool(value: unknown): boolean {
  return value === 1 || value === true
}
