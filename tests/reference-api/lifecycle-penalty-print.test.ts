import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indexMedio } from '../../server/reference-api/domain/energy-prices'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { activeAgent, cups, dni, insertBody, insertContract, pdfText } from './lifecycle-support'
import type { Penalty } from '../../schemas/business/contracts'

/** `GET /api/contract/penalizacion` and `GET /api/contract/print`. */

interface Row {
  codigo: string
  modalidad: string
  tarifa_id: number
  fecha_activacion: string
  consumo_anual_kwh: number
  fee_mwh: number | null
  e1: number | null
  e2: number | null
  e3: number | null
  e4: number | null
  e5: number | null
  e6: number | null
}

const TODAY = '2026-11-21'
const DAY = 86_400_000
let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let marcaId: number

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  marcaId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
})
afterAll(async () => {
  await api?.close()
})

const seeded = (where: string) =>
  api.db
    .prepare(
      `SELECT codigo, modalidad, tarifa_id, fecha_activacion, consumo_anual_kwh, fee_mwh, precio_energia_p1 AS e1, precio_energia_p2 AS e2,
         precio_energia_p3 AS e3, precio_energia_p4 AS e4, precio_energia_p5 AS e5, precio_energia_p6 AS e6
       FROM contratos WHERE marca_id = ? AND ${where} ORDER BY id LIMIT 1`,
    )
    .get(marcaId) as Row
const penalty = async (code: string, caller = admin) => {
  const res = await caller.get<Penalty>('/api/contract/penalizacion', { codigoContrato: code })
  expect(res.status, res.text).toBe(200)
  return res.body
}
const plusYear = (d: string) => `${Number(d.slice(0, 4)) + 1}${d.slice(4)}`
const days = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY)

describe('GET /api/contract/penalizacion', () => {
  it('before activation: no penalty', async () => {
    const r = seeded("estado = 'borrador'")
    const p = await penalty(r.codigo)
    expect(p).toMatchObject({ CodigoContrato: r.codigo, AplicaPenalizacion: false, FechaActivacion: null, FechaFinPermanencia: null, DiasRestantes: 0, EnergiaPendienteKwh: 0, ImporteMaximo: 0 })
    expect(p.Motivo).toContain('aún no ha comenzado')
    const sent = seeded("estado = 'enviado_distribuidora'")
    expect((await penalty(sent.codigo)).AplicaPenalizacion).toBe(false)
  })

  it('first year of supply, fixed price: at most 5 % of the price of the pending energy', async () => {
    const r = seeded(`estado = 'activo' AND modalidad = 'fijo' AND fecha_activacion > '2025-12-31'`)
    const p = await penalty(r.codigo)
    const fin = plusYear(r.fecha_activacion)
    const pending = days(TODAY, fin)
    const energy = Math.round((r.consumo_anual_kwh * pending) / days(r.fecha_activacion, fin))
    const prices = [r.e1, r.e2, r.e3, r.e4, r.e5, r.e6].filter((v): v is number => v !== null)
    const price = Math.round((prices.reduce((s, v) => s + v, 0) / prices.length) * 1e6) / 1e6
    expect(p).toEqual({
      CodigoContrato: r.codigo,
      AplicaPenalizacion: true,
      Motivo: expect.stringContaining('Primer año de suministro'),
      FechaActivacion: r.fecha_activacion,
      FechaFinPermanencia: fin,
      DiasRestantes: pending,
      EnergiaPendienteKwh: energy,
      PrecioMedioKwh: price,
      ImporteMaximo: Math.round(0.05 * energy * price * 100) / 100,
    })
    expect(pending).toBeGreaterThan(0)
    expect(p.ImporteMaximo).toBeGreaterThan(0)
    expect(p.Motivo).toContain('5 %')
  })

  it("first year of supply, indexed: the price is the last 12 months' closing-price index of its tariff with its fee", async () => {
    const r = seeded(`estado = 'activo' AND modalidad = 'indexado' AND fecha_activacion > '2025-12-31'`)
    const p = await penalty(r.codigo)
    // The same series and regulated figures as its invoices: the 365 days ending today (21 November 2026).
    const price = Math.round(indexMedio('2025-11-22', '2026-11-21', r.tarifa_id, r.fee_mwh!).media * 1e6) / 1e6
    expect(p.AplicaPenalizacion).toBe(true)
    expect(p.PrecioMedioKwh).toBe(price)
    expect(p.ImporteMaximo).toBe(Math.round(0.05 * p.EnergiaPendienteKwh * price * 100) / 100)
    expect(p.Motivo).toContain('indexado')
  })

  it('renewal years: no penalty', async () => {
    const r = seeded(`estado = 'activo' AND fecha_activacion < '2025-06-01'`)
    const p = await penalty(r.codigo)
    expect(p).toMatchObject({ AplicaPenalizacion: false, FechaActivacion: r.fecha_activacion, FechaFinPermanencia: plusYear(r.fecha_activacion), DiasRestantes: 0, EnergiaPendienteKwh: 0, ImporteMaximo: 0 })
    expect(p.Motivo).toContain('año de renovación')
    expect(p.Motivo).toContain('15 días')
  })

  it('the first anniversary day is already a renewal year; a day before it is not', async () => {
    // A contract activated exactly a year before today, and one a year minus a day.
    const r = seeded(`estado = 'activo' AND modalidad = 'fijo'`)
    api.db.prepare('UPDATE contratos SET fecha_activacion = ? WHERE codigo = ?').run('2025-11-21', r.codigo)
    expect((await penalty(r.codigo)).AplicaPenalizacion).toBe(false)
    api.db.prepare('UPDATE contratos SET fecha_activacion = ? WHERE codigo = ?').run('2025-11-22', r.codigo)
    const p = await penalty(r.codigo)
    expect(p).toMatchObject({ AplicaPenalizacion: true, DiasRestantes: 1, FechaFinPermanencia: '2026-11-22' })
  })

  it('after the end of supply (baja): no penalty', async () => {
    const r = seeded("estado = 'baja'")
    const p = await penalty(r.codigo)
    expect(p.AplicaPenalizacion).toBe(false)
    expect(p.Motivo).toContain('baja')
  })

  it('unknown is a 404, a bad code a 400, outside the sales channel a 404', async () => {
    expect((await admin.get('/api/contract/penalizacion', { codigoContrato: 'EV-2026-999999' })).status).toBe(404)
    expect((await admin.get('/api/contract/penalizacion', { codigoContrato: 'XX' })).status).toBe(400)
    expect((await admin.get('/api/contract/penalizacion')).status).toBe(400)
    const outside = api.db
      .prepare(
        `SELECT c.codigo FROM contratos c WHERE c.marca_id = ? AND c.agente_id NOT IN (
           WITH RECURSIVE t(id) AS (SELECT a.id FROM agentes a JOIN usuarios u ON u.id = a.usuario_id WHERE u.email = 'agente@portal.test' AND a.marca_id = ?
             UNION ALL SELECT a.id FROM agentes a JOIN t ON a.padre_id = t.id) SELECT id FROM t) LIMIT 1`,
      )
      .get(marcaId, marcaId) as { codigo: string }
    expect((await agente.get('/api/contract/penalizacion', { codigoContrato: outside.codigo })).status).toBe(404)
  })
})

describe('GET /api/contract/print', () => {
  it('a real PDF with the code as text, the holder, supply point, tariff, prices, masked IBAN and the conditions', async () => {
    const created = await insertContract(admin, insertBody({ nif: dni(77000001), cups: cups(11001), agenteId: activeAgent(api.db) }))
    const code = created.CodigoContrato
    const res = await admin.get('/api/contract/print', { codigoContrato: code.toLowerCase() })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toContain(`attachment; filename="contrato-${code}.pdf"`)
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(res.bytes.length).toBeGreaterThan(5000)
    const text = pdfText(res.bytes)
    for (const expected of [
      code,
      'Contrato de suministro de energía eléctrica',
      'Lucía Fernández Ruiz',
      dni(77000001),
      cups(11001),
      '2.0TD',
      '4,60 kW',
      '€/kWh',
      '9820',
      'C1 — Cambio de comercializador sin modificaciones',
      'ES** **** **** **** **** 1332',
      'Borrador',
      '21/11/2026',
      '14 días naturales',
      'un año',
      '5 %',
      'Página 1 de',
    ]) {
      expect(text, expected).toContain(expected)
    }
    expect(text).not.toContain('ES9121000418450200051332')
    expect(text).not.toContain('0200051332')
  })

  it('an indexed seeded contract shows its fee', async () => {
    const r = seeded("estado = 'activo' AND modalidad = 'indexado'")
    const res = await admin.get('/api/contract/print', { codigoContrato: r.codigo })
    const text = pdfText(res.bytes)
    expect(text).toContain(r.codigo)
    expect(text).toContain('Fee de gestión')
    expect(text).toContain(`${r.fee_mwh!.toFixed(2).replace('.', ',')} €/MWh`)
  })
})
