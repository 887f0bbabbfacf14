import type { ColumnFormat } from '../../schemas/screen'
import { getLanguage, messageIn } from '../i18n/i18n'
import { messages } from './messages'

/** The Intl locale of the interface's language: Spanish formats in ES, American ones in EN. */
export const intlLocale = (): string => (getLanguage() === 'en' ? 'en-US' : 'es-ES')
const locale = intlLocale
const cache = new Map<string, Intl.NumberFormat>()
function nf(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${locale()}:${key}`
  let f = cache.get(k)
  if (!f) {
    f = new Intl.NumberFormat(locale(), options)
    cache.set(k, f)
  }
  return f
}

/** dd/mm/yyyy in Spanish, mm/dd/yyyy in English (spec §9), from an ISO date or datetime; the date part is taken as written. */
export function formatDate(value: unknown): string {
  if (typeof value !== 'string' || value.length < 10) return value == null ? '' : String(value)
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
  if (!m) return value
  return getLanguage() === 'en' ? `${m[2]}/${m[3]}/${m[1]}` : `${m[3]}/${m[2]}/${m[1]}`
}

export function formatDateTime(value: unknown): string {
  if (typeof value !== 'string') return value == null ? '' : String(value)
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return value
  const date = formatDate(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`)
  return `${date} ${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

/** A cell or detail value as text, by format. */
export function formatValue(value: unknown, format: ColumnFormat | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  const n = typeof value === 'number' ? value : Number(value)
  switch (format) {
    case 'money':
      return Number.isFinite(n) ? nf('money', { style: 'currency', currency: 'EUR' }).format(n) : String(value)
    case 'energy':
      return Number.isFinite(n) ? `${nf('energy', { maximumFractionDigits: 0 }).format(n)} kWh` : String(value)
    case 'power':
      return Number.isFinite(n) ? `${nf('power', { maximumFractionDigits: 3 }).format(n)} kW` : String(value)
    case 'percent':
      return Number.isFinite(n) ? nf('percent', { style: 'percent', maximumFractionDigits: 1 }).format(n) : String(value)
    case 'number':
      return Number.isFinite(n) ? nf('number', { maximumFractionDigits: 4 }).format(n) : String(value)
    case 'integer':
      return Number.isFinite(n) ? nf('integer', { maximumFractionDigits: 0 }).format(n) : String(value)
    case 'date':
      return formatDate(value)
    case 'datetime':
      return formatDateTime(value)
    case 'boolean':
      return value === true || value === 1 || value === 'true' ? messageIn(messages, 'value.yes') : messageIn(messages, 'value.no')
    default:
      return Array.isArray(value) ? value.join(', ') : String(value)
  }
}

/** Numeric formats sit right-aligned in tables. */
export function isNumericFormat(format: ColumnFormat | undefined): boolean {
  return format === 'money' || format === 'energy' || format === 'power' || format === 'number' || format === 'integer' || format === 'percent'
}
