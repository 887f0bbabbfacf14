import type Database from 'better-sqlite3'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'

/** Shared bits of the administration suites (tests/reference-api/admin-*.test.ts). */

export const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
export const AGENTE = { username: 'agente@portal.test', password: 'Portal-Agente-2026!' }
export const STRONG = 'Nueva-Clave-2027'

export interface Pair {
  token: string
  refreshToken: string
}

/** Signs in keeping both tokens (ApiCaller.signIn keeps only the access token). */
export async function login(url: string, creds: { username: string; password: string }, brand: string = BRAND_DOMAINS.verde): Promise<{ status: number; pair: Pair | null; caller: ApiCaller | null }> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-brand-domain': brand },
    body: JSON.stringify(creds),
  })
  if (res.status !== 200) return { status: res.status, pair: null, caller: null }
  const pair = (await res.json()) as Pair
  return { status: 200, pair, caller: new ApiCaller(url, pair.token, brand) }
}

export async function refresh(url: string, refreshToken: string): Promise<number> {
  const res = await fetch(`${url}/api/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-brand-domain': BRAND_DOMAINS.verde },
    body: JSON.stringify({ refreshToken }),
  })
  return res.status
}

/** Calls the public integration API with a key. */
export async function publicMe(url: string, key: string, brand: string = BRAND_DOMAINS.verde) {
  const res = await fetch(`${url}/api/public/v1/me`, { headers: { 'x-api-key': key, 'x-brand-domain': brand } })
  const text = await res.text()
  return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : null }
}

const ADMIN_TABLES = [
  'usuarios',
  'usuario_grupos',
  'usuario_permisos',
  'permisos',
  'grupos',
  'grupo_permisos',
  'refresh_tokens',
  'preferencias',
  'api_usuarios',
  'api_usuario_permisos',
  'api_usuario_agentes',
  'api_keys',
  'auditoria_admin',
  'agentes',
]

/** Everything the administration calls could change, to compare before and after. */
export function snapshot(db: Database.Database, opts: { ignore?: string[] } = {}): string {
  return JSON.stringify(
    ADMIN_TABLES.filter((t) => !opts.ignore?.includes(t)).map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]),
  )
}

let seq = 0
/** A unique e-mail per call (suites share one database per file). */
export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now().toString(36)}${(seq++).toString(36)}@pruebas.test`
}

export function userIdByEmail(db: Database.Database, email: string): number {
  return (db.prepare('SELECT id FROM usuarios WHERE email = ?').get(email) as { id: number }).id
}

export function permisoId(db: Database.Database, normalizado: string): number {
  return (db.prepare('SELECT id FROM permisos WHERE nombre_normalizado = ?').get(normalizado) as { id: number }).id
}

export function grupoId(db: Database.Database, nombre: string): number {
  return (db.prepare('SELECT id FROM grupos WHERE nombre = ?').get(nombre) as { id: number }).id
}
