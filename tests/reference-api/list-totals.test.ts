import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, allRows, page } from './business-support'
import { activeAgent, cups, dni, insertBody } from './lifecycle-support'

/**
 * `Totales` of the paged lists: the sum of each summable column (catalogue `list.summable`)
 * over every row the filters leave, not just the page; checked against the rows re-added here.
 */

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

type Filters = [string, string][]
type Row = Record<string, unknown>

/** The sums of `fields` over every row of the list under `filters`, added up here. */
async function recomputed(caller: ApiCaller, path: string, fields: readonly string[], filters: Filters): Promise<Record<string, number>> {
  const rows = await allRows<Row>(caller, path, { filters })
  return Object.fromEntries(fields.map((f) => [f, rows.reduce((sum, r) => sum + Number(r[f] ?? 0), 0)]))
}

async function expectTotals(caller: ApiCaller, path: string, fields: readonly string[], filters: Filters = []) {
  const p = await page<Row>(caller, path, { pageSize: 10, filters })
  expect(Object.keys(p.Totales ?? {}).sort()).toEqual([...fields].sort())
  const sums = await recomputed(caller, path, fields, filters)
  for (const f of fields) expect(p.Totales![f], `${path} ${f} ${JSON.stringify(filters)}`).toBeCloseTo(sums[f]!, 1)
  return p
}

const INVOICE_SUMS = ['ConsumoKwh', 'TerminoEnergia', 'TerminoPotencia', 'ImpuestoElectrico', 'AlquilerContador', 'BaseImponible', 'Iva', 'ImporteTotal']

describe('Totales of the paged lists', () => {
  it('contracts: the annual use of every matching contract, whatever the page', async () => {
    const all = await expectTotals(admin, '/api/contract', ['ConsumoAnual'])
    expect(all.Totales!.ConsumoAnual).toBeGreaterThan(0)
    const later = await page<Row>(admin, '/api/contract', { pageIndex: 3, pageSize: 25 })
    expect(later.Totales).toEqual(all.Totales)
  })

  it.each<[string, Filters]>([
    ['a state', [['Estado', 'activo']]],
    ['a joined text (the holder)', [['Titular', 'garcía']]],
    ['the agent (looked up by name)', [['Agente', 'a']]],
    ['a number range on the summed column', [['ConsumoAnual', '2000|6000']]],
    ['a date range and a province', [['FechaAlta', '2025-01-01|2026-12-31'], ['Provincia', 'madrid']]],
  ])('contracts filtered by %s', async (_, filters) => {
    const p = await expectTotals(admin, '/api/contract', ['ConsumoAnual'], filters)
    expect(p.TotalCount).toBeGreaterThan(0)
  })

  it('contracts: nothing matching totals zero', async () => {
    const p = await page<Row>(admin, '/api/contract', { filters: [['Titular', 'zzzz-nadie']] })
    expect(p.TotalCount).toBe(0)
    expect(p.Totales).toEqual({ ConsumoAnual: 0 })
  })

  it('contracts: an agent totals only the contracts it sees', async () => {
    const mine = await expectTotals(agente, '/api/contract', ['ConsumoAnual'])
    const everyone = await page<Row>(admin, '/api/contract')
    expect(mine.TotalCount).toBeLessThan(everyone.TotalCount)
    expect(mine.Totales!.ConsumoAnual).toBeLessThan(everyone.Totales!.ConsumoAnual!)
  })

  it('invoices: every money and energy column, unfiltered and filtered', async () => {
    await expectTotals(admin, '/api/facturas', INVOICE_SUMS)
    await expectTotals(admin, '/api/facturas', INVOICE_SUMS, [['EstadoPago', 'pendiente,impagada']])
    await expectTotals(admin, '/api/facturas', INVOICE_SUMS, [['ImporteTotal', '50|200'], ['FechaEmision', '2026-01-01|2026-12-31']])
  })

  it('renewals: the annual use of the matching renewals', async () => {
    await expectTotals(admin, '/api/renovaciones', ['ConsumoAnual'])
    await expectTotals(admin, '/api/renovaciones', ['ConsumoAnual'], [['Modalidad', 'indexado']])
  })

  it('a list the catalogue sums nothing of answers no Totales', async () => {
    const agents = await page<Row>(admin, '/api/agentes')
    expect(agents).not.toHaveProperty('Totales')
  })

  it('property: for any state subset and use range, Totales is the sum of the rows that match', async () => {
    const states = ['activo', 'baja', 'borrador', 'pendiente_firma', 'rechazado', 'firmado', 'modificacion_en_curso']
    await fc.assert(
      fc.asyncProperty(fc.subarray(states, { minLength: 1 }), fc.integer({ min: 0, max: 8000 }), fc.integer({ min: 0, max: 8000 }), async (picked, a, b) => {
        const filters: Filters = [
          ['Estado', picked.join(',')],
          ['ConsumoAnual', `${Math.min(a, b)}|${Math.max(a, b)}`],
        ]
        await expectTotals(admin, '/api/contract', ['ConsumoAnual'], filters)
      }),
      { numRuns: 12 },
    )
  })

  // The count and the totals are kept while nothing is written (every page and an export's
  // hundreds of pages ask for the same ones): a write must show on the very next page.
  it('a write shows in the next page\'s count and totals at once', async () => {
    const before = await page<Row>(admin, '/api/contract', { pageSize: 10 })
    expect(await page<Row>(admin, '/api/contract', { pageIndex: 2, pageSize: 10 })).toMatchObject({ TotalCount: before.TotalCount, Totales: before.Totales })
    const res = await admin.post('/api/contract/insert', insertBody({ nif: dni(73000001), cups: cups(5001), agenteId: activeAgent(api.db) }))
    expect(res.status, res.text).toBe(201)
    const after = await page<Row>(admin, '/api/contract', { pageSize: 10 })
    expect(after.TotalCount).toBe(before.TotalCount + 1)
    expect(after.Totales!.ConsumoAnual).toBeCloseTo(before.Totales!.ConsumoAnual! + 3200, 1)
  })

  it('property: after any sequence of writes, each page\'s count and totals are the database\'s', async () => {
    const ids = (api.db.prepare("SELECT c.id FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' ORDER BY c.id LIMIT 50").pluck().all() as number[])
    const truth = () =>
      api.db
        .prepare("SELECT COUNT(*) AS n, TOTAL(c.consumo_anual_kwh) AS sum FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo'")
        .get() as { n: number; sum: number }
    const write = fc.oneof(
      fc.record({ kind: fc.constant('use' as const), at: fc.nat(ids.length - 1), kwh: fc.integer({ min: 0, max: 9000 }) }),
      fc.record({ kind: fc.constant('state' as const), at: fc.nat(ids.length - 1), estado: fc.constantFrom('activo', 'baja') }),
    )
    // The contracts' own values, put back afterwards: the writes are the test's, not the data's.
    const saved = ids.map((id) => api.db.prepare('SELECT id, consumo_anual_kwh AS kwh, estado FROM contratos WHERE id = ?').get(id) as { id: number; kwh: number; estado: string })
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 4 }), async (writes) => {
          for (const w of writes) {
            if (w.kind === 'use') api.db.prepare('UPDATE contratos SET consumo_anual_kwh = ? WHERE id = ?').run(w.kwh, ids[w.at])
            else api.db.prepare('UPDATE contratos SET estado = ? WHERE id = ?').run(w.estado, ids[w.at])
            const p = await page<Row>(admin, '/api/contract', { pageSize: 10, filters: [['Estado', 'activo']] })
            const t = truth()
            expect(p.TotalCount).toBe(t.n)
            expect(p.Totales!.ConsumoAnual).toBeCloseTo(t.sum, 1)
          }
        }),
        { numRuns: 10 },
      )
    } finally {
      for (const row of saved) api.db.prepare('UPDATE contratos SET consumo_anual_kwh = ?, estado = ? WHERE id = ?').run(row.kwh, row.estado, row.id)
    }
  })
})
