import { PERIODOS } from './contract-rules'
import { addDays, eachDay, horasDelDia } from './calendar'
import { precioIndexadoKwh, slotsDelDia } from './energy-prices'
import { curvaDelDia, esPuntaPotencia20, type SuministroCurva } from './load-profile'
import { mediaMensualOmie, omieDayView } from './omie'
import {
  EXCESOS_KP,
  EXCESOS_TEP,
  alquilerContadorDia,
  diasDelAnio,
  facturaExcesos,
  minimoImpuestoElectricoMwh,
  tipoImpuestoElectrico,
  tipoIva,
} from './regulated'

/**
 * An electricity invoice computed from its parts (domain notes «Invoices»): the supply's hourly
 * consumption (`load-profile.ts`), the contract's prices, the one OMIE series and the regulated
 * tables of the days it covers (`regulated.ts`). Every amount is kept in whole cents, so the
 * lines add up to the total exactly:
 *
 * - energy per period: fixed price × kWh, or for indexed contracts Σ over the period's hours (or
 *   quarter-hours, each a quarter of its hour's kWh) of kWh × the hour's index (`precioIndexadoKwh`),
 *   rounded once per period; the tolls and charges inside it are shown apart;
 * - power per period: kW × the contract's € per kW and day × days; the tolls and charges inside it
 *   (€/kW·year × days / days of the year) shown apart;
 * - excess power (3.0TD, 6.1TD): per period Kp × tep × √Σ(demand − contracted)² over the hours
 *   above the contracted power (hourly demand: a simplification of the quarter-hour rule);
 * - electricity tax on energy + power (with its floor per MWh), meter rental per day, VAT on all
 *   of it at the month's rate.
 */

export interface ContratoFacturable extends SuministroCurva {
  modalidad: 'fijo' | 'indexado'
  /** €/kWh per energy period (fixed contracts). */
  preciosEnergia: readonly (number | null)[]
  /** € per kW and day per power period. */
  preciosPotencia: readonly (number | null)[]
  feeMwh: number | null
}

export interface LineaEnergia {
  Periodo: string
  Kwh: number
  /** The period's price (fixed) or its consumption-weighted index (indexed), €/kWh, 6 decimals. */
  PrecioKwh: number
  Importe: number
  /** Tolls and charges included in `Importe`. */
  PeajesEur: number
  CargosEur: number
}

export interface LineaPotencia {
  Periodo: string
  Kw: number
  PrecioKwDia: number
  Dias: number
  Importe: number
  PeajesEur: number
  CargosEur: number
}

export interface LineaExceso {
  Periodo: string
  Kw: number
  DemandaMaximaKw: number
  HorasExceso: number
  Importe: number
}

export interface DetalleFactura {
  Desde: string
  Hasta: string
  Dias: number
  TarifaId: number
  Modalidad: 'fijo' | 'indexado'
  FeeMwh: number | null
  Energia: LineaEnergia[]
  Potencia: LineaPotencia[]
  /** Maximum hourly demand of each power period, kW (every tariff; 2.0TD bills no excess). */
  Demanda: { Periodo: string; Kw: number; DemandaMaximaKw: number }[]
  Excesos: LineaExceso[]
  TerminoEnergia: number
  TerminoPotencia: number
  ExcesosPotencia: number
  ImpuestoElectrico: { Tipo: number; Base: number; MinimoEurMwh: number; Importe: number }
  AlquilerContador: { EurDia: number; Dias: number; Importe: number }
  BaseImponible: number
  Iva: { Tipo: number; MediaOmieMesAnteriorMwh: number; Base: number; Importe: number }
  ImporteTotal: number
  ConsumoKwh: number
}

const cents = (v: number) => Math.round(v * 100)
const eur = (c: number) => c / 100
const round6 = (v: number) => Math.round(v * 1e6) / 1e6
const round3 = (v: number) => Math.round(v * 1000) / 1000

/** The energy and power periods a tariff has. */
function periodCounts(tarifaId: number): { energia: number; potencia: number } {
  return tarifaId === 1 ? { energia: 3, potencia: 2 } : { energia: 6, potencia: 6 }
}

/** The power period (0–5) of each hour of a day (memoised for 2.0TD; the energy periods otherwise). */
export function periodosPotenciaDelDia(tarifaId: number, day: string, periodosEnergia: readonly number[]): readonly number[] {
  if (tarifaId !== 1) return periodosEnergia
  let v = potencia20Cache.get(day)
  if (!v) {
    v = horasDelDia(day).map((h) => (esPuntaPotencia20(day, h) ? 0 : 1))
    potencia20Cache.set(day, v)
  }
  return v
}
const potencia20Cache = new Map<string, number[]>()

/** The invoice of a contract for the days `desde`–`hasta` (both included). */
export function calcularFactura(c: ContratoFacturable, desde: string, hasta: string, cnae: string): DetalleFactura {
  const { energia: nE, potencia: nP } = periodCounts(c.tarifaId)
  const wh = new Array<number>(nE).fill(0)
  const indexedEur = new Array<number>(nE).fill(0)
  const peajesE = new Array<number>(nE).fill(0)
  const cargosE = new Array<number>(nE).fill(0)
  const demanda = new Array<number>(nP).fill(0)
  const excesoCuadrados = new Array<number>(nP).fill(0)
  const horasExceso = new Array<number>(nP).fill(0)
  const excesos = facturaExcesos(c.tarifaId)
  const days = eachDay(desde, hasta)
  // The power tolls and charges of each day: a year's € per kW over that year's days.
  const peajesPotDia = new Array<number>(nP).fill(0)
  const cargosPotDia = new Array<number>(nP).fill(0)
  const dayWh = new Array<number>(nE).fill(0)

  for (const day of days) {
    const slots = slotsDelDia(c.tarifaId, day)
    const periodosP = periodosPotenciaDelDia(c.tarifaId, day, slots.periodos)
    const curve = curvaDelDia(c, day, periodosP)
    dayWh.fill(0)
    const prices = c.modalidad === 'indexado' ? omieDayView(day) : null
    for (let n = 0; n < curve.length; n++) {
      const k = slots.periodos[n]!
      const w = curve[n]!
      dayWh[k]! += w
      const pp = periodosP[n]!
      const kw = w / 1000
      if (kw > demanda[pp]!) demanda[pp] = kw
      if (excesos) {
        const contratada = c.potencias[pp] ?? 0
        if (kw > contratada) {
          excesoCuadrados[pp]! += (kw - contratada) ** 2
          horasExceso[pp]! += 1
        }
      }
      if (prices) {
        // Each quarter-hour takes a quarter of its hour's energy (hourly meter readings).
        const kwhSlot = kw / slots.perHour
        for (let q = 0; q < slots.perHour; q++) {
          indexedEur[k]! += kwhSlot * precioIndexadoKwh(prices[n * slots.perHour + q]!, c.feeMwh ?? 0, slots.loss[k]!, slots.regulado[k]!)
        }
      }
    }
    const t = slots.tramo
    for (let k = 0; k < nE; k++) {
      wh[k]! += dayWh[k]!
      peajesE[k]! += (dayWh[k]! / 1000) * t.peajesEnergia[k]!
      cargosE[k]! += (dayWh[k]! / 1000) * t.cargosEnergia[k]!
    }
    const diasAnio = diasDelAnio(day)
    for (let k = 0; k < nP; k++) {
      peajesPotDia[k]! += t.peajesPotencia[k]! / diasAnio
      cargosPotDia[k]! += t.cargosPotencia[k]! / diasAnio
    }
  }

  const dias = days.length
  const Energia: LineaEnergia[] = []
  let energiaCents = 0
  for (let k = 0; k < nE; k++) {
    const kwh = wh[k]! / 1000
    const importe = c.modalidad === 'indexado' ? cents(indexedEur[k]!) : cents(kwh * (c.preciosEnergia[k] ?? 0))
    energiaCents += importe
    Energia.push({
      Periodo: PERIODOS[k]!,
      Kwh: round3(kwh),
      PrecioKwh: c.modalidad === 'indexado' ? (kwh > 0 ? round6(eur(importe) / kwh) : 0) : (c.preciosEnergia[k] ?? 0),
      Importe: eur(importe),
      PeajesEur: eur(cents(peajesE[k]!)),
      CargosEur: eur(cents(cargosE[k]!)),
    })
  }

  const Potencia: LineaPotencia[] = []
  let potenciaCents = 0
  for (let k = 0; k < nP; k++) {
    const kw = c.potencias[k] ?? 0
    const precio = c.preciosPotencia[k] ?? 0
    const importe = cents(kw * precio * dias)
    potenciaCents += importe
    Potencia.push({ Periodo: PERIODOS[k]!, Kw: kw, PrecioKwDia: precio, Dias: dias, Importe: eur(importe), PeajesEur: eur(cents(kw * peajesPotDia[k]!)), CargosEur: eur(cents(kw * cargosPotDia[k]!)) })
  }

  const Demanda = demanda.map((d, k) => ({ Periodo: PERIODOS[k]!, Kw: c.potencias[k] ?? 0, DemandaMaximaKw: round3(d) }))
  const Excesos: LineaExceso[] = []
  let excesosCents = 0
  if (excesos) {
    for (let k = 0; k < nP; k++) {
      if (horasExceso[k] === 0) continue
      const importe = cents(EXCESOS_KP[k]! * EXCESOS_TEP * Math.sqrt(excesoCuadrados[k]!))
      excesosCents += importe
      Excesos.push({ Periodo: PERIODOS[k]!, Kw: c.potencias[k] ?? 0, DemandaMaximaKw: round3(demanda[k]!), HorasExceso: horasExceso[k]!, Importe: eur(importe) })
    }
  }

  const consumoKwh = wh.reduce((a, v) => a + v, 0) / 1000
  // Monthly invoices: the tax rate of the first day holds for the whole period (rates change on the 1st).
  const tipoIee = tipoImpuestoElectrico(desde)
  const minimo = minimoImpuestoElectricoMwh(cnae)
  const baseIeeCents = energiaCents + potenciaCents + excesosCents
  const ieeCents = Math.max(cents(eur(baseIeeCents) * tipoIee), cents((consumoKwh / 1000) * minimo))
  const alquilerDia = alquilerContadorDia(c.tarifaId)
  const alquilerCents = cents(alquilerDia * dias)
  const baseCents = baseIeeCents + ieeCents + alquilerCents
  const mesAnterior = addDays(`${desde.slice(0, 7)}-01`, -1).slice(0, 7)
  const mediaAnterior = mediaMensualOmie(mesAnterior)
  const potenciaMaxima = Math.max(...c.potencias.filter((p): p is number => p !== null))
  const tipo = tipoIva(desde, potenciaMaxima, mediaAnterior)
  const ivaCents = cents(eur(baseCents) * tipo)

  return {
    Desde: desde,
    Hasta: hasta,
    Dias: dias,
    TarifaId: c.tarifaId,
    Modalidad: c.modalidad,
    FeeMwh: c.modalidad === 'indexado' ? c.feeMwh : null,
    Energia,
    Potencia,
    Demanda,
    Excesos,
    TerminoEnergia: eur(energiaCents),
    TerminoPotencia: eur(potenciaCents + excesosCents),
    ExcesosPotencia: eur(excesosCents),
    ImpuestoElectrico: { Tipo: tipoIee, Base: eur(baseIeeCents), MinimoEurMwh: minimo, Importe: eur(ieeCents) },
    AlquilerContador: { EurDia: alquilerDia, Dias: dias, Importe: eur(alquilerCents) },
    BaseImponible: eur(baseCents),
    Iva: { Tipo: tipo, MediaOmieMesAnteriorMwh: Math.round(mediaAnterior * 100) / 100, Base: eur(baseCents), Importe: eur(ivaCents) },
    ImporteTotal: eur(baseCents + ivaCents),
    ConsumoKwh: round3(consumoKwh),
  }
}
