import { Random, hashSeed } from '../lib/random'
import { addDays, daysInMonth, eachDay, esDiaNoLaborable, madridNow, weekday } from './calendar'

/**
 * The OMIE day-ahead marginal price of Spain (€/MWh), a deterministic demo series (domain
 * notes): from 1 January 2023, hourly until 30 September 2025 and 96 quarter-hour prices a day
 * since 1 October 2025. Days are Europe/Madrid local days; every day has 24 hours (96
 * quarters): the daylight-saving days are simplified.
 *
 * Each month is generated at once from its own seed (`omie:YYYY-MM`), so a month always has the
 * same prices whatever range is asked and whenever: a daily level (a smoothed random walk,
 * lower at weekends), a daily shape (night valley, morning shoulder, evening peak) and a solar
 * dip at midday that deepens in spring, then calibrated so the month's average is the target
 * below (real monthly averages of 2023–2025, a typical year afterwards) and clipped to
 * −5…250 €/MWh (0…250 before April 2024, when the first negative prices appeared).
 */

export const OMIE_DESDE = '2023-01-01'
/** First day of quarter-hour prices (the market's 15-minute products). */
export const OMIE_CUARTOHORARIO_DESDE = '2025-10-01'
/** First day negative prices are possible. */
const NEGATIVOS_DESDE = '2024-04-01'
const PRECIO_MINIMO = -5
const PRECIO_MAXIMO = 250

/** Monthly averages, €/MWh (2023–2025 close to the real ones). */
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

/** Prices per slot of a local day: 24 (hourly) or 96 (quarter-hour). */
export function slotsPerDay(isoDay: string): 24 | 96 {
  return isoDay >= OMIE_CUARTOHORARIO_DESDE ? 96 : 24
}

interface MonthSeries {
  first: string
  slots: 24 | 96
  values: Float64Array
}

const cache = new Map<string, MonthSeries>()

function generateMonth(ym: string): MonthSeries {
  const [y, m1] = ym.split('-').map(Number) as [number, number]
  const m0 = m1 - 1
  const days = daysInMonth(y, m1)
  const first = `${ym}-01`
  const slots = slotsPerDay(first)
  const perHour = slots / 24
  const rnd = new Random(hashSeed(`omie:${ym}`))
  const target = monthTarget(ym)
  const floor = first >= NEGATIVOS_DESDE ? PRECIO_MINIMO : 0
  const values = new Float64Array(days * slots)

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
    const hourly: number[] = []
    for (let h = 0; h < 24; h++) {
      const solar = (solarProfile(m0, h + 0.5) - solarMean) * SOLAR_DEPTH[m0]! * sun
      hourly.push(level * (1 + SHAPE[h]! - solar) + target * 0.04 * (rnd.next() - 0.5))
    }
    for (let h = 0; h < 24; h++) {
      if (perHour === 1) {
        values[d * slots + h] = hourly[h]!
        continue
      }
      const prev = hourly[Math.max(0, h - 1)]!
      const next = hourly[Math.min(23, h + 1)]!
      for (let q = 0; q < 4; q++) {
        // A slope through the hour towards its neighbours, plus a little quarter-hour noise.
        values[d * slots + h * 4 + q] = hourly[h]! + ((next - prev) * (q - 1.5)) / 8 + target * 0.025 * (rnd.next() - 0.5)
      }
    }
  }

  // Calibrate the month's average to the target (shift, clip, repeat), then round to cents.
  for (let pass = 0; pass < 6; pass++) {
    let sum = 0
    for (const v of values) sum += v
    const shift = target - sum / values.length
    for (let i = 0; i < values.length; i++) values[i] = Math.min(PRECIO_MAXIMO, Math.max(floor, values[i]! + shift))
  }
  for (let i = 0; i < values.length; i++) values[i] = Math.round(values[i]! * 100) / 100
  return { first, slots, values }
}

function monthSeries(ym: string): MonthSeries {
  let s = cache.get(ym)
  if (!s) {
    s = generateMonth(ym)
    cache.set(ym, s)
  }
  return s
}

/** The prices of a local day (24 hourly or 96 quarter-hour values, €/MWh). Days before the series are empty. */
export function omieDay(isoDay: string): number[] {
  if (isoDay < OMIE_DESDE) return []
  const s = monthSeries(isoDay.slice(0, 7))
  const d = Number(isoDay.slice(8, 10)) - 1
  return Array.from(s.values.subarray(d * s.slots, (d + 1) * s.slots))
}

/** `YYYY-MM-DDTHH:mm` (local) of slot `i` of a day with `slots` slots. */
export function slotTimestamp(isoDay: string, i: number, slots: number): string {
  const minutes = (i * 1440) / slots
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0')
  const mm = String(minutes % 60).padStart(2, '0')
  return `${isoDay}T${hh}:${mm}`
}

/** Local clock hour (fractional, at the middle of the slot) of slot `i`. */
export function slotMidHour(i: number, slots: number): number {
  return ((i + 0.5) * 24) / slots
}

/**
 * The OMIE prices from `desde` to `hasta` (local days, both included) at their native
 * resolution: one point per hour until 2025-09-30, per quarter-hour since 2025-10-01;
 * `Fecha` is the local start of the slot (`2025-10-01T00:15`). Days before 2023-01-01 are
 * skipped; the caller bounds `hasta` (see `ultimaFechaOmie`).
 */
export function omiePrices(desde: string, hasta: string): { Fecha: string; PrecioMwh: number }[] {
  const out: { Fecha: string; PrecioMwh: number }[] = []
  const from = desde < OMIE_DESDE ? OMIE_DESDE : desde
  if (from > hasta) return out
  for (const day of eachDay(from, hasta)) {
    const values = omieDay(day)
    values.forEach((v, i) => out.push({ Fecha: slotTimestamp(day, i, values.length), PrecioMwh: v }))
  }
  return out
}

/** The last day with prices at an instant: today in Madrid, tomorrow once it is past 13:00 there (the auction's results). */
export function ultimaFechaOmie(nowMs: number): string {
  const { day, hour } = madridNow(nowMs)
  return hour >= 13 ? addDays(day, 1) : day
}
