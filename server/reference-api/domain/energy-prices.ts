import { PERIODOS, porPeriodo } from './contract-rules'
import { addDays, addYearsDay, eachDay, periodosDeLasHoras } from './calendar'
import { omieDayView, slotMidHour, slotsPorHora, solarProfile } from './omie'
import { IVA_GENERAL, perdidas, reguladoEnergiaKwh, tipoImpuestoElectrico, tramoRegulado, type Tramo } from './regulated'
import type { IndexPoint, Modalidad } from '../../../schemas/business/energy'

/**
 * Prices derived from the OMIE series (domain notes): the closing-price index of the indexed
 * offer, which is also the energy price of every indexed invoice, and the surplus compensation
 * price.
 *
 * Index, per hour (or quarter-hour) h of a day, in the period p the tariff gives that hour, with
 * the regulated figures in force that day (`regulated.ts`):
 *
 *   €/kWh = (OMIE_h + fee) × (1 + pérdidas_p) / 1000 + peaje_p + cargo_p + capacidad_p + bono social
 *
 * rounded to 6 decimals (`precioIndexadoKwh`); averaged per day (every slot weighs the same) and
 * per period (the slots of that period); `con_impuestos` multiplies by (1 + the day's electricity
 * tax) × (1 + 21 % VAT).
 */

/** The general electricity tax rate and VAT (the tools' estimates with taxes use them). */
export const IMPUESTO_ELECTRICO = 0.0511269632
export const IVA = IVA_GENERAL
/** (1 + electricity tax) × (1 + VAT) at the general rates. */
export const FACTOR_IMPUESTOS = (1 + IMPUESTO_ELECTRICO) * (1 + IVA)

/** The taxes factor of a day: its electricity tax rate and general VAT. */
export function factorImpuestosDelDia(isoDay: string): number {
  return (1 + tipoImpuestoElectrico(isoDay)) * (1 + IVA_GENERAL)
}

/** The coefficients of a tariff on a day, per period (`null` beyond the tariff's periods). */
export function coeficientesDelDia(tarifaId: number, isoDay: string) {
  const t = tramoRegulado(tarifaId, isoDay)
  return {
    PeajesKwh: porPeriodo([...t.peajesEnergia]),
    CargosKwh: porPeriodo([...t.cargosEnergia]),
    PagosCapacidadKwh: porPeriodo([...t.capacidad]),
    BonoSocialKwh: t.bonoSocialKwh,
    Perdidas: porPeriodo([...perdidas(tarifaId)]),
  }
}

/** The indexed offer's default fee (€/MWh over the market price) by tariff id. */
export const FEE_DEFECTO: Record<number, number> = { 1: 10, 2: 7, 3: 4, 4: 4, 5: 4, 6: 4 }

export function feeDefecto(tarifaId: number): number {
  return FEE_DEFECTO[tarifaId] ?? 4
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6

/**
 * The index price of one slot, €/kWh without taxes, rounded to 6 decimals: the one formula of
 * the energy screens and the indexed invoices. `regulado` = peaje + cargo + capacidad + bono
 * social of the slot's period (`reguladoEnergiaKwh`).
 */
export function precioIndexadoKwh(omieMwh: number, feeMwh: number, perdida: number, regulado: number): number {
  return round6(((omieMwh + feeMwh) * (1 + perdida)) / 1000 + regulado)
}

/** A day's period (index 0–5) of each hour, and the loss and regulated €/kWh of each period (memoised). */
export function slotsDelDia(tarifaId: number, day: string): SlotsDelDia {
  const key = `${tarifaId}|${day}`
  let v = slotsCache.get(key)
  if (!v) {
    v = buildSlotsDelDia(tarifaId, day)
    if (slotsCache.size > 30_000) slotsCache.clear()
    slotsCache.set(key, v)
  }
  return v
}

export interface SlotsDelDia {
  perHour: number
  periodos: readonly number[]
  loss: readonly number[]
  regulado: readonly number[]
  tramo: Tramo
}

const slotsCache = new Map<string, SlotsDelDia>()

function buildSlotsDelDia(tarifaId: number, day: string): SlotsDelDia {
  const perHour = slotsPorHora(day)
  const periodos = periodosDeLasHoras(tarifaId, day).map((p) => PERIODOS.indexOf(p))
  const t = tramoRegulado(tarifaId, day)
  const loss = perdidas(tarifaId)
  const regulado = loss.map((_, k) => reguladoEnergiaKwh(t, k))
  return { perHour, periodos, loss, regulado, tramo: t }
}

/** The formula as text, for the answers and the exports. */
export function formulaIndex(modalidad: Modalidad): string {
  const base =
    'Precio (€/kWh) = (OMIE_h + fee) × (1 + pérdidas_p) / 1000 + peaje_p + cargo_p + pago por capacidad_p + financiación del bono social, con p el periodo de la hora según la tarifa y los valores regulados vigentes ese día, redondeado a 6 decimales; media diaria de todas las horas (o cuartos de hora) y media de las horas de cada periodo'
  return modalidad === 'con_impuestos' ? `${base}; con impuestos: × (1 + impuesto eléctrico del día: 5,11269632 %, o el reducido de 2021–2024) × (1 + 21 % IVA).` : `${base}; sin impuestos.`
}

/** Sums of a day's index prices: total and per period (slot counts alongside). */
function indexSums(day: string, tarifaId: number, feeMwh: number) {
  const values = omieDayView(day)
  const { perHour, periodos, loss, regulado } = slotsDelDia(tarifaId, day)
  const sum = new Array<number>(6).fill(0)
  const count = new Array<number>(6).fill(0)
  let total = 0
  for (let i = 0; i < values.length; i++) {
    const k = periodos[Math.floor(i / perHour)]!
    const price = precioIndexadoKwh(values[i]!, feeMwh, loss[k]!, regulado[k]!)
    sum[k]! += price
    count[k]! += 1
    total += price
  }
  return { total, slots: values.length, perHour, sum, count, nPeriodos: loss.length }
}

/**
 * The daily closing-price index from `desde` to `hasta`: the day's average and the average of
 * each period's hours (`null` for periods the tariff lacks or that have no hour that day, such
 * as P1 and P2 of 2.0TD at weekends). 6 decimals.
 */
export function indexDiario(desde: string, hasta: string, tarifaId: number, feeMwh: number, modalidad: Modalidad): IndexPoint[] {
  return eachDay(desde, hasta).map((day) => {
    const k = modalidad === 'con_impuestos' ? factorImpuestosDelDia(day) : 1
    const s = indexSums(day, tarifaId, feeMwh)
    const porPeriodoValues = PERIODOS.map((_, i) => (i < s.nPeriodos && s.count[i]! > 0 ? round6((s.sum[i]! / s.count[i]!) * k) : null))
    return { Fecha: day, PrecioMedioKwh: round6((s.total / s.slots) * k), PorPeriodo: porPeriodo(porPeriodoValues) }
  })
}

/**
 * The index averaged over a range, without taxes: overall (every slot weighs the same) and per
 * period (`null` for the periods the tariff lacks). Not rounded.
 */
export function indexMedio(desde: string, hasta: string, tarifaId: number, feeMwh: number): { media: number; porPeriodo: (number | null)[] } {
  const sum = new Array<number>(6).fill(0)
  const count = new Array<number>(6).fill(0)
  let total = 0
  let hours = 0
  let nPeriodos = 6
  for (const day of eachDay(desde, hasta)) {
    const s = indexSums(day, tarifaId, feeMwh)
    nPeriodos = s.nPeriodos
    // Slots weigh by their duration: a quarter-hour is a quarter of an hour.
    const w = 1 / s.perHour
    total += s.total * w
    hours += s.slots / s.perHour
    for (let i = 0; i < 6; i++) {
      sum[i]! += s.sum[i]! * w
      count[i]! += s.count[i]! * w
    }
  }
  return { media: hours ? total / hours : 0, porPeriodo: PERIODOS.map((_, i) => (i < nPeriodos && count[i]! > 0 ? sum[i]! / count[i]! : null)) }
}

// ── surplus compensation ─────────────────────────────────────────────────────

export const FORMULA_EXCEDENTES =
  'Precio (€/kWh) = máx(0, Σ_h OMIE_h × solar_h / Σ_h solar_h) / 1000: la media del día del precio de mercado ponderada por un perfil de producción solar (seno entre la salida y la puesta del sol del mes); nunca negativo.'

/** A day's production-weighted market price (€/MWh) and its weight (the day's relative production). */
function excedentesDia(day: string): { weighted: number; weight: number } {
  const values = omieDayView(day)
  const perHour = slotsPorHora(day)
  const month0 = Number(day.slice(5, 7)) - 1
  let weighted = 0
  let weight = 0
  values.forEach((omie, i) => {
    // Quarter-hours weigh a quarter of an hour.
    const w = solarProfile(month0, slotMidHour(day, i, perHour)) / perHour
    weighted += omie * w
    weight += w
  })
  return { weighted, weight }
}

/** The surplus compensation price of each day, €/kWh (6 decimals, never below 0). */
export function excedentesDiario(desde: string, hasta: string): { Fecha: string; PrecioKwh: number }[] {
  return eachDay(desde, hasta).map((day) => {
    const { weighted, weight } = excedentesDia(day)
    return { Fecha: day, PrecioKwh: weight > 0 ? round6(Math.max(0, weighted / weight) / 1000) : 0 }
  })
}

/** The production-weighted surplus price over a range, €/kWh (never below 0). Not rounded. */
export function excedentesMedio(desde: string, hasta: string): number {
  let weighted = 0
  let weight = 0
  for (const day of eachDay(desde, hasta)) {
    const d = excedentesDia(day)
    weighted += Math.max(0, d.weighted)
    weight += d.weight
  }
  return weight > 0 ? Math.max(0, weighted / weight) / 1000 : 0
}

// ── averages over the last 12 months (comparator, battery savings periods) ─────────

/** The 365 (or 366) days ending with `hasta`: from the day after the same date a year earlier. */
export function ultimos12Meses(hasta: string): { desde: string; hasta: string } {
  return { desde: addDays(addYearsDay(hasta, -1), 1), hasta }
}

const mediaCache = new Map<string, { media: number; porPeriodo: (number | null)[] }>()

/** `indexMedio` memoised (the averages of a past range never change). */
export function indexMedioCached(desde: string, hasta: string, tarifaId: number, feeMwh: number) {
  const key = `${desde}|${hasta}|${tarifaId}|${feeMwh}`
  let v = mediaCache.get(key)
  if (!v) {
    v = indexMedio(desde, hasta, tarifaId, feeMwh)
    if (mediaCache.size > 200) mediaCache.clear()
    mediaCache.set(key, v)
  }
  return v
}
