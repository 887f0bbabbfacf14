import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, NOW, allRows, byNumber, byText, isSorted, listQuery, page, readXlsx } from './business-support'
import type { Invoice } from '../../schemas/business/invoices'

let api: RunningReferenceApi
let admin: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
})
afterAll(async () => {
  await api?.close()
})

describe('GET /api/facturas', () => {
  it('lists the brand invoices, newest issue first, at least 3 000 of them', async () => {
    const p = await page<Invoice>(admin, '/api/facturas', { pageSize: 50 })
    expect(p.TotalCount).toBeGreaterThanOrEqual(3000)
    expect(p.Items[0]!.Numero).toMatch(/^FEV\d{4}-\d{7}$/)
    expect(isSorted(p.Items.map((r) => r.FechaEmision), 'desc', byText)).toBe(true)
    for (const r of p.Items) {
      expect(r.PeriodoDesde <= r.PeriodoHasta).toBe(true)
      expect(r.PeriodoHasta < r.FechaEmision).toBe(true)
      expect(r.FechaEmision < r.FechaVencimiento).toBe(true)
    }
  })

  it('amounts add up: tax 5.11269632 % of energy + power, VAT 21 % of the base, total = base + VAT', async () => {
    const p = await page<Invoice>(admin, '/api/facturas', { pageSize: 200, pageIndex: 3 })
    for (const r of p.Items) {
      expect(r.ImpuestoElectrico).toBeCloseTo((r.TerminoEnergia + r.TerminoPotencia) * 0.0511269632, 1)
      expect(r.BaseImponible).toBeCloseTo(r.TerminoEnergia + r.TerminoPotencia + r.ImpuestoElectrico + r.AlquilerContador, 1)
      expect(r.Iva).toBeCloseTo(r.BaseImponible * 0.21, 1)
      expect(r.ImporteTotal).toBeCloseTo(r.BaseImponible + r.Iva, 2)
      // Energy term consistent with the consumption (0.05–0.35 €/kWh over fixed and indexed prices).
      if (r.ConsumoKwh > 50) {
        const price = r.TerminoEnergia / r.ConsumoKwh
        expect(price).toBeGreaterThan(0.05)
        expect(price).toBeLessThan(0.35)
      }
    }
  })

  it('pages, sorts by amount and by number', async () => {
    const p0 = await page<Invoice>(admin, '/api/facturas', { pageIndex: 0, pageSize: 20, sortColumn: 'ImporteTotal', sortOrder: 'desc' })
    const p1 = await page<Invoice>(admin, '/api/facturas', { pageIndex: 1, pageSize: 20, sortColumn: 'ImporteTotal', sortOrder: 'desc' })
    expect(p0.TotalCount).toBe(p1.TotalCount)
    expect(isSorted([...p0.Items, ...p1.Items].map((r) => r.ImporteTotal), 'desc', byNumber)).toBe(true)
    const asc = await page<Invoice>(admin, '/api/facturas', { pageSize: 100, sortColumn: 'Numero', sortOrder: 'asc' })
    expect(isSorted(asc.Items.map((r) => r.Numero), 'asc', byText)).toBe(true)
    // Numbers run per issue year from 1.
    expect(asc.Items[0]!.Numero).toMatch(/^FEV\d{4}-0000001$/)
  })

  it('filters by payment state, issue dates, amount and contract', async () => {
    const states = await admin.get<{ Items: Invoice[]; TotalCount: number }>('/api/facturas', listQuery({ pageSize: 500, filters: [['EstadoPago', 'devuelta,impagada']] }))
    expect(states.body.TotalCount).toBeGreaterThan(0)
    expect(states.body.Items.every((r) => r.EstadoPago === 'devuelta' || r.EstadoPago === 'impagada')).toBe(true)
    expect(states.body.Items.every((r) => r.FechaCobro === null)).toBe(true)

    const pendientes = await allRows<Invoice>(admin, '/api/facturas', { filters: [['EstadoPago', 'pendiente']] })
    expect(pendientes.length).toBeGreaterThan(0)
    // Pending ones are the recent ones: not yet due on the seed day.
    expect(pendientes.every((r) => r.FechaVencimiento >= '2026-11-01')).toBe(true)

    const october = await allRows<Invoice>(admin, '/api/facturas', { filters: [['FechaEmision', '2026-10-01|2026-10-31']] })
    expect(october.length).toBeGreaterThan(100)
    expect(october.every((r) => r.FechaEmision.startsWith('2026-10'))).toBe(true)

    const big = await allRows<Invoice>(admin, '/api/facturas', { filters: [['ImporteTotal', '1000|']] })
    expect(big.every((r) => r.ImporteTotal >= 1000)).toBe(true)

    const code = october[0]!.CodigoContrato
    const ofContract = await allRows<Invoice>(admin, '/api/facturas', { filters: [['CodigoContrato', code]] })
    expect(ofContract.every((r) => r.CodigoContrato === code)).toBe(true)
  })

  it('refuses unknown columns and pageSize -1', async () => {
    expect((await admin.get('/api/facturas', listQuery({ sortColumn: 'Total' }))).status).toBe(400)
    expect((await admin.get('/api/facturas', listQuery({ filters: [['Importe', '1']] }))).status).toBe(400)
    expect((await admin.get('/api/facturas', listQuery({ pageSize: -1 }))).status).toBe(400)
    expect((await admin.get('/api/facturas', listQuery({ pageSize: 501 }))).status).toBe(400)
  })
})

describe('GET /api/facturas/export', () => {
  it('exports the filtered invoices as XLSX with money and date formats', async () => {
    const filter: [string, string][] = [['FechaEmision', '2026-09-01|2026-09-30']]
    const total = (await page<Invoice>(admin, '/api/facturas', { filters: filter })).TotalCount
    const res = await admin.get('/api/facturas/export', listQuery({ pageSize: -1, filters: filter }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('facturas-2026-11-21.xlsx')
    const { headers, rows, sheet } = await readXlsx(res.bytes)
    expect(headers.slice(0, 3)).toEqual(['Número', 'Fecha de emisión', 'Fecha de vencimiento'])
    expect(headers).toContain('Importe total')
    expect(rows).toHaveLength(total)
    const totalCol = headers.indexOf('Importe total') + 1
    expect(sheet.getColumn(totalCol).numFmt ?? sheet.getRow(2).getCell(totalCol).numFmt).toContain('€')
    expect(typeof rows[0]![totalCol - 1]).toBe('number')
    expect(rows[0]![1]).toBeInstanceOf(Date)
  })
})

describe('GET /api/facturas/facturas-contrato', () => {
  it("answers that contract's invoices, newest first, one per month of supply", async () => {
    const [contract] = (
      await page<{ CodigoContrato: string; FechaActivacion: string }>(admin, '/api/contract', {
        pageSize: 1,
        filters: [
          ['Estado', 'activo'],
          ['FechaActivacion', '2025-01-01|2025-06-30'],
        ],
      })
    ).Items
    const res = await admin.get<Invoice[]>('/api/facturas/facturas-contrato', { codigo: contract!.CodigoContrato })
    expect(res.status).toBe(200)
    expect(res.body.length).toBeGreaterThanOrEqual(16)
    expect(res.body.every((r) => r.CodigoContrato === contract!.CodigoContrato)).toBe(true)
    expect(isSorted(res.body.map((r) => r.FechaEmision), 'desc', byText)).toBe(true)
    const months = res.body.map((r) => r.PeriodoDesde.slice(0, 7))
    expect(new Set(months).size).toBe(months.length)
    expect(res.body.at(-1)!.PeriodoDesde).toBe(contract!.FechaActivacion)
  })

  it('answers an empty list for a contract not yet supplying, 404 for an unknown one, 400 for a bad code', async () => {
    const [draft] = (await page<{ CodigoContrato: string }>(admin, '/api/contract', { pageSize: 1, filters: [['Estado', 'borrador']] })).Items
    const res = await admin.get<Invoice[]>('/api/facturas/facturas-contrato', { codigo: draft!.CodigoContrato })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
    expect((await admin.get('/api/facturas/facturas-contrato', { codigo: 'EV-2019-000001' })).status).toBe(404)
    expect((await admin.get('/api/facturas/facturas-contrato', { codigo: 'nada' })).status).toBe(400)
    expect((await admin.get('/api/facturas/facturas-contrato')).status).toBe(400)
  })
})

describe('brand scoping', () => {
  it('every brand has at least 3 000 invoices of its own', async () => {
    const prefixes = { verde: 'FEV', grupo: 'FGE', limpia: 'FEL' } as const
    for (const [key, domain] of Object.entries(BRAND_DOMAINS) as [keyof typeof prefixes, string][]) {
      const p = await page<Invoice>(admin.forBrand(domain), '/api/facturas', { pageSize: 100 })
      expect(p.TotalCount, domain).toBeGreaterThanOrEqual(3000)
      expect(p.Items.every((r) => r.Numero.startsWith(prefixes[key]))).toBe(true)
    }
    const verdeCode = (await page<Invoice>(admin, '/api/facturas', { pageSize: 1 })).Items[0]!.CodigoContrato
    expect((await admin.forBrand(BRAND_DOMAINS.limpia).get('/api/facturas/facturas-contrato', { codigo: verdeCode })).status).toBe(404)
  })
})
