import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eachDay } from '../../server/reference-api/domain/calendar'
import { FACTOR_IMPUESTOS, precioIndexadoKwh } from '../../server/reference-api/domain/energy-prices'
import { SOLAR_HOURS, horasCeroYNegativas, omieDay, omiePrices, ultimaFechaOmie } from '../../server/reference-api/domain/omie'
import { perdidas, reguladoEnergiaKwh, tramoRegulado } from '../../server/reference-api/domain/regulated'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import type { IndexSeries, OmieSeries } from '../../schemas/business/energy'

/** Energy prices: the OMIE series, the closing-price index, surplus compensation, exports (README: Precios de la energía). */

let api: RunningReferenceApi
let admin: ApiCaller
let now = NOW

const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length
/** The average price of a range, every hour weighing the same (a quarter-hour a quarter). */
function averageOf(desde: string, hasta: string): number {
  let sum = 0
  let hours = 0
  for (const d of eachDay(desde, hasta)) {
    const v = omieDay(d)
    const w = d >= '2025-10-01' ? 0.25 : 1
    sum += v.reduce((a, b) => a + b, 0) * w
    hours += v.length * w
  }
  return sum / hours
}

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => now })
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

describe('the OMIE series', () => {
  it('is deterministic: the same prices whenever and however asked', () => {
    const a = omiePrices('2024-04-01', '2024-04-30')
    const b = omiePrices('2024-04-01', '2024-04-30')
    expect(a).toEqual(b)
    // A day reads the same inside a longer range.
    expect(omiePrices('2024-04-10', '2024-04-10')).toEqual(a.filter((p) => p.Fecha.startsWith('2024-04-10')))
  })

  it('is hourly until 2025-09-30 and has a price per quarter-hour since 2025-10-01, each with its local time and UTC offset', () => {
    const before = omiePrices('2025-09-30', '2025-09-30')
    expect(before).toHaveLength(24)
    expect(before[0]!.Fecha).toBe('2025-09-30T00:00+02:00')
    expect(before[23]!.Fecha).toBe('2025-09-30T23:00+02:00')
    const after = omiePrices('2025-10-01', '2025-10-01')
    expect(after).toHaveLength(96)
    expect(after[1]!.Fecha).toBe('2025-10-01T00:15+02:00')
    expect(after[95]!.Fecha).toBe('2025-10-01T23:45+02:00')
    expect(omiePrices('2025-12-01', '2025-12-01')[0]!.Fecha).toBe('2025-12-01T00:00+01:00')
    // 1 004 days; three 23-hour days (March 2023–2025) and two 25-hour days (October 2023 and 2024).
    expect(omiePrices('2023-01-01', '2025-09-30')).toHaveLength(1004 * 24 - 3 + 2)
    expect(omieDay('2026-11-21')).toHaveLength(96)
    expect(omiePrices('2022-12-30', '2023-01-01')).toHaveLength(24)
  })

  it('the clock-change days have 23 and 25 hours: 02:00 is missing in March and twice in October', () => {
    const spring = omiePrices('2024-03-31', '2024-03-31')
    expect(spring).toHaveLength(23)
    expect(spring.slice(0, 3).map((p) => p.Fecha)).toEqual(['2024-03-31T00:00+01:00', '2024-03-31T01:00+01:00', '2024-03-31T03:00+02:00'])
    const autumn = omiePrices('2024-10-27', '2024-10-27')
    expect(autumn).toHaveLength(25)
    expect(autumn.slice(2, 4).map((p) => p.Fecha)).toEqual(['2024-10-27T02:00+02:00', '2024-10-27T02:00+01:00'])
    expect(new Set(autumn.map((p) => p.Fecha)).size).toBe(25)
    // Quarter-hours: 92 and 100.
    expect(omieDay('2026-03-29')).toHaveLength(92)
    expect(omieDay('2025-10-26')).toHaveLength(100)
  })

  it('has the yearly and monthly averages of the domain notes (±10 %)', () => {
    expect(Math.abs(averageOf('2023-01-01', '2023-12-31') - 87) / 87).toBeLessThan(0.1)
    expect(Math.abs(averageOf('2024-01-01', '2024-12-31') - 63) / 63).toBeLessThan(0.1)
    expect(Math.abs(averageOf('2024-04-01', '2024-04-30') - 14)).toBeLessThan(1.4)
    expect(Math.abs(averageOf('2024-12-01', '2024-12-31') - 111) / 111).toBeLessThan(0.05)
  })

  it('has zero hours since spring 2023 and negative ones since April 2024, as many each month as the market had', () => {
    const before = omiePrices('2023-01-01', '2024-03-31')
    expect(before.some((p) => p.PrecioMwh < 0)).toBe(false)
    expect(omiePrices('2023-04-01', '2023-05-31').filter((p) => p.PrecioMwh === 0).length).toBe(65)
    const hoursOf = (ym: string, test: (v: number) => boolean) => {
      const days = eachDay(`${ym}-01`, `${ym}-${new Date(Date.UTC(Number(ym.slice(0, 4)), Number(ym.slice(5)), 0)).getUTCDate()}`)
      const perHour = `${ym}-01` >= '2025-10-01' ? 4 : 1
      return days.flatMap((d) => omieDay(d)).filter(test).length / perHour
    }
    for (const ym of ['2024-02', '2024-04', '2024-05', '2024-11', '2025-04', '2025-11', '2026-05']) {
      const { cero, negativas } = horasCeroYNegativas(ym)
      expect(hoursOf(ym, (v) => v < 0), ym).toBe(negativas)
      expect(hoursOf(ym, (v) => v === 0), ym).toBe(cero)
    }
    // 2024: hundreds of zero-or-negative hours, about 250 negative ones, mostly a few euros below zero.
    const y2024 = omiePrices('2024-01-01', '2024-12-31')
    const negative = y2024.filter((p) => p.PrecioMwh < 0)
    expect(negative.length).toBe(247)
    expect(y2024.filter((p) => p.PrecioMwh <= 0).length).toBeGreaterThan(600)
    expect(negative.filter((p) => p.PrecioMwh > -5).length / negative.length).toBeGreaterThan(0.8)
    // Concentrated at solar midday.
    const midday = negative.filter((p) => Number(p.Fecha.slice(11, 13)) >= 10 && Number(p.Fecha.slice(11, 13)) <= 18).length
    expect(midday / negative.length).toBeGreaterThan(0.8)
  })

  it('is not clipped but to the market limits (−500 and 4 000 €/MWh)', () => {
    const all = omiePrices('2023-01-01', '2026-11-22').map((p) => p.PrecioMwh)
    const min = Math.min(...all)
    const max = Math.max(...all)
    expect(min).toBeLessThan(-5)
    expect(min).toBeGreaterThanOrEqual(-500)
    expect(max).toBeGreaterThan(200)
    expect(max).toBeLessThanOrEqual(4000)
  })

  it('has a daily shape: the solar midday below the evening peak, on average and in most days', () => {
    const days = eachDay('2024-01-01', '2025-09-30')
    let lower = 0
    const midday: number[] = []
    const evening: number[] = []
    for (const d of days) {
      const v = omieDay(d)
      const m = mean(v.slice(12, 16))
      const e = mean(v.slice(19, 22))
      midday.push(m)
      evening.push(e)
      if (m < e) lower++
    }
    expect(mean(midday)).toBeLessThan(mean(evening) * 0.7)
    expect(lower / days.length).toBeGreaterThan(0.9)
    // Quarter-hours too.
    const q = omieDay('2025-11-12')
    expect(mean(q.slice(48, 64))).toBeLessThan(mean(q.slice(76, 88)))
  })

  it('the last day with prices is today in Madrid, tomorrow once it is past 13:00 there', async () => {
    expect((await admin.get('/api/energia/ultima-fecha')).body).toEqual({ Fecha: '2026-11-21' })
    expect(ultimaFechaOmie(Date.parse('2026-11-21T11:59:00Z'))).toBe('2026-11-21') // 12:59 in Madrid (CET)
    expect(ultimaFechaOmie(Date.parse('2026-11-21T12:00:00Z'))).toBe('2026-11-22') // 13:00
    expect(ultimaFechaOmie(Date.parse('2026-07-10T10:30:00Z'))).toBe('2026-07-10') // 12:30 (CEST)
    expect(ultimaFechaOmie(Date.parse('2026-07-10T11:00:00Z'))).toBe('2026-07-11') // 13:00 (CEST)
    expect(ultimaFechaOmie(Date.parse('2026-12-31T23:30:00Z'))).toBe('2027-01-01') // already 1 January (00:30) in Madrid
  })
})

describe('GET /api/energia/historico-cierre/omie', () => {
  const get = (desde: string, hasta: string) => admin.get<OmieSeries>('/api/energia/historico-cierre/omie', { desde, hasta })

  it('up to 7 days: native resolution (hourly, quarter-hourly)', async () => {
    const week = await get('2024-04-01', '2024-04-07')
    expect(week.status).toBe(200)
    expect(week.body.Resolucion).toBe('horaria')
    expect(week.body.Puntos).toEqual(omiePrices('2024-04-01', '2024-04-07'))
    const q = await get('2026-11-20', '2026-11-21')
    expect(q.body.Resolucion).toBe('cuartohoraria')
    expect(q.body.Puntos).toHaveLength(192)
    expect(q.body.Puntos).toEqual(omiePrices('2026-11-20', '2026-11-21'))
    const min = Math.min(...q.body.Puntos.map((p) => p.PrecioMwh))
    const max = Math.max(...q.body.Puntos.map((p) => p.PrecioMwh))
    expect(q.body.Resumen).toEqual({ MediaMwh: Math.round(mean(q.body.Puntos.map((p) => p.PrecioMwh)) * 100) / 100, MinimoMwh: min, MaximoMwh: max })
  })

  it('a range across 1 October 2025 comes hourly (quarter-hours averaged into their hour)', async () => {
    const res = await get('2025-09-29', '2025-10-02')
    expect(res.body.Resolucion).toBe('horaria')
    expect(res.body.Puntos).toHaveLength(96)
    const oct1 = omieDay('2025-10-01')
    const point = res.body.Puntos.find((p) => p.Fecha === '2025-10-01T10:00+02:00')!
    expect(point.PrecioMwh).toBeCloseTo(mean(oct1.slice(40, 44)), 2)
  })

  it('more than 7 days: daily averages', async () => {
    const res = await get('2024-04-01', '2024-04-08')
    expect(res.body.Resolucion).toBe('diaria')
    expect(res.body.Puntos.map((p) => p.Fecha)).toEqual(eachDay('2024-04-01', '2024-04-08'))
    res.body.Puntos.forEach((p) => expect(p.PrecioMwh).toBeCloseTo(mean(omieDay(p.Fecha)), 2))
    const year = await get('2024-01-01', '2024-12-31')
    expect(year.body.Puntos).toHaveLength(366)
    expect(year.body.Resumen.MediaMwh).toBeCloseTo(averageOf('2024-01-01', '2024-12-31'), 2)
    expect(year.body.Resumen.MinimoMwh).toBeLessThan(0)
    const fourYears = await get('2023-01-01', '2026-11-21')
    expect(fourYears.status).toBe(200)
    expect(fourYears.body.Puntos).toHaveLength(eachDay('2023-01-01', '2026-11-21').length)
  })

  it('resolucion=nativa keeps the native resolution over ranges up to a year (hourly, or quarter-hourly)', async () => {
    const hourly = await admin.get<OmieSeries>('/api/energia/historico-cierre/omie', { desde: '2024-01-01', hasta: '2024-12-31', resolucion: 'nativa' })
    expect(hourly.status, hourly.text).toBe(200)
    expect(hourly.body.Resolucion).toBe('horaria')
    expect(hourly.body.Puntos).toEqual(omiePrices('2024-01-01', '2024-12-31'))
    expect(hourly.body.Puntos).toHaveLength(366 * 24)
    const quarters = await admin.get<OmieSeries>('/api/energia/historico-cierre/omie', { desde: '2025-11-01', hasta: '2026-10-31', resolucion: 'nativa' })
    expect(quarters.body.Resolucion).toBe('cuartohoraria')
    // 365 days of 96 quarter-hours, one 23-hour day (29 March 2026) and one 25-hour day (25 October 2026).
    expect(quarters.body.Puntos).toHaveLength(365 * 96)
    expect(quarters.body.Resumen.MediaMwh).toBeCloseTo(averageOf('2025-11-01', '2026-10-31'), 2)
    // And daily when asked, even for a short range.
    const daily = await admin.get<OmieSeries>('/api/energia/historico-cierre/omie', { desde: '2024-04-01', hasta: '2024-04-02', resolucion: 'diaria' })
    expect(daily.body.Resolucion).toBe('diaria')
    expect(daily.body.Puntos).toHaveLength(2)
    const tooLong = await admin.get('/api/energia/historico-cierre/omie', { desde: '2024-01-01', hasta: '2025-01-01', resolucion: 'nativa' })
    expect(tooLong.status).toBe(400)
    expect(tooLong.text).toBe('La resolución nativa (horaria o cuartohoraria) admite intervalos de hasta un año.')
    expect((await admin.get('/api/energia/historico-cierre/omie', { desde: '2024-01-01', hasta: '2024-01-02', resolucion: 'minutal' })).status).toBe(400)
  })

  it('400 for malformed dates, desde after hasta, outside the series, more than 4 years, missing parameters', async () => {
    for (const [desde, hasta] of [
      ['2024-02-30', '2024-03-01'],
      ['2024/03/01', '2024-03-02'],
      ['2024-03-05', '2024-03-01'],
      ['2022-12-31', '2023-01-02'],
      ['2026-11-20', '2026-11-22'],
      ['2023-01-01', '2027-01-01'],
    ]) {
      const res = await get(desde!, hasta!)
      expect(res.status, `${desde} ${hasta}`).toBe(400)
      expect(res.headers.get('content-type')).toContain('text/plain')
    }
    expect((await admin.get('/api/energia/historico-cierre/omie', { desde: '2024-01-01' })).status).toBe(400)
    expect((await get('2024-03-05', '2024-03-01')).text).toBe('La fecha desde (2024-03-05) es posterior a hasta (2024-03-01).')
    expect((await get('2026-11-20', '2026-11-22')).text).toContain('Solo hay precios del 01/01/2023 al 21/11/2026')
  })

  it('after 13:00 in Madrid tomorrow has prices', async () => {
    now = Date.parse('2026-11-21T12:30:00Z')
    try {
      // Signed in again: the first token has expired by then.
      const later = await ApiCaller.signIn(api.url, ADMIN)
      expect((await later.get('/api/energia/ultima-fecha')).body).toEqual({ Fecha: '2026-11-22' })
      expect((await later.get<OmieSeries>('/api/energia/historico-cierre/omie', { desde: '2026-11-22', hasta: '2026-11-22' })).body.Puntos).toHaveLength(96)
      expect((await later.get('/api/energia/historico-cierre/omie', { desde: '2026-11-23', hasta: '2026-11-23' })).status).toBe(400)
    } finally {
      now = NOW
    }
  })
})

describe('GET /api/energia/historico-cierre/index', () => {
  const get = (query: Record<string, string | number>) => admin.get<IndexSeries>('/api/energia/historico-cierre/index', query)

  it('the formula for one hour, by hand: (OMIE + fee) × (1 + losses) / 1000 + toll + charge + capacity + social bonus', () => {
    // 2.0TD P1 in 2025: losses 16,6 %, toll 0,030588, charge 0,043893, capacity 0,000926, social bonus 0,001 €/kWh.
    const t = tramoRegulado(1, '2025-06-02')
    expect([t.peajesEnergia[0], t.cargosEnergia[0], t.capacidad[0], t.bonoSocialKwh]).toEqual([0.030588, 0.043893, 0.000926, 0.001])
    expect(perdidas(1)).toEqual([0.166, 0.157, 0.147])
    expect(precioIndexadoKwh(50, 10, 0.166, reguladoEnergiaKwh(t, 0))).toBe(0.146367)
    // 3.0TD P6 at a negative price: (−3 + 5) × 1,146 / 1000 + 0,00018 + 0,001859 + 0 + 0,001.
    expect(precioIndexadoKwh(-3, 5, 0.146, reguladoEnergiaKwh(tramoRegulado(2, '2025-06-02'), 5))).toBe(0.005331)
    // The figures change with the date: 2021 charges before and after the 96 % cut of 16 September.
    expect(tramoRegulado(1, '2021-09-15').cargosEnergia[0]).toBe(0.10253)
    expect(tramoRegulado(1, '2021-09-16').cargosEnergia[0]).toBe(0.004101)
  })

  it('a weekend day of 2.0TD is all P3; a weekday splits P1, P2 and P3 by the hours of the tariff', async () => {
    const fee = 12.5
    const res = await get({ desde: '2024-04-06', hasta: '2024-04-08', tarifa: 1, fee })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ TarifaId: 1, Tarifa: '2.0TD', Modalidad: 'sin_impuestos', FeeMwh: fee })
    expect(res.body.Formula).toContain('(OMIE_h + fee) × (1 + pérdidas_p) / 1000 + peaje_p + cargo_p + pago por capacidad_p + financiación del bono social')
    const [saturday, sunday, monday] = res.body.Puntos
    // 2024's regulated figures of each period.
    const t = tramoRegulado(1, '2024-04-06')
    const reg = [0, 1, 2].map((k) => reguladoEnergiaKwh(t, k))
    // Each hour's index is rounded to 6 decimals before averaging.
    const r6 = (v: number) => Math.round(v * 1e6) / 1e6
    // Saturday 6 April 2024: every hour P3.
    const sat = omieDay('2024-04-06')
    const p3 = (omie: number) => r6(((omie + fee) * 1.147) / 1000 + reg[2]!)
    expect(saturday!.Fecha).toBe('2024-04-06')
    expect(saturday!.PrecioMedioKwh).toBeCloseTo(mean(sat.map(p3)), 6)
    expect(saturday!.PorPeriodo).toEqual({ P1: null, P2: null, P3: saturday!.PrecioMedioKwh, P4: null, P5: null, P6: null })
    expect(sunday!.PorPeriodo.P1).toBeNull()
    // Monday 8 April 2024: P1 10–14 and 18–22, P2 8–10, 14–18, 22–24, P3 0–8.
    const mon = omieDay('2024-04-08')
    const hours = (list: number[]) => list.map((h) => mon[h]!)
    const p1 = hours([10, 11, 12, 13, 18, 19, 20, 21]).map((o) => r6(((o + fee) * 1.166) / 1000 + reg[0]!))
    const p2 = hours([8, 9, 14, 15, 16, 17, 22, 23]).map((o) => r6(((o + fee) * 1.157) / 1000 + reg[1]!))
    const p3m = hours([0, 1, 2, 3, 4, 5, 6, 7]).map(p3)
    expect(monday!.PorPeriodo.P1).toBeCloseTo(mean(p1), 6)
    expect(monday!.PorPeriodo.P2).toBeCloseTo(mean(p2), 6)
    expect(monday!.PorPeriodo.P3).toBeCloseTo(mean(p3m), 6)
    // The day's mean rounded to 6 decimals: within half a unit of the sixth (a tie may round either way).
    expect(Math.abs(monday!.PrecioMedioKwh - mean([...p1, ...p2, ...p3m]))).toBeLessThanOrEqual(5e-7 + 1e-12)
    expect(monday!.PorPeriodo.P4).toBeNull()
  })

  it('quarter-hour days average the quarter-hours of each period; 3.0TD uses the season periods', async () => {
    // Wednesday 12 November 2025 (medium-high season: peak P2, flat P3, night P6).
    const res = await get({ desde: '2025-11-12', hasta: '2025-11-12', tarifa: 2, fee: 0 })
    const day = omieDay('2025-11-12')
    expect(day).toHaveLength(96)
    const t = tramoRegulado(2, '2025-11-12')
    const c = (o: number, i: number) => Math.round(((o * (1 + perdidas(2)[i]!)) / 1000 + reguladoEnergiaKwh(t, i)) * 1e6) / 1e6
    const quarters = (from: number, to: number) => day.slice(from * 4, to * 4)
    const p2 = [...quarters(9, 14), ...quarters(18, 22)].map((o) => c(o, 1))
    const p3 = [...quarters(8, 9), ...quarters(14, 18), ...quarters(22, 24)].map((o) => c(o, 2))
    const p6 = quarters(0, 8).map((o) => c(o, 5))
    const point = res.body.Puntos[0]!
    expect(point.PorPeriodo).toEqual({ P1: null, P2: expect.closeTo(mean(p2), 6), P3: expect.closeTo(mean(p3), 6), P4: null, P5: null, P6: expect.closeTo(mean(p6), 6) })
    expect(point.PrecioMedioKwh).toBeCloseTo(mean([...p2, ...p3, ...p6]), 6)
  })

  it('con_impuestos multiplies by (1 + 5,11269632 %) × (1 + 21 %); the default fee is the offer\'s', async () => {
    expect(FACTOR_IMPUESTOS).toBeCloseTo(1.0511269632 * 1.21, 12)
    const sin = await get({ desde: '2026-11-01', hasta: '2026-11-10', tarifa: 1, modalidad: 'sin_impuestos', fee: 8 })
    const con = await get({ desde: '2026-11-01', hasta: '2026-11-10', tarifa: 1, modalidad: 'con_impuestos', fee: 8 })
    expect(con.body.Modalidad).toBe('con_impuestos')
    expect(con.body.Formula).toContain('5,11269632 %')
    con.body.Puntos.forEach((p, i) => {
      expect(p.PrecioMedioKwh).toBeCloseTo(sin.body.Puntos[i]!.PrecioMedioKwh * FACTOR_IMPUESTOS, 5)
      expect(p.PorPeriodo.P3).toBeCloseTo(sin.body.Puntos[i]!.PorPeriodo.P3! * FACTOR_IMPUESTOS, 5)
    })
    expect((await get({ desde: '2026-11-01', hasta: '2026-11-01', tarifa: 1 })).body.FeeMwh).toBe(10)
  })

  it('400 for a bad tariff, modality or fee', async () => {
    const base = { desde: '2026-11-01', hasta: '2026-11-02' }
    const bad: Record<string, string | number>[] = [{ tarifa: 99 }, { tarifa: 'x' }, {}, { tarifa: 1, modalidad: 'iva' }, { tarifa: 1, fee: 51 }, { tarifa: 1, fee: -1 }, { tarifa: 1, fee: 'abc' }]
    for (const q of bad) {
      const res = await get({ ...base, ...q })
      expect(res.status, JSON.stringify(q)).toBe(400)
    }
    expect((await get({ desde: '2026-11-01', hasta: '2026-11-02', tarifa: 1, fee: '7,5' })).body.FeeMwh).toBe(7.5)
  })
})

describe('GET /api/energia/historico-cierre/excedentes', () => {
  it('the day\'s market price weighted by the solar profile, by hand', async () => {
    const res = await admin.get<{ TarifaId: number; Puntos: { Fecha: string; PrecioKwh: number }[]; Formula: string }>('/api/energia/historico-cierre/excedentes', {
      desde: '2024-06-15',
      hasta: '2024-06-15',
      tarifa: 1,
    })
    expect(res.status).toBe(200)
    expect(res.body.TarifaId).toBe(1)
    const [rise, set] = SOLAR_HOURS[5]!
    const w = Array.from({ length: 24 }, (_, h) => (h + 0.5 > rise && h + 0.5 < set ? Math.sin((Math.PI * (h + 0.5 - rise)) / (set - rise)) : 0))
    const day = omieDay('2024-06-15')
    const expected = Math.max(0, day.reduce((s, o, h) => s + o * w[h]!, 0) / w.reduce((s, v) => s + v, 0)) / 1000
    expect(res.body.Puntos).toEqual([{ Fecha: '2024-06-15', PrecioKwh: expect.closeTo(expected, 6) }])
    // Below the day's plain average: the sun shines when prices dip.
    expect(res.body.Puntos[0]!.PrecioKwh).toBeLessThan(mean(day) / 1000)
    expect(res.body.Formula).toContain('solar')
  })

  it('is never below 0, even in April 2024', async () => {
    const res = await admin.get<{ Puntos: { Fecha: string; PrecioKwh: number }[] }>('/api/energia/historico-cierre/excedentes', { desde: '2024-03-01', hasta: '2024-05-31', tarifa: 1 })
    expect(res.body.Puntos).toHaveLength(92)
    expect(res.body.Puntos.every((p) => p.PrecioKwh >= 0)).toBe(true)
    expect(res.body.Puntos.some((p) => p.PrecioKwh < 0.005)).toBe(true)
  })
})

describe('GET /api/energia/historico-cierre/export', () => {
  async function sheet(bytes: Buffer) {
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(bytes as unknown as ArrayBuffer)
    return wb.worksheets[0]!
  }

  it('exports each series as a real XLSX named after it', async () => {
    const omie = await admin.get('/api/energia/historico-cierre/export', { serie: 'omie', desde: '2024-04-06', hasta: '2024-04-06' })
    expect(omie.status).toBe(200)
    expect(omie.headers.get('content-disposition')).toContain('precios-omie-2024-04-06-2024-04-06.xlsx')
    const s1 = await sheet(omie.bytes)
    expect(s1.rowCount).toBe(25)
    expect(s1.getRow(2).getCell(2).value).toBe(omieDay('2024-04-06')[0])
    const d = s1.getRow(2).getCell(1).value as Date
    expect(d.toISOString()).toBe('2024-04-06T00:00:00.000Z')

    const index = await admin.get('/api/energia/historico-cierre/export', { serie: 'index', desde: '2026-11-01', hasta: '2026-11-10', tarifa: 2, modalidad: 'con_impuestos', fee: 5 })
    expect(index.headers.get('content-disposition')).toContain('precios-index-2026-11-01-2026-11-10.xlsx')
    const s2 = await sheet(index.bytes)
    expect(s2.rowCount).toBe(11)
    const api2 = (await admin.get<IndexSeries>('/api/energia/historico-cierre/index', { desde: '2026-11-01', hasta: '2026-11-10', tarifa: 2, modalidad: 'con_impuestos', fee: 5 })).body
    expect(s2.getRow(2).getCell(2).value).toBe(api2.Puntos[0]!.PrecioMedioKwh)
    expect(s2.getRow(1).getCell(8).value).toBe('P6 (€/kWh)')

    const exc = await admin.get('/api/energia/historico-cierre/export', { serie: 'excedentes', desde: '2024-01-01', hasta: '2024-12-31', tarifa: 1 })
    expect(exc.headers.get('content-disposition')).toContain('precios-excedentes-2024-01-01-2024-12-31.xlsx')
    expect((await sheet(exc.bytes)).rowCount).toBe(367)
  })

  it('400 without a valid series or with bad parameters', async () => {
    expect((await admin.get('/api/energia/historico-cierre/export', { desde: '2024-01-01', hasta: '2024-01-02' })).status).toBe(400)
    expect((await admin.get('/api/energia/historico-cierre/export', { serie: 'pvpc', desde: '2024-01-01', hasta: '2024-01-02' })).status).toBe(400)
    expect((await admin.get('/api/energia/historico-cierre/export', { serie: 'index', desde: '2024-01-01', hasta: '2024-01-02' })).status).toBe(400)
    expect((await admin.get('/api/energia/historico-cierre/export', { serie: 'omie', desde: '2024-01-03', hasta: '2024-01-02' })).status).toBe(400)
  })

  it('any signed-in user may read prices', async () => {
    const agente = await ApiCaller.signIn(api.url, AGENTE)
    expect((await agente.get('/api/energia/historico-cierre/omie', { desde: '2026-11-21', hasta: '2026-11-21' })).status).toBe(200)
  })
})
