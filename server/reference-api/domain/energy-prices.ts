import { PERIODOS, porPeriodo, type Periodo } from './contract-rules'
import { addDays, addYearsDay, eachDay, periodosDelDia } from './calendar'
import { omieDay, slotMidHour, solarProfile } from './omie'
import type { IndexPoint, Modalidad } from '../../../schemas/business/energy'

/**
 * Prices derived from the OMIE series (domain notes): the closing-price index of the indexed
 * offer and the surplus compensation price, with the regulated coefficients they use.
 *
 * Index, per hour (or quarter-hour) h of a day, in the period p the tariff gives that hour:
 *
 *   €/kWh = (OMIE_h + fee) × (1 + pérdidas_p) / 1000 + peaje_p + cargo_p
 *
 * averaged per day (every slot weighs the same) and per period (the slots of that period);
 * `con_impuestos` multiplies by (1 + 5,11269632 %) × (1 + 21 %).
 *
 * The coefficients are fixed, simplified values close to the 2025 regulated ones (tolls of
 * the CNMC, charges of the Ministry, standard loss coefficients); the real loss coefficients
 * vary hour by hour.
 */

export const IMPUESTO_ELECTRICO = 0.0511269632
export const IVA = 0.21
/** (1 + electricity tax) × (1 + VAT). */
export const FACTOR_IMPUESTOS = (1 + IMPUESTO_ELECTRICO) * (1 + IVA)

export interface CoeficientesTarifa {
  /** Access toll (peaje de transporte y distribución), €/kWh per period. */
  peajes: readonly number[]
  /** Charges (cargos), €/kWh per period. */
  cargos: readonly number[]
  /** Standard loss coefficients per period (0.147 = 14,7 %). */
  perdidas: readonly number[]
}

/** By tariff id (1 = 2.0TD: P1–P3; 2 = 3.0TD, 3–6 = 6.1TD–6.4TD: P1–P6). */
export const COEFICIENTES: Record<number, CoeficientesTarifa> = {
  1: { peajes: [0.030588, 0.019097, 0.000652], cargos: [0.043893, 0.008779, 0.002195], perdidas: [0.166, 0.157, 0.147] },
  2: {
    peajes: [0.01959, 0.015052, 0.008263, 0.004756, 0.000269, 0.00018],
    cargos: [0.02443, 0.016286, 0.009286, 0.004886, 0.003096, 0.001859],
    perdidas: [0.163, 0.16, 0.157, 0.154, 0.151, 0.146],
  },
  3: {
    peajes: [0.015945, 0.013124, 0.007036, 0.00414, 0.000203, 0.000136],
    cargos: [0.014023, 0.009349, 0.005331, 0.002805, 0.001777, 0.001067],
    perdidas: [0.07, 0.068, 0.066, 0.064, 0.062, 0.058],
  },
  4: {
    peajes: [0.00929, 0.00777, 0.004149, 0.002407, 0.000123, 0.000083],
    cargos: [0.006339, 0.004226, 0.00241, 0.001268, 0.000803, 0.000482],
    perdidas: [0.046, 0.045, 0.044, 0.043, 0.042, 0.04],
  },
  5: {
    peajes: [0.007212, 0.006033, 0.003232, 0.001854, 0.000098, 0.000066],
    cargos: [0.005004, 0.003336, 0.001902, 0.001001, 0.000634, 0.000381],
    perdidas: [0.036, 0.035, 0.034, 0.033, 0.032, 0.031],
  },
  6: {
    peajes: [0.004658, 0.003894, 0.002066, 0.001211, 0.000073, 0.00005],
    cargos: [0.002914, 0.001943, 0.001108, 0.000583, 0.000369, 0.000222],
    perdidas: [0.018, 0.018, 0.017, 0.017, 0.016, 0.016],
  },
}

/** The indexed offer's default fee (€/MWh over the market price) by tariff id. */
export const FEE_DEFECTO: Record<number, number> = { 1: 10, 2: 7, 3: 4, 4: 4, 5: 4, 6: 4 }

export function feeDefecto(tarifaId: number): number {
  return FEE_DEFECTO[tarifaId] ?? 4
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6

function coef(tarifaId: number): CoeficientesTarifa {
  const c = COEFICIENTES[tarifaId]
  if (!c) throw new Error(`Tarifa desconocida: ${tarifaId}`)
  return c
}

/** The index price of one hour, €/kWh without taxes (not rounded). */
export function precioIndexadoKwh(omieMwh: number, feeMwh: number, tarifaId: number, periodo: Periodo): number {
  const c = coef(tarifaId)
  const i = PERIODOS.indexOf(periodo)
  const peaje = c.peajes[i]
  if (peaje === undefined) throw new Error(`La tarifa ${tarifaId} no tiene el periodo ${periodo}`)
  return ((omieMwh + feeMwh) * (1 + c.perdidas[i]!)) / 1000 + peaje + c.cargos[i]!
}

/** The formula as text, for the answers and the exports. */
export function formulaIndex(modalidad: Modalidad): string {
  const base = 'Precio (€/kWh) = (OMIE_h + fee) × (1 + pérdidas_p) / 1000 + peaje_p + cargo_p, con p el periodo de la hora según la tarifa; media diaria de todas las horas (o cuartos de hora) y media de las horas de cada periodo'
  return modalidad === 'con_impuestos' ? `${base}; con impuestos: × (1 + 5,11269632 % impuesto eléctrico) × (1 + 21 % IVA).` : `${base}; sin impuestos.`
}

/** Sums of a day's index prices: total and per period (slot counts alongside). */
function indexSums(day: string, tarifaId: number, feeMwh: number) {
  const values = omieDay(day)
  const slots = values.length
  const nPeriodos = coef(tarifaId).peajes.length
  const sum = new Array<number>(6).fill(0)
  const count = new Array<number>(6).fill(0)
  let total = 0
  const c = coef(tarifaId)
  const periodos = periodosDelDia(tarifaId, day).map((p) => PERIODOS.indexOf(p))
  values.forEach((omie, i) => {
    const k = periodos[Math.floor((i * 24) / slots)]!
    // precioIndexadoKwh, inlined: this runs for every hour of up to four years.
    const price = ((omie + feeMwh) * (1 + c.perdidas[k]!)) / 1000 + c.peajes[k]! + c.cargos[k]!
    sum[k]! += price
    count[k]! += 1
    total += price
  })
  return { total, slots, sum, count, nPeriodos }
}

/**
 * The daily closing-price index from `desde` to `hasta`: the day's average and the average of
 * each period's hours (`null` for periods the tariff lacks or that have no hour that day, such
 * as P1 and P2 of 2.0TD at weekends). 6 decimals.
 */
export function indexDiario(desde: string, hasta: string, tarifaId: number, feeMwh: number, modalidad: Modalidad): IndexPoint[] {
  const k = modalidad === 'con_impuestos' ? FACTOR_IMPUESTOS : 1
  return eachDay(desde, hasta).map((day) => {
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
    const w = 24 / s.slots
    total += s.total * w
    hours += 24
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
  const values = omieDay(day)
  const slots = values.length
  const month0 = Number(day.slice(5, 7)) - 1
  let weighted = 0
  let weight = 0
  values.forEach((omie, i) => {
    // Quarter-hours weigh a quarter of an hour.
    const w = (solarProfile(month0, slotMidHour(i, slots)) * 24) / slots
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
