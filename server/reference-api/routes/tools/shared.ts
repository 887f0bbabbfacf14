import { isIsoDay } from '../../domain/calendar'
import { PERIODOS, porPeriodo, type PorPeriodo } from '../../domain/contract-rules'
import { fail } from '../../lib/http'

/** Helpers of the tools' calls: query values and body fields, each refusal a 400 naming it. */

/** A single query value (a repeated parameter is a 400); undefined when absent or empty. */
export function queryValue(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name]
  if (Array.isArray(value)) fail(400, `El parámetro ${name} debe indicarse una sola vez.`)
  if (value === undefined || value === null) return undefined
  const text = String(value).trim()
  return text === '' ? undefined : text
}

/** A required `YYYY-MM-DD` query value. */
export function dayParam(query: unknown, name: string): string {
  const v = queryValue(query, name)
  if (v === undefined) fail(400, `Falta el parámetro ${name} (fecha AAAA-MM-DD).`)
  if (!isIsoDay(v)) fail(400, `El parámetro ${name} debe ser una fecha AAAA-MM-DD válida (${v}).`)
  return v
}

/** A number from JSON (a number, or a numeric string with a dot or comma); NaN when it is not one. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && /^\s*-?\d+([.,]\d+)?\s*$/.test(value)) return Number(value.trim().replace(',', '.'))
  return Number.NaN
}

/** A number field within bounds: `Campo: debe ser un número …` otherwise. */
export function numberField(value: unknown, name: string, opts: { min?: number; max?: number; minExclusive?: boolean; required?: boolean } = {}): number | null {
  if (value === undefined || value === null || value === '') {
    if (opts.required === false) return null
    fail(400, `${name}: es obligatorio.`)
  }
  const n = toNumber(value)
  if (!Number.isFinite(n)) fail(400, `${name}: debe ser un número.`)
  const { min, max } = opts
  if (min !== undefined && (opts.minExclusive ? n <= min : n < min)) fail(400, `${name}: debe ser ${opts.minExclusive ? 'mayor que' : 'mayor o igual que'} ${String(min).replace('.', ',')} (es ${String(n).replace('.', ',')}).`)
  if (max !== undefined && n > max) fail(400, `${name}: no puede superar ${String(max).replace('.', ',')} (es ${String(n).replace('.', ',')}).`)
  return n
}

/** A required number field. */
export function requiredNumber(value: unknown, name: string, opts: { min?: number; max?: number; minExclusive?: boolean } = {}): number {
  return numberField(value, name, { ...opts, required: true })!
}

/** A boolean field (true/false, or the strings `true`/`false`/`1`/`0`). */
export function booleanField(value: unknown, name: string, fallback?: boolean): boolean {
  if (value === undefined || value === null || value === '') {
    if (fallback !== undefined) return fallback
    fail(400, `${name}: es obligatorio (true o false).`)
  }
  if (typeof value === 'boolean') return value
  const v = String(value).toLowerCase()
  if (v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  fail(400, `${name}: debe ser true o false.`)
}

/** An optional text field, trimmed (empty → null), at most `max` characters. */
export function textField(value: unknown, name: string, max: number, required = false): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    if (required) fail(400, `${name}: es obligatorio.`)
    return null
  }
  if (typeof value !== 'string') fail(400, `${name}: debe ser un texto.`)
  const text = value.trim()
  if (text.length > max) fail(400, `${name}: no puede tener más de ${max} caracteres.`)
  return text
}

/** A JSON object field. */
export function objectField(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) fail(400, `${name}: es obligatorio.`)
  if (typeof value !== 'object' || Array.isArray(value)) fail(400, `${name}: debe ser un objeto JSON.`)
  return value as Record<string, unknown>
}

/** `{ P1…P6 }` numbers for the first `periods` periods (required), the rest null (whatever was sent). */
export function periodsField(value: unknown, name: string, periods: number, opts: { min?: number; max?: number }): PorPeriodo {
  const obj = objectField(value, name)
  return porPeriodo(PERIODOS.map((p, i) => (i < periods ? requiredNumber(obj[p], `${name}.${p}`, opts) : null)))
}
