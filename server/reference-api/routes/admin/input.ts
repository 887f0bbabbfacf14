import { fail } from '../../lib/http'

/**
 * Reading the administration calls' inputs with Spanish 400s. The portal sends whole records
 * (spec §3: "passed whole"), so unknown fields are ignored, never refused.
 */

export type Body = Record<string, unknown>

export function objectBody(body: unknown): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) fail(400, 'El cuerpo de la petición debe ser un objeto JSON.')
  return body as Body
}

/** First present value among the names (the portal is not consistent about letter case). */
function pick(source: Record<string, unknown>, names: readonly string[]): unknown {
  for (const name of names) if (source[name] !== undefined) return source[name]
  return undefined
}

function names(name: string): string[] {
  const lower = name.charAt(0).toLowerCase() + name.slice(1)
  return lower === name ? [name] : [name, lower]
}

export function requiredText(body: Body, name: string, label: string, max = 200): string {
  const value = optionalText(body, name, label, max)
  if (value === undefined || value === null || value === '') fail(400, `Falta ${label}.`)
  return value
}

/** undefined when absent, null when explicitly null, else the trimmed text. */
export function optionalText(body: Body, name: string, label: string, max = 200): string | null | undefined {
  const raw = pick(body, names(name))
  if (raw === undefined) return undefined
  if (raw === null) return null
  if (typeof raw !== 'string') fail(400, `${capital(label)} debe ser un texto.`)
  const text = raw.trim()
  if (text.length > max) fail(400, `${capital(label)} no puede tener más de ${max} caracteres.`)
  return text
}

/** A password exactly as typed (never trimmed); undefined when absent or empty. */
export function password(body: Body, name: string, label: string): string | undefined {
  const raw = pick(body, names(name))
  if (raw === undefined || raw === null || raw === '') return undefined
  if (typeof raw !== 'string') fail(400, `${capital(label)} debe ser un texto.`)
  if (raw.length > 256) fail(400, `${capital(label)} no puede tener más de 256 caracteres.`)
  return raw
}

export function optionalBoolean(body: Body, name: string, label: string): boolean | undefined {
  const raw = pick(body, names(name))
  if (raw === undefined || raw === null) return undefined
  if (typeof raw === 'boolean') return raw
  if (raw === 1 || raw === 0) return raw === 1
  fail(400, `${capital(label)} debe ser true o false.`)
}

function toId(raw: unknown): number | null {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN
  return Number.isSafeInteger(n) && n > 0 ? n : null
}

/** A positive integer id from the body. */
export function bodyId(body: Body, name: string, label: string): number {
  const raw = pick(body, names(name))
  if (raw === undefined || raw === null || raw === '') fail(400, `Falta ${label}.`)
  const id = toId(raw)
  if (id === null) fail(400, `${capital(label)} debe ser un número entero positivo.`)
  return id
}

/** A positive integer id from the query string, under any of the given names. */
export function queryId(query: unknown, accepted: readonly string[], label: string): number {
  const id = optionalQueryId(query, accepted, label)
  if (id === undefined) fail(400, `Falta el parámetro ${accepted[0]} (${label}).`)
  return id
}

export function optionalQueryId(query: unknown, accepted: readonly string[], label: string): number | undefined {
  const q = (query ?? {}) as Record<string, unknown>
  let raw = pick(q, accepted)
  if (Array.isArray(raw)) raw = raw[0]
  if (raw === undefined || raw === '') return undefined
  const id = toId(raw)
  if (id === null) fail(400, `El parámetro ${accepted[0]} (${label}) debe ser un número entero positivo.`)
  return id
}

export function pathId(raw: string, label: string): number {
  const id = toId(raw)
  if (id === null) fail(400, `El identificador de ${label} no es válido.`)
  return id
}

export const MAX_BULK = 1000

/**
 * A list of ids from the body: `[1, 2]`, `["1", "2"]`, `[{ "Id": 1 }]`, or an object holding
 * such a list under one of `keys`. Duplicates are dropped; an empty list is a 400.
 */
export function idList(body: unknown, label: string, keys: readonly string[] = []): number[] {
  let raw = body
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    raw = pick(raw as Record<string, unknown>, [...keys, 'Ids', 'ids'])
  }
  if (!Array.isArray(raw)) fail(400, `El cuerpo debe ser una lista de identificadores de ${label}.`)
  if (raw.length === 0) fail(400, `La lista de ${label} está vacía.`)
  if (raw.length > MAX_BULK) fail(400, `No se pueden procesar más de ${MAX_BULK} ${label} a la vez.`)
  const ids = raw.map((item) => {
    const value = item !== null && typeof item === 'object' ? pick(item as Record<string, unknown>, ['Id', 'id']) : item
    const id = toId(value)
    if (id === null) fail(400, `La lista de ${label} contiene un identificador no válido: ${JSON.stringify(item)}.`)
    return id
  })
  return [...new Set(ids)]
}

const EMAIL = /^[^\s@"<>(),;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/

export function checkEmail(email: string): string {
  const value = email.trim().toLowerCase()
  if (value.length > 254 || !EMAIL.test(value)) fail(400, `El correo electrónico «${email}» no es válido.`)
  return value
}

const PHONE = /^\+?[0-9 ()-]{6,20}$/

export function checkPhone(phone: string | null | undefined): string | null | undefined {
  if (phone === undefined || phone === null) return phone
  if (phone === '') return null
  if (!PHONE.test(phone)) fail(400, `El teléfono «${phone}» no es válido.`)
  return phone.replace(/[\s()-]/g, '')
}

/** «1, 2 y 3» */
export function listText(items: readonly (string | number)[]): string {
  const texts = items.map(String)
  return texts.length <= 1 ? (texts[0] ?? '') : `${texts.slice(0, -1).join(', ')} y ${texts.at(-1)}`
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
