import { fail } from './http'

/**
 * Business codes of a brand: contracts `EV-2026-000123` and invoices `FEV2026-0000123`.
 * The prefix is fixed per brand domain.
 */
const PREFIXES: Record<string, string> = {
  'energiaverde.es': 'EV',
  'grupoenergia.es': 'GE',
  'energialimpia.es': 'EL',
}

export function brandPrefix(dominio: string): string {
  const known = PREFIXES[dominio.toLowerCase()]
  if (known) return known
  // An unknown brand: the first two letters of its name label.
  const label = dominio.split('.')[0] ?? dominio
  return (label.replace(/[^a-z]/gi, '').slice(0, 2) || 'XX').toUpperCase()
}

export const CONTRACT_CODE = /^[A-Z]{2}-\d{4}-\d{6}$/

export function contractCode(prefix: string, year: number, seq: number): string {
  return `${prefix}-${year}-${String(seq).padStart(6, '0')}`
}

export function invoiceNumber(prefix: string, year: number, seq: number): string {
  return `F${prefix}${year}-${String(seq).padStart(7, '0')}`
}

/**
 * A contract code from a request (query or body): trimmed and upper-cased; missing or
 * malformed is a 400 with a Spanish message.
 */
export function parseContractCode(raw: unknown, name = 'codigo'): string {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) fail(400, `Falta el código de contrato (${name}).`)
  if (typeof raw !== 'string') fail(400, `El código de contrato (${name}) debe ser un texto.`)
  const code = raw.trim().toUpperCase()
  if (!CONTRACT_CODE.test(code)) fail(400, `El código de contrato «${raw.trim().slice(0, 40)}» no tiene el formato PP-AAAA-NNNNNN (por ejemplo EV-2026-000123).`)
  return code
}
