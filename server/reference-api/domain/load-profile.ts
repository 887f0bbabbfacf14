import { Random, hashSeed } from '../lib/random'
import { dayMs, esDiaNoLaborable, horasDelDia, weekday } from './calendar'

/**
 * The hourly consumption (load curve) of a seeded supply point, in Wh per hour of each local day
 * (23, 24 or 25 hours): what the distributor's smart meter reads, and what the invoices of the
 * demo data are computed from. Deterministic from the contract's code, activity (CNAE), tariff,
 * annual consumption and contracted powers, so anyone can read the same curve again
 * (`curvaDelDia`).
 *
 * The shape depends on the activity: a home (morning and evening peaks, more at weekends), a shop
 * (opening hours, closed on Sundays), an office, a bar or restaurant (lunch and dinner), a hotel or
 * care home (all day), a workshop or factory (one or two shifts), a bakery (before dawn), a cold
 * store or warehouse (a high base), a gym, a farm's irrigation (summer nights) or a school
 * (afternoons, not in summer). Each supply point moves its hours a little and has its own base
 * load; every day and hour carries some noise. About one business supply in five is short of
 * power: on a few working days an hour goes above the contracted power of its period (the excess
 * that 3.0TD and 6.1TD bill); homes and small shops stay within it (their limiter trips).
 */

export type Actividad =
  | 'hogar'
  | 'comercio'
  | 'oficina'
  | 'hosteleria'
  | 'alojamiento'
  | 'clinica'
  | 'industria'
  | 'panaderia'
  | 'almacen'
  | 'gimnasio'
  | 'riego'
  | 'academia'
  | 'comunidad'

const ACTIVIDAD_POR_CNAE: Record<string, Actividad> = {
  '9820': 'hogar',
  '4711': 'comercio', '4721': 'comercio', '4724': 'comercio', '4771': 'comercio', '4773': 'comercio', '9602': 'comercio',
  '6920': 'oficina', '6810': 'oficina', '7112': 'oficina', '8411': 'oficina', '4941': 'oficina', '4121': 'oficina', '8623': 'clinica',
  '5630': 'hosteleria', '5610': 'hosteleria',
  '5510': 'alojamiento', '8731': 'alojamiento',
  '8690': 'clinica',
  '4520': 'industria', '1610': 'industria', '2511': 'industria', '2562': 'industria', '1013': 'industria', '1043': 'industria', '1102': 'industria', '4321': 'industria',
  '1071': 'panaderia',
  '5210': 'almacen',
  '9313': 'gimnasio',
  '0111': 'riego',
  '8510': 'academia',
  '6820': 'comunidad',
}

export function actividadDeCnae(cnae: string): Actividad {
  return ACTIVIDAD_POR_CNAE[cnae] ?? 'oficina'
}

interface Perfil {
  /** Relative demand by clock hour on working days, Saturdays and Sundays/holidays. */
  laborable: readonly number[]
  sabado: readonly number[]
  festivo: readonly number[]
  /** Relative monthly level, January first. */
  estacion: readonly number[]
}

/** Opening hours as a shape: `base` outside, 1 inside (with soft edges). */
function horario(base: number, ...tramos: [number, number, number?][]): number[] {
  const out = new Array<number>(24).fill(base)
  for (const [desde, hasta, nivel = 1] of tramos) for (let h = desde; h < hasta; h++) out[h % 24] = Math.max(out[h % 24]!, nivel)
  return out
}

const PERFILES: Record<Actividad, Perfil> = {
  hogar: {
    laborable: [0.5, 0.4, 0.35, 0.33, 0.33, 0.36, 0.5, 0.8, 0.9, 0.75, 0.65, 0.65, 0.7, 0.85, 0.95, 0.8, 0.7, 0.75, 0.95, 1.2, 1.45, 1.55, 1.3, 0.85],
    sabado: [0.6, 0.45, 0.38, 0.35, 0.34, 0.35, 0.42, 0.55, 0.8, 1.0, 1.05, 1.05, 1.1, 1.2, 1.15, 0.95, 0.85, 0.85, 1.0, 1.2, 1.4, 1.5, 1.35, 0.95],
    festivo: [0.65, 0.5, 0.4, 0.36, 0.34, 0.35, 0.4, 0.5, 0.7, 0.95, 1.05, 1.1, 1.15, 1.25, 1.2, 1.0, 0.9, 0.9, 1.0, 1.2, 1.4, 1.45, 1.25, 0.9],
    estacion: [1.28, 1.12, 1.0, 0.86, 0.8, 0.88, 1.12, 1.15, 0.95, 0.86, 0.95, 1.22],
  },
  comercio: {
    laborable: horario(0.12, [9, 14], [17, 21]),
    sabado: horario(0.12, [10, 14]),
    festivo: horario(0.1),
    estacion: [1.0, 0.98, 0.95, 0.92, 0.98, 1.08, 1.2, 1.1, 1.02, 0.95, 0.95, 1.1],
  },
  oficina: {
    laborable: horario(0.15, [8, 14], [15, 19, 0.85], [14, 15, 0.7]),
    sabado: horario(0.15),
    festivo: horario(0.14),
    estacion: [1.1, 1.05, 0.98, 0.9, 0.92, 1.05, 1.18, 0.8, 1.0, 0.95, 1.0, 1.08],
  },
  hosteleria: {
    laborable: horario(0.2, [8, 12, 0.55], [12, 16], [16, 20, 0.5], [20, 24, 1]),
    sabado: horario(0.22, [9, 12, 0.6], [12, 17, 1.1], [17, 20, 0.6], [20, 24, 1.15]),
    festivo: horario(0.22, [9, 12, 0.6], [12, 17, 1.15], [17, 20, 0.5], [20, 23, 0.8]),
    estacion: [0.92, 0.9, 0.95, 1.0, 1.02, 1.1, 1.2, 1.22, 1.05, 0.95, 0.88, 0.95],
  },
  alojamiento: {
    laborable: [0.6, 0.55, 0.52, 0.5, 0.5, 0.55, 0.7, 0.95, 1.0, 0.9, 0.8, 0.78, 0.8, 0.85, 0.82, 0.78, 0.78, 0.8, 0.9, 1.0, 1.05, 1.0, 0.85, 0.7],
    sabado: [0.62, 0.56, 0.53, 0.5, 0.5, 0.54, 0.66, 0.9, 1.02, 0.95, 0.85, 0.8, 0.82, 0.86, 0.83, 0.8, 0.8, 0.82, 0.92, 1.02, 1.06, 1.0, 0.88, 0.72],
    festivo: [0.62, 0.56, 0.53, 0.5, 0.5, 0.54, 0.66, 0.9, 1.02, 0.95, 0.85, 0.8, 0.82, 0.86, 0.83, 0.8, 0.8, 0.82, 0.92, 1.02, 1.06, 1.0, 0.88, 0.72],
    estacion: [0.95, 0.92, 0.95, 0.98, 1.0, 1.08, 1.18, 1.2, 1.05, 0.95, 0.9, 0.95],
  },
  clinica: {
    laborable: horario(0.18, [8, 14], [14, 21, 0.85]),
    sabado: horario(0.16, [9, 14, 0.6]),
    festivo: horario(0.15),
    estacion: [1.05, 1.02, 0.98, 0.95, 0.97, 1.05, 1.12, 0.88, 1.0, 0.98, 1.0, 1.02],
  },
  industria: {
    laborable: horario(0.12, [6, 14], [14, 22, 0.8]),
    sabado: horario(0.1, [7, 13, 0.45]),
    festivo: horario(0.08),
    estacion: [1.02, 1.02, 1.0, 0.98, 1.0, 1.02, 1.04, 0.75, 1.02, 1.04, 1.05, 1.0],
  },
  panaderia: {
    laborable: horario(0.15, [2, 10], [10, 14, 0.5], [17, 20, 0.35]),
    sabado: horario(0.15, [2, 10], [10, 14, 0.5]),
    festivo: horario(0.12, [3, 9, 0.6]),
    estacion: [1.0, 1.0, 1.0, 0.98, 0.98, 0.98, 1.02, 0.95, 1.0, 1.0, 1.02, 1.08],
  },
  almacen: {
    laborable: horario(0.65, [7, 15], [15, 21, 0.85]),
    sabado: horario(0.62, [8, 13, 0.8]),
    festivo: horario(0.6),
    estacion: [0.9, 0.9, 0.95, 1.0, 1.05, 1.12, 1.2, 1.18, 1.05, 0.95, 0.88, 0.92],
  },
  gimnasio: {
    laborable: horario(0.12, [7, 10, 0.8], [10, 17, 0.55], [17, 22, 1], [22, 23, 0.5]),
    sabado: horario(0.12, [9, 14, 0.75], [17, 20, 0.5]),
    festivo: horario(0.1, [9, 14, 0.55]),
    estacion: [1.12, 1.1, 1.05, 1.0, 1.0, 0.98, 0.9, 0.78, 1.02, 1.05, 1.05, 0.95],
  },
  riego: {
    laborable: horario(0.08, [0, 8], [22, 24]),
    sabado: horario(0.08, [0, 8], [14, 24]),
    festivo: horario(0.08, [0, 24]),
    estacion: [0.25, 0.3, 0.55, 0.9, 1.3, 1.9, 2.2, 2.1, 1.4, 0.6, 0.25, 0.25],
  },
  academia: {
    laborable: horario(0.1, [9, 13, 0.45], [16, 21]),
    sabado: horario(0.1, [10, 13, 0.5]),
    festivo: horario(0.08),
    estacion: [1.1, 1.1, 1.05, 1.0, 1.0, 0.8, 0.35, 0.3, 0.95, 1.1, 1.12, 1.0],
  },
  comunidad: {
    laborable: horario(0.3, [7, 10, 0.8], [13, 16, 0.6], [18, 24, 1]),
    sabado: horario(0.3, [9, 14, 0.7], [18, 24, 1]),
    festivo: horario(0.3, [10, 14, 0.7], [18, 24, 1]),
    estacion: [1.25, 1.15, 1.0, 0.9, 0.85, 0.85, 0.9, 0.9, 0.9, 1.0, 1.1, 1.25],
  },
}

/** What a load curve depends on: the contract's fields. */
export interface SuministroCurva {
  codigo: string
  cnae: string
  tarifaId: number
  consumoAnualKwh: number
  /** Contracted kW per period (P1–P6; `null` beyond the tariff's). */
  potencias: readonly (number | null)[]
}

/** A supply point's own variant of its activity's shape, fixed once per contract. */
interface Curva {
  suministro: SuministroCurva
  perfil: Perfil
  /** Hours the shape is moved by (−1, 0 or 1). */
  desplazamiento: number
  /** Weight of the base load (0.8–1.25). */
  base: number
  /** Energy of a day of each kind (working, Saturday, Sunday) before the season, kWh. */
  energiaDia: readonly [number, number, number]
  /** Short of power: some hours go above the contracted power. */
  corto: boolean
  /** Each clock hour's share of a day of each kind (working, Saturday, Sunday), moved and base load weighed. */
  relativa: readonly [Float64Array, Float64Array, Float64Array]
  /** 97 % of the contracted power of each period, Wh in an hour. */
  tope: readonly number[]
  /** Seed of the supply's days (mixed with the day). */
  semilla: number
}

// Per supply object: every day of its invoices reads the same parameters.
const cache = new WeakMap<SuministroCurva, Curva>()

function shapeOf(perfil: Perfil, kind: 0 | 1 | 2): readonly number[] {
  return kind === 0 ? perfil.laborable : kind === 1 ? perfil.sabado : perfil.festivo
}

/** The contract's curve parameters (memoised per supply object). */
function curva(s: SuministroCurva): Curva {
  let c = cache.get(s)
  if (c) return c
  const r = new Random(hashSeed(`curva:${s.codigo}`))
  const actividad = actividadDeCnae(s.cnae)
  const perfil = PERFILES[actividad]
  const desplazamiento = r.int(-1, 1)
  const base = 0.8 + 0.45 * r.next()
  const corto = actividad !== 'hogar' && s.tarifaId >= 2 && r.chance(0.22)
  // A year of 52 weeks: 5 working days, a Saturday and a Sunday each, scaled to the annual kWh.
  const sums = ([0, 1, 2] as const).map((k) => shapeOf(perfil, k).reduce((a, v) => a + adjust(v, base), 0))
  const seasonMean = perfil.estacion.reduce((a, v) => a + v, 0) / 12
  const weekUnits = 5 * sums[0]! + sums[1]! + sums[2]!
  const perUnit = s.consumoAnualKwh / ((365 / 7) * weekUnits * seasonMean)
  c = {
    suministro: s,
    perfil,
    desplazamiento,
    base,
    energiaDia: [sums[0]! * perUnit, sums[1]! * perUnit, sums[2]! * perUnit],
    corto,
    relativa: [relativeShape(perfil, 0, base, desplazamiento, sums[0]!), relativeShape(perfil, 1, base, desplazamiento, sums[1]!), relativeShape(perfil, 2, base, desplazamiento, sums[2]!)],
    tope: s.potencias.map((kw) => Math.floor((kw ?? s.potencias[0] ?? 0) * 970)),
    semilla: hashSeed(`consumo:${s.codigo}`),
  }
  cache.set(s, c)
  return c
}

const kinds = new Map<string, 0 | 1 | 2>()

/** 0 a working day, 1 a Saturday, 2 a Sunday or national holiday (memoised). */
function dayKind(isoDay: string): 0 | 1 | 2 {
  let k = kinds.get(isoDay)
  if (k === undefined) {
    k = esDiaNoLaborable(isoDay) ? (weekday(isoDay) === 6 ? 1 : 2) : 0
    kinds.set(isoDay, k)
  }
  return k
}

/** Share of each clock hour in a day of a kind, the shape moved by `desplazamiento` hours. */
function relativeShape(perfil: Perfil, kind: 0 | 1 | 2, base: number, desplazamiento: number, sum: number): Float64Array {
  const shape = shapeOf(perfil, kind)
  const out = new Float64Array(24)
  for (let h = 0; h < 24; h++) out[h] = adjust(shape[(h - desplazamiento + 24) % 24]!, base) / sum
  return out
}

/** The base load outside opening hours weighs `base` times more or less. */
function adjust(v: number, base: number): number {
  return v < 0.5 ? v * base : v
}

/** The hour's power period for the demand (2.0TD: P1 8–24 on working days, P2 the rest; others: the energy period). */
export function esPuntaPotencia20(isoDay: string, hour: number): boolean {
  return !esDiaNoLaborable(isoDay) && hour >= 8
}

/**
 * The Wh consumed in each hour of a local day (23, 24 or 25 values, in the order of
 * `horasDelDia`), whole watt-hours as the meter reads them. `periodosPotencia[n]` is the index
 * (0–5) of the power period of the day's n-th hour: a supply keeps within 97 % of that period's
 * contracted power, but for the rare hours above it of one short of power.
 */
export function curvaDelDia(s: SuministroCurva, isoDay: string, periodosPotencia: readonly number[]): Int32Array {
  const c = curva(s)
  const hours = horasDelDia(isoDay)
  const kind = dayKind(isoDay)
  const rel = c.relativa[kind]
  const month0 = Number(isoDay.slice(5, 7)) - 1
  const r = new Random((c.semilla ^ Math.imul(Math.round(dayMs(isoDay) / 86_400_000), 0x9e3779b1)) >>> 0)
  // The day's level varies ±15 %; each hour ±10 %.
  const kwhDia = c.energiaDia[kind] * c.perfil.estacion[month0]! * (0.85 + 0.3 * r.next())
  const out = new Int32Array(hours.length)
  for (let n = 0; n < hours.length; n++) {
    const wh = Math.round(kwhDia * rel[hours[n]!]! * (0.9 + 0.2 * r.next()) * 1000)
    // A supply with enough power keeps within 97 % of it (a limiter, or a well-sized contract).
    out[n] = Math.min(wh, c.tope[periodosPotencia[n]!]!)
  }
  // A short-of-power business: now and then an open hour above its contracted power.
  if (c.corto && kind === 0 && r.chance(0.06)) {
    const n = r.int(9, Math.min(hours.length - 1, 19))
    const kw = s.potencias[periodosPotencia[n]!] ?? s.potencias[0]!
    out[n] = Math.max(out[n]!, Math.round(kw * (1.03 + 0.3 * r.next()) * 1000))
  }
  return out
}
