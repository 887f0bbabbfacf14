import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, SEED_DAY, allRows, byNumber, byText, isSorted, listQuery, page, readXlsx } from './business-support'
import type { RenewalRow, RenewalSubstate } from '../../schemas/business/renewals'

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

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

/** A renewal of the given sub-state (admin's view). */
async function renewalIn(codigo: string, extra: [string, string][] = []): Promise<RenewalRow> {
  const p = await page<RenewalRow>(admin, '/api/renovaciones', { pageSize: 1, filters: [['SubestadoCodigo', codigo], ...extra] })
  if (!p.Items[0]) throw new Error(`no renewal in ${codigo}`)
  return p.Items[0]
}

describe('permission', () => {
  it('every renewal call needs VERRENOVACIONES: the agent user gets 403 with a Spanish text', async () => {
    const code = (await renewalIn('ofertada')).CodigoContrato
    const calls = [
      agente.get('/api/renovaciones'),
      agente.get('/api/renovaciones/subestados'),
      agente.get('/api/renovaciones/export', { pageSize: -1 }),
      agente.post('/api/renovaciones/renovar', { CodigoContrato: code }),
      agente.post('/api/renovaciones/renovacion-descargar', { CodigoContrato: code }),
      agente.put('/api/renovaciones/change-subestado', { CodigoContrato: code, SubestadoId: 3 }),
    ]
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403)
      expect(res.text).toContain('VERRENOVACIONES')
    }
    // Nothing changed.
    expect((await renewalIn('ofertada', [['CodigoContrato', code]])).SubestadoCodigo).toBe('ofertada')
  })
})

describe('GET /api/renovaciones', () => {
  it('lists the renewals of the window (60 days back to 90 ahead of the seed day), soonest first', async () => {
    const rows = await allRows<RenewalRow>(admin, '/api/renovaciones')
    expect(rows.length).toBeGreaterThanOrEqual(60)
    expect(isSorted(rows.map((r) => r.FechaRenovacion), 'asc', byText)).toBe(true)
    expect(rows.every((r) => r.FechaRenovacion >= addDays(SEED_DAY, -60) && r.FechaRenovacion <= addDays(SEED_DAY, 90))).toBe(true)
    // Spread over the sub-states.
    const used = new Set(rows.map((r) => r.SubestadoCodigo))
    for (const s of ['proxima_renovacion', 'ofertada', 'aceptada', 'renovado']) expect(used, s).toContain(s)
    for (const r of rows) {
      // One unit for every row: the average energy price in €/kWh; indexed rows also carry their fees.
      expect(r.Unidad).toBe('€/kWh')
      expect(r.PrecioActual).toBeGreaterThan(r.Modalidad === 'fijo' ? 0.1 : 0.03)
      expect(r.PrecioActual).toBeLessThan(0.3)
      if (r.Modalidad === 'indexado') expect(r.FeeActualMwh).toBeGreaterThan(1)
      else expect(r.FeeActualMwh).toBeNull()
      expect(r.VariacionPct).toBeCloseTo(((r.PrecioPropuesto - r.PrecioActual) / r.PrecioActual) * 100, 1)
      expect(r.FechaProximaRenovacion).toBe(r.SubestadoCodigo === 'renovado' ? `${Number(r.FechaRenovacion.slice(0, 4)) + 1}${r.FechaRenovacion.slice(4)}` : r.FechaRenovacion)
    }
  })

  it('with includeSubEstadoFilter=true also answers the sub-state catalog with counts', async () => {
    const plain = await admin.get<Record<string, unknown>>('/api/renovaciones', { includeSubEstadoFilter: false })
    expect(plain.body).not.toHaveProperty('SubEstados')
    const res = await admin.get<{ TotalCount: number; SubEstados: (RenewalSubstate & { Cantidad: number })[] }>('/api/renovaciones', { includeSubEstadoFilter: true, pageSize: 5 })
    expect(res.status).toBe(200)
    expect(res.body.SubEstados.map((s) => s.Codigo)).toEqual(['proxima_renovacion', 'ofertada', 'aceptada', 'renovado', 'no_renovado', 'baja_solicitada'])
    expect(res.body.SubEstados.reduce((s, e) => s + e.Cantidad, 0)).toBe(res.body.TotalCount)
    expect(res.body.SubEstados.find((s) => s.Codigo === 'renovado')!.Final).toBe(true)
    expect((await admin.get('/api/renovaciones', { includeSubEstadoFilter: 'quizá' })).status).toBe(400)
  })

  it('filters by sub-state id and sorts by proposed price and variation', async () => {
    const p = await page<RenewalRow>(admin, '/api/renovaciones', { pageSize: 200, filters: [['SubestadoId', '1,2']] })
    expect(p.Items.every((r) => r.SubestadoId === 1 || r.SubestadoId === 2)).toBe(true)
    const sorted = await page<RenewalRow>(admin, '/api/renovaciones', { pageSize: 200, sortColumn: 'VariacionPct', sortOrder: 'desc' })
    expect(isSorted(sorted.Items.map((r) => r.VariacionPct), 'desc', byNumber)).toBe(true)
    const titular = await page<RenewalRow>(admin, '/api/renovaciones', { pageSize: 200, sortColumn: 'CodigoContrato', sortOrder: 'desc' })
    expect(isSorted(titular.Items.map((r) => r.CodigoContrato), 'desc', byText)).toBe(true)
    expect((await admin.get('/api/renovaciones', listQuery({ sortColumn: 'Unidad' }))).status).toBe(400)
  })

  it('GET /api/renovaciones/subestados answers the catalog', async () => {
    const res = await admin.get<RenewalSubstate[]>('/api/renovaciones/subestados')
    expect(res.body).toEqual([
      { Id: 1, Codigo: 'proxima_renovacion', Nombre: 'Próxima renovación', Final: false },
      { Id: 2, Codigo: 'ofertada', Nombre: 'Oferta enviada', Final: false },
      { Id: 3, Codigo: 'aceptada', Nombre: 'Oferta aceptada', Final: false },
      { Id: 4, Codigo: 'renovado', Nombre: 'Renovado', Final: true },
      { Id: 5, Codigo: 'no_renovado', Nombre: 'No renovado', Final: false },
      { Id: 6, Codigo: 'baja_solicitada', Nombre: 'Baja solicitada', Final: false },
    ])
  })
})

describe('POST /api/renovaciones/renovar', () => {
  it('renews: sub-state renovado, next renewal one year on, the new prices on the contract, a history entry', async () => {
    const r = await renewalIn('aceptada')
    const before = (await admin.get<Record<string, any>>('/api/contract/id', { codigo: r.CodigoContrato })).body
    const res = await admin.post<RenewalRow>('/api/renovaciones/renovar', { CodigoContrato: r.CodigoContrato })
    expect(res.status).toBe(200)
    expect(res.body.SubestadoCodigo).toBe('renovado')
    expect(res.body.FechaUltimoCambio).toBe('2026-11-21T10:00:00Z')
    const nextYear = `${Number(r.FechaRenovacion.slice(0, 4)) + 1}${r.FechaRenovacion.slice(4)}`
    expect(res.body.FechaProximaRenovacion).toBe(nextYear)
    const after = (await admin.get<Record<string, any>>('/api/contract/id', { codigo: r.CodigoContrato })).body
    expect(after.FechaProximaRenovacion).toBe(nextYear)
    expect(after.Renovacion.SubestadoCodigo).toBe('renovado')
    if (r.Modalidad === 'fijo') expect(after.PreciosEnergia.P1).toBeCloseTo(before.PreciosEnergia.P1 * (r.PrecioPropuesto / r.PrecioActual), 5)
    else expect(after.FeeMwh).toBe(r.FeePropuestoMwh)
    const last = after.Historial.at(-1)
    expect(last.Accion).toBe('renovacion')
    expect(last.Usuario).toBe('Ana Administradora Portal')
    expect(last.Detalle).toContain(nextYear)
    expect(after.ActualizadoPor.Nombre).toBe('Ana Administradora Portal')
  })

  it('refuses with a Spanish 409 what cannot be renewed', async () => {
    const done = await renewalIn('renovado')
    let res = await admin.post('/api/renovaciones/renovar', { CodigoContrato: done.CodigoContrato })
    expect(res.status).toBe(409)
    expect(res.text).toContain('ya está hecha')

    const leaving = await renewalIn('baja_solicitada')
    res = await admin.post('/api/renovaciones/renovar', { CodigoContrato: leaving.CodigoContrato })
    expect(res.status).toBe(409)
    expect(res.text).toContain('Baja solicitada')

    // A contract that is no longer active.
    const open = await renewalIn('proxima_renovacion')
    api.db.prepare("UPDATE contratos SET estado = 'baja' WHERE codigo = ?").run(open.CodigoContrato)
    res = await admin.post('/api/renovaciones/renovar', { CodigoContrato: open.CodigoContrato })
    expect(res.status).toBe(409)
    expect(res.text).toContain('no está activo')
    expect((await renewalIn('proxima_renovacion', [['CodigoContrato', open.CodigoContrato]])).SubestadoCodigo).toBe('proxima_renovacion')
  })

  it('answers 400 on a bad body and 404 on a contract without renewal or of another brand', async () => {
    expect((await admin.post('/api/renovaciones/renovar', {})).status).toBe(400)
    expect((await admin.post('/api/renovaciones/renovar', { CodigoContrato: 12 })).status).toBe(400)
    expect((await admin.post('/api/renovaciones/renovar', { CodigoContrato: 'EV-1' })).status).toBe(400)
    const [draft] = (await page<{ CodigoContrato: string }>(admin, '/api/contract', { pageSize: 1, filters: [['Estado', 'borrador']] })).Items
    const res = await admin.post('/api/renovaciones/renovar', { CodigoContrato: draft!.CodigoContrato })
    expect(res.status).toBe(404)
    expect(res.text).toContain('no tiene ninguna renovación')
    const verde = await renewalIn('ofertada')
    expect((await admin.forBrand(BRAND_DOMAINS.grupo).post('/api/renovaciones/renovar', { CodigoContrato: verde.CodigoContrato })).status).toBe(404)
  })
})

describe('PUT /api/renovaciones/change-subestado', () => {
  it('changes the sub-state and writes the history', async () => {
    const r = await renewalIn('proxima_renovacion')
    const res = await admin.put<RenewalRow>('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato, SubestadoId: 2 })
    expect(res.status).toBe(200)
    expect(res.body.SubestadoCodigo).toBe('ofertada')
    expect(res.body.Subestado).toBe('Oferta enviada')
    const detail = (await admin.get<Record<string, any>>('/api/contract/id', { codigo: r.CodigoContrato })).body
    const last = detail.Historial.at(-1)
    expect(last.Accion).toBe('cambio_subestado_renovacion')
    expect(last.Detalle).toContain('Próxima renovación → Oferta enviada')
    expect(last.EstadoAnterior).toBeNull()

    // The same sub-state again: no change, no new history entry.
    const again = await admin.put<RenewalRow>('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato, SubestadoId: '2' })
    expect(again.status).toBe(200)
    const detail2 = (await admin.get<Record<string, any>>('/api/contract/id', { codigo: r.CodigoContrato })).body
    expect(detail2.Historial).toHaveLength(detail.Historial.length)
  })

  it('validates the sub-state and refuses changes to a closed renewal or to «Renovado»', async () => {
    const r = await renewalIn('ofertada')
    let res = await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato, SubestadoId: 99 })
    expect(res.status).toBe(400)
    expect(res.text).toBe('El subestado 99 no existe.')
    res = await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato, SubestadoId: 'tres' })
    expect(res.status).toBe(400)
    res = await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato })
    expect(res.status).toBe(400)
    res = await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato, SubestadoId: 4 })
    expect(res.status).toBe(409)
    expect(res.text).toContain('Renovar')
    const done = await renewalIn('renovado')
    res = await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: done.CodigoContrato, SubestadoId: 5 })
    expect(res.status).toBe(409)
    res = await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: 'EV-2019-000001', SubestadoId: 2 })
    expect(res.status).toBe(404)
  })

  it('a renewal marked «No renovado» can be put back and then renewed', async () => {
    const r = await renewalIn('no_renovado')
    expect((await admin.post('/api/renovaciones/renovar', { CodigoContrato: r.CodigoContrato })).status).toBe(409)
    expect((await admin.put('/api/renovaciones/change-subestado', { CodigoContrato: r.CodigoContrato, SubestadoId: 3 })).status).toBe(200)
    const res = await admin.post<RenewalRow>('/api/renovaciones/renovar', { CodigoContrato: r.CodigoContrato })
    expect(res.status).toBe(200)
    expect(res.body.SubestadoCodigo).toBe('renovado')
  })
})

describe('POST /api/renovaciones/renovacion-descargar', () => {
  it('answers a real PDF proposal with a file name', async () => {
    const r = await renewalIn('ofertada')
    const res = await admin.post('/api/renovaciones/renovacion-descargar', { CodigoContrato: r.CodigoContrato })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toContain(`propuesta-renovacion-${r.CodigoContrato}.pdf`)
    expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(res.bytes.subarray(-6).toString('latin1')).toContain('%%EOF')
    expect(res.bytes.length).toBeGreaterThan(3000)
    // The metadata (not compressed; UTF-16BE text strings) names the document, the contract and the brand.
    const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16()
    expect(res.bytes.includes(utf16be(`Propuesta de renovación del contrato ${r.CodigoContrato}`))).toBe(true)
    expect(res.bytes.includes(utf16be('Energía Verde'))).toBe(true)
  })

  it('works for every brand (its own logo) and answers 404 without a renewal', async () => {
    for (const domain of [BRAND_DOMAINS.grupo, BRAND_DOMAINS.limpia]) {
      const caller = admin.forBrand(domain)
      const [r] = (await page<RenewalRow>(caller, '/api/renovaciones', { pageSize: 1 })).Items
      const res = await caller.post('/api/renovaciones/renovacion-descargar', { CodigoContrato: r!.CodigoContrato })
      expect(res.status, domain).toBe(200)
      expect(res.bytes.subarray(0, 4).toString('latin1')).toBe('%PDF')
    }
    const [draft] = (await page<{ CodigoContrato: string }>(admin, '/api/contract', { pageSize: 1, filters: [['Estado', 'pendiente_firma']] })).Items
    expect((await admin.post('/api/renovaciones/renovacion-descargar', { CodigoContrato: draft!.CodigoContrato })).status).toBe(404)
  })
})

describe('GET /api/renovaciones/export', () => {
  it('exports the filtered renewals as XLSX', async () => {
    const filter: [string, string][] = [['SubestadoCodigo', 'proxima_renovacion,ofertada']]
    const total = (await page<RenewalRow>(admin, '/api/renovaciones', { filters: filter })).TotalCount
    const res = await admin.get('/api/renovaciones/export', listQuery({ pageSize: -1, filters: filter }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('renovaciones-2026-11-21.xlsx')
    const { headers, rows } = await readXlsx(res.bytes)
    expect(headers.slice(0, 3)).toEqual(['Código de contrato', 'Fecha de renovación', 'Subestado'])
    expect(rows).toHaveLength(total)
    expect(rows.every((r) => r[2] === 'Próxima renovación' || r[2] === 'Oferta enviada')).toBe(true)
  })
})
