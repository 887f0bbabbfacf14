import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPUESTO_ELECTRICO, IVA, feeDefecto, indexMedio } from '../../server/reference-api/domain/energy-prices'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import type { Paged } from '../../schemas/business/paged'
import type { ComparisonAnswer, ComparisonRow, Cost } from '../../schemas/business/comparator'

/** The comparison stand-in (README: Comparador (solo desarrollo)). */

type P = Record<'P1' | 'P2' | 'P3' | 'P4' | 'P5' | 'P6', number | null>

const p = (...v: (number | null)[]): P => ({ P1: v[0] ?? null, P2: v[1] ?? null, P3: v[2] ?? null, P4: v[3] ?? null, P5: v[4] ?? null, P6: v[5] ?? null })
const BODY = {
  Nombre: 'Piso de la calle Mayor',
  Cliente: 'Lucía Fernández',
  TarifaId: 1,
  PotenciasKw: p(4.6, 4.6),
  ConsumoAnualKwh: p(1000, 900, 1500),
  PreciosActuales: { EnergiaKwh: p(0.2, 0.16, 0.12), PotenciaKwDia: p(0.1, 0.04) },
}
const r2 = (v: number) => Math.round(v * 100) / 100

/** The annual amount by hand: energy, power, meter rental, electricity tax and VAT. */
function byHand(energia: number, potencia: number, alquilerMes: number): Cost {
  const e = r2(energia)
  const pw = r2(potencia)
  const alquiler = r2(alquilerMes * 12)
  const iee = r2((e + pw) * IMPUESTO_ELECTRICO)
  const iva = r2((e + pw + iee + alquiler) * IVA)
  return { ImporteAnualEur: r2(e + pw + alquiler + iee + iva), EnergiaEur: e, PotenciaEur: pw, AlquilerContadorEur: alquiler, ImpuestosEur: r2(iee + iva) }
}

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

describe('POST /api/comparador/comparativa', () => {
  it('prices the current contract, the fixed offer (the brand\'s preciofijo) and the indexed offer, taxes included', async () => {
    const res = await admin.post<ComparisonAnswer>('/api/comparador/comparativa', BODY)
    expect(res.status, res.text).toBe(200)
    expect(res.body.Id).toBeNull()
    // Current: 1000 × 0.2 + 900 × 0.16 + 1500 × 0.12 = 524 €; 4.6 × (0.1 + 0.04) × 365 = 235.06 €; rental 0.81 €/month.
    expect(res.body.Actual).toEqual(byHand(524, 235.06, 0.81))

    const oferta = (await admin.get<{ PreciosEnergia: P; PreciosPotencia: P }>('/api/energia/preciofijo', { tarifa: 1 })).body
    const fijo = res.body.Ofertas.find((o) => o.Codigo === 'fijo')!
    expect(fijo.PreciosEnergiaKwh).toEqual(oferta.PreciosEnergia)
    expect(fijo.PreciosPotenciaKwDia).toEqual(oferta.PreciosPotencia)
    const energia = 1000 * oferta.PreciosEnergia.P1! + 900 * oferta.PreciosEnergia.P2! + 1500 * oferta.PreciosEnergia.P3!
    const potencia = 4.6 * (oferta.PreciosPotencia.P1! + oferta.PreciosPotencia.P2!) * 365
    expect(fijo).toMatchObject(byHand(energia, potencia, 0.81))
    expect(fijo.AhorroAnualEur).toBe(r2(res.body.Actual.ImporteAnualEur - fijo.ImporteAnualEur))
    expect(fijo.AhorroPct).toBe(r2((fijo.AhorroAnualEur / res.body.Actual.ImporteAnualEur) * 100))

    // Indexed: the last 12 months' index per period (2025-11-22 … 2026-11-21) with the default fee.
    const indexado = res.body.Ofertas.find((o) => o.Codigo === 'indexado')!
    const m = indexMedio('2025-11-22', '2026-11-21', 1, feeDefecto(1))
    expect(indexado.PreciosEnergiaKwh.P1).toBeCloseTo(m.porPeriodo[0]!, 6)
    expect(indexado.PreciosEnergiaKwh.P3).toBeCloseTo(m.porPeriodo[2]!, 6)
    expect(indexado.PreciosEnergiaKwh.P4).toBeNull()
    expect(indexado.PreciosEnergiaKwh.P1!).toBeGreaterThan(indexado.PreciosEnergiaKwh.P2!)
    expect(indexado.PreciosEnergiaKwh.P2!).toBeGreaterThan(indexado.PreciosEnergiaKwh.P3!)
    expect(indexado.Nombre).toContain('OMIE + 10 €/MWh')
    expect(res.body.Mejor).toBe(indexado.ImporteAnualEur < fijo.ImporteAnualEur ? 'indexado' : 'fijo')
  })

  it('the fixed offer follows the brand', async () => {
    for (const brand of Object.values(BRAND_DOMAINS)) {
      const caller = admin.forBrand(brand)
      const oferta = (await caller.get<{ PreciosEnergia: P }>('/api/energia/preciofijo', { tarifa: 2 })).body
      const res = await caller.post<ComparisonAnswer>('/api/comparador/comparativa', {
        TarifaId: 2,
        PotenciasKw: p(20, 20, 20, 20, 20, 30),
        ConsumoAnualKwh: p(5000, 6000, 4000, 5000, 6000, 20000),
        PreciosActuales: { EnergiaKwh: p(0.18, 0.17, 0.15, 0.14, 0.13, 0.12), PotenciaKwDia: p(0.045, 0.026, 0.012, 0.01, 0.007, 0.004) },
      })
      expect(res.status, res.text).toBe(200)
      expect(res.body.Ofertas.find((o) => o.Codigo === 'fijo')!.PreciosEnergiaKwh).toEqual(oferta.PreciosEnergia)
      // 3.0TD meter rental: 1.80 €/month.
      expect(res.body.Actual.AlquilerContadorEur).toBe(21.6)
    }
  })

  it('400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...BODY, TarifaId: 99 }, 'La tarifa 99 no existe'],
      [{ ...BODY, TarifaId: undefined }, 'Falta el parámetro TarifaId'],
      [{ ...BODY, PotenciasKw: { P1: 4.6 } }, 'PotenciasKw.P2: es obligatorio.'],
      [{ ...BODY, PotenciasKw: p(-1, 4.6) }, 'PotenciasKw.P1:'],
      [{ ...BODY, ConsumoAnualKwh: p(0, 0, 0) }, 'ConsumoAnualKwh:'],
      [{ ...BODY, ConsumoAnualKwh: p(100, 'x' as unknown as number, 100) }, 'ConsumoAnualKwh.P2: debe ser un número.'],
      [{ ...BODY, PreciosActuales: undefined }, 'PreciosActuales: es obligatorio.'],
      [{ ...BODY, PreciosActuales: { EnergiaKwh: p(0.2, 0.16), PotenciaKwDia: p(0.1, 0.04) } }, 'PreciosActuales.EnergiaKwh.P3: es obligatorio.'],
      [{ ...BODY, PreciosActuales: { EnergiaKwh: p(0.2, 0.16, 0.1), PotenciaKwDia: p(5, 0.04) } }, 'PreciosActuales.PotenciaKwDia.P1:'],
      [{ ...BODY, Nombre: 'x'.repeat(101) }, 'Nombre:'],
      [{ ...BODY, Guardar: 'quizá' }, 'Guardar:'],
    ]
    for (const [body, message] of cases) {
      const res = await admin.post('/api/comparador/comparativa', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.text.startsWith(message), res.text).toBe(true)
    }
  })
})

describe('saved comparisons', () => {
  it('Guardar stores it for the caller: listed and read by its owner only', async () => {
    const saved = await agente.post<ComparisonAnswer>('/api/comparador/comparativa', { ...BODY, Nombre: 'Comparativa del agente', Guardar: true })
    expect(saved.status).toBe(200)
    expect(saved.body.Id).toEqual(expect.any(Number))
    const id = saved.body.Id!

    const mine = await agente.get<Paged<ComparisonRow>>('/api/comparador/comparativas')
    expect(mine.status).toBe(200)
    expect(mine.body.TotalCount).toBe(1)
    const mejor = saved.body.Ofertas.find((o) => o.Codigo === saved.body.Mejor)!
    expect(mine.body.Items[0]).toEqual({
      Id: id,
      Nombre: 'Comparativa del agente',
      Cliente: 'Lucía Fernández',
      Tarifa: '2.0TD',
      ImporteActualEur: saved.body.Actual.ImporteAnualEur,
      MejorOferta: saved.body.Mejor,
      AhorroAnualEur: mejor.AhorroAnualEur,
      AhorroPct: mejor.AhorroPct,
      Fecha: '2026-11-21T10:00:00Z',
    })
    const detail = await agente.get<{ Id: number; Entrada: typeof BODY; Resultado: ComparisonAnswer }>(`/api/comparador/comparativas/${id}`)
    expect(detail.status).toBe(200)
    expect(detail.body).toMatchObject({ Id: id, Nombre: 'Comparativa del agente', TarifaId: 1, Tarifa: '2.0TD', Fecha: '2026-11-21T10:00:00Z' })
    expect(detail.body.Entrada).toMatchObject({ TarifaId: 1, PotenciasKw: BODY.PotenciasKw, ConsumoAnualKwh: BODY.ConsumoAnualKwh, PreciosActuales: BODY.PreciosActuales })
    expect(detail.body.Resultado).toMatchObject({ Actual: saved.body.Actual, Ofertas: saved.body.Ofertas, Mejor: saved.body.Mejor })

    // Not the admin's, not in another brand.
    const adminList = await admin.get<Paged<ComparisonRow>>('/api/comparador/comparativas', { pageSize: 500 })
    expect(adminList.body.Items.some((i) => i.Id === id)).toBe(false)
    expect((await admin.get(`/api/comparador/comparativas/${id}`)).status).toBe(404)
    expect((await agente.forBrand('grupoenergia.es').get(`/api/comparador/comparativas/${id}`)).status).toBe(404)
    expect((await agente.forBrand('grupoenergia.es').get<Paged<ComparisonRow>>('/api/comparador/comparativas')).body.TotalCount).toBe(0)
  })

  it('the seeded demo comparisons of the admin; paging, sorting and filtering as every list', async () => {
    const list = await admin.get<Paged<ComparisonRow>>('/api/comparador/comparativas')
    expect(list.body.TotalCount).toBeGreaterThanOrEqual(3)
    const fechas = list.body.Items.map((i) => i.Fecha)
    expect([...fechas].sort().reverse()).toEqual(fechas)
    const sorted = await admin.get<Paged<ComparisonRow>>('/api/comparador/comparativas', { sortColumn: 'AhorroAnualEur', sortOrder: 'desc', pageSize: 2 })
    expect(sorted.body.Items).toHaveLength(2)
    expect(sorted.body.Items[0]!.AhorroAnualEur).toBeGreaterThanOrEqual(sorted.body.Items[1]!.AhorroAnualEur)
    const filtered = await admin.get<Paged<ComparisonRow>>('/api/comparador/comparativas', { 'filterColumns[0]': 'Tarifa', 'filterQueries[0]': '3.0TD' })
    expect(filtered.body.Items.every((i) => i.Tarifa === '3.0TD')).toBe(true)
    expect(filtered.body.TotalCount).toBeGreaterThan(0)
    expect((await admin.get('/api/comparador/comparativas', { sortColumn: 'Entrada' })).status).toBe(400)
    expect((await admin.get('/api/comparador/comparativas/abc')).status).toBe(400)
    expect((await admin.get('/api/comparador/comparativas/999999')).status).toBe(404)
  })
})
