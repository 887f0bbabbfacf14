import { getLanguage, messageIn } from '../../i18n/i18n'
import { formatDate } from '../../ui/format'
import type { Language } from '../../../schemas/i18n'
import { messages } from './messages'
import { PERIODS, type Period } from '../../../schemas/business/periods'
import type { IndexSeries, Modalidad, OmieSeries } from '../../../schemas/business/energy'

/**
 * Pure helpers of the energy-price history (no React): dates as Madrid local days
 * (`YYYY-MM-DD`), the default range, the URL parameters and the series shapes. Texts are in
 * the current language (./messages.ts).
 */

export const SERIES_START = '2023-01-01'
/** Longest range the API answers (4 years). */
export const MAX_RANGE_DAYS = 4 * 365 + 1
export const DEFAULT_DAYS = 30
export const FEE_MIN = 0
export const FEE_MAX = 50
/** Longest range the OMIE price comes in at its native resolution (hour or quarter-hour) when asked: a year (the API's own limit). */
export const MAX_NATIVE_DAYS = 366

/** The OMIE series' resolution: by the range's length (`auto`: native up to 7 days), native, or daily averages. */
export type Resolution = 'auto' | 'nativa' | 'diaria'

export type Serie = 'omie' | 'index' | 'excedentes'

/** What a chart says in place when its series failed (the toast's area and message are the endpoint catalogue's). */
export function seriesError(serie: Serie, lang?: Language): string {
  return messageIn(messages, `error.${serie}`, undefined, lang)
}


const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`))

/** A day plus `n` days (calendar arithmetic in UTC, so no daylight-saving surprises). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000)
}

/** The default range: the last 30 days up to the last day with prices, never before the series starts. */
export function defaultRange(lastDay: string, days = DEFAULT_DAYS): { desde: string; hasta: string } {
  const desde = addDays(lastDay, -(days - 1))
  return { desde: desde < SERIES_START ? SERIES_START : desde, hasta: lastDay }
}

/** Quick ranges ending at the last day with prices. */
export function quickRange(kind: 'dia' | '7d' | '30d' | '12m' | 'anio', lastDay: string): { desde: string; hasta: string } {
  switch (kind) {
    case 'dia':
      return { desde: lastDay, hasta: lastDay }
    case '7d':
      return defaultRange(lastDay, 7)
    case '30d':
      return defaultRange(lastDay, 30)
    case '12m':
      return { desde: maxDay(addDays(addYears(lastDay, -1), 1), SERIES_START), hasta: lastDay }
    case 'anio':
      return { desde: maxDay(`${lastDay.slice(0, 4)}-01-01`, SERIES_START), hasta: lastDay }
  }
}

function addYears(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y + n, m - 1, d))
  // 29 February of a non-leap year becomes 28 February.
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0)
  return date.toISOString().slice(0, 10)
}

const maxDay = (a: string, b: string) => (a > b ? a : b)

export interface PriceParams {
  desde: string
  hasta: string
  tarifa: number
  modalidad: Modalidad
  /** €/MWh; null = the offer's default fee for the tariff (the API's own). */
  fee: number | null
  resolucion: Resolution
}

/** The view's parameters from the URL, each falling back to its default when missing or wrong. */
export function readParams(search: URLSearchParams, lastDay: string): PriceParams {
  const def = defaultRange(lastDay)
  let desde = search.get('desde') ?? ''
  let hasta = search.get('hasta') ?? ''
  if (isDay(desde) && isDay(hasta)) {
    // An old link may reach past the series: keep what can be asked.
    if (hasta > lastDay) hasta = lastDay
    if (desde < SERIES_START) desde = SERIES_START
    if (daysBetween(desde, hasta) + 1 > MAX_RANGE_DAYS) desde = addDays(hasta, -(MAX_RANGE_DAYS - 1))
  }
  if (!isDay(desde) || !isDay(hasta) || desde > hasta) {
    desde = def.desde
    hasta = def.hasta
  }
  const tarifa = Number(search.get('tarifa'))
  const fee = Number(search.get('fee'))
  const modalidad = search.get('modalidad') === 'con_impuestos' ? 'con_impuestos' : 'sin_impuestos'
  const resolucion = search.get('resolucion')
  return {
    desde,
    hasta,
    tarifa: Number.isInteger(tarifa) && tarifa > 0 ? tarifa : 1,
    modalidad,
    fee: (search.get('fee') ?? '') !== '' && Number.isFinite(fee) && fee >= FEE_MIN && fee <= FEE_MAX ? fee : null,
    // Native over more than a year cannot be asked: such a link falls back to the automatic choice.
    resolucion: resolucion === 'diaria' || (resolucion === 'nativa' && daysBetween(desde, hasta) + 1 <= MAX_NATIVE_DAYS) ? resolucion : 'auto',
  }
}

export function writeParams(p: PriceParams): URLSearchParams {
  const out = new URLSearchParams({ desde: p.desde, hasta: p.hasta, tarifa: String(p.tarifa), modalidad: p.modalidad })
  if (p.fee !== null) out.set('fee', String(p.fee))
  if (p.resolucion !== 'auto') out.set('resolucion', p.resolucion)
  return out
}

/** What is wrong with a range, in the current language; null when it can be asked. */
export function rangeError(desde: string, hasta: string, lastDay: string, resolucion: Resolution = 'auto'): string | null {
  if (!isDay(desde) || !isDay(hasta)) return messageIn(messages, 'range.bothDates')
  if (desde > hasta) return messageIn(messages, 'range.order')
  if (desde < SERIES_START) return messageIn(messages, 'range.from', { date: formatDate(SERIES_START) })
  if (hasta > lastDay) return messageIn(messages, 'range.to', { date: formatDate(lastDay) })
  if (daysBetween(desde, hasta) + 1 > MAX_RANGE_DAYS) return messageIn(messages, 'range.tooLong')
  if (resolucion === 'nativa' && daysBetween(desde, hasta) + 1 > MAX_NATIVE_DAYS) return messageIn(messages, 'range.nativeTooLong')
  return null
}

/** A Madrid local timestamp (`YYYY-MM-DD` or `YYYY-MM-DDTHH:mm`) as a browser Date with the same wall-clock time. */
export function localTime(fecha: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/.exec(fecha)
  if (!m) return NaN
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)).getTime()
}

/** The periods with a value on some day of the index (2.0TD: P1–P3). */
export function indexPeriods(puntos: IndexSeries['Puntos']): Period[] {
  return PERIODS.filter((p) => puntos.some((pt) => typeof pt.PorPeriodo?.[p] === 'number'))
}

export function resolutionLabel(resolucion: OmieSeries['Resolucion'], lang?: Language): string {
  return messageIn(messages, `resolution.${resolucion}`, undefined, lang)
}

/** Chart.js time unit and tooltip format (date-fns) for a resolution: dd/MM/yyyy in Spanish, MM/dd/yyyy in English. */
export function timeAxisFor(resolucion: OmieSeries['Resolucion'], days: number, lang: Language = getLanguage()): { unit: 'hour' | 'day' | 'week' | 'month'; tooltipFormat: string } {
  const date = lang === 'en' ? 'MM/dd/yyyy' : 'dd/MM/yyyy'
  if (resolucion === 'diaria') return { unit: days > 400 ? 'month' : days > 90 ? 'week' : 'day', tooltipFormat: date }
  return { unit: days > 1 ? 'day' : 'hour', tooltipFormat: `${date} HH:mm` }
}

/** min/mean/max of numbers (for summaries when the answer has none). */
export function stats(values: readonly number[]): { min: number; max: number; mean: number } | null {
  if (!values.length) return null
  let min = Infinity
  let max = -Infinity
  let sum = 0
  for (const v of values) {
    if (v < min) min = v
    if (v > max) max = v
    sum += v
  }
  return { min, max, mean: sum / values.length }
}

/** The OMIE call's `resolucion` for the view's choice: none for the automatic one (the API decides by the range). */
export const resolutionQuery = (r: Resolution): { resolucion?: 'nativa' | 'diaria' } => (r === 'auto' ? {} : { resolucion: r })
