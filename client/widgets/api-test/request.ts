import { buildQuery } from '../../api/client'
import { messageIn } from '../../i18n/i18n'
import { messages, type MessageKey as Key } from './messages'

/**
 * The API Test console's rules, apart from the screen: the catalogue's shapes
 * (`GET /api/public/v1`), building a request from a call's parameters (path substitution,
 * typed query values), the response headers worth showing and the body as coloured tokens.
 * Messages are in the current language (./messages.ts).
 */

const msg = (key: Key, vars?: Record<string, string | number>) => messageIn(messages, key, vars)

export type ParamType = 'string' | 'integer' | 'date'

export interface CatalogParam {
  Nombre: string
  En: 'query' | 'path'
  Tipo: ParamType
  Requerido: boolean
  Descripcion: string
  Ejemplo?: string | number | null
}

export interface CatalogEntry {
  Id: string | number
  Metodo: string
  Ruta: string
  Descripcion: string
  Permiso: string | null
  Parametros: CatalogParam[]
}

/** A full key as `generate` returns it once: public id, a dot, the secret. */
export const FULL_KEY = /^pk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/

export function keyProblem(raw: string): string | null {
  const key = raw.trim()
  if (!key) return msg('key.empty')
  if (/^pk_[0-9a-f]{16}$/.test(key)) return msg('key.publicOnly')
  if (!FULL_KEY.test(key)) return msg('key.malformed')
  return null
}

/** "pk_ecbe…": never show the secret back. */
export function maskKey(key: string): string {
  const id = key.trim().split('.')[0] ?? ''
  return id ? `${id.slice(0, 7)}…` : ''
}

/** Why a typed value is wrong for its parameter, or null. */
export function paramProblem(p: CatalogParam, raw: string | undefined): string | null {
  const value = (raw ?? '').trim()
  if (!value) return p.Requerido ? msg('param.required', { name: p.Nombre }) : null
  if (p.Tipo === 'integer' && !/^-?\d+$/.test(value)) return msg('param.integer', { name: p.Nombre })
  if (p.Tipo === 'date') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
    const d = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null
    if (!m || !d || d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return msg('param.date', { name: p.Nombre })
  }
  return null
}

export type BuiltRequest =
  | { ok: true; method: string; path: string; params: Record<string, string | number>; url: string }
  | { ok: false; errors: Record<string, string> }

/** Normalises a catalogue route to an absolute path (`/api/public/v1/…`). */
export function normalizeRoute(route: string): string {
  return route.startsWith('/') ? route : `/${route}`
}

/** Names of the path placeholders of a route: `{codigo}` or `:codigo`. */
export function pathPlaceholders(route: string): string[] {
  const names: string[] = []
  for (const m of route.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}|:([A-Za-z_][A-Za-z0-9_]*)/g)) names.push((m[1] ?? m[2])!)
  return names
}

/**
 * The request for a call and the typed values: path parameters substituted (URL-encoded),
 * query parameters typed (integers as numbers), empty optional ones left out.
 */
export function buildRequest(entry: CatalogEntry, values: Record<string, string>): BuiltRequest {
  const errors: Record<string, string> = {}
  for (const p of entry.Parametros ?? []) {
    const problem = paramProblem(p, values[p.Nombre])
    if (problem) errors[p.Nombre] = problem
  }
  // A placeholder in the route is always needed, even if the catalogue forgot to list it.
  for (const name of pathPlaceholders(entry.Ruta)) {
    if (!(values[name] ?? '').trim() && !errors[name]) errors[name] = msg('param.required', { name })
  }
  if (Object.keys(errors).length) return { ok: false, errors }

  let path = normalizeRoute(entry.Ruta)
  const inPath = new Set(pathPlaceholders(entry.Ruta))
  for (const name of inPath) {
    const v = encodeURIComponent((values[name] ?? '').trim())
    path = path.replace(`{${name}}`, v).replace(new RegExp(`:${name}(?=/|$)`), v)
  }
  const params: Record<string, string | number> = {}
  for (const p of entry.Parametros ?? []) {
    if (p.En !== 'query' || inPath.has(p.Nombre)) continue
    const v = (values[p.Nombre] ?? '').trim()
    if (!v) continue
    params[p.Nombre] = p.Tipo === 'integer' ? Number(v) : v
  }
  return { ok: true, method: (entry.Metodo || 'GET').toUpperCase(), path, params, url: `${path}${buildQuery(params)}` }
}

/** The examples of a call's parameters, as the inputs' values. */
export function exampleValues(entry: CatalogEntry): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of entry.Parametros ?? []) if (p.Ejemplo !== undefined && p.Ejemplo !== null && p.Ejemplo !== '') out[p.Nombre] = String(p.Ejemplo)
  return out
}

/** Response headers worth showing, in this order. */
export const HEADERS_OF_INTEREST = [
  'content-type',
  'content-length',
  'content-disposition',
  'cache-control',
  'etag',
  'last-modified',
  'retry-after',
  'x-request-id',
  'x-reference-api-fault',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'date',
] as const

export function pickHeaders(headers: { get(name: string): string | null }): [string, string][] {
  const out: [string, string][] = []
  for (const name of HEADERS_OF_INTEREST) {
    const v = headers.get(name)
    if (v !== null && v !== '') out.push([name, v])
  }
  return out
}

/** The statuses named one by one (`status.<code>` in ./messages.ts); the rest by class. */
const NAMED_STATUSES = new Set([0, 200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 422, 429, 500, 502, 503, 504])

export function statusText(status: number): string {
  if (NAMED_STATUSES.has(status)) return msg(`status.${status}` as Key)
  return status >= 200 && status < 300 ? msg('status.success') : status >= 500 ? msg('status.serverError') : status >= 400 ? msg('status.clientError') : ''
}

export type StatusKind = 'ok' | 'client-error' | 'server-error' | 'network'
export function statusKind(status: number): StatusKind {
  if (status === 0) return 'network'
  if (status < 400) return 'ok'
  if (status < 500) return 'client-error'
  return 'server-error'
}

/** The body pretty-printed when it is JSON (2 spaces), else as it came. */
export function prettyBody(text: string): { text: string; json: boolean } {
  const trimmed = text.trim()
  if (!trimmed) return { text: '', json: false }
  if (/^[[{"]|^(true|false|null|-?\d)/.test(trimmed)) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true }
    } catch {
      // not JSON after all
    }
  }
  return { text, json: false }
}

export type TokenKind = 'key' | 'string' | 'number' | 'boolean' | 'null' | 'punct'
export interface Token {
  text: string
  kind: TokenKind | null
}

const TOKEN = /("(?:\\u[0-9a-fA-F]{4}|\\[^u]|[^\\"])*")(\s*:)?|\b(true|false)\b|\b(null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([{}[\],])/g

/** Pretty JSON cut into coloured tokens; the text is unchanged (joined, the tokens give it back). */
export function tokenizeJson(pretty: string): Token[] {
  const out: Token[] = []
  let last = 0
  for (const m of pretty.matchAll(TOKEN)) {
    const at = m.index ?? 0
    if (at > last) out.push({ text: pretty.slice(last, at), kind: null })
    if (m[1] !== undefined) {
      out.push({ text: m[1], kind: m[2] !== undefined ? 'key' : 'string' })
      if (m[2] !== undefined) out.push({ text: m[2], kind: 'punct' })
    } else if (m[3] !== undefined) out.push({ text: m[3], kind: 'boolean' })
    else if (m[4] !== undefined) out.push({ text: m[4], kind: 'null' })
    else if (m[5] !== undefined) out.push({ text: m[5], kind: 'number' })
    else if (m[6] !== undefined) out.push({ text: m[6], kind: 'punct' })
    last = at + m[0].length
  }
  if (last < pretty.length) out.push({ text: pretty.slice(last), kind: null })
  return out
}

/** A one-line summary of a call for the history and the screen reader. */
export function describeCall(method: string, url: string, status: number, ms: number): string {
  return msg('call.summary', { method, url, result: status === 0 ? msg('call.noResponse') : `${status} ${statusText(status)}`, ms: Math.round(ms) })
}
