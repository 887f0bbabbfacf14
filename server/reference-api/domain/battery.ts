import { OMIE_DESDE } from './omie'
import { FACTOR_IMPUESTOS, excedentesMedio, feeDefecto, indexMedioCached, ultimos12Meses } from './energy-prices'
import type { Battery, BatteryResult, SavingsPeriod } from '../../../schemas/business/battery'

/**
 * The battery savings model of the domain notes, for one battery and one household:
 *
 *   E0 = G − S0 (surplus), I0 = C − S0 (imports)
 *   charge = min(E0, B·f·365, I0/η); delivered = η·charge
 *   S1 = S0 + delivered; E1 = E0 − charge; I1 = I0 − delivered
 *   self-consumption = S/G; autarky = S/C
 *   saving = delivered·p_imp − charge·p_exc   (× (1 + 5,11269632 %)(1 + 21 %) when the prices exclude taxes)
 *   payback = CAPEX / saving; 10-year net saving = 10·saving − CAPEX
 *
 * C annual consumption, G PV production, S0 direct self-consumption (kWh a year), B usable
 * capacity (kWh), η round-trip efficiency, f average daily fill, p_imp the price of an
 * imported kWh, p_exc the surplus compensation price (€/kWh; 0 where the surplus credit is
 * already capped), CAPEX the installed price.
 */

export interface EntradaModelo {
  consumoKwh: number
  produccionKwh: number
  autoconsumoKwh: number
  precioImportacionKwh: number
  precioExcedenteKwh: number
  preciosConImpuestos: boolean
}

export interface ModeloBateria {
  capacidadKwh: number
  eficiencia: number
  llenadoMedio: number
  precioEur: number
}

/** Unrounded results of the model. */
export interface ResultadoModelo {
  excedenteAntes: number
  importacionAntes: number
  carga: number
  entregada: number
  autoconsumoDespues: number
  excedenteDespues: number
  importacionDespues: number
  autoconsumoAntesRatio: number
  autoconsumoDespuesRatio: number
  autarquiaAntesRatio: number
  autarquiaDespuesRatio: number
  ahorroAnual: number
  /** null when the battery saves nothing (never pays back). */
  retornoAnios: number | null
  ahorroNeto10Anios: number
}

export function modeloBateria(e: EntradaModelo, b: ModeloBateria): ResultadoModelo {
  const { consumoKwh: C, produccionKwh: G, autoconsumoKwh: S0 } = e
  const E0 = G - S0
  const I0 = C - S0
  const carga = Math.max(0, Math.min(E0, b.capacidadKwh * b.llenadoMedio * 365, I0 / b.eficiencia))
  const entregada = b.eficiencia * carga
  const S1 = S0 + entregada
  const factor = e.preciosConImpuestos ? 1 : FACTOR_IMPUESTOS
  const ahorroAnual = (entregada * e.precioImportacionKwh - carga * e.precioExcedenteKwh) * factor
  return {
    excedenteAntes: E0,
    importacionAntes: I0,
    carga,
    entregada,
    autoconsumoDespues: S1,
    excedenteDespues: E0 - carga,
    importacionDespues: I0 - entregada,
    autoconsumoAntesRatio: G > 0 ? S0 / G : 0,
    autoconsumoDespuesRatio: G > 0 ? S1 / G : 0,
    autarquiaAntesRatio: C > 0 ? S0 / C : 0,
    autarquiaDespuesRatio: C > 0 ? S1 / C : 0,
    ahorroAnual,
    retornoAnios: ahorroAnual > 0 ? b.precioEur / ahorroAnual : null,
    ahorroNeto10Anios: 10 * ahorroAnual - b.precioEur,
  }
}

const r0 = (v: number) => Math.round(v)
const r1 = (v: number) => Math.round(v * 10) / 10
const r2 = (v: number) => Math.round(v * 100) / 100

export function resultadoBateria(e: EntradaModelo, bateria: Battery): BatteryResult {
  const m = modeloBateria(e, { capacidadKwh: bateria.CapacidadUtilKwh, eficiencia: bateria.Eficiencia, llenadoMedio: bateria.LlenadoMedio, precioEur: bateria.PrecioEur })
  return {
    Bateria: bateria,
    CargaKwh: r0(m.carga),
    EntregadaKwh: r0(m.entregada),
    ExcedenteDespuesKwh: r0(m.excedenteDespues),
    ImportacionDespuesKwh: r0(m.importacionDespues),
    AutoconsumoAntesPct: r1(m.autoconsumoAntesRatio * 100),
    AutoconsumoDespuesPct: r1(m.autoconsumoDespuesRatio * 100),
    AutarquiaAntesPct: r1(m.autarquiaAntesRatio * 100),
    AutarquiaDespuesPct: r1(m.autarquiaDespuesRatio * 100),
    AhorroAnualEur: r2(m.ahorroAnual),
    RetornoAnios: m.retornoAnios === null ? null : r1(m.retornoAnios),
    AhorroNeto10AniosEur: r2(m.ahorroNeto10Anios),
  }
}

/**
 * Results for every battery, best first: the highest 10-year net saving (10 × saving − price),
 * ties by the shorter payback (a battery that never pays back last), then by id.
 */
export function rankBaterias(e: EntradaModelo, baterias: readonly Battery[]): BatteryResult[] {
  const payback = (r: BatteryResult) => r.RetornoAnios ?? Number.POSITIVE_INFINITY
  return baterias
    .map((b) => resultadoBateria(e, b))
    .sort((a, b) => b.AhorroNeto10AniosEur - a.AhorroNeto10AniosEur || payback(a) - payback(b) || a.Bateria.Id - b.Bateria.Id)
}

/** A 10-year projection: saving per year, cumulative, and the balance after the price. */
export function proyeccion10Anios(r: BatteryResult): { Anio: number; AhorroEur: number; AcumuladoEur: number; SaldoEur: number }[] {
  const out = []
  for (let anio = 1; anio <= 10; anio++) {
    const acumulado = r2(r.AhorroAnualEur * anio)
    out.push({ Anio: anio, AhorroEur: r.AhorroAnualEur, AcumuladoEur: acumulado, SaldoEur: r2(acumulado - r.Bateria.PrecioEur) })
  }
  return out
}

// ── savings periods: average prices from the OMIE series ──────────────────────

/** Id of the "last 12 months" period; calendar years use the year as their Id (2025, 2024…). */
export const FECHAS_ULTIMOS_12_MESES = 1

const fechasCache = new Map<string, SavingsPeriod[]>()
const r6 = (v: number) => Math.round(v * 1e6) / 1e6

/**
 * The periods whose average import and surplus prices are known on `today`: the last 12
 * months (the 365 days ending today) and every complete calendar year of the series, newest
 * first. Import: the 2.0TD closing-price index with its default fee, every hour weighing the
 * same; surplus: the surplus compensation price weighted by solar production. Both without
 * taxes.
 */
export function fechasAhorro(today: string): SavingsPeriod[] {
  const cached = fechasCache.get(today)
  if (cached) return cached
  const periods: { Id: number; Nombre: string; Desde: string; Hasta: string }[] = []
  const last = ultimos12Meses(today)
  periods.push({ Id: FECHAS_ULTIMOS_12_MESES, Nombre: 'Últimos 12 meses', Desde: last.desde < OMIE_DESDE ? OMIE_DESDE : last.desde, Hasta: last.hasta })
  for (let y = Number(today.slice(0, 4)) - 1; y >= Number(OMIE_DESDE.slice(0, 4)); y--) {
    periods.push({ Id: y, Nombre: `Año ${y}`, Desde: `${y}-01-01`, Hasta: `${y}-12-31` })
  }
  const out = periods.map((p) => ({
    ...p,
    PrecioImportacionMedioKwh: r6(indexMedioCached(p.Desde, p.Hasta, 1, feeDefecto(1)).media),
    PrecioExcedenteMedioKwh: r6(excedentesMedio(p.Desde, p.Hasta)),
  }))
  if (fechasCache.size > 20) fechasCache.clear()
  fechasCache.set(today, out)
  return out
}
