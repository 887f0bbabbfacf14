import { Random, hashSeed } from '../lib/random'
import { addDays, daysInMonth, eachDay, esDiaNoLaborable, horasDelDia, madridNow, offsetDeHora, weekday } from './calendar'

/**
 * The OMIE day-ahead marginal price of Spain (€/MWh), a deterministic demo series (domain
 * notes): from 1 January 2023, hourly until 30 September 2025 and a price per quarter-hour
 * since 1 October 2025. Days are Europe/Madrid local days with their real length: 23 hours on
 * the last Sunday of March, 25 on the last Sunday of October (`horasDelDia`).
 *
 * Each month is generated at once from its own seed (`omie:YYYY-MM`), so a month always has the
 * same prices whatever range is asked and whenever: a daily level (a smoothed random walk,
 * lower at weekends), a daily shape (night valley, morning shoulder, evening peak) and a solar
 * dip at midday that deepens in spring. Then the month's cheapest hours become its zero and
 * negative hours, as many as the market had that month (`HORAS_CERO`, `HORAS_NEGATIVAS`; the
 * README says where the counts come from), and the other hours are shifted (or, when a shift
 * would push them to zero, stretched) so that the month's average is the real one (`MONTHLY`).
 * Nothing is clipped but to the market's own limits (−500 and 4 000 €/MWh).
 *
 * This is the one price series of the API: the energy screens, the closing-price index, the
 * battery and comparator averages and the indexed invoices all read it.
 */

export const OMIE_DESDE = '2023-01-01'
/** First day of quarter-hour prices (the market's 15-minute products). */
export const OMIE_CUARTOHORARIO_DESDE = '2025-10-01'
/** The day-ahead market's harmonised price limits (€/MWh). */
export const PRECIO_MINIMO_MERCADO = -500
export const PRECIO_MAXIMO_MERCADO = 4000

/** Monthly averages, €/MWh (2023–2025 the real ones, rounded to 0.1; later months a typical year). */
const MONTHLY: Record<string, number> = {
  '2023-01': 70.3, '2023-02': 133.5, '2023-03': 89.6, '2023-04': 73.7, '2023-05': 74.2, '2023-06': 92.9,
  '2023-07': 90.5, '2023-08': 96.0, '2023-09': 103.4, '2023-10': 89.9, '2023-11': 63.9, '2023-12': 72.9,
  '2024-01': 74.2, '2024-02': 40.0, '2024-03': 20.3, '2024-04': 13.7, '2024-05': 30.4, '2024-06': 56.0,
  '2024-07': 71.6, '2024-08': 91.2, '2024-09': 72.6, '2024-10': 69.3, '2024-11': 103.0, '2024-12': 111.4,
  '2025-01': 98.6, '2025-02': 108.0, '2025-03': 52.1, '2025-04': 26.8, '2025-05': 18.0, '2025-06': 61.9,
  '2025-07': 68.9, '2025-08': 66.0, '2025-09': 62.5, '2025-10': 79.0, '2025-11': 72.0, '2025-12': 84.0,
}
/** A typical year (January first) for the months after the table, varied ±8 % per month. */
const TYPICAL = [82, 72, 45, 28, 30, 60, 72, 76, 68, 74, 80, 88]

/**
 * Hours at exactly 0 €/MWh and hours below zero per month (order of magnitude of the Spanish
 * zone's; README). Zero hours appeared in spring 2023, negative ones on 1 April 2024. Months
 * after the table take the typical counts of 2025 (`*_TIPICAS`).
 */
const HORAS_CERO: Record<string, number> = {
  '2023-03': 3, '2023-04': 25, '2023-05': 40, '2023-10': 2, '2023-11': 15, '2023-12': 8,
  '2024-02': 20, '2024-03': 150, '2024-04': 160, '2024-05': 100, '2024-06': 25, '2024-07': 3, '2024-09': 4, '2024-10': 15, '2024-11': 4,
  '2025-01': 2, '2025-02': 8, '2025-03': 130, '2025-04': 140, '2025-05': 120, '2025-06': 35, '2025-07': 8, '2025-08': 8, '2025-09': 15,
  '2025-10': 20, '2025-11': 10, '2025-12': 5,
}
const HORAS_NEGATIVAS: Record<string, number> = {
  '2024-04': 110, '2024-05': 80, '2024-06': 25, '2024-07': 5, '2024-09': 5, '2024-10': 15, '2024-11': 5, '2024-12': 2,
  '2025-01': 4, '2025-02': 10, '2025-03': 120, '2025-04': 200, '2025-05': 210, '2025-06': 50, '2025-07': 15, '2025-08': 15, '2025-09': 25,
  '2025-10': 35, '2025-11': 12, '2025-12': 6,
}
const ULTIMO_MES_TABLA = '2025-12'
const CERO_TIPICAS = [2, 8, 130, 140, 120, 35, 8, 8, 15, 20, 10, 5]
const NEGATIVAS_TIPICAS = [4, 10, 120, 200, 210, 50, 15, 15, 25, 35, 12, 6]

/** Zero and negative hours of a month (`YYYY-MM`). */
export function horasCeroYNegativas(ym: string): { cero: number; negativas: number } {
  if (ym > ULTIMO_MES_TABLA) {
    const m = Number(ym.slice(5, 7)) - 1
    return { cero: CERO_TIPICAS[m]!, negativas: NEGATIVAS_TIPICAS[m]! }
  }
  return { cero: HORAS_CERO[ym] ?? 0, negativas: HORAS_NEGATIVAS[ym] ?? 0 }
}

/** Daily shape by local hour (relative to the day's level; mean 0 after centring). */
const SHAPE_RAW = [
  -0.04, -0.1, -0.14, -0.17, -0.18, -0.15, -0.06, 0.07, 0.15, 0.12, 0.06, 0.02, -0.02, -0.04, -0.05, -0.04, 0.0, 0.08, 0.18, 0.29, 0.35, 0.32, 0.2, 0.06,
]
const SHAPE = (() => {
  const mean = SHAPE_RAW.reduce((s, v) => s + v, 0) / SHAPE_RAW.length
  return SHAPE_RAW.map((v) => v - mean)
})()

/** Local clock hours of sunrise and sunset by month (peninsula, summer time from April to October). */
export const SOLAR_HOURS: readonly (readonly [number, number])[] = [
  [8.6, 18.2], [8.2, 18.8], [7.6, 19.3], [7.9, 20.8], [7.3, 21.3], [7.0, 21.7],
  [7.2, 21.6], [7.6, 21.1], [8.0, 20.4], [8.4, 19.6], [7.9, 18.1], [8.4, 17.9],
]
/** Depth of the midday solar dip by month (share of the day's level). */
const SOLAR_DEPTH = [0.38, 0.6, 1.15, 1.6, 1.6, 1.1, 0.75, 0.7, 0.75, 0.65, 0.48, 0.35]

/** Relative solar production of a local clock time (hours, fractional) in a month (0–11): a sine between sunrise and sunset. */
export function solarProfile(month0: number, hour: number): number {
  const [rise, set] = SOLAR_HOURS[month0]!
  if (hour <= rise || hour >= set) return 0
  return Math.sin((Math.PI * (hour - rise)) / (set - rise))
}

function monthTarget(ym: string): number {
  const known = MONTHLY[ym]
  if (known !== undefined) return known
  const m = Number(ym.slice(5, 7)) - 1
  const r = new Random(hashSeed(`omie-objetivo:${ym}`))
  return Math.round(TYPICAL[m]! * (0.92 + 0.16 * r.next()) * 10) / 10
}

/** Prices per hour of a local day: 1 (hourly) or 4 (quarter-hour). */
export function slotsPorHora(isoDay: string): 1 | 4 {
  return isoDay >= OMIE_CUARTOHORARIO_DESDE ? 4 : 1
}

/** Prices of a normal (24-hour) local day: 24 or 96; the clock-change days have one hour fewer or more. */
export function slotsPerDay(isoDay: string): 24 | 96 {
  return slotsPorHora(isoDay) === 4 ? 96 : 24
}

interface MonthSeries {
  /** Offset in `values` of each day's first price, and one past the last day's. */
  dayStart: number[]
  values: Float64Array
}

const cache = new Map<string, MonthSeries>()

function generateMonth(ym: string): MonthSeries {
  const [y, m1] = ym.split('-').map(Number) as [number, number]
  const m0 = m1 - 1
  const days = daysInMonth(y, m1)
  const perHour = slotsPorHora(`${ym}-01`)
  const rnd = new Random(hashSeed(`omie:${ym}`))
  const target = monthTarget(ym)
  const dayStart: number[] = [0]
  const raw: number[] = []

  // Mean of the solar bump over the day, to keep the dip from moving the day's average.
  let solarMean = 0
  for (let h = 0; h < 24; h++) solarMean += solarProfile(m0, h + 0.5) / 24

  let walk = (rnd.next() - 0.5) * 0.6
  for (let d = 0; d < days; d++) {
    const day = `${ym}-${String(d + 1).padStart(2, '0')}`
    walk = 0.65 * walk + 0.55 * (rnd.next() - 0.5)
    const w = weekday(day)
    const weekend = w === 6 ? 0.92 : w === 0 || esDiaNoLaborable(day) ? 0.84 : 1
    const level = target * Math.max(0.2, 1 + walk) * weekend
    // Windy or cloudy days: the solar dip varies from day to day.
    const sun = 0.55 + 0.7 * rnd.next()
    const hours = horasDelDia(day)
    const hourly = hours.map((h) => {
      const solar = (solarProfile(m0, h + 0.5) - solarMean) * SOLAR_DEPTH[m0]! * sun
      return level * (1 + SHAPE[h]! - solar) + target * 0.04 * (rnd.next() - 0.5)
    })
    hourly.forEach((v, n) => {
      if (perHour === 1) {
        raw.push(v)
        return
      }
      const prev = hourly[Math.max(0, n - 1)]!
      const next = hourly[Math.min(hourly.length - 1, n + 1)]!
      // A slope through the hour towards its neighbours, plus a little quarter-hour noise.
      for (let q = 0; q < 4; q++) raw.push(v + ((next - prev) * (q - 1.5)) / 8 + target * 0.025 * (rnd.next() - 0.5))
    })
    dayStart.push(raw.length)
  }
  return { dayStart, values: calibrate(ym, raw, perHour, target, rnd) }
}

/**
 * The month's cheapest slots become its zero and negative hours; the others are shifted (or
 * stretched above a small floor when a shift would reach zero) to the month's average; cents.
 */
function calibrate(ym: string, raw: number[], perHour: number, target: number, rnd: Random): Float64Array {
  const n = raw.length
  const { cero, negativas } = horasCeroYNegativas(ym)
  // At most half the month at zero or below (the tables stay well under it).
  const nNeg = Math.min(negativas * perHour, Math.floor(n * 0.3))
  const nZero = Math.min(cero * perHour, Math.floor(n * 0.5) - nNeg)
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => raw[a]! - raw[b]! || a - b)
  const values = new Float64Array(n)
  const pinned = new Uint8Array(n)
  let pinnedSum = 0
  for (let k = 0; k < nNeg + nZero; k++) {
    const i = order[k]!
    // Mostly a few cents to a few euros below zero, now and then deeper.
    const v = k < nNeg ? -Math.round((0.01 + 4 * rnd.next() ** 3 + (rnd.chance(0.04) ? 5 + 10 * rnd.next() : 0)) * 100) / 100 : 0
    values[i] = v
    pinned[i] = 1
    pinnedSum += v
  }
  const free = order.slice(nNeg + nZero)
  const restTarget = target * n - pinnedSum
  let restSum = 0
  for (const i of free) restSum += raw[i]!
  const shift = (restTarget - restSum) / free.length
  const low = raw[free[0]!]!
  const FLOOR = 0.3
  if (low + shift >= FLOOR) {
    for (const i of free) values[i] = raw[i]! + shift
  } else {
    // Stretch above the floor: v' = FLOOR + (v − low) × k, with k keeping the average.
    let spread = 0
    for (const i of free) spread += raw[i]! - low
    const k = (restTarget - FLOOR * free.length) / spread
    for (const i of free) values[i] = FLOOR + (raw[i]! - low) * k
  }
  for (let i = 0; i < n; i++) {
    if (pinned[i]) continue
    values[i] = Math.min(PRECIO_MAXIMO_MERCADO, Math.max(PRECIO_MINIMO_MERCADO, Math.round(values[i]! * 100) / 100))
  }
  return values
}

function monthSeries(ym: string): MonthSeries {
  let s = cache.get(ym)
  if (!s) {
    s = generateMonth(ym)
    cache.set(ym, s)
  }
  return s
}

/**
 * The prices of a local day (€/MWh), one per hour or quarter-hour of its clock: 23, 24 or 25
 * hours (`horasDelDia`). Days before the series are empty.
 */
export function omieDay(isoDay: string): number[] {
  if (isoDay < OMIE_DESDE) return []
  const s = monthSeries(isoDay.slice(0, 7))
  const d = Number(isoDay.slice(8, 10)) - 1
  return Array.from(s.values.subarray(s.dayStart[d]!, s.dayStart[d + 1]!))
}

/** The same prices without a copy (read-only use in tight loops: invoices, index). */
export function omieDayView(isoDay: string): Float64Array {
  if (isoDay < OMIE_DESDE) return new Float64Array(0)
  const s = monthSeries(isoDay.slice(0, 7))
  const d = Number(isoDay.slice(8, 10)) - 1
  return s.values.subarray(s.dayStart[d]!, s.dayStart[d + 1]!)
}

/**
 * `YYYY-MM-DDTHH:mm+hh:mm` of slot `i` of a day: its local start with the UTC offset in force,
 * so the two 02:00 hours of the 25-hour day are told apart (`2025-10-26T02:00+02:00`, then
 * `2025-10-26T02:00+01:00`).
 */
export function slotTimestamp(isoDay: string, i: number, perHour: number): string {
  const n = Math.floor(i / perHour)
  const hour = horasDelDia(isoDay)[n]!
  const minute = (i % perHour) * (60 / perHour)
  return `${isoDay}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}${offsetDeHora(isoDay, n)}`
}

/** Local clock hour (fractional, at the middle of the slot) of slot `i` of a day. */
export function slotMidHour(isoDay: string, i: number, perHour: number): number {
  return horasDelDia(isoDay)[Math.floor(i / perHour)]! + ((i % perHour) + 0.5) / perHour
}

/**
 * The OMIE prices from `desde` to `hasta` (local days, both included) at their native
 * resolution: one point per hour until 2025-09-30, per quarter-hour since 2025-10-01;
 * `Fecha` is the local start of the slot with its UTC offset (`2025-10-01T00:15+02:00`; see
 * `slotTimestamp`). Days before 2023-01-01 are skipped; the caller bounds `hasta` (see
 * `ultimaFechaOmie`).
 */
export function omiePrices(desde: string, hasta: string): { Fecha: string; PrecioMwh: number }[] {
  const out: { Fecha: string; PrecioMwh: number }[] = []
  const from = desde < OMIE_DESDE ? OMIE_DESDE : desde
  if (from > hasta) return out
  for (const day of eachDay(from, hasta)) {
    const perHour = slotsPorHora(day)
    omieDay(day).forEach((v, i) => out.push({ Fecha: slotTimestamp(day, i, perHour), PrecioMwh: v }))
  }
  return out
}

/** The last day with prices at an instant: today in Madrid, tomorrow once it is past 13:00 there (the auction's results). */
export function ultimaFechaOmie(nowMs: number): string {
  const { day, hour } = madridNow(nowMs)
  return hour >= 13 ? addDays(day, 1) : day
}

const mediaMensualCache = new Map<string, number>()

/** The time-weighted average price of a month (`YYYY-MM`), €/MWh, not rounded (reduced VAT's test). */
export function mediaMensualOmie(ym: string): number {
  let v = mediaMensualCache.get(ym)
  if (v === undefined) {
    // Every slot of a month lasts the same: the plain mean is the time-weighted one.
    const s = monthSeries(ym)
    let sum = 0
    for (const x of s.values) sum += x
    v = sum / s.values.length
    mediaMensualCache.set(ym, v)
  }
  return v
}
