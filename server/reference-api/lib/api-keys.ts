import type Database from 'better-sqlite3'
import type { FastifyRequest } from 'fastify'
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { fail } from './http'
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
  api_usuario_id: number
  nombre: string
  email: string
  descripcion: string
  usuario_activo: number
}

/**
 * The API user behind a full key with its permissions, or null when the key is malformed,
 * unknown, wrong, disabled, expired, or its API user is inactive. A successful check records
 * the key's last use.
 */
export function verifyApiKey(db: Database.Database, fullKey: string, now: number = Date.now()): ApiKeyCaller | null {
  const match = FULL_KEY.exec(fullKey.trim())
  if (!match) return null
  const row = db
    .prepare<[string], KeyRow>(
      `SELECT k.id, k.public_id, k.secret_hash, k.activa, k.fecha_expiracion, u.id AS api_usuario_id, u.nombre, u.email,
              u.descripcion, u.activo AS usuario_activo
       FROM api_keys k JOIN api_usuarios u ON u.id = k.api_usuario_id WHERE k.public_id = ?`,
    )
    .get(match[1]!)
  if (!row) return null
  const expected = Buffer.from(row.secret_hash, 'hex')
  const given = Buffer.from(hashSecret(match[2]!), 'hex')
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  if (!row.activa || !row.usuario_activo) return null
  if (row.fecha_expiracion && Date.parse(row.fecha_expiracion) <= now) return null
  db.prepare('UPDATE api_keys SET ultimo_uso = ? WHERE id = ?').run(isoInstant(now), row.id)
  const permissions = db
    .prepare<[number], ApiKeyCaller['permissions'][number]>(
      `SELECT p.id AS Id, p.nombre AS Nombre, p.nombre_normalizado AS NombreNormalizado
       FROM permisos p JOIN api_usuario_permisos ap ON ap.permiso_id = p.id WHERE ap.api_usuario_id = ? ORDER BY p.nombre_normalizado`,
    )
    .all(row.api_usuario_id)
  return {
    keyId: row.id,
    apiKey: row.public_id,
    apiUserId: row.api_usuario_id,
    nombre: row.nombre,
    email: row.email,
    descripcion: row.descripcion,
    permissions,
  }
}

/** The `onRequest` step for `/api/public/*`: a valid `X-Api-Key` or 401. */
export function authenticateApiKey(request: FastifyRequest, db: Database.Database, now: number = Date.now()): ApiKeyCaller {
  const raw = request.headers[API_KEY_HEADER]
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  if (!key) fail(401, 'Falta la clave de API (cabecera X-Api-Key).')
  const caller = verifyApiKey(db, key, now)
  if (!caller) fail(401, 'La clave de API no es válida, está desactivada o ha caducado.')
  return caller
}
