import { PERIODOS, porPeriodo, type PorPeriodo, type TarifaRef } from './contract-rules'
import { indexMedioCached, ultimos12Meses } from './energy-prices'

/**
 * The brands' current fixed-price offer (2026 Spanish retail levels, taxes excluded) and the
 * contract price used for estimates.
 *
 * Levels are those of the seeded contracts (seed-business.ts): 2.0TD energy around
 * 0.18 / 0.14 / 0.12 €/kWh (P1 peak, P2 flat, P3 valley) and power about 0.09 and 0.005 €/kW
 * per day; 3.0TD and 6.xTD six periods decreasing from P1 (high season peak) to P6 (off-peak).
 * Each brand prices slightly differently (a factor per brand).
 */

interface Base {
  energia: readonly number[]
  potencia: readonly number[]
}

const BASE: Record<number, Base> = {
  1: { energia: [0.1785, 0.1425, 0.116], potencia: [0.0902, 0.0047] },
  2: { energia: [0.1795, 0.1685, 0.156, 0.147, 0.1385, 0.123], potencia: [0.0445, 0.0253, 0.0119, 0.0103, 0.0072, 0.0042] },
  3: { energia: [0.1605, 0.151, 0.1405, 0.132, 0.125, 0.112], potencia: [0.0756, 0.064, 0.0357, 0.0273, 0.0063, 0.0037] },
  4: { energia: [0.152, 0.143, 0.133, 0.125, 0.1185, 0.1065], potencia: [0.054, 0.0455, 0.025, 0.019, 0.0045, 0.0027] },
  5: { energia: [0.1475, 0.1387, 0.129, 0.1213, 0.115, 0.1033], potencia: [0.0432, 0.0364, 0.02, 0.0152, 0.0036, 0.0022] },
  6: { energia: [0.1444, 0.1358, 0.1264, 0.1188, 0.1126, 0.1012], potencia: [0.0378, 0.0319, 0.0175, 0.0133, 0.0032, 0.0019] },
}

/** Each brand's price level relative to the base. */
const BRAND_FACTOR: Record<string, number> = {
  'energiaverde.es': 1,
  'grupoenergia.es': 1.028,
  'energialimpia.es': 0.982,
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6

export interface OfertaPrecioFijo {
  TarifaId: number
  Tarifa: string
  VigenciaDesde: string
  VigenciaHasta: string
  PreciosEnergia: PorPeriodo
  PreciosPotencia: PorPeriodo
  Unidades: { Energia: '€/kWh'; Potencia: '€/kW día' }
}

/** The calendar quarter holding `isoDay`: its first and last day. */
function quarter(isoDay: string): { desde: string; hasta: string } {
  const [y, m] = isoDay.split('-').map(Number) as [number, number]
  const q = Math.floor((m - 1) / 3)
  const desde = new Date(Date.UTC(y, q * 3, 1)).toISOString().slice(0, 10)
  const hasta = new Date(Date.UTC(y, q * 3 + 3, 0)).toISOString().slice(0, 10)
  return { desde, hasta }
}

/** The brand's fixed-price offer for a tariff, valid for the calendar quarter of `today`. */
export function ofertaPrecioFijo(tarifa: TarifaRef, dominio: string, today: string): OfertaPrecioFijo {
  const base = BASE[tarifa.Id] ?? BASE[3]!
  const k = BRAND_FACTOR[dominio.toLowerCase()] ?? 1
  const energia = PERIODOS.map((_, i) => (i < tarifa.PeriodosEnergia && base.energia[i] !== undefined ? round6(base.energia[i]! * k) : null))
  // Power prices are mostly regulated tolls: the brand factor applies to a fifth of them.
  const potencia = PERIODOS.map((_, i) => (i < tarifa.PeriodosPotencia && base.potencia[i] !== undefined ? round6(base.potencia[i]! * (1 + (k - 1) / 5)) : null))
  const { desde, hasta } = quarter(today)
  return {
    TarifaId: tarifa.Id,
    Tarifa: tarifa.Codigo,
    VigenciaDesde: desde,
    VigenciaHasta: hasta,
    PreciosEnergia: porPeriodo(energia),
    PreciosPotencia: porPeriodo(potencia),
    Unidades: { Energia: '€/kWh', Potencia: '€/kW día' },
  }
}

/**
 * The contract's average energy price, €/kWh: the mean of its fixed prices (as renewals count
 * it), or for indexed contracts the closing-price index of its tariff with its fee over the 12
 * months ending `hoy` (every hour weighing the same): the same series and regulated figures its
 * invoices use.
 */
export function precioMedioKwh(c: { modalidad: string; tarifaId: number; preciosEnergia: readonly (number | null)[]; feeMwh: number | null }, hoy: string): number | null {
  if (c.modalidad === 'fijo') {
    const prices = c.preciosEnergia.filter((p): p is number => p !== null)
    return prices.length ? round6(prices.reduce((s, v) => s + v, 0) / prices.length) : null
  }
  if (c.feeMwh === null) return null
  const { desde, hasta } = ultimos12Meses(hoy)
  return round6(indexMedioCached(desde, hasta, c.tarifaId, c.feeMwh).media)
}
