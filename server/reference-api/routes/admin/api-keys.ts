import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { generateKey, isPublicKeyId, keyHint } from '../../lib/api-keys'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { isoInstant } from '../../lib/instants'
import { bodyId, objectBody, optionalBoolean, optionalQueryId, optionalText } from './input'
import { audit, bool, isoNow, requireIds } from './shared'
import type { ApiKey } from '../../../../schemas/business/access'

/** Keys an API user may hold at once (active or not). */
export const MAX_KEYS_PER_API_USER = 10

interface KeyRow {
  public_id: string
  descripcion: string
  api_usuario_id: number
  api_usuario: string
  activa: number
  fecha_creacion: string
  creada_por: string | null
  ultimo_uso: string | null
  fecha_expiracion: string | null
}

const KEY_SELECT = `SELECT k.public_id, k.descripcion, k.api_usuario_id, u.nombre AS api_usuario, k.activa, k.fecha_creacion,
    c.email AS creada_por, k.ultimo_uso, k.fecha_expiracion
  FROM api_keys k JOIN api_usuarios u ON u.id = k.api_usuario_id LEFT JOIN usuarios c ON c.id = k.creada_por`

function toDto(row: KeyRow, nowMs: number): ApiKey {
  return {
    ApiKey: row.public_id,
    Mascara: keyHint(row.public_id),
    Descripcion: row.descripcion,
    ApiUsuarioId: row.api_usuario_id,
    ApiUsuario: row.api_usuario,
    Activa: bool(row.activa),
    Caducada: row.fecha_expiracion !== null && Date.parse(row.fecha_expiracion) <= nowMs,
    FechaCreacion: row.fecha_creacion,
    CreadaPor: row.creada_por,
    UltimoUso: row.ultimo_uso,
    FechaExpiracion: row.fecha_expiracion,
  }
}

/** Every key (or those of one API user), newest first; never the secret. */
export function listKeys(db: Database.Database, nowMs: number, apiUserId?: number): ApiKey[] {
  const rows = (
    apiUserId === undefined
      ? db.prepare(`${KEY_SELECT} ORDER BY k.fecha_creacion DESC, k.id DESC`).all()
      : db.prepare(`${KEY_SELECT} WHERE k.api_usuario_id = ? ORDER BY k.fecha_creacion DESC, k.id DESC`).all(apiUserId)
  ) as KeyRow[]
  return rows.map((r) => toDto(r, nowMs))
}

function keyByPublicId(db: Database.Database, publicId: string, nowMs: number): ApiKey {
  const row = db.prepare(`${KEY_SELECT} WHERE k.public_id = ?`).get(publicId) as KeyRow | undefined
  if (!row) fail(404, `La clave de API ${publicId} no existe.`)
  return toDto(row, nowMs)
}

/** The `ApiKey` of toggle/delete: the public id `pk_…`, never the full key. */
function readApiKey(request: FastifyRequest): string {
  const body = objectBody(request.body ?? { ...(request.query as object) })
  const raw = body.ApiKey ?? body.apiKey ?? body.apikey
  if (raw === undefined || raw === null || raw === '') fail(400, 'Falta la clave de API (ApiKey).')
  if (typeof raw !== 'string') fail(400, 'La clave de API (ApiKey) debe ser un texto.')
  const text = raw.trim()
  if (text.includes('.')) fail(400, 'Indica en ApiKey el identificador público de la clave (pk_…), no la clave completa.')
  if (!isPublicKeyId(text)) fail(400, `«${text}» no es un identificador de clave de API válido (pk_ seguido de 16 caracteres hexadecimales).`)
  return text
}

/** `FechaExpiracion`: `YYYY-MM-DD` (valid through that day, UTC) or an ISO instant, in the future. */
function readExpiry(text: string | null | undefined, nowMs: number): string | null {
  if (!text) return null
  let ms: number
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) ms = Date.parse(`${text}T23:59:59Z`)
  else if (/^\d{4}-\d{2}-\d{2}T/.test(text)) ms = Date.parse(text)
  else ms = NaN
  if (Number.isNaN(ms)) fail(400, 'La fecha de caducidad (FechaExpiracion) debe ser AAAA-MM-DD o una fecha y hora ISO 8601.')
  if (ms <= nowMs) fail(400, 'La fecha de caducidad (FechaExpiracion) debe ser futura.')
  return isoInstant(ms)
}

/** API keys (spec §7 "API keys"): list, generate (the full key is shown once), toggle and delete. */
export async function apiKeyRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/apikey', async (request) => {
    const apiUserId = optionalQueryId(request.query, ['apiUserId', 'ApiUserId', 'ApiUsuarioId'], 'usuario de API')
    if (apiUserId !== undefined) requireIds(db, 'api_usuarios', [apiUserId])
    return listKeys(db, now(), apiUserId)
  })

  app.post('/api/apikey/generate', async (request, reply) => {
    const body = objectBody(request.body)
    const apiUserId = bodyId(body, 'ApiUserId', 'el usuario de API (ApiUserId)')
    const descripcion = optionalText(body, 'Descripcion', 'la descripción (Descripcion)', 200) ?? ''
    const expiry = readExpiry(optionalText(body, 'FechaExpiracion', 'la fecha de caducidad (FechaExpiracion)', 40), now())
    requireIds(db, 'api_usuarios', [apiUserId])
    const key = db.transaction(() => {
      const count = (db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE api_usuario_id = ?').get(apiUserId) as { n: number }).n
      if (count >= MAX_KEYS_PER_API_USER) fail(409, `Un usuario de API no puede tener más de ${MAX_KEYS_PER_API_USER} claves. Elimina alguna antes de generar otra.`)
      const generated = generateKey((id) => db.prepare('SELECT 1 FROM api_keys WHERE public_id = ?').get(id) !== undefined)
      db.prepare(
        `INSERT INTO api_keys (api_usuario_id, public_id, secret_hash, descripcion, activa, fecha_creacion, creada_por, fecha_expiracion)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?)`,
      ).run(apiUserId, generated.publicId, generated.secretHash, descripcion, isoNow(now), request.caller!.userId, expiry)
      audit(db, request, now(), { accion: 'apikey.generada', entidad: 'api_usuario', entidadId: apiUserId, detalle: { ApiKey: generated.publicId, Descripcion: descripcion } })
      return generated
    })()
    return reply.code(201).send({
      ...keyByPublicId(db, key.publicId, now()),
      Clave: key.fullKey,
      Aviso: 'Copia la clave ahora: no se volverá a mostrar.',
    })
  })

  app.put('/api/apikey/toggle', async (request) => {
    const publicId = readApiKey(request)
    const body = (request.body ?? {}) as Record<string, unknown>
    const wanted = body !== null && typeof body === 'object' && !Array.isArray(body) ? optionalBoolean(body, 'Activa', 'Activa') : undefined
    const current = keyByPublicId(db, publicId, now())
    const next = wanted ?? !current.Activa
    if (next !== current.Activa) {
      db.transaction(() => {
        db.prepare('UPDATE api_keys SET activa = ? WHERE public_id = ?').run(next ? 1 : 0, publicId)
        audit(db, request, now(), { accion: next ? 'apikey.activada' : 'apikey.desactivada', entidad: 'api_usuario', entidadId: current.ApiUsuarioId, detalle: { ApiKey: publicId } })
      })()
    }
    return keyByPublicId(db, publicId, now())
  })

  app.delete('/api/apikey/delete', async (request, reply) => {
    const publicId = readApiKey(request)
    const current = keyByPublicId(db, publicId, now())
    db.transaction(() => {
      db.prepare('DELETE FROM api_keys WHERE public_id = ?').run(publicId)
      audit(db, request, now(), { accion: 'apikey.eliminada', entidad: 'api_usuario', entidadId: current.ApiUsuarioId, detalle: { ApiKey: publicId } })
    })()
    return reply.code(204).send()
  })
}
