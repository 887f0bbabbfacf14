import { PERIODOS, type Periodo } from './contract-rules'

/**
 * Calendar facts of the energy tools: Europe/Madrid local days, ISO day arithmetic, the
 * national holidays that count as weekend for the access tariffs, and the tariff period of
 * each hour (domain notes: access tariffs).
 */

export const DAY_MS = 86_400_000

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `value` is a real `YYYY-MM-DD` calendar day. */
export function isIsoDay(value: string): boolean {
  const m = ISO_DAY.exec(value)
  if (!m) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value
}

/** Epoch milliseconds of the UTC midnight of an ISO day (calendar arithmetic only). */
export function dayMs(isoDay: string): number {
  // Memoised: invoices and price series ask for the same few thousand days again and again.
  let ms = dayMsCache.get(isoDay)
  if (ms === undefined) {
    ms = Date.parse(`${isoDay}T00:00:00Z`)
    if (dayMsCache.size > 50_000) dayMsCache.clear()
    dayMsCache.set(isoDay, ms)
  }
  return ms
}
const dayMsCache = new Map<string, number>()

export function isoOf(ms: number): string {
  let iso = isoCache.get(ms)
  if (iso === undefined) {
    iso = new Date(ms).toISOString().slice(0, 10)
    if (isoCache.size > 50_000) isoCache.clear()
    isoCache.set(ms, iso)
  }
  return iso
}
const isoCache = new Map<number, string>()

export function addDays(isoDay: string, days: number): string {
  return isoOf(dayMs(isoDay) + days * DAY_MS)
}

/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((dayMs(b) - dayMs(a)) / DAY_MS)
}

/** Every day from `desde` to `hasta`, both included. */
export function eachDay(desde: string, hasta: string): string[] {
  const out: string[] = []
  for (let t = dayMs(desde), end = dayMs(hasta); t <= end; t += DAY_MS) out.push(isoOf(t))
  return out
}

/** `2026-02` → 28. */
export function daysInMonth(year: number, month1: number): number {
  return new Date(Date.UTC(year, month1, 0)).getUTCDate()
}

/** The same calendar day `years` later (29 February → 28 February). */
export function addYearsDay(isoDay: string, years: number): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y + years, m - 1, d))
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0)
  return date.toISOString().slice(0, 10)
}

/** `YYYY-MM` of the month `months` after (negative: before) the month of `ym`. */
export function addMonths(ym: string, months: number): string {
  const [y, m] = ym.split('-').map(Number) as [number, number]
  const d = new Date(Date.UTC(y, m - 1 + months, 1))
  return d.toISOString().slice(0, 7)
}

const madridFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** The local day and hour in Madrid of an instant. */
export function madridNow(ms: number): { day: string; hour: number; minute: number } {
  const parts = Object.fromEntries(madridFormat.formatToParts(new Date(ms)).map((p) => [p.type, p.value]))
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) % 24, minute: Number(parts.minute) }
}

/** The local day in Madrid of an instant. */
export function madridToday(ms: number): string {
  return madridNow(ms).day
}

/**
 * National holidays that count as weekend days for the access tariffs: the fixed-date,
 * non-substitutable ones (1 Jan, 6 Jan, 1 May, 15 Aug, 12 Oct, 1 Nov, 6 Dec, 8 Dec, 25 Dec).
 * Holidays without a fixed date (Good Friday) and regional ones do not count.
 */
const FESTIVOS = new Set(['01-01', '01-06', '05-01', '08-15', '10-12', '11-01', '12-06', '12-08', '12-25'])

export function esFestivoNacional(isoDay: string): boolean {
  return FESTIVOS.has(isoDay.slice(5))
}

/** 0 Sunday … 6 Saturday. */
export function weekday(isoDay: string): number {
  return new Date(dayMs(isoDay)).getUTCDay()
}

/** Saturday, Sunday or a national holiday: the whole day is the cheapest period. */
export function esDiaNoLaborable(isoDay: string): boolean {
  const w = weekday(isoDay)
  return w === 0 || w === 6 || esFestivoNacional(isoDay)
}

/**
 * Seasons of the 6-period tariffs (peninsula, Circular 3/2020): high January, February,
 * July, December; medium-high March, November; medium June, August, September; low April,
 * May, October. Each season has its own pair of periods for the peak and flat hours.
 */
const SEASON_PAIR: readonly (readonly [Periodo, Periodo])[] = [
  ['P1', 'P2'], // Jan  alta
  ['P1', 'P2'], // Feb  alta
  ['P2', 'P3'], // Mar  media alta
  ['P4', 'P5'], // Apr  baja
  ['P4', 'P5'], // May  baja
  ['P3', 'P4'], // Jun  media
  ['P1', 'P2'], // Jul  alta
  ['P3', 'P4'], // Aug  media
  ['P3', 'P4'], // Sep  media
  ['P4', 'P5'], // Oct  baja
  ['P2', 'P3'], // Nov  media alta
  ['P1', 'P2'], // Dec  alta
]

/** Peak hours (10–14 and 18–22 in 2.0TD; 9–14 and 18–22 in the 6-period tariffs). */
function esPunta(hour: number, twoPeriod: boolean): boolean {
  return twoPeriod ? (hour >= 10 && hour < 14) || (hour >= 18 && hour < 22) : (hour >= 9 && hour < 14) || (hour >= 18 && hour < 22)
}

/**
 * The energy period of a local hour (0–23) of a day for a tariff id (1 = 2.0TD, 2 = 3.0TD,
 * 3–6 = 6.xTD):
 * - 2.0TD: weekdays P1 10–14 and 18–22, P2 8–10, 14–18 and 22–24, P3 0–8; weekends and
 *   national holidays P3 all day.
 * - 3.0TD and 6.xTD: 0–8 P6; 8–24 the season's pair (peak 9–14 and 18–22, flat the rest);
 *   weekends and national holidays P6 all day.
 */
export function periodoEnergia(tarifaId: number, isoDay: string, hour: number): Periodo {
  const twoPeriod = tarifaId === 1
  if (esDiaNoLaborable(isoDay)) return twoPeriod ? 'P3' : 'P6'
  if (hour < 8) return twoPeriod ? 'P3' : 'P6'
  if (twoPeriod) return esPunta(hour, true) ? 'P1' : 'P2'
  const pair = SEASON_PAIR[Number(isoDay.slice(5, 7)) - 1]!
  return esPunta(hour, false) ? pair[0] : pair[1]
}

/** The energy period of each local hour (0–23) of a day: `periodoEnergia` for the 24 hours, computed once. */
export function periodosDelDia(tarifaId: number, isoDay: string): Periodo[] {
  const twoPeriod = tarifaId === 1
  const off: Periodo = twoPeriod ? 'P3' : 'P6'
  if (esDiaNoLaborable(isoDay)) return new Array<Periodo>(24).fill(off)
  const pair = SEASON_PAIR[Number(isoDay.slice(5, 7)) - 1]!
  const out: Periodo[] = []
  for (let h = 0; h < 24; h++) {
    if (h < 8) out.push(off)
    else if (twoPeriod) out.push(esPunta(h, true) ? 'P1' : 'P2')
    else out.push(esPunta(h, false) ? pair[0] : pair[1])
  }
  return out
}

/** Index (0–5) of a period. */
export function periodoIndex(p: Periodo): number {
  return PERIODOS.indexOf(p)
}

// ── clock changes (Europe/Madrid) ─────────────────────────────────────────────

/** The last Sunday of a month (`month1` 1–12) of a year. */
function lastSunday(year: number, month1: number): string {
  const last = `${year}-${String(month1).padStart(2, '0')}-${String(daysInMonth(year, month1)).padStart(2, '0')}`
  return addDays(last, -weekday(last))
}

/**
 * The local clock hours of a day in Madrid, in order: 24 on most days; 23 on the last Sunday of
 * March (02:00 does not exist: the clock jumps from 02:00 to 03:00) and 25 on the last Sunday of
 * October (02:00–03:00 happens twice, first in summer time and then in winter time).
 */
export function horasDelDia(isoDay: string): readonly number[] {
  const month = isoDay.slice(5, 7)
  if (month !== '03' && month !== '10') return HOURS_24
  let hours = clockChangeCache.get(isoDay)
  if (!hours) {
    const year = Number(isoDay.slice(0, 4))
    hours = month === '03' && isoDay === lastSunday(year, 3) ? HOURS_23 : month === '10' && isoDay === lastSunday(year, 10) ? HOURS_25 : HOURS_24
    clockChangeCache.set(isoDay, hours)
  }
  return hours
}
const clockChangeCache = new Map<string, readonly number[]>()

const HOURS_24: readonly number[] = Array.from({ length: 24 }, (_, h) => h)
const HOURS_23: readonly number[] = HOURS_24.filter((h) => h !== 2)
const HOURS_25: readonly number[] = [0, 1, 2, 2, ...HOURS_24.slice(3)]

/**
 * The UTC offset of the `n`-th hour of a local day (`+01:00` winter, `+02:00` summer), so an
 * hour of the 25-hour day is never ambiguous.
 */
export function offsetDeHora(isoDay: string, n: number): '+01:00' | '+02:00' {
  const year = Number(isoDay.slice(0, 4))
  const spring = lastSunday(year, 3)
  const autumn = lastSunday(year, 10)
  if (isoDay === spring) return n < 2 ? '+01:00' : '+02:00'
  if (isoDay === autumn) return n < 3 ? '+02:00' : '+01:00'
  return isoDay > spring && isoDay < autumn ? '+02:00' : '+01:00'
}

/** The energy period of each hour of a day (23, 24 or 25 hours, `horasDelDia`). */
export function periodosDeLasHoras(tarifaId: number, isoDay: string): Periodo[] {
  const byClock = periodosDelDia(tarifaId, isoDay)
  return horasDelDia(isoDay).map((h) => byClock[h]!)
}
