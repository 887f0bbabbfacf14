import type Database from 'better-sqlite3'
import { fail } from '../../lib/http'
import type { ColumnMap } from '../../lib/paging'
import { scopeConditions, type Scope } from '../../lib/visibility'

/** `SELECT <sql> AS <Name>, …` for every column of a list (names are the JSON field names). */
export function selectList(columns: ColumnMap, extra: Record<string, string> = {}): string {
  const fields = [...Object.entries(columns).map(([name, spec]) => `${spec.sql} AS ${name}`), ...Object.entries(extra).map(([name, sql]) => `${sql} AS ${name}`)]
  return `SELECT ${fields.join(', ')}`
}

/** A request body that must be a JSON object. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) fail(400, 'El cuerpo de la petición debe ser un objeto JSON.')
  return body as Record<string, unknown>
}

/** A positive integer from a body field, route parameter or query value (numbers or digit strings). */
export function positiveInt(value: unknown, name: string): number {
  if (value === undefined || value === null || value === '') fail(400, `Falta ${name}.`)
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(n) || n < 1) fail(400, `${name} debe ser un número entero positivo.`)
  return n
}

/** A `true`/`false` query flag (absent = the fallback). */
export function booleanFlag(value: unknown, name: string, fallback = false): boolean {
  if (value === undefined || value === '') return fallback
  const v = String(value).toLowerCase()
  if (v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  fail(400, `${name} debe ser true o false.`)
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/

/** A `YYYY-MM-DD` query value that is a real calendar day. */
export function isoDayParam(value: unknown, name: string): string {
  const v = String(value ?? '').trim()
  if (!ISO_DAY.test(v)) fail(400, `${name} debe ser una fecha AAAA-MM-DD.`)
  const d = new Date(`${v}T00:00:00Z`)
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) fail(400, `${name} no es una fecha válida: ${v}.`)
  return v
}

export interface ContractRef {
  id: number
  codigo: string
  estado: string
  agente_id: number | null
}

/** A contract of the caller's scope by code; 404 (Spanish text) when it does not exist or is not visible. */
export function visibleContract(db: Database.Database, scope: Scope, code: string): ContractRef {
  const { where, params } = scopeConditions(scope)
  const row = db
    .prepare(`SELECT c.id, c.codigo, c.estado, c.agente_id FROM contratos c WHERE c.codigo = ? AND ${where.join(' AND ')}`)
    .get(code, ...params) as ContractRef | undefined
  if (!row) fail(404, `No se ha encontrado el contrato ${code}.`)
  return row
}
