import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eachDay, esDiaNoLaborable, horasDelDia, periodoEnergia } from '../../server/reference-api/domain/calendar'
import { precioIndexadoKwh } from '../../server/reference-api/domain/energy-prices'
import { curvaDelDia, type SuministroCurva } from '../../server/reference-api/domain/load-profile'
import { omieDay } from '../../server/reference-api/domain/omie'
import { alquilerContadorDia, perdidas, tramoRegulado } from '../../server/reference-api/domain/regulated'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import type { InvoiceDetail } from '../../schemas/business/invoices'
import { ADMIN } from './business-support'

/**
 * Issue 18: every seeded invoice recomputed from its parts — the OMIE series the energy screens
 * show, the supply point's hourly consumption, the contract's prices and the regulated tables —
 * must match what the API stored and answers, to the cent. The taxes are written here from the
 * domain notes, not read from the API's code, so a wrong rate or date in its tables fails too.
 */

let api: RunningReferenceApi
let db: Database.Database
let admin: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi()
  db = api.db
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

interface ContractRow {
  id: number
  codigo: string
  cnae: string
  tarifa_id: number
  consumo_anual_kwh: number
  modalidad: 'fijo' | 'indexado'
  fee_mwh: number | null
  p: (number | null)[]
  e: (number | null)[]
  pp: (number | null)[]
}

interface InvoiceRow {
  id: number
  numero: string
  contrato_id: number
  periodo_desde: string
  periodo_hasta: string
  consumo_kwh: number
  termino_energia: number
  termino_potencia: number
  impuesto_electrico: number
  alquiler_contador: number
  base_imponible: number
  iva: number
  total: number
}

const cents = (v: number) => Math.round(v * 100)
const round6 = (v: number) => Math.round(v * 1e6) / 1e6

/** The electricity tax of the domain notes: 0.5 % from 16 Sep 2021 to 2023, 2.5 % Q1 2024, 3.8 % Q2 2024, else 5.11269632 %. */
function ieeRate(day: string): number {
  if (day >= '2021-09-16' && day < '2024-01-01') return 0.005
  if (day >= '2024-01-01' && day < '2024-04-01') return 0.025
  if (day >= '2024-04-01' && day < '2024-07-01') return 0.038
  return 0.0511269632
}

/** VAT of the domain notes: up to 10 kW, 10 % / 5 % / 10 % while the previous month's average price was above 45 €/MWh. */
function vatRate(day: string, maxKw: number, previousMonthMean: number): number {
  if (maxKw > 10 || previousMonthMean <= 45) return 0.21
  if (day >= '2021-06-26' && day < '2022-07-01') return 0.1
  if (day >= '2022-07-01' && day < '2024-01-01') return 0.05
  if (day >= '2024-01-01' && day < '2025-01-01') return 0.1
  return 0.21
}

const monthMeans = new Map<string, number>()
function monthMean(ym: string): number {
  let v = monthMeans.get(ym)
  if (v === undefined) {
    const [y, m] = ym.split('-').map(Number) as [number, number]
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)
    const values = eachDay(`${ym}-01`, last).flatMap((d) => omieDay(d))
    v = values.reduce((a, b) => a + b, 0) / values.length
    monthMeans.set(ym, v)
  }
  return v
}

function previousMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number]
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`
}

/** Power period of a local hour: 2.0TD P1 8–24 on working days, P2 the rest; the others their energy period. */
function powerPeriod(tarifaId: number, day: string, hour: number): number {
  if (tarifaId === 1) return !esDiaNoLaborable(day) && hour >= 8 ? 0 : 1
  return Number(periodoEnergia(tarifaId, day, hour).slice(1)) - 1
}

/** One invoice recomputed from its parts. */
function recompute(c: ContractRow, supply: SuministroCurva, from: string, to: string) {
  const nE = c.tarifa_id === 1 ? 3 : 6
  const nP = c.tarifa_id === 1 ? 2 : 6
  const wh = new Array<number>(nE).fill(0)
  const indexed = new Array<number>(nE).fill(0)
  const squares = new Array<number>(nP).fill(0)
  let days = 0
  for (const day of eachDay(from, to)) {
    days++
    const hours = horasDelDia(day)
    const curve = curvaDelDia(supply, day, hours.map((h) => powerPeriod(c.tarifa_id, day, h)))
    const prices = omieDay(day)
    const perHour = prices.length / hours.length
    const t = tramoRegulado(c.tarifa_id, day)
    const loss = perdidas(c.tarifa_id)
    hours.forEach((hour, n) => {
      const k = Number(periodoEnergia(c.tarifa_id, day, hour).slice(1)) - 1
      wh[k]! += curve[n]!
      const kw = curve[n]! / 1000
      const pp = powerPeriod(c.tarifa_id, day, hour)
      if (c.tarifa_id >= 2 && kw > c.p[pp]!) squares[pp]! += (kw - c.p[pp]!) ** 2
      if (c.modalidad === 'indexado') {
        for (let q = 0; q < perHour; q++) {
          // The hourly index of the energy screens: (OMIE + fee) × (1 + losses) / 1000 + toll + charge + capacity + social bonus.
          const index = round6(((prices[n * perHour + q]! + c.fee_mwh!) * (1 + loss[k]!)) / 1000 + (t.peajesEnergia[k]! + t.cargosEnergia[k]! + t.capacidad[k]! + t.bonoSocialKwh))
          indexed[k]! += (kw / perHour) * index
        }
      }
    })
  }
  const energy = wh.reduce((s, w, k) => s + (c.modalidad === 'indexado' ? cents(indexed[k]!) : cents((w / 1000) * c.e[k]!)), 0)
  let power = 0
  for (let k = 0; k < nP; k++) power += cents(c.p[k]! * c.pp[k]! * days)
  const kp = [1, 0.5, 0.37, 0.37, 0.37, 0.17]
  let excess = 0
  for (let k = 0; k < nP; k++) if (squares[k]! > 0) excess += cents(kp[k]! * 1.4064 * Math.sqrt(squares[k]!))
  const kwh = wh.reduce((a, b) => a + b, 0) / 1000
  const division = Number(c.cnae.slice(0, 2))
  const floorPerMwh = division >= 5 && division <= 33 ? 0.5 : 1
  const iee = Math.max(cents(((energy + power + excess) / 100) * ieeRate(from)), cents((kwh / 1000) * floorPerMwh))
  const rental = cents(alquilerContadorDia(c.tarifa_id) * days)
  const base = energy + power + excess + iee + rental
  const maxKw = Math.max(...c.p.filter((v): v is number => v !== null))
  const vat = cents((base / 100) * vatRate(from, maxKw, monthMean(previousMonth(from))))
  return { kwh, energy, power: power + excess, excess, iee, rental, base, vat, total: base + vat }
}

describe('every seeded invoice reconciles with its parts', () => {
  it('energy, power (excess included), tax, rental, base, VAT and total, to the cent', () => {
    const contracts = new Map(
      (
        db
          .prepare(
            `SELECT id, codigo, cnae, tarifa_id, consumo_anual_kwh, modalidad, fee_mwh,
                potencia_p1, potencia_p2, potencia_p3, potencia_p4, potencia_p5, potencia_p6,
                precio_energia_p1, precio_energia_p2, precio_energia_p3, precio_energia_p4, precio_energia_p5, precio_energia_p6,
                precio_potencia_p1, precio_potencia_p2, precio_potencia_p3, precio_potencia_p4, precio_potencia_p5, precio_potencia_p6
             FROM contratos WHERE id IN (SELECT contrato_id FROM facturas)`,
          )
          .all() as Record<string, number | string | null>[]
      ).map((r) => {
        const pick = (prefix: string) => [1, 2, 3, 4, 5, 6].map((i) => r[`${prefix}${i}`] as number | null)
        const c: ContractRow = {
          id: r.id as number,
          codigo: r.codigo as string,
          cnae: r.cnae as string,
          tarifa_id: r.tarifa_id as number,
          consumo_anual_kwh: r.consumo_anual_kwh as number,
          modalidad: r.modalidad as 'fijo' | 'indexado',
          fee_mwh: r.fee_mwh as number | null,
          p: pick('potencia_p'),
          e: pick('precio_energia_p'),
          pp: pick('precio_potencia_p'),
        }
        return [c.id, c] as const
      }),
    )
    // A contract renewed with new conditions holds the new prices; its invoices before the renewal day used the old ones:
    // the old fee is the renewal's `precio_actual`, the old fixed prices are those its invoices show, each giving the new one
    // by the renewal's ratio (propuesto / actual, 6 decimals), as the renewal computed it.
    const renewals = new Map(
      (db.prepare('SELECT contrato_id, fecha_renovacion, precio_actual, precio_propuesto FROM renovaciones WHERE subestado_id = 4').all() as {
        contrato_id: number
        fecha_renovacion: string
        precio_actual: number
        precio_propuesto: number
      }[]).map((r) => [r.contrato_id, r]),
    )
    const detailPrices = db.prepare("SELECT json_extract(detalle, '$.Energia') FROM facturas WHERE id = ?").pluck()
    const invoices = db.prepare('SELECT * FROM facturas ORDER BY id').all() as InvoiceRow[]
    expect(invoices.length).toBeGreaterThan(9000)
    const supplies = new Map<number, SuministroCurva>()
    const wrong: string[] = []
    let checked = 0
    let renewedChecked = 0
    let indexedChecked = 0
    for (const f of invoices) {
      let c = contracts.get(f.contrato_id)!
      const renewal = renewals.get(c.id)
      if (renewal !== undefined && f.periodo_desde < renewal.fecha_renovacion) {
        if (c.modalidad === 'indexado') c = { ...c, fee_mwh: renewal.precio_actual }
        else {
          const old = (JSON.parse(detailPrices.get(f.id) as string) as { PrecioKwh: number }[]).map((e) => e.PrecioKwh)
          const ratio = renewal.precio_propuesto / renewal.precio_actual
          old.forEach((p, k) => {
            if (round6(p * ratio) !== c.e[k]) wrong.push(`${f.numero} P${k + 1}: ${p} × ${ratio} ≠ ${c.e[k]}`)
          })
          c = { ...c, e: [...old, null, null, null].slice(0, 6) }
        }
        renewedChecked++
      }
      let supply = supplies.get(c.id)
      if (!supply) {
        supply = { codigo: c.codigo, cnae: c.cnae, tarifaId: c.tarifa_id, consumoAnualKwh: c.consumo_anual_kwh, potencias: c.p }
        supplies.set(c.id, supply)
      }
      const r = recompute(c, supply, f.periodo_desde, f.periodo_hasta)
      checked++
      if (c.modalidad === 'indexado') indexedChecked++
      const pairs: [string, number, number][] = [
        ['TerminoEnergia', cents(f.termino_energia), r.energy],
        ['TerminoPotencia', cents(f.termino_potencia), r.power],
        ['ImpuestoElectrico', cents(f.impuesto_electrico), r.iee],
        ['AlquilerContador', cents(f.alquiler_contador), r.rental],
        ['BaseImponible', cents(f.base_imponible), r.base],
        ['Iva', cents(f.iva), r.vat],
        ['ImporteTotal', cents(f.total), r.total],
      ]
      for (const [name, stored, computed] of pairs) if (stored !== computed) wrong.push(`${f.numero} ${name}: ${stored / 100} ≠ ${computed / 100}`)
      if (Math.abs(f.consumo_kwh - r.kwh) > 0.0005) wrong.push(`${f.numero} ConsumoKwh: ${f.consumo_kwh} ≠ ${r.kwh}`)
    }
    expect(wrong.slice(0, 20)).toEqual([])
    expect(checked).toBe(invoices.length)
    expect(indexedChecked).toBeGreaterThan(1000)
    expect(renewedChecked).toBeGreaterThan(100)
  }, 600_000)

  it("the energy screens' hourly index is the formula the invoices use", () => {
    const t = tramoRegulado(2, '2025-11-12')
    const loss = perdidas(2)
    const prices = omieDay('2025-11-12')
    for (const [i, omie] of prices.entries()) {
      const k = i % 6
      const ours = round6(((omie + 7) * (1 + loss[k]!)) / 1000 + (t.peajesEnergia[k]! + t.cargosEnergia[k]! + t.capacidad[k]! + t.bonoSocialKwh))
      expect(precioIndexadoKwh(omie, 7, loss[k]!, t.peajesEnergia[k]! + t.cargosEnergia[k]! + t.capacidad[k]! + t.bonoSocialKwh)).toBe(ours)
    }
  })
})

describe('GET /api/facturas/{id}', () => {
  it('answers the breakdown: its lines add up to the total to the cent, and agree with the list', async () => {
    const ids = db
      .prepare(
        `SELECT f.id FROM facturas f JOIN contratos c ON c.id = f.contrato_id JOIN marcas m ON m.id = f.marca_id
         WHERE m.dominio = 'energiaverde.es' AND ((c.modalidad = 'indexado' AND c.tarifa_id = 1) OR (c.tarifa_id = 2 AND json_extract(f.detalle, '$.ExcesosPotencia') > 0) OR c.tarifa_id = 3)
         GROUP BY c.tarifa_id, c.modalidad ORDER BY f.id`,
      )
      .pluck()
      .all() as number[]
    expect(ids.length).toBeGreaterThanOrEqual(4)
    for (const id of ids) {
      const res = await admin.get<InvoiceDetail>(`/api/facturas/${id}`)
      expect(res.status).toBe(200)
      const d = res.body
      const sum = d.Lineas.reduce((s, l) => s + cents(l.Importe), 0)
      expect(sum, d.Numero).toBe(cents(d.ImporteTotal))
      const group = (g: string) => d.Lineas.filter((l) => l.Grupo === g).reduce((s, l) => s + cents(l.Importe), 0)
      expect(group('energia')).toBe(cents(d.TerminoEnergia))
      expect(group('potencia') + group('excesos')).toBe(cents(d.TerminoPotencia))
      expect(group('excesos')).toBe(cents(d.ExcesosPotencia))
      expect(group('impuesto_electrico')).toBe(cents(d.ImpuestoElectrico))
      expect(group('alquiler')).toBe(cents(d.AlquilerContador))
      expect(group('iva')).toBe(cents(d.Iva))
      expect(cents(d.TerminoEnergia) + cents(d.TerminoPotencia) + cents(d.ImpuestoElectrico) + cents(d.AlquilerContador)).toBe(cents(d.BaseImponible))
      // The tolls and charges are a part of the energy and power terms, never more.
      const tolls = d.PeajesCargos.reduce((s, p) => s + p.PeajesEur + p.CargosEur, 0)
      expect(tolls).toBeLessThanOrEqual(d.TerminoEnergia + d.TerminoPotencia + 0.05)
      expect(d.Lineas.filter((l) => l.Grupo === 'energia').map((l) => l.Periodo)).toEqual(d.Tarifa === '2.0TD' ? ['P1', 'P2', 'P3'] : ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'])
    }
  })

  it('404 for an invoice of another brand or unknown, 400 for a bad id', async () => {
    const other = db.prepare("SELECT f.id FROM facturas f JOIN marcas m ON m.id = f.marca_id WHERE m.dominio <> 'energiaverde.es' LIMIT 1").pluck().get() as number
    const notFound = await admin.get(`/api/facturas/${other}`)
    expect(notFound.status).toBe(404)
    expect(notFound.text).toBe(`No se ha encontrado la factura ${other}.`)
    expect((await admin.get('/api/facturas/99999999')).status).toBe(404)
    const bad = await admin.get('/api/facturas/abc')
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('número entero positivo')
  })
})
