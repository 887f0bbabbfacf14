import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, allRows } from './business-support'
import type { ProvinceRow } from '../../schemas/business/map'

/** The maps' aggregate: `GET /api/contract/situacion-contratos?agrupar=provincia` (README: Mapa: contratos por provincia). */

interface Row {
  CodigoContrato: string
  Cups: string
  Estado: string
  ProvinciaId: number
  ConsumoAnual: number
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

const SUPPLYING = ['activo', 'modificacion_en_curso']

/** The aggregate computed from the contract list the caller sees. */
function fromList(rows: Row[]): Map<number, Omit<ProvinceRow, 'Provincia'>> {
  const out = new Map<number, Omit<ProvinceRow, 'Provincia'> & { cups: Set<string> }>()
  for (const r of rows) {
    const p = out.get(r.ProvinciaId) ?? { ProvinciaId: r.ProvinciaId, Contratos: 0, ContratosActivos: 0, PuntosSuministro: 0, ConsumoAnualKwh: 0, cups: new Set<string>() }
    p.Contratos++
    p.cups.add(r.Cups)
    if (SUPPLYING.includes(r.Estado)) {
      p.ContratosActivos++
      p.ConsumoAnualKwh += r.ConsumoAnual
    }
    out.set(r.ProvinciaId, p)
  }
  return new Map([...out].map(([k, { cups, ...v }]) => [k, { ...v, PuntosSuministro: cups.size }]))
}

async function check(caller: ApiCaller) {
  const res = await caller.get<ProvinceRow[]>('/api/contract/situacion-contratos', { agrupar: 'provincia' })
  expect(res.status, res.text).toBe(200)
  const list = await allRows<Row>(caller, '/api/contract')
  const expected = fromList(list)
  expect(res.body).toHaveLength(52)
  expect(res.body.map((p) => p.ProvinciaId)).toEqual(Array.from({ length: 52 }, (_, i) => i + 1))
  for (const p of res.body) {
    expect(p.Provincia.length).toBeGreaterThan(0)
    const e = expected.get(p.ProvinciaId) ?? { ProvinciaId: p.ProvinciaId, Contratos: 0, ContratosActivos: 0, PuntosSuministro: 0, ConsumoAnualKwh: 0 }
    expect({ ...p, Provincia: undefined }).toEqual({ ...e, Provincia: undefined })
    expect(p.ContratosActivos).toBeLessThanOrEqual(p.Contratos)
    expect(p.PuntosSuministro).toBeLessThanOrEqual(p.Contratos)
  }
  const sum = (k: keyof ProvinceRow) => res.body.reduce((s, p) => s + (p[k] as number), 0)
  expect(sum('Contratos')).toBe(list.length)
  expect(sum('ContratosActivos')).toBe(list.filter((r) => SUPPLYING.includes(r.Estado)).length)
  expect(sum('ConsumoAnualKwh')).toBe(list.filter((r) => SUPPLYING.includes(r.Estado)).reduce((s, r) => s + r.ConsumoAnual, 0))
  return res.body
}

describe('GET /api/contract/situacion-contratos?agrupar=provincia', () => {
  it('all 52 provinces (zeros included); sums equal the contract list totals', async () => {
    const rows = await check(admin)
    expect(rows.find((p) => p.Provincia === 'Madrid')!.ProvinciaId).toBe(28)
    expect(rows.filter((p) => p.Contratos > 0).length).toBeGreaterThan(30)
  })

  it('the same visibility as the list: an agent sees its subtree only', async () => {
    const mine = await check(agente)
    const all = (await admin.get<ProvinceRow[]>('/api/contract/situacion-contratos', { agrupar: 'provincia' })).body
    const total = (rows: ProvinceRow[]) => rows.reduce((s, p) => s + p.Contratos, 0)
    expect(total(mine)).toBeGreaterThan(0)
    expect(total(mine)).toBeLessThan(total(all))
    // Provinces without any of its contracts are there, with zeros.
    expect(mine.some((p) => p.Contratos === 0 && p.ContratosActivos === 0 && p.PuntosSuministro === 0 && p.ConsumoAnualKwh === 0)).toBe(true)
  })

  it('per brand', async () => {
    await check(admin.forBrand('energialimpia.es'))
  })

  it('without agrupar the answer is unchanged; another grouping is a 400', async () => {
    const plain = await admin.get<{ Estado: string; Nombre: string; Color: string; Cantidad: number }[]>('/api/contract/situacion-contratos')
    expect(plain.status).toBe(200)
    expect(Object.keys(plain.body[0]!)).toEqual(['Estado', 'Nombre', 'Color', 'Cantidad'])
    expect((await admin.get('/api/contract/situacion-contratos', { agrupar: '' })).body).toEqual(plain.body)
    const bad = await admin.get('/api/contract/situacion-contratos', { agrupar: 'municipio' })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('provincia')
  })
})
