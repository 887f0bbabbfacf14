import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { generateKey, isPublicKeyId, keyHint, parseScopes } from '../../lib/api-keys'
import { callsOfScope } from '../../lib/api-scope-of-call'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { isoInstant } from '../../lib/instants'
import { bodyId, objectBody, optionalBoolean, optionalQueryId, optionalText } from './input'
import { audit, bool, isoNow, requireIds } from './shared'
import type { ApiKey, ApiScope } from '../../../../schemas/business/access'
import { API_SCOPES, allApiScopes, defaultApiScopes, isApiScope } from '../../../../schemas/business/api-scopes'

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
  scopes: string | null
  ultimo_uso_ip: string | null
  rotada_hasta: string | null
  sustituida_por: string | null
  sustituye_a: string | null
}

const KEY_SELECT = `SELECT k.public_id, k.descripcion, k.api_usuario_id, u.nombre AS api_usuario, k.activa, k.fecha_creacion,
    c.email AS creada_por, k.ultimo_uso, k.fecha_expiracion, k.scopes, k.ultimo_uso_ip, k.rotada_hasta, k.sustituida_por, k.sustituye_a
  FROM api_keys k JOIN api_usuarios u ON u.id = k.api_usuario_id LEFT JOIN usuarios c ON c.id = k.creada_por`

const passed = (instant: string | null, nowMs: number) => instant !== null && Date.parse(instant) <= nowMs

/** Revoked (disabled) first, then expired or past its rotation window, then in rotation. */
function stateOf(row: KeyRow, nowMs: number): ApiKey['Estado'] {
  if (!row.activa) return 'revocada'
  if (passed(row.fecha_expiracion, nowMs) || passed(row.rotada_hasta, nowMs)) return 'caducada'
  if (row.rotada_hasta !== null) return 'en-rotacion'
  return 'activa'
}

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
    Scopes: parseScopes(row.scopes),
    UltimoUsoIp: row.ultimo_uso_ip,
    Estado: stateOf(row, nowMs),
    RotadaHasta: row.rotada_hasta,
    SustituidaPor: row.sustituida_por,
    SustituyeA: row.sustituye_a,
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

const DAY_MS = 86_400_000
/** A key lives a year unless the admin says otherwise, two at most. */
export const DEFAULT_KEY_LIFETIME_DAYS = 365
export const MAX_KEY_LIFETIME_DAYS = 731
/** A rotated key keeps working this many hours by default, a week at most. */
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24
export const MAX_ROTATION_OVERLAP_HOURS = 168

/**
 * `FechaExpiracion`: `YYYY-MM-DD` (valid through that day, UTC) or an ISO instant, in the future
 * and at most two years ahead; none given: a year from now.
 */
function readExpiry(text: string | null | undefined, nowMs: number): string {
  if (!text) return isoInstant(nowMs + DEFAULT_KEY_LIFETIME_DAYS * DAY_MS)
  let ms: number
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) ms = Date.parse(`${text}T23:59:59Z`)
  else if (/^\d{4}-\d{2}-\d{2}T/.test(text)) ms = Date.parse(text)
  else ms = NaN
  if (Number.isNaN(ms)) fail(400, 'La fecha de caducidad (FechaExpiracion) debe ser AAAA-MM-DD o una fecha y hora ISO 8601.')
  if (ms <= nowMs) fail(400, 'La fecha de caducidad (FechaExpiracion) debe ser futura.')
  if (ms > nowMs + MAX_KEY_LIFETIME_DAYS * DAY_MS) fail(400, 'La fecha de caducidad (FechaExpiracion) no puede estar a más de dos años.')
  return isoInstant(ms)
}

/** `Scopes`: a list of declared scope names; none given (absent, null or an empty list, as a form sends it): the read scopes. */
function readScopes(body: Record<string, unknown>): string[] {
  const raw = body.Scopes ?? body.scopes
  if (raw === undefined || raw === null) return defaultApiScopes()
  if (!Array.isArray(raw) || raw.some((s) => typeof s !== 'string')) fail(400, 'Los ámbitos (Scopes) deben ser una lista de nombres.')
  const names = [...new Set((raw as string[]).map((s) => s.trim()))]
  if (names.length === 0) return defaultApiScopes()
  const unknown = names.find((n) => !isApiScope(n))
  if (unknown !== undefined) fail(400, `Ámbito desconocido: «${unknown.slice(0, 40)}» (${allApiScopes().join(', ')}).`)
  return allApiScopes().filter((s) => names.includes(s))
}

/** `HorasSolapamiento`: whole hours the old key keeps working, 1 to 168; none given: 24. */
function readOverlapHours(body: Record<string, unknown>): number {
  const raw = body.HorasSolapamiento ?? body.horasSolapamiento
  if (raw === undefined || raw === null || raw === '') return DEFAULT_ROTATION_OVERLAP_HOURS
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN
  if (!Number.isInteger(n) || n < 1 || n > MAX_ROTATION_OVERLAP_HOURS) fail(400, `La ventana de solapamiento (HorasSolapamiento) debe ser un número entero de horas entre 1 y ${MAX_ROTATION_OVERLAP_HOURS} (7 días).`)
  return n
}

/** The scopes keys can hold, with the public calls each one opens (from the catalogue). */
function scopeList(): ApiScope[] {
  const defaults = new Set(defaultApiScopes())
  return API_SCOPES.map((s) => ({ ...s, PorDefecto: defaults.has(s.Scope), Llamadas: callsOfScope(s.Scope) }))
}

/** API keys (spec §7 "API keys"): list, generate (the full key is shown once), toggle and delete. */
export async function apiKeyRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/apikey', async (request) => {
    const apiUserId = optionalQueryId(request.query, ['apiUserId', 'ApiUserId', 'ApiUsuarioId'], 'usuario de API')
    if (apiUserId !== undefined) requireIds(db, 'api_usuarios', [apiUserId])
    return listKeys(db, now(), apiUserId)
  })

  app.get('/api/apikey/scopes', async () => scopeList())

  app.post('/api/apikey/generate', async (request, reply) => {
    const body = objectBody(request.body)
    const scopes = readScopes(body)
    const apiUserId = bodyId(body, 'ApiUserId', 'el usuario de API (ApiUserId)')
    const descripcion = optionalText(body, 'Descripcion', 'la descripción (Descripcion)', 200) ?? ''
    const expiry = readExpiry(optionalText(body, 'FechaExpiracion', 'la fecha de caducidad (FechaExpiracion)', 40), now())
    requireIds(db, 'api_usuarios', [apiUserId])
    const key = db.transaction(() => {
      const count = (db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE api_usuario_id = ?').get(apiUserId) as { n: number }).n
      if (count >= MAX_KEYS_PER_API_USER) fail(409, `Un usuario de API no puede tener más de ${MAX_KEYS_PER_API_USER} claves. Elimina alguna antes de generar otra.`)
      const generated = generateKey((id) => db.prepare('SELECT 1 FROM api_keys WHERE public_id = ?').get(id) !== undefined)
      db.prepare(
        `INSERT INTO api_keys (api_usuario_id, public_id, secret_hash, descripcion, activa, fecha_creacion, creada_por, fecha_expiracion, scopes)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)`,
      ).run(apiUserId, generated.publicId, generated.secretHash, descripcion, isoNow(now), request.caller!.userId, expiry, JSON.stringify(scopes))
      audit(db, request, now(), {
        accion: 'apikey.generada',
        entidad: 'api_usuario',
        entidadId: apiUserId,
        detalle: { ApiKey: generated.publicId, Descripcion: descripcion, Scopes: scopes, FechaExpiracion: expiry },
      })
      return generated
    })()
    return reply.code(201).send({
      ...keyByPublicId(db, key.publicId, now()),
      Clave: key.fullKey,
      Aviso: 'Copia la clave ahora: no se volverá a mostrar.',
    })
  })

  /**
   * Rotation: a new key (new public id and secret, same API user, description, scopes and
   * expiry) whose full key is shown once; the old one keeps working for the overlap window,
   * then stops. Only a key that works and was not rotated already can be rotated.
   */
  app.post('/api/apikey/rotate', async (request, reply) => {
    const publicId = readApiKey(request)
    const hours = readOverlapHours(objectBody(request.body ?? {}))
    const at = now()
    const key = db.transaction(() => {
      const current = keyByPublicId(db, publicId, at)
      if (current.Estado === 'revocada') fail(409, `La clave ${publicId} está desactivada: actívala antes de rotarla, o genera otra.`)
      if (current.Estado === 'caducada') fail(409, `La clave ${publicId} ya no vale (caducada): genera otra.`)
      if (current.Estado === 'en-rotacion') fail(409, `La clave ${publicId} ya se rotó (la sustituye ${current.SustituidaPor ?? 'otra clave'}): rota la nueva.`)
      const generated = generateKey((id) => db.prepare('SELECT 1 FROM api_keys WHERE public_id = ?').get(id) !== undefined)
      const until = isoInstant(at + hours * 3_600_000)
      db.prepare(
        `INSERT INTO api_keys (api_usuario_id, public_id, secret_hash, descripcion, activa, fecha_creacion, creada_por, fecha_expiracion, scopes, sustituye_a)
         SELECT api_usuario_id, ?, ?, descripcion, 1, ?, ?, fecha_expiracion, scopes, public_id FROM api_keys WHERE public_id = ?`,
      ).run(generated.publicId, generated.secretHash, isoInstant(at), request.caller!.userId, publicId)
      db.prepare('UPDATE api_keys SET rotada_hasta = ?, sustituida_por = ? WHERE public_id = ?').run(until, generated.publicId, publicId)
      audit(db, request, at, {
        accion: 'apikey.rotada',
        entidad: 'api_usuario',
        entidadId: current.ApiUsuarioId,
        detalle: { ApiKey: publicId, Nueva: generated.publicId, RotadaHasta: until, HorasSolapamiento: hours },
      })
      return generated
    })()
    const previous = keyByPublicId(db, publicId, at)
    return reply.code(201).send({
      ...keyByPublicId(db, key.publicId, at),
      Clave: key.fullKey,
      Anterior: previous,
      Aviso: `Copia la clave ahora: no se volverá a mostrar. La clave anterior (${publicId}) sigue valiendo hasta ${previous.RotadaHasta}.`,
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
