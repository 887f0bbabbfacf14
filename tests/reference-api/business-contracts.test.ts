import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, NOW, allRows, byNumber, byText, isSorted, listQuery, page, readXlsx } from './business-support'
import type { ContractRow } from '../../schemas/business/contracts'

let api: RunningReferenceApi
let admin: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

describe('GET /api/contract (paged list)', () => {
  it('answers the envelope, newest sign-up first by default, with the documented fields', async () => {
    const p = await page<ContractRow>(admin, '/api/contract')
    expect(p.PageIndex).toBe(0)
    expect(p.PageSize).toBe(10)
    expect(p.Items).toHaveLength(10)
    expect(p.TotalCount).toBeGreaterThanOrEqual(600)
    const first = p.Items[0]!
    for (const field of ['CodigoContrato', 'Cups', 'Titular', 'Nif', 'Tarifa', 'Estado', 'EstadoNombre', 'EstadoColor', 'FechaAlta', 'Agente', 'AgenteId', 'Provincia', 'Modalidad', 'ConsumoAnual']) {
      expect(first, field).toHaveProperty(field)
    }
    expect(first.CodigoContrato).toMatch(/^EV-\d{4}-\d{6}$/)
    expect(first.EstadoColor).toMatch(/^#[0-9a-f]{6}$/)
    expect(isSorted(p.Items.map((r) => r.FechaAlta), 'desc', byText)).toBe(true)
  })

  it('pages: page 0 and page 1 differ, TotalCount stays the same', async () => {
    const p0 = await page<ContractRow>(admin, '/api/contract', { pageIndex: 0, pageSize: 25 })
    const p1 = await page<ContractRow>(admin, '/api/contract', { pageIndex: 1, pageSize: 25 })
    expect(p1.PageIndex).toBe(1)
    expect(p0.TotalCount).toBe(p1.TotalCount)
    const ids0 = new Set(p0.Items.map((r) => r.Id))
    expect(p1.Items.some((r) => ids0.has(r.Id))).toBe(false)
    const last = await page<ContractRow>(admin, '/api/contract', { pageIndex: Math.floor((p0.TotalCount - 1) / 25), pageSize: 25 })
    expect(last.Items.length).toBe(p0.TotalCount % 25 || 25)
  })

  it.each([
    ['CodigoContrato', 'asc'],
    ['CodigoContrato', 'desc'],
    ['Cups', 'asc'],
    ['Nif', 'desc'],
  ] as const)('sorts by %s %s', async (column, order) => {
    const p = await page<ContractRow>(admin, '/api/contract', { pageSize: 100, sortColumn: column, sortOrder: order })
    expect(isSorted(p.Items.map((r) => r[column]), order, byText)).toBe(true)
  })

  it.each([
    ['ConsumoAnual', 'asc'],
    ['ConsumoAnual', 'desc'],
    ['PotenciaP1', 'desc'],
  ] as const)('sorts by the number %s %s', async (column, order) => {
    const p = await page<ContractRow>(admin, '/api/contract', { pageSize: 100, sortColumn: column, sortOrder: order })
    expect(isSorted(p.Items.map((r) => r[column] as number), order, byNumber)).toBe(true)
  })

  it('sorts by FechaAlta ascending (the oldest contract first)', async () => {
    const p = await page<ContractRow>(admin, '/api/contract', { pageSize: 50, sortColumn: 'FechaAlta', sortOrder: 'asc' })
    expect(isSorted(p.Items.map((r) => r.FechaAlta), 'asc', byText)).toBe(true)
    const newest = await page<ContractRow>(admin, '/api/contract', { pageSize: 1 })
    expect(p.Items[0]!.FechaAlta < newest.Items[0]!.FechaAlta).toBe(true)
  })

  it('filters an enum (Estado) by a comma list', async () => {
    const total = (await page<ContractRow>(admin, '/api/contract')).TotalCount
    const activos = await page<ContractRow>(admin, '/api/contract', { pageSize: 500, filters: [['Estado', 'activo']] })
    expect(activos.TotalCount).toBeGreaterThan(0)
    expect(activos.TotalCount).toBeLessThan(total)
    expect(activos.Items.every((r) => r.Estado === 'activo')).toBe(true)
    const bajas = await page<ContractRow>(admin, '/api/contract', { filters: [['Estado', 'baja']] })
    const both = await page<ContractRow>(admin, '/api/contract', { pageSize: 500, filters: [['Estado', 'activo,baja']] })
    expect(both.TotalCount).toBe(activos.TotalCount + bajas.TotalCount)
    expect(both.Items.every((r) => r.Estado === 'activo' || r.Estado === 'baja')).toBe(true)
  })

  it('filters text accent-insensitively (contains)', async () => {
    const all = await allRows<ContractRow>(admin, '/api/contract', { filters: [['Titular', 'garcia']] })
    expect(all.length).toBeGreaterThan(0)
    expect(all.every((r) => r.Titular.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().includes('garcia'))).toBe(true)
    expect(all.some((r) => r.Titular.includes('García'))).toBe(true)
  })

  it('filters a date range (FechaAlta desde|hasta) and an open range', async () => {
    const p = await allRows<ContractRow>(admin, '/api/contract', { filters: [['FechaAlta', '2026-01-01|2026-03-31']] })
    expect(p.length).toBeGreaterThan(0)
    expect(p.every((r) => r.FechaAlta >= '2026-01-01' && r.FechaAlta <= '2026-03-31')).toBe(true)
    const from = await page<ContractRow>(admin, '/api/contract', { pageSize: 500, filters: [['FechaAlta', '2026-10-01|']] })
    expect(from.Items.every((r) => r.FechaAlta >= '2026-10-01')).toBe(true)
  })

  it('filters a number range (ConsumoAnual min|max) and combines filters', async () => {
    const p = await allRows<ContractRow>(admin, '/api/contract', {
      filters: [
        ['ConsumoAnual', '20000|100000'],
        ['Tarifa', '3.0TD'],
      ],
    })
    expect(p.length).toBeGreaterThan(0)
    expect(p.every((r) => r.ConsumoAnual! >= 20000 && r.ConsumoAnual! <= 100000 && r.Tarifa === '3.0TD')).toBe(true)
  })

  it('refuses unknown sort or filter columns, pageSize -1 and malformed filters with a Spanish 400', async () => {
    let res = await admin.get('/api/contract', listQuery({ sortColumn: 'Contraseña' }))
    expect(res.status).toBe(400)
    expect(res.text).toContain('No se puede ordenar por la columna «Contraseña»')
    res = await admin.get('/api/contract', listQuery({ filters: [['NoExiste', 'x']] }))
    expect(res.status).toBe(400)
    expect(res.text).toContain('No se puede filtrar por la columna «NoExiste»')
    res = await admin.get('/api/contract', listQuery({ sortColumn: 'EstadoColor' }))
    expect(res.status).toBe(400)
    res = await admin.get('/api/contract', listQuery({ pageSize: -1 }))
    expect(res.status).toBe(400)
    expect(res.text).toContain('pageSize')
    res = await admin.get('/api/contract', listQuery({ filters: [['FechaAlta', 'ayer']] }))
    expect(res.status).toBe(400)
    expect(res.text).toContain('AAAA-MM-DD')
    res = await admin.get('/api/contract', listQuery({ filters: [['ConsumoAnual', 'mucho']] }))
    expect(res.status).toBe(400)
    res = await admin.get('/api/contract', { pageIndex: 'uno' })
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toContain('text/plain')
  })
})

describe('GET /api/contract/export', () => {
  it('streams a real XLSX of the filtered rows with Spanish headers and typed cells', async () => {
    const filter: [string, string][] = [['Estado', 'baja']]
    const total = (await page<ContractRow>(admin, '/api/contract', { filters: filter })).TotalCount
    const res = await admin.get('/api/contract/export', listQuery({ pageSize: -1, filters: filter }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('spreadsheetml')
    expect(res.headers.get('content-disposition')).toContain('contratos-2026-11-21.xlsx')
    const { headers, rows } = await readXlsx(res.bytes)
    expect(headers.slice(0, 4)).toEqual(['Código de contrato', 'Estado', 'Fecha de alta', 'Fecha de activación'])
    expect(headers).toContain('Titular')
    expect(headers).toContain('CUPS')
    expect(rows).toHaveLength(total)
    expect(rows.every((r) => r[1] === 'Baja')).toBe(true)
    expect(rows[0]![2]).toBeInstanceOf(Date)
    const consumo = headers.indexOf('Consumo anual')
    expect(typeof rows[0]![consumo]).toBe('number')
  })

  it('validates its parameters like the list', async () => {
    const res = await admin.get('/api/contract/export', listQuery({ pageSize: -1, sortColumn: 'Nope' }))
    expect(res.status).toBe(400)
  })
})

describe('GET /api/contract/id', () => {
  it('answers one contract with client, supply point, prices, agent, catalog names and history', async () => {
    const [row] = (await page<ContractRow>(admin, '/api/contract', { pageSize: 1, filters: [['Estado', 'activo']] })).Items
    const res = await admin.get<Record<string, any>>('/api/contract/id', { codigo: row!.CodigoContrato.toLowerCase() })
    expect(res.status).toBe(200)
    const c = res.body
    expect(c.CodigoContrato).toBe(row!.CodigoContrato)
    expect(c.Estado).toBe('activo')
    expect(c.EstadoNombre).toBe('Activo')
    expect(c.Cliente.Nif).toBe(row!.Nif)
    expect(c.Cliente.NombreCompleto).toBe(row!.Titular)
    expect(c.PuntoSuministro.Cups).toBe(row!.Cups)
    expect(c.PuntoSuministro.Distribuidora.Codigo).toBe(row!.Cups.slice(2, 6))
    expect(c.Tarifa).toBe(row!.Tarifa)
    expect(c.TarifaNombre).toContain(row!.Tarifa)
    expect(c.Potencias.P1).toBe(row!.PotenciaP1)
    if (c.Modalidad === 'fijo') expect(c.PreciosEnergia.P1).toBeGreaterThan(0.1)
    else expect(c.FeeMwh).toBeGreaterThan(0)
    expect(c.AgenteId).toBe(row!.AgenteId)
    expect(c.TipoAltaSolicitud.Codigo).toMatch(/^(C1|C2|A3)$/)
    expect(c.Colectivo.Nombre).toBeTruthy()
    expect(c.FechaActivacion).toBeTruthy()
    expect(c.FechaProximaRenovacion > c.FechaActivacion).toBe(true)
    const h = c.Historial as { Accion: string; EstadoNuevo: string | null; Fecha: string }[]
    expect(h[0]!.Accion).toBe('alta')
    expect(h.map((e) => e.EstadoNuevo).filter(Boolean)).toEqual(['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'activo'])
    expect(h.map((e) => e.Fecha)).toEqual([...h.map((e) => e.Fecha)].sort())
  })

  it('shows the rejection reason of a rejected contract', async () => {
    const [row] = (await page<ContractRow>(admin, '/api/contract', { pageSize: 1, filters: [['Estado', 'rechazado']] })).Items
    expect(row!.MotivoRechazo).toBeTruthy()
    const c = (await admin.get<Record<string, any>>('/api/contract/id', { codigo: row!.CodigoContrato })).body
    expect(c.MotivoRechazo).toBe(row!.MotivoRechazo)
    expect(c.Historial.at(-1).Accion).toBe('rechazo')
  })

  it('answers 400 on a missing or malformed code and a Spanish 404 when unknown in this brand', async () => {
    let res = await admin.get('/api/contract/id')
    expect(res.status).toBe(400)
    res = await admin.get('/api/contract/id', { codigo: 'EV-26-1' })
    expect(res.status).toBe(400)
    expect(res.text).toContain('formato')
    res = await admin.get('/api/contract/id', { codigo: 'EV-2019-999999' })
    expect(res.status).toBe(404)
    expect(res.text).toBe('No se ha encontrado el contrato EV-2019-999999.')
  })
})

describe('aggregates', () => {
  it('situacion-contratos counts every state of the catalog and sums to the total', async () => {
    const total = (await page<ContractRow>(admin, '/api/contract')).TotalCount
    const res = await admin.get<{ Estado: string; Nombre: string; Color: string; Cantidad: number }[]>('/api/contract/situacion-contratos')
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(11)
    expect(res.body.reduce((s, e) => s + e.Cantidad, 0)).toBe(total)
    const activos = res.body.find((e) => e.Estado === 'activo')!
    expect(activos.Nombre).toBe('Activo')
    expect(activos.Cantidad).toBe((await page<ContractRow>(admin, '/api/contract', { filters: [['Estado', 'activo']] })).TotalCount)
    expect(activos.Cantidad).toBe(Math.max(...res.body.map((e) => e.Cantidad)))
  })

  it('cantidad-por-mes counts sign-ups per month, months without sign-ups included', async () => {
    const res = await admin.get<{ Mes: string; Cantidad: number }[]>('/api/contract/cantidad-por-mes', { desde: '2026-01-15', hasta: '2026-06-10' })
    expect(res.status).toBe(200)
    expect(res.body.map((m) => m.Mes)).toEqual(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'])
    const inRange = (await page<ContractRow>(admin, '/api/contract', { filters: [['FechaAlta', '2026-01-15|2026-06-10']] })).TotalCount
    expect(res.body.reduce((s, m) => s + m.Cantidad, 0)).toBe(inRange)
    // Long before the first sign-up: every month present, all zero.
    const empty = await admin.get<{ Mes: string; Cantidad: number }[]>('/api/contract/cantidad-por-mes', { desde: '2019-11-01', hasta: '2020-02-29' })
    expect(empty.body).toEqual([
      { Mes: '2019-11', Cantidad: 0 },
      { Mes: '2019-12', Cantidad: 0 },
      { Mes: '2020-01', Cantidad: 0 },
      { Mes: '2020-02', Cantidad: 0 },
    ])
  })

  it('cantidad-por-mes defaults to the twelve months up to today and refuses bad dates', async () => {
    const res = await admin.get<{ Mes: string }[]>('/api/contract/cantidad-por-mes')
    expect(res.body).toHaveLength(12)
    expect(res.body.at(-1)!.Mes).toBe('2026-11')
    const bad: Record<string, string>[] = [{ desde: '2026-02-30' }, { desde: '01/02/2026' }, { hasta: 'mañana' }, { desde: '2026-05-01', hasta: '2026-01-01' }, { desde: '2000-01-01', hasta: '2026-01-01' }]
    for (const q of bad) {
      const res = await admin.get('/api/contract/cantidad-por-mes', q)
      expect(res.status, JSON.stringify(q)).toBe(400)
      expect(res.headers.get('content-type')).toContain('text/plain')
    }
  })
})

describe('brand scoping', () => {
  it('each brand sees only its own contracts', async () => {
    const grupo = admin.forBrand(BRAND_DOMAINS.grupo)
    const verdeRows = await page<ContractRow>(admin, '/api/contract', { pageSize: 50 })
    const grupoRows = await page<ContractRow>(grupo, '/api/contract', { pageSize: 50 })
    expect(verdeRows.Items.every((r) => r.CodigoContrato.startsWith('EV-'))).toBe(true)
    expect(grupoRows.Items.every((r) => r.CodigoContrato.startsWith('GE-'))).toBe(true)
    const code = verdeRows.Items[0]!.CodigoContrato
    expect((await admin.get('/api/contract/id', { codigo: code })).status).toBe(200)
    expect((await grupo.get('/api/contract/id', { codigo: code })).status).toBe(404)
    const search = await page<ContractRow>(grupo, '/api/contract', { filters: [['CodigoContrato', code]] })
    expect(search.TotalCount).toBe(0)
  })

  it('every brand holds at least 600 contracts', async () => {
    for (const domain of Object.values(BRAND_DOMAINS)) {
      const p = await page<ContractRow>(admin.forBrand(domain), '/api/contract')
      expect(p.TotalCount, domain).toBeGreaterThanOrEqual(600)
    }
  })
})
