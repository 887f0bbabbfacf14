import type { Language } from '../../schemas/i18n'
import type { ColumnFormat } from '../../schemas/screen'
import { getLanguage, messageIn } from '../i18n/i18n'
import { messages } from './messages'

/**
 * The portal's one set of formatters: every number, amount, energy figure and date the renderer
 * and the widgets show is written here, in the interface's language (spec §9: Spanish formats
 * in ES, American ones in EN).
 */

/** The Intl locale of a language (the interface's by default). */
export const intlLocale = (lang: Language = getLanguage()): string => (lang === 'en' ? 'en-US' : 'es-ES')

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>()
/** One Intl formatter per locale and key (its options): building them is the costly part of formatting. */
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, build: (locale: string) => F): F {
  const k = `${intlLocale()}:${key}`
  let f = cache.get(k) as F | undefined
  if (!f) {
    f = build(intlLocale())
    cache.set(k, f)
  }
  return f
}
const nf = (key: string, options: Intl.NumberFormatOptions) => cached(`n:${key}`, (locale) => new Intl.NumberFormat(locale, options))
const df = (key: string, options: Intl.DateTimeFormatOptions) => cached(`d:${key}`, (locale) => new Intl.DateTimeFormat(locale, options))

/** A month of a year, short: "ene 2026" ("Jan 2026" in English). */
export function formatMonth(year: number, month: number): string {
  return df('month', { month: 'short', year: 'numeric' }).format(new Date(year, month - 1, 1)).replace('.', '')
}

/** A number with at most `digits` decimals (and at least `minDigits`). */
export function formatNumber(value: number, digits = 2, minDigits?: number): string {
  return nf(`number:${digits}:${minDigits ?? ''}`, { maximumFractionDigits: digits, minimumFractionDigits: minDigits }).format(value)
}

/** Euros; `digits` caps the decimals (0 for whole-euro amounts, which are rounded first). */
export function formatMoney(value: number, digits?: number): string {
  if (digits === undefined) return nf('money', { style: 'currency', currency: 'EUR' }).format(value)
  return nf(`money:${digits}`, { style: 'currency', currency: 'EUR', maximumFractionDigits: digits }).format(digits === 0 ? Math.round(value) : value)
}

/** Energy in kWh, whole by default (a battery's capacity keeps two decimals). */
export function formatKwh(value: number, digits = 0): string {
  return `${nf(`energy:${digits}`, { maximumFractionDigits: digits }).format(value)} kWh`
}

/** dd/mm/yyyy in Spanish, mm/dd/yyyy in English (spec §9), from an ISO date or datetime; the date part is taken as written. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || value.length < 10) return value == null ? '' : String(value)
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
  if (!m) return value
  return getLanguage() === 'en' ? `${m[2]}/${m[3]}/${m[1]}` : `${m[3]}/${m[2]}/${m[1]}`
}

/** A date and local time (hh:mm) from an ISO datetime. */
export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string') return value == null ? '' : String(value)
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return value
  return `${formatDate(toIsoDay(d))} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

/** A 'YYYY-MM-DD' day as a local Date (days have no time zone here); null when it is not one. */
export function fromIsoDay(value: unknown): Date | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null
  const [y, m, d] = value.slice(0, 10).split('-').map(Number)
  return new Date(y!, m! - 1, d!)
}

/** A local Date as its 'YYYY-MM-DD' day. */
export function toIsoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
}

/** A cell or detail value as text, by format; '—' for nothing. */
export function formatValue(value: unknown, format: ColumnFormat | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  const n = typeof value === 'number' ? value : Number(value)
  switch (format) {
    case 'money':
      return Number.isFinite(n) ? formatMoney(n) : String(value)
    case 'energy':
      return Number.isFinite(n) ? formatKwh(n) : String(value)
    case 'power':
      return Number.isFinite(n) ? `${nf('power', { maximumFractionDigits: 3 }).format(n)} kW` : String(value)
    case 'percent':
      return Number.isFinite(n) ? nf('percent', { style: 'percent', maximumFractionDigits: 1 }).format(n) : String(value)
    case 'number':
      return Number.isFinite(n) ? formatNumber(n, 4) : String(value)
    case 'integer':
      return Number.isFinite(n) ? formatNumber(n, 0) : String(value)
    case 'date':
      return formatDate(value)
    case 'datetime':
      return formatDateTime(value)
    case 'boolean':
      return value === true || value === 1 || value === 'true' ? messageIn(messages, 'value.yes') : messageIn(messages, 'value.no')
    case 'changes':
      return changesOf(value)
        .map((c) => `${c.field}: ${c.before} → ${c.after}`)
        .join('; ')
    default:
      return Array.isArray(value) ? value.join(', ') : String(value)
  }
}

/** A changed field: its name and both values as text ('—' for none). */
export interface FieldChange {
  field: string
  before: string
  after: string
}

/** The `{ field, before, after }` items of a `changes` value; anything else in it is left out. */
export function changesOf(value: unknown): FieldChange[] {
  if (!Array.isArray(value)) return []
  const text = (v: unknown) => (v === null || v === undefined || v === '' ? '—' : String(v))
  return value
    .filter((c): c is Record<string, unknown> => c !== null && typeof c === 'object' && typeof (c as { field?: unknown }).field === 'string')
    .map((c) => ({ field: c.field as string, before: text(c.before), after: text(c.after) }))
}

/** Numeric formats sit right-aligned in tables. */
export function isNumericFormat(format: ColumnFormat | undefined): boolean {
  return format === 'money' || format === 'energy' || format === 'power' || format === 'number' || format === 'integer' || format === 'percent'
}
