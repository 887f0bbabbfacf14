import type Database from 'better-sqlite3'
import type { Tarifa } from '../lib/catalogos'
import { PERIODOS, type PorPeriodo } from './contract-rules'
import { IMPUESTO_ELECTRICO, IVA, feeDefecto, indexMedioCached, ultimos12Meses } from './energy-prices'
import { ofertaPrecioFijo } from './precios'
import type { ComparisonInput, ComparisonResult, Cost, Offer } from '../../../schemas/business/comparator'

/**
 * The comparison stand-in (development only): a year of the client's consumption and powers
 * priced three ways — the client's current prices, the brand's fixed offer (its current
 * `preciofijo` prices) and its indexed offer (the last 12 months' closing-price index of the
 * tariff per period, with the default fee, and the offer's power prices) — taxes included:
 *
 *   energy = Σ_p consumption_p × price_p;  power = Σ_p kW_p × €/kW·day_p × 365
 *   meter rental = € per month × 12 (0,81 2.0TD; 1,80 3.0TD; 21,50 6.xTD)
 *   electricity tax = 5,11269632 % × (energy + power)
 *   VAT = 21 % × (energy + power + electricity tax + rental)
 *   annual amount = energy + power + rental + electricity tax + VAT;  taxes = electricity tax + VAT
 *   saving = current − offer (positive: the offer is cheaper); % of the current amount
 */

export const ALQUILER_CONTADOR_MES: Record<number, number> = { 1: 0.81, 2: 1.8 }
export function alquilerContadorMes(tarifaId: number): number {
  return ALQUILER_CONTADOR_MES[tarifaId] ?? 21.5
}

const r2 = (v: number) => Math.round(v * 100) / 100
const r6 = (v: number) => Math.round(v * 1e6) / 1e6

export function importeAnual(tarifa: Tarifa, potencias: PorPeriodo, consumo: PorPeriodo, energia: PorPeriodo, potencia: PorPeriodo): Cost {
  let energiaEur = 0
  let potenciaEur = 0
  PERIODOS.forEach((p, i) => {
    if (i < tarifa.PeriodosEnergia) energiaEur += (consumo[p] ?? 0) * (energia[p] ?? 0)
    if (i < tarifa.PeriodosPotencia) potenciaEur += (potencias[p] ?? 0) * (potencia[p] ?? 0) * 365
  })
  energiaEur = r2(energiaEur)
  potenciaEur = r2(potenciaEur)
  const alquiler = r2(alquilerContadorMes(tarifa.Id) * 12)
  const iee = r2((energiaEur + potenciaEur) * IMPUESTO_ELECTRICO)
  const iva = r2((energiaEur + potenciaEur + iee + alquiler) * IVA)
  return {
    ImporteAnualEur: r2(energiaEur + potenciaEur + alquiler + iee + iva),
    EnergiaEur: energiaEur,
    PotenciaEur: potenciaEur,
    AlquilerContadorEur: alquiler,
    ImpuestosEur: r2(iee + iva),
  }
}

/** The indexed offer's energy prices: the last 12 months' index per period (no taxes), 6 decimals. */
export function preciosIndexados(tarifa: Tarifa, today: string, feeMwh = feeDefecto(tarifa.Id)): PorPeriodo {
  const { desde, hasta } = ultimos12Meses(today)
  const m = indexMedioCached(desde, hasta, tarifa.Id, feeMwh)
  const values = PERIODOS.map((_, i) => (i < tarifa.PeriodosEnergia ? r6(m.porPeriodo[i] ?? m.media) : null))
  return { P1: values[0] ?? null, P2: values[1] ?? null, P3: values[2] ?? null, P4: values[3] ?? null, P5: values[4] ?? null, P6: values[5] ?? null }
}

export function compararOfertas(entrada: ComparisonInput, tarifa: Tarifa, marca: { dominio: string; nombre: string }, today: string): ComparisonResult {
  const actual = importeAnual(tarifa, entrada.PotenciasKw, entrada.ConsumoAnualKwh, entrada.PreciosActuales.EnergiaKwh, entrada.PreciosActuales.PotenciaKwDia)
  const fijo = ofertaPrecioFijo(tarifa, marca.dominio, today)
  const fee = feeDefecto(tarifa.Id)
  const indexados = preciosIndexados(tarifa, today, fee)
  const oferta = (codigo: 'fijo' | 'indexado', nombre: string, energia: PorPeriodo): Offer => {
    const imp = importeAnual(tarifa, entrada.PotenciasKw, entrada.ConsumoAnualKwh, energia, fijo.PreciosPotencia)
    const ahorro = r2(actual.ImporteAnualEur - imp.ImporteAnualEur)
    return {
      Codigo: codigo,
      Nombre: nombre,
      ...imp,
      PreciosEnergiaKwh: energia,
      PreciosPotenciaKwDia: fijo.PreciosPotencia,
      AhorroAnualEur: ahorro,
      AhorroPct: actual.ImporteAnualEur > 0 ? r2((ahorro / actual.ImporteAnualEur) * 100) : 0,
    }
  }
  const ofertas = [
    oferta('fijo', `${marca.nombre} Precio Fijo ${tarifa.Codigo}`, fijo.PreciosEnergia),
    oferta('indexado', `${marca.nombre} Indexado ${tarifa.Codigo} (OMIE + ${String(fee).replace('.', ',')} €/MWh)`, indexados),
  ]
  const [a, b] = ofertas as [Offer, Offer]
  return { Actual: actual, Ofertas: ofertas, Mejor: b.ImporteAnualEur < a.ImporteAnualEur ? 'indexado' : 'fijo' }
}

/** Stores a comparison for its user and brand; answers its id. */
export function guardarComparativa(
  db: Database.Database,
  row: { marcaId: number; usuarioId: number; entrada: ComparisonInput; resultado: ComparisonResult; tarifa: Tarifa; fecha: string },
): number {
  const { entrada, resultado, tarifa } = row
  const mejor = resultado.Ofertas.find((o) => o.Codigo === resultado.Mejor)!
  const nombre = entrada.Nombre ?? `Comparativa ${tarifa.Codigo}${entrada.Cliente ? ` · ${entrada.Cliente}` : ''}`
  const info = db
    .prepare(
      `INSERT INTO comparativas (marca_id, usuario_id, nombre, cliente, tarifa_id, importe_actual_eur, mejor_oferta, ahorro_anual_eur, ahorro_pct, entrada, resultado, fecha)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.marcaId,
      row.usuarioId,
      nombre,
      entrada.Cliente,
      tarifa.Id,
      resultado.Actual.ImporteAnualEur,
      resultado.Mejor,
      mejor.AhorroAnualEur,
      mejor.AhorroPct,
      JSON.stringify({ ...entrada, Nombre: nombre }),
      JSON.stringify(resultado),
      row.fecha,
    )
  return Number(info.lastInsertRowid)
}
