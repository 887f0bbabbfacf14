/**
 * The regulated parts of an electricity bill, as they applied each day (domain notes; the
 * README's «Componentes regulados» says where every figure comes from and which ones are
 * approximations): access tolls (peajes de transporte y distribución, CNMC) and charges
 * (cargos, Ministry) per tariff, period and year, capacity payments, the social-bonus financing,
 * the standard loss coefficients, the excess-power coefficients, the electricity tax, VAT and the
 * meter rental.
 *
 * Indexed invoices and the closing-price index of the energy screens read the same figures
 * (`energy-prices.ts`), and fixed-price invoices show the part of their prices these make up.
 */

/** Tariff ids: 1 = 2.0TD (3 energy, 2 power periods), 2 = 3.0TD, 3–6 = 6.1TD–6.4TD (6 and 6). */
export type TarifaId = number

/** The regulated figures of a tariff in force from a day on. */
export interface Tramo {
  desde: string
  /** Access tolls, €/kWh per energy period. */
  peajesEnergia: readonly number[]
  /** Charges, €/kWh per energy period. */
  cargosEnergia: readonly number[]
  /** Access tolls, € per kW and year per power period. */
  peajesPotencia: readonly number[]
  /** Charges, € per kW and year per power period. */
  cargosPotencia: readonly number[]
  /** Capacity payments, €/kWh per energy period. */
  capacidad: readonly number[]
  /** The retailer's share of the social-bonus financing, passed on per kWh (indexed offers). */
  bonoSocialKwh: number
}

/** Standard loss coefficients per period (0.166 = 16,6 %), by tariff (constant: a simplification). */
export const PERDIDAS: Record<TarifaId, readonly number[]> = {
  1: [0.166, 0.157, 0.147],
  2: [0.163, 0.16, 0.157, 0.154, 0.151, 0.146],
  3: [0.07, 0.068, 0.066, 0.064, 0.062, 0.058],
  4: [0.046, 0.045, 0.044, 0.043, 0.042, 0.04],
  5: [0.036, 0.035, 0.034, 0.033, 0.032, 0.031],
  6: [0.018, 0.018, 0.017, 0.017, 0.016, 0.016],
}

const times = (values: readonly number[], k: number) => values.map((v) => Math.round(v * k * 1e6) / 1e6)

/** 2.0TD. */
const T20: readonly Tramo[] = [
  {
    desde: '2021-06-01',
    peajesEnergia: [0.030588, 0.021266, 0.000874],
    cargosEnergia: [0.10253, 0.020506, 0.005127],
    peajesPotencia: [23.469833, 0.96113],
    cargosPotencia: [7.202827, 0.463229],
    capacidad: [0.002268, 0.000319, 0],
    bonoSocialKwh: 0.00031,
  },
  {
    // Real Decreto-ley 17/2021: charges cut by 96 % from 16 September 2021.
    desde: '2021-09-16',
    peajesEnergia: [0.030588, 0.021266, 0.000874],
    cargosEnergia: times([0.10253, 0.020506, 0.005127], 0.04),
    peajesPotencia: [23.469833, 0.96113],
    cargosPotencia: times([7.202827, 0.463229], 0.04),
    capacidad: [0.002268, 0.000319, 0],
    bonoSocialKwh: 0.00031,
  },
  {
    desde: '2022-01-01',
    peajesEnergia: [0.029305, 0.018902, 0.000662],
    cargosEnergia: times([0.10253, 0.020506, 0.005127], 0.04),
    peajesPotencia: [23.042, 0.94],
    cargosPotencia: times([7.202827, 0.463229], 0.04),
    capacidad: [0.002268, 0.000319, 0],
    bonoSocialKwh: 0.00031,
  },
  {
    desde: '2023-01-01',
    peajesEnergia: [0.029098, 0.018686, 0.000655],
    cargosEnergia: [0.043893, 0.008779, 0.002195],
    peajesPotencia: [22.988256, 0.93889],
    cargosPotencia: [4.970533, 0.319666],
    capacidad: [0.002268, 0.000319, 0],
    bonoSocialKwh: 0.0006,
  },
  {
    desde: '2024-01-01',
    peajesEnergia: [0.031093, 0.019412, 0.000663],
    cargosEnergia: [0.043893, 0.008779, 0.002195],
    peajesPotencia: [22.401746, 0.91341],
    cargosPotencia: [4.970533, 0.319666],
    capacidad: [0.000926, 0.000154, 0],
    bonoSocialKwh: 0.0006,
  },
  {
    desde: '2025-01-01',
    peajesEnergia: [0.030588, 0.019097, 0.000652],
    cargosEnergia: [0.043893, 0.008779, 0.002195],
    peajesPotencia: [22.958932, 0.442165],
    cargosPotencia: [3.974324, 0.255597],
    capacidad: [0.000926, 0.000154, 0],
    bonoSocialKwh: 0.001,
  },
]

const C30_2023 = [0.02443, 0.016286, 0.009286, 0.004886, 0.003096, 0.001859]
const P30_PEAJES = [9.73, 5.54, 2.6, 2.25, 1.59, 0.92]
const P30_CARGOS = [4.17, 2.38, 1.11, 0.97, 0.68, 0.39]
/** 3.0TD. */
const T30: readonly Tramo[] = [
  {
    desde: '2021-06-01',
    peajesEnergia: [0.01959, 0.015052, 0.008263, 0.004756, 0.000269, 0.00018],
    cargosEnergia: times(C30_2023, 2.336),
    peajesPotencia: P30_PEAJES,
    cargosPotencia: times(P30_CARGOS, 2.336),
    capacidad: [0.003056, 0.001395, 0.000942, 0.000702, 0.000702, 0],
    bonoSocialKwh: 0.00031,
  },
  {
    desde: '2021-09-16',
    peajesEnergia: [0.01959, 0.015052, 0.008263, 0.004756, 0.000269, 0.00018],
    cargosEnergia: times(C30_2023, 2.336 * 0.04),
    peajesPotencia: P30_PEAJES,
    cargosPotencia: times(P30_CARGOS, 2.336 * 0.04),
    capacidad: [0.003056, 0.001395, 0.000942, 0.000702, 0.000702, 0],
    bonoSocialKwh: 0.00031,
  },
  {
    desde: '2023-01-01',
    peajesEnergia: [0.01959, 0.015052, 0.008263, 0.004756, 0.000269, 0.00018],
    cargosEnergia: C30_2023,
    peajesPotencia: P30_PEAJES,
    cargosPotencia: P30_CARGOS,
    capacidad: [0.003056, 0.001395, 0.000942, 0.000702, 0.000702, 0],
    bonoSocialKwh: 0.0006,
  },
  {
    desde: '2024-01-01',
    peajesEnergia: [0.01959, 0.015052, 0.008263, 0.004756, 0.000269, 0.00018],
    cargosEnergia: C30_2023,
    peajesPotencia: P30_PEAJES,
    cargosPotencia: P30_CARGOS,
    capacidad: [0.001251, 0.000578, 0.000385, 0.000289, 0.000289, 0],
    bonoSocialKwh: 0.0006,
  },
  {
    desde: '2025-01-01',
    peajesEnergia: [0.01959, 0.015052, 0.008263, 0.004756, 0.000269, 0.00018],
    cargosEnergia: C30_2023,
    peajesPotencia: P30_PEAJES,
    cargosPotencia: P30_CARGOS,
    capacidad: [0.001251, 0.000578, 0.000385, 0.000289, 0.000289, 0],
    bonoSocialKwh: 0.001,
  },
]

/** A high-voltage tariff (6.1TD–6.4TD) over the years, from its 2023 figures. */
function altaTension(peajes: number[], cargos: number[], peajesPot: number[], cargosPot: number[]): readonly Tramo[] {
  const old = [0.001311, 0.000605, 0.000405, 0.000302, 0.000302, 0]
  const cap = [0.000537, 0.000247, 0.000165, 0.000124, 0.000124, 0]
  return [
    { desde: '2021-06-01', peajesEnergia: peajes, cargosEnergia: times(cargos, 2.336), peajesPotencia: peajesPot, cargosPotencia: times(cargosPot, 2.336), capacidad: old, bonoSocialKwh: 0.00031 },
    { desde: '2021-09-16', peajesEnergia: peajes, cargosEnergia: times(cargos, 2.336 * 0.04), peajesPotencia: peajesPot, cargosPotencia: times(cargosPot, 2.336 * 0.04), capacidad: old, bonoSocialKwh: 0.00031 },
    { desde: '2023-01-01', peajesEnergia: peajes, cargosEnergia: cargos, peajesPotencia: peajesPot, cargosPotencia: cargosPot, capacidad: old, bonoSocialKwh: 0.0006 },
    { desde: '2024-01-01', peajesEnergia: peajes, cargosEnergia: cargos, peajesPotencia: peajesPot, cargosPotencia: cargosPot, capacidad: cap, bonoSocialKwh: 0.0006 },
    { desde: '2025-01-01', peajesEnergia: peajes, cargosEnergia: cargos, peajesPotencia: peajesPot, cargosPotencia: cargosPot, capacidad: cap, bonoSocialKwh: 0.001 },
  ]
}

const TABLAS: Record<TarifaId, readonly Tramo[]> = {
  1: T20,
  2: T30,
  3: altaTension(
    [0.015945, 0.013124, 0.007036, 0.00414, 0.000203, 0.000136],
    [0.014023, 0.009349, 0.005331, 0.002805, 0.001777, 0.001067],
    [16.56, 14.03, 7.82, 5.98, 1.38, 0.8],
    [7.09, 6.01, 3.35, 2.56, 0.59, 0.35],
  ),
  4: altaTension(
    [0.00929, 0.00777, 0.004149, 0.002407, 0.000123, 0.000083],
    [0.006339, 0.004226, 0.00241, 0.001268, 0.000803, 0.000482],
    [11.8, 10.0, 5.5, 4.2, 1.0, 0.6],
    [5.0, 4.2, 2.3, 1.8, 0.4, 0.25],
  ),
  5: altaTension(
    [0.007212, 0.006033, 0.003232, 0.001854, 0.000098, 0.000066],
    [0.005004, 0.003336, 0.001902, 0.001001, 0.000634, 0.000381],
    [9.5, 8.0, 4.4, 3.3, 0.8, 0.5],
    [4.0, 3.4, 1.9, 1.4, 0.3, 0.2],
  ),
  6: altaTension(
    [0.004658, 0.003894, 0.002066, 0.001211, 0.000073, 0.00005],
    [0.002914, 0.001943, 0.001108, 0.000583, 0.000369, 0.000222],
    [8.3, 7.0, 3.8, 2.9, 0.7, 0.4],
    [3.5, 2.9, 1.6, 1.2, 0.3, 0.2],
  ),
}

/** The first day the tables cover (the access tariffs of Circular 3/2020 began on 1 June 2021). */
export const REGULADO_DESDE = '2021-06-01'

/** The regulated figures of a tariff in force on a day (the last tranche for later years: 2026 repeats 2025). */
export function tramoRegulado(tarifaId: TarifaId, isoDay: string): Tramo {
  const tramos = TABLAS[tarifaId]
  if (!tramos) throw new Error(`Tarifa desconocida: ${tarifaId}`)
  let found = tramos[0]!
  for (const t of tramos) if (t.desde <= isoDay) found = t
  return found
}

export function perdidas(tarifaId: TarifaId): readonly number[] {
  const p = PERDIDAS[tarifaId]
  if (!p) throw new Error(`Tarifa desconocida: ${tarifaId}`)
  return p
}

/** The regulated part of the energy price of a period, €/kWh: toll + charge + capacity payment + social-bonus financing. */
export function reguladoEnergiaKwh(t: Tramo, k: number): number {
  return t.peajesEnergia[k]! + t.cargosEnergia[k]! + t.capacidad[k]! + t.bonoSocialKwh
}

/** Days of the year of a day (366 in leap years): the power tolls and charges are per year. */
export function diasDelAnio(isoDay: string): number {
  const y = (isoDay.charCodeAt(0) - 48) * 1000 + (isoDay.charCodeAt(1) - 48) * 100 + (isoDay.charCodeAt(2) - 48) * 10 + (isoDay.charCodeAt(3) - 48)
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365
}

// ── excess power (3.0TD and 6.xTD, Circular 3/2020 art. 9) ─────────────────────

/** Kp of each power period. */
export const EXCESOS_KP = [1, 0.5, 0.37, 0.37, 0.37, 0.17] as const
/** tep, € per kW. */
export const EXCESOS_TEP = 1.4064

/** Whether a tariff bills demand above the contracted power (2.0TD does not: its power limiter trips). */
export function facturaExcesos(tarifaId: TarifaId): boolean {
  return tarifaId >= 2
}

// ── taxes ─────────────────────────────────────────────────────────────────────

/** The electricity tax rate of a day (Ley 38/1992 art. 99 and the 2021–2024 reductions). */
export function tipoImpuestoElectrico(isoDay: string): number {
  if (isoDay >= '2021-09-16' && isoDay <= '2023-12-31') return 0.005
  if (isoDay >= '2024-01-01' && isoDay <= '2024-03-31') return 0.025
  if (isoDay >= '2024-04-01' && isoDay <= '2024-06-30') return 0.038
  return 0.0511269632
}

/** The tax's floor, € per MWh: 0.5 for industrial uses (CNAE divisions 05–33), 1 for the others. */
export function minimoImpuestoElectricoMwh(cnae: string): number {
  const division = Number(cnae.slice(0, 2))
  return division >= 5 && division <= 33 ? 0.5 : 1
}

export const IVA_GENERAL = 0.21
/** Above this average price of the previous month (€/MWh) the reduced VAT applied. */
export const IVA_UMBRAL_MWH = 45

/**
 * The VAT rate of a supply for a month: 21 % in general; supplies with every contracted power
 * up to 10 kW paid 10 % from 26 June 2021 to 30 June 2022, 5 % from 1 July 2022 to 31 December
 * 2023 and 10 % through 2024, each month only when the previous month's average day-ahead price
 * was above 45 €/MWh.
 */
export function tipoIva(isoDay: string, potenciaMaximaKw: number, mediaMesAnteriorMwh: number): number {
  if (potenciaMaximaKw > 10 || mediaMesAnteriorMwh <= IVA_UMBRAL_MWH) return IVA_GENERAL
  if (isoDay >= '2021-06-26' && isoDay <= '2022-06-30') return 0.1
  if (isoDay >= '2022-07-01' && isoDay <= '2023-12-31') return 0.05
  if (isoDay >= '2024-01-01' && isoDay <= '2024-12-31') return 0.1
  return IVA_GENERAL
}

// ── meter rental ──────────────────────────────────────────────────────────────

/** Meter rental, € per day, by tariff (single-phase smart meter for 2.0TD; Orden ITC/3860/2007 levels). */
const ALQUILER_DIA: Record<TarifaId, number> = { 1: 0.02663, 2: 0.059178, 3: 0.706849, 4: 0.706849, 5: 0.706849, 6: 0.706849 }

export function alquilerContadorDia(tarifaId: TarifaId): number {
  return ALQUILER_DIA[tarifaId] ?? ALQUILER_DIA[3]!
}
