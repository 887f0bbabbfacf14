import type { FastifyInstance } from 'fastify'
import { daysBetween, eachDay } from '../../domain/calendar'
import {
  FORMULA_EXCEDENTES,
  coeficientesDelDia,
  excedentesDiario,
  feeDefecto,
  formulaIndex,
  indexDiario,
} from '../../domain/energy-prices'
import { OMIE_DESDE, omieDay, slotTimestamp, slotsPorHora, ultimaFechaOmie } from '../../domain/omie'
import type { Tarifa } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { fechaEs } from '../../lib/pdf'
import { XLSX_FORMATS, XLSX_TOOL_FORMATS, sendXlsxBook, type XlsxColumn } from '../../lib/xlsx'
import { tarifaParam } from '../contracts-lifecycle/supply'
import { dayParam, queryValue, toNumber } from './shared'
import type { IndexPoint, Modalidad } from '../../../../schemas/business/energy'

/** Longest range of a price call: 4 years (1 461 days). */
export const MAX_DIAS_RANGO = 4 * 365 + 1
/** Ranges up to this many days come at the native resolution (quarter-hour or hour) unless asked otherwise. */
export const MAX_DIAS_NATIVO = 7
/** Longest range asked for at the native resolution (`resolucion=nativa`): a year. */
export const MAX_DIAS_NATIVO_PEDIDO = 366
export const FEE_MAXIMO = 50

export type Resolucion = 'cuartohoraria' | 'horaria' | 'diaria'

export interface SerieOmie {
  Desde: string
  Hasta: string
  Resolucion: Resolucion
  Puntos: { Fecha: string; PrecioMwh: number }[]
  Resumen: { MediaMwh: number; MinimoMwh: number; MaximoMwh: number }
}

const r2 = (v: number) => Math.round(v * 100) / 100

/** `desde` and `hasta` of a price call: real days, in order, inside the series, at most 4 years apart. */
export function rangoPrecios(query: unknown, nowMs: number): { desde: string; hasta: string } {
  const desde = dayParam(query, 'desde')
  const hasta = dayParam(query, 'hasta')
  if (desde > hasta) fail(400, `La fecha desde (${desde}) es posterior a hasta (${hasta}).`)
  const ultima = ultimaFechaOmie(nowMs)
  if (desde < OMIE_DESDE || hasta > ultima) fail(400, `Solo hay precios del ${fechaEs(OMIE_DESDE)} al ${fechaEs(ultima)}: el intervalo ${fechaEs(desde)}–${fechaEs(hasta)} queda fuera.`)
  if (daysBetween(desde, hasta) + 1 > MAX_DIAS_RANGO) fail(400, 'El intervalo no puede superar los 4 años.')
  return { desde, hasta }
}

/**
 * The OMIE series of a range at a resolution: `nativa` gives every price (quarter-hourly when
 * every day has quarter-hour prices; hourly otherwise, quarter-hours averaged into their hour when
 * a range straddles 1 October 2025), `diaria` the daily averages; by default ranges up to 7 days
 * come native and longer ones daily. Clock-change days keep their 23 or 25 hours. `Resumen`: the
 * time-weighted average and the lowest and highest native price of the range.
 */
export function serieOmie(desde: string, hasta: string, pedida?: 'nativa' | 'diaria'): SerieOmie {
  const days = eachDay(desde, hasta)
  let min = Number.POSITIVE_INFINITY
  let max = Number.NEGATIVE_INFINITY
  let sum = 0
  let hours = 0
  const byDay = days.map((day) => {
    const values = omieDay(day)
    const perHour = slotsPorHora(day)
    let daySum = 0
    for (const v of values) {
      daySum += v
      if (v < min) min = v
      if (v > max) max = v
    }
    sum += daySum / perHour
    hours += values.length / perHour
    return { day, values, perHour, mean: daySum / values.length }
  })
  const nativa = pedida === 'nativa' || (pedida === undefined && days.length <= MAX_DIAS_NATIVO)
  let resolucion: Resolucion
  const puntos: { Fecha: string; PrecioMwh: number }[] = []
  if (!nativa) {
    resolucion = 'diaria'
    for (const d of byDay) puntos.push({ Fecha: d.day, PrecioMwh: r2(d.mean) })
  } else if (byDay.every((d) => d.perHour === 4)) {
    resolucion = 'cuartohoraria'
    for (const d of byDay) d.values.forEach((v, i) => puntos.push({ Fecha: slotTimestamp(d.day, i, 4), PrecioMwh: v }))
  } else {
    resolucion = 'horaria'
    for (const d of byDay) {
      const per = d.perHour
      for (let n = 0; n < d.values.length / per; n++) {
        let s = 0
        for (let q = 0; q < per; q++) s += d.values[n * per + q]!
        puntos.push({ Fecha: slotTimestamp(d.day, n, 1), PrecioMwh: r2(s / per) })
      }
    }
  }
  return { Desde: desde, Hasta: hasta, Resolucion: resolucion, Puntos: puntos, Resumen: { MediaMwh: r2(sum / hours), MinimoMwh: min, MaximoMwh: max } }
}

/** `resolucion` of the OMIE call: `nativa`, `diaria` or none (by the range's length); native ranges up to a year. */
export function resolucionParam(query: unknown, desde: string, hasta: string): 'nativa' | 'diaria' | undefined {
  const v = queryValue(query, 'resolucion')
  if (v === undefined || v === '') return undefined
  if (v !== 'nativa' && v !== 'diaria') fail(400, `El parámetro resolucion debe ser nativa o diaria (${v}).`)
  if (v === 'nativa' && daysBetween(desde, hasta) + 1 > MAX_DIAS_NATIVO_PEDIDO) fail(400, 'La resolución nativa (horaria o cuartohoraria) admite intervalos de hasta un año.')
  return v
}

function modalidadParam(query: unknown): Modalidad {
  const v = queryValue(query, 'modalidad') ?? 'sin_impuestos'
  if (v !== 'sin_impuestos' && v !== 'con_impuestos') fail(400, `El parámetro modalidad debe ser sin_impuestos o con_impuestos (${v}).`)
  return v
}

function feeParam(query: unknown, tarifa: Tarifa): number {
  const v = queryValue(query, 'fee')
  if (v === undefined) return feeDefecto(tarifa.Id)
  const n = toNumber(v)
  if (!Number.isFinite(n) || n < 0 || n > FEE_MAXIMO) fail(400, `El parámetro fee debe ser un número entre 0 y ${FEE_MAXIMO} (€/MWh) (${v}).`)
  return n
}


function indexAnswer(query: unknown, nowMs: number) {
  const { desde, hasta } = rangoPrecios(query, nowMs)
  const tarifa = tarifaParam(queryValue(query, 'tarifa'))
  const modalidad = modalidadParam(query)
  const fee = feeParam(query, tarifa)
  return {
    TarifaId: tarifa.Id,
    Tarifa: tarifa.Codigo,
    Modalidad: modalidad,
    FeeMwh: fee,
    Desde: desde,
    Hasta: hasta,
    Puntos: indexDiario(desde, hasta, tarifa.Id, fee, modalidad),
    Formula: formulaIndex(modalidad),
    Coeficientes: coeficientesDelDia(tarifa.Id, hasta),
  }
}

function excedentesAnswer(query: unknown, nowMs: number) {
  const { desde, hasta } = rangoPrecios(query, nowMs)
  const tarifa = tarifaParam(queryValue(query, 'tarifa'))
  return { TarifaId: tarifa.Id, Tarifa: tarifa.Codigo, Desde: desde, Hasta: hasta, Puntos: excedentesDiario(desde, hasta), Formula: FORMULA_EXCEDENTES }
}

const SERIES = ['omie', 'index', 'excedentes'] as const

/** Energy prices (spec §7 Energy): OMIE, closing-price index, surplus compensation and their export. Any signed-in user. */
export async function energyRoutes(app: FastifyInstance, ctx: ApiContext) {
  app.get('/api/energia/ultima-fecha', async () => ({ Fecha: ultimaFechaOmie(ctx.now()) }))

  app.get('/api/energia/historico-cierre/omie', async (request) => {
    const { desde, hasta } = rangoPrecios(request.query, ctx.now())
    return serieOmie(desde, hasta, resolucionParam(request.query, desde, hasta))
  })

  app.get('/api/energia/historico-cierre/index', async (request) => indexAnswer(request.query, ctx.now()))

  app.get('/api/energia/historico-cierre/excedentes', async (request) => excedentesAnswer(request.query, ctx.now()))

  app.get('/api/energia/historico-cierre/export', async (request, reply) => {
    const serie = queryValue(request.query, 'serie')
    if (serie === undefined) fail(400, 'Falta el parámetro serie (omie, index o excedentes).')
    if (!(SERIES as readonly string[]).includes(serie)) fail(400, `El parámetro serie debe ser omie, index o excedentes (${serie}).`)
    const now = ctx.now()
    if (serie === 'omie') {
      const { desde, hasta } = rangoPrecios(request.query, now)
      const s = serieOmie(desde, hasta, resolucionParam(request.query, desde, hasta))
      const columns: XlsxColumn<{ Fecha: string; PrecioMwh: number }>[] = [
        { header: s.Resolucion === 'diaria' ? 'Fecha' : 'Fecha y hora', value: 'Fecha', format: s.Resolucion === 'diaria' ? XLSX_FORMATS.date : XLSX_TOOL_FORMATS.dateTime, width: 17 },
        { header: s.Resolucion === 'diaria' ? 'Precio medio OMIE (€/MWh)' : 'Precio OMIE (€/MWh)', value: 'PrecioMwh', format: XLSX_TOOL_FORMATS.eurMwh, width: 22 },
      ]
      return sendXlsxBook(reply, `precios-omie-${s.Desde}-${s.Hasta}.xlsx`, [{ name: 'OMIE', columns, rows: s.Puntos }])
    }
    if (serie === 'index') {
      const a = indexAnswer(request.query, now)
      const periods = (['P1', 'P2', 'P3', 'P4', 'P5', 'P6'] as const).slice(0, a.TarifaId === 1 ? 3 : 6)
      const columns: XlsxColumn<IndexPoint>[] = [
        { header: 'Fecha', value: 'Fecha', format: XLSX_FORMATS.date, width: 13 },
        { header: `Precio medio ${a.Tarifa} (€/kWh)`, value: 'PrecioMedioKwh', format: XLSX_TOOL_FORMATS.eurKwh, width: 22 },
        ...periods.map((p): XlsxColumn<IndexPoint> => ({ header: `${p} (€/kWh)`, value: (r) => r.PorPeriodo[p], format: XLSX_TOOL_FORMATS.eurKwh, width: 16 })),
      ]
      return sendXlsxBook(reply, `precios-index-${a.Desde}-${a.Hasta}.xlsx`, [
        { name: 'Index', columns, rows: a.Puntos },
        { name: 'Fórmula', columns: [{ header: 'Fórmula', value: (r: string) => r, width: 120 }], rows: [a.Formula, `Tarifa ${a.Tarifa}; fee ${a.FeeMwh} €/MWh; ${a.Modalidad === 'con_impuestos' ? 'con impuestos' : 'sin impuestos'}.`] },
      ])
    }
    const a = excedentesAnswer(request.query, now)
    const columns: XlsxColumn<{ Fecha: string; PrecioKwh: number }>[] = [
      { header: 'Fecha', value: 'Fecha', format: XLSX_FORMATS.date, width: 13 },
      { header: 'Precio de compensación de excedentes (€/kWh)', value: 'PrecioKwh', format: XLSX_TOOL_FORMATS.eurKwh, width: 30 },
    ]
    return sendXlsxBook(reply, `precios-excedentes-${a.Desde}-${a.Hasta}.xlsx`, [
      { name: 'Excedentes', columns, rows: a.Puntos },
      { name: 'Fórmula', columns: [{ header: 'Fórmula', value: (r: string) => r, width: 120 }], rows: [a.Formula] },
    ])
  })
}
