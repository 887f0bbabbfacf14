import type Database from 'better-sqlite3'
import type { FastifyRequest } from 'fastify'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { fail } from './http'
import { allApiScopes } from '../../../schemas/business/api-scopes'
import { scopeOfRoute } from './api-scope-of-call'
import { isoInstant } from './instants'

/**
 * API keys: `pk_<16 hex>.<secret>` where the secret is 32 random bytes in base64url (256 bits).
 * The public part (`pk_<16 hex>`, the `ApiKey` of the calls) identifies the key; only a
 * SHA-256 of the secret is stored, so the full key is shown once, when generated. A fast hash
 * is enough: the secret is random and long, not a password.
 */

export const API_KEY_HEADER = 'x-api-key'
const PUBLIC_ID = /^pk_[0-9a-f]{16}$/
const FULL_KEY = /^(pk_[0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/

export interface GeneratedKey {
  publicId: string
  /** The full key, to show once. */
  fullKey: string
  secretHash: string
}

export function isPublicKeyId(text: string): boolean {
  return PUBLIC_ID.test(text)
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

/** A fresh key; `exists` tells whether a public id is taken (48+ bits: collisions are rare). */
export function generateKey(exists: (publicId: string) => boolean): GeneratedKey {
  for (;;) {
    const publicId = `pk_${randomBytes(8).toString('hex')}`
    if (exists(publicId)) continue
    const secret = randomBytes(32).toString('base64url')
    return { publicId, fullKey: `${publicId}.${secret}`, secretHash: hashSecret(secret) }
  }
}

/** The short hint shown in lists instead of the key: `pk_ab12…`. */
export function keyHint(publicId: string): string {
  return `${publicId.slice(0, 7)}…`
}

export interface ApiKeyCaller {
  keyId: number
  /** Public id of the key used (`pk_…`). */
  apiKey: string
  apiUserId: number
  nombre: string
  email: string
  descripcion: string
  /** The scopes the key holds (schemas/business/api-scopes.ts). */
  scopes: string[]
  permissions: { Id: number; Nombre: string; NombreNormalizado: string }[]
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The API user authenticated by `X-Api-Key` (only on `/api/public/*`). */
    apiCaller: ApiKeyCaller | null
  }
}

interface KeyRow {
  id: number
  public_id: string
  secret_hash: string
  activa: number
  fecha_expiracion: string | null
  rotada_hasta: string | null
  sustituida_por: string | null
  scopes: string | null
  ultimo_uso: string | null
  ultimo_uso_ip: string | null
  api_usuario_id: number
  nombre: string
  email: string
  descripcion: string
  usuario_activo: number
}

/** Last use is written at most once a minute per key (and at once when the address changes): no write per request. */
export const LAST_USE_WRITE_INTERVAL_MS = 60_000

/** Why a key is refused, in Spanish (the 401's text). */
export type KeyCheck = { ok: true; caller: ApiKeyCaller } | { ok: false; message: string }

/** The one answer for a wrong, unknown, revoked key or an inactive API user: says nothing about which. */
const INVALID = 'La clave de API no es válida, está desactivada o ha caducado.'

/** A JSON array of scope names as stored; anything unreadable holds no scope. */
export function parseScopes(text: string | null): string[] {
  if (text === null) return []
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

/**
 * The API user behind a full key with its permissions and the key's scopes, or why it is
 * refused: malformed, unknown or wrong secret; disabled (revoked); expired; rotated and past its
 * overlap window; its API user inactive. An accepted key records its last use (time and client
 * address), at most once a minute.
 */
export function checkApiKey(db: Database.Database, fullKey: string, now: number, address: string | null = null): KeyCheck {
  const match = FULL_KEY.exec(fullKey.trim())
  if (!match) return { ok: false, message: INVALID }
  const row = db
    .prepare<[string], KeyRow>(
      `SELECT k.id, k.public_id, k.secret_hash, k.activa, k.fecha_expiracion, k.rotada_hasta, k.sustituida_por, k.scopes, k.ultimo_uso, k.ultimo_uso_ip,
              u.id AS api_usuario_id, u.nombre, u.email, u.descripcion, u.activo AS usuario_activo
       FROM api_keys k JOIN api_usuarios u ON u.id = k.api_usuario_id WHERE k.public_id = ?`,
    )
    .get(match[1]!)
  if (!row) return { ok: false, message: INVALID }
  const expected = Buffer.from(row.secret_hash, 'hex')
  const given = Buffer.from(hashSecret(match[2]!), 'hex')
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, message: INVALID }
  if (!row.activa || !row.usuario_activo) return { ok: false, message: INVALID }
  if (row.fecha_expiracion && Date.parse(row.fecha_expiracion) <= now) return { ok: false, message: `La clave de API ${row.public_id} caducó el ${row.fecha_expiracion}.` }
  if (row.rotada_hasta && Date.parse(row.rotada_hasta) <= now) {
    return { ok: false, message: `La clave de API ${row.public_id} se rotó y dejó de valer el ${row.rotada_hasta}${row.sustituida_por ? `: usa la clave ${row.sustituida_por}` : ''}.` }
  }
  recordLastUse(db, row, now, address)
  const permissions = db
    .prepare<[number], ApiKeyCaller['permissions'][number]>(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado
       FROM permisos p JOIN api_usuario_permisos ap ON ap.permiso_id = p.id WHERE ap.api_usuario_id = ? ORDER BY p.nombre_normalizado`,
    )
    .all(row.api_usuario_id)
  return {
    ok: true,
    caller: {
      keyId: row.id,
      apiKey: row.public_id,
      apiUserId: row.api_usuario_id,
      nombre: row.nombre,
      email: row.email,
      descripcion: row.descripcion,
      scopes: parseScopes(row.scopes),
      permissions,
    },
  }
}

/** Writes the last use unless one was written less than a minute ago from the same address. */
function recordLastUse(db: Database.Database, row: Pick<KeyRow, 'id' | 'ultimo_uso' | 'ultimo_uso_ip'>, now: number, address: string | null): void {
  const last = row.ultimo_uso === null ? NaN : Date.parse(row.ultimo_uso)
  if (now - last < LAST_USE_WRITE_INTERVAL_MS && now >= last && row.ultimo_uso_ip === address) return
  db.prepare('UPDATE api_keys SET ultimo_uso = ?, ultimo_uso_ip = ? WHERE id = ?').run(isoInstant(now), address, row.id)
}

/** The API user behind a full key, or null when it is refused (see checkApiKey). */
export function verifyApiKey(db: Database.Database, fullKey: string, now: number = Date.now()): ApiKeyCaller | null {
  const check = checkApiKey(db, fullKey, now)
  return check.ok ? check.caller : null
}

/**
 * The client address of a public call: the first `X-Forwarded-For` entry when the request comes
 * from this machine (the BFF in front, which sets it to its own client's address), else the peer.
 */
export function clientAddress(request: FastifyRequest): string {
  const peer = request.socket.remoteAddress ?? request.ip
  const loopback = peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1'
  const forwarded = request.headers['x-forwarded-for']
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim()
  return loopback && first ? first.slice(0, 64) : peer
}

/** The `onRequest` step for `/api/public/*`: a valid `X-Api-Key` or 401, then the call's scope or 403. */
export function authenticateApiKey(request: FastifyRequest, db: Database.Database, now: number = Date.now()): ApiKeyCaller {
  const raw = request.headers[API_KEY_HEADER]
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  if (!key) fail(401, 'Falta la clave de API (cabecera X-Api-Key).')
  const check = checkApiKey(db, key, now, clientAddress(request))
  if (!check.ok) fail(401, check.message)
  requireScopeOfRoute(request, check.caller)
  return check.caller
}

/** 403 unless the key holds the scope the catalogue names for this call (uncatalogued routes: refused). */
function requireScopeOfRoute(request: FastifyRequest, caller: ApiKeyCaller): void {
  const route = request.routeOptions.url
  if (route === undefined) return // no such route: the 404 follows
  const method = request.method === 'HEAD' ? 'GET' : request.method
  const scope = scopeOfRoute(method, route)
  if (scope === undefined) fail(403, 'Esta llamada no está en el catálogo de la API pública.')
  if (scope !== null && !caller.scopes.includes(scope)) fail(403, `La clave de API ${caller.apiKey} no tiene el ámbito «${scope}» que necesita esta llamada.`)
}

/** Keys made before scopes existed could call everything: they get every scope, once. */
export function backfillKeyScopes(db: Database.Database): void {
  db.prepare('UPDATE api_keys SET scopes = ? WHERE scopes IS NULL').run(JSON.stringify(allApiScopes()))
}
