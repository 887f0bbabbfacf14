import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { isoInstant } from '../../lib/instants'
import { objectBody, optionalQueryId, queryId } from './input'
import type { Preference } from '../../../../schemas/business/access'

/** Keys such as `tabla:contratos-listado:columnas`, `filtros:contratos-listado:pendientes`, `dashboard:layouts`. */
export const PREFERENCE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.:\-/]{0,199}$/
export const MAX_VALUE_BYTES = 100 * 1024
export const MAX_PREFERENCES = 200

interface PreferenceRow {
  id: number
  clave: string
  valor: string
  fecha_creacion: string
  fecha_modificacion: string
}

function toDto(row: PreferenceRow): Preference {
  return { Id: row.id, Clave: row.clave, Valor: JSON.parse(row.valor), FechaCreacion: row.fecha_creacion, FechaModificacion: row.fecha_modificacion }
}

/** `loggedUserId` may be left out; when given it must be the caller. */
function ownUser(request: FastifyRequest): number {
  const callerId = request.caller!.userId
  const named = optionalQueryId(request.query, ['loggedUserId', 'LoggedUserId'], 'usuario conectado')
  if (named !== undefined && named !== callerId) fail(403, 'Solo puedes gestionar tus propias preferencias.')
  return callerId
}

export function listPreferences(db: Database.Database, userId: number, prefix?: string): Preference[] {
  const rows = prefix
    ? (db
        .prepare("SELECT * FROM preferencias WHERE usuario_id = ? AND substr(clave, 1, length(?)) = ? ORDER BY clave")
        .all(userId, prefix, prefix) as PreferenceRow[])
    : (db.prepare('SELECT * FROM preferencias WHERE usuario_id = ? ORDER BY clave').all(userId) as PreferenceRow[])
  return rows.map(toDto)
}

/** Stores (or replaces) the value of a key for the user. */
export function upsertPreference(db: Database.Database, userId: number, clave: string, valor: unknown, at: string): Preference {
  const json = JSON.stringify(valor)
  db.prepare(
    `INSERT INTO preferencias (usuario_id, clave, valor, fecha_creacion, fecha_modificacion) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (usuario_id, clave) DO UPDATE SET valor = excluded.valor, fecha_modificacion = excluded.fecha_modificacion`,
  ).run(userId, clave, json, at, at)
  return toDto(db.prepare('SELECT * FROM preferencias WHERE usuario_id = ? AND clave = ?').get(userId, clave) as PreferenceRow)
}

/**
 * The caller's preferences (spec §7 "Preferences"): column choices, saved filters, dashboard
 * layouts… Every signed-in user manages their own; nobody sees another's.
 */
export async function preferenceRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/usuarios/preferences', async (request) => {
    const userId = ownUser(request)
    const q = request.query as Record<string, unknown>
    const prefix = typeof q.prefijo === 'string' && q.prefijo !== '' ? q.prefijo : undefined
    return listPreferences(db, userId, prefix)
  })

  app.post('/api/usuarios/preference', async (request) => {
    const userId = ownUser(request)
    const body = objectBody(request.body)
    const rawKey = body.Clave ?? body.clave
    if (rawKey === undefined || rawKey === null || rawKey === '') fail(400, 'Falta la clave de la preferencia (Clave).')
    if (typeof rawKey !== 'string' || !PREFERENCE_KEY.test(rawKey)) {
      fail(400, 'La clave de la preferencia (Clave) debe tener entre 1 y 200 caracteres: letras, números y «: . _ - /», empezando por letra o número.')
    }
    if (!('Valor' in body) && !('valor' in body)) fail(400, 'Falta el valor de la preferencia (Valor).')
    const valor = 'Valor' in body ? body.Valor : body.valor
    if (Buffer.byteLength(JSON.stringify(valor ?? null), 'utf8') > MAX_VALUE_BYTES) fail(400, 'El valor de la preferencia no puede ocupar más de 100 KB.')
    return db.transaction(() => {
      const exists = db.prepare('SELECT 1 FROM preferencias WHERE usuario_id = ? AND clave = ?').get(userId, rawKey)
      if (!exists) {
        const count = (db.prepare('SELECT COUNT(*) AS n FROM preferencias WHERE usuario_id = ?').get(userId) as { n: number }).n
        if (count >= MAX_PREFERENCES) fail(409, `No se pueden guardar más de ${MAX_PREFERENCES} preferencias por usuario. Elimina alguna antes.`)
      }
      return upsertPreference(db, userId, rawKey, valor ?? null, isoInstant(now()))
    })()
  })

  app.delete('/api/usuarios/preference', async (request, reply) => {
    const userId = ownUser(request)
    const id = queryId(request.query, ['preferenciaId', 'PreferenciaId', 'id', 'Id'], 'preferencia')
    // Someone else's preference is "not found" too: its existence is not revealed.
    const removed = db.prepare('DELETE FROM preferencias WHERE id = ? AND usuario_id = ?').run(id, userId).changes
    if (!removed) fail(404, `La preferencia ${id} no existe.`)
    return reply.code(204).send()
  })

  app.delete('/api/usuarios/preference-all', async (request) => {
    const userId = ownUser(request)
    const removed = db.prepare('DELETE FROM preferencias WHERE usuario_id = ?').run(userId).changes
    return { Eliminadas: removed }
  })
}
