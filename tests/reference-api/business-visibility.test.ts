import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, allRows, listQuery, page, readXlsx } from './business-support'
import type { DashboardSummary } from '../../schemas/dashboard'

/**
 * The sales-channel rule: a caller linked to an agent of the brand and without GESTORACCESS
 * sees only the contracts (and their invoices and renewals) of that agent's subtree.
 */

/** What the visibility rule looks at in a row of the contracts, invoices and renewals lists. */
interface Row {
  CodigoContrato: string
  AgenteId: number
}

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let marcaId: number
let agenteUserId: number
let subtree: number[]

const count = (sql: string, ...params: unknown[]) => (api.db.prepare(sql).get(...params) as { n: number }).n
const inSubtree = () => `(${subtree.join(', ')})`

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  marcaId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
  agenteUserId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }).id
  const linked = (api.db.prepare('SELECT id FROM agentes WHERE usuario_id = ? AND marca_id = ?').get(agenteUserId, marcaId) as { id: number }).id
  subtree = (
    api.db
      .prepare('WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT a.id FROM agentes a JOIN t ON a.padre_id = t.id) SELECT id FROM t')
      .all(linked) as { id: number }[]
  ).map((r) => r.id)
})
afterAll(async () => {
  await api?.close()
})

describe('an agent user sees its subtree only', () => {
  it('contract list, lookups and export', async () => {
    const mine = await allRows<Row>(agente, '/api/contract')
    const expected = count(`SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND agente_id IN ${inSubtree()}`, marcaId)
    expect(subtree.length).toBeGreaterThan(1)
    expect(mine).toHaveLength(expected)
    expect(expected).toBeGreaterThan(0)
    expect(mine.every((r) => subtree.includes(r.AgenteId))).toBe(true)
    const all = (await page(admin, '/api/contract')).TotalCount
    expect(mine.length).toBeLessThan(all)

    const visible = mine[0]!.CodigoContrato
    expect((await agente.get('/api/contract/id', { codigo: visible })).status).toBe(200)
    const [outside] = (await page<Row>(admin, '/api/contract', { pageSize: 500 })).Items.filter((r) => !subtree.includes(r.AgenteId))
    const res = await agente.get('/api/contract/id', { codigo: outside!.CodigoContrato })
    expect(res.status).toBe(404)
    expect(res.text).toBe(`No se ha encontrado el contrato ${outside!.CodigoContrato}.`)

    const xlsx = await readXlsx((await agente.get('/api/contract/export', { pageSize: -1 })).bytes)
    expect(xlsx.rows).toHaveLength(expected)
  })

  it('invoices', async () => {
    const expected = count(`SELECT COUNT(*) AS n FROM facturas f JOIN contratos c ON c.id = f.contrato_id WHERE f.marca_id = ? AND c.agente_id IN ${inSubtree()}`, marcaId)
    const p = await page<Row>(agente, '/api/facturas', { pageSize: 500 })
    expect(p.TotalCount).toBe(expected)
    expect(p.Items.every((r) => subtree.includes(r.AgenteId))).toBe(true)
    const [outside] = (await page<Row>(admin, '/api/facturas', { pageSize: 500 })).Items.filter((r) => !subtree.includes(r.AgenteId))
    expect((await agente.get('/api/facturas/facturas-contrato', { codigo: outside!.CodigoContrato })).status).toBe(404)
    const xlsx = await readXlsx((await agente.get('/api/facturas/export', listQuery({ pageSize: -1, filters: [['EstadoPago', 'pagada']] }))).bytes)
    expect(xlsx.rows).toHaveLength((await page(agente, '/api/facturas', { filters: [['EstadoPago', 'pagada']] })).TotalCount)
  })

  it('aggregates', async () => {
    const total = (await page(agente, '/api/contract')).TotalCount
    const situacion = (await agente.get<{ Cantidad: number }[]>('/api/contract/situacion-contratos')).body
    expect(situacion.reduce((s, e) => s + e.Cantidad, 0)).toBe(total)
    const months = (await agente.get<{ Cantidad: number }[]>('/api/contract/cantidad-por-mes', { desde: '2023-01-01', hasta: '2026-11-30' })).body
    expect(months.reduce((s, m) => s + m.Cantidad, 0)).toBe(total)
    const summary = (await agente.get<DashboardSummary>('/api/utility/dashboard/resumen')).body
    expect(summary.ContratosTotal).toBe(total)
    expect(summary.Agentes).toBe(count(`SELECT COUNT(*) AS n FROM agentes WHERE activo = 1 AND id IN ${inSubtree()}`))
  })

  it('renewals, once the user may see them', async () => {
    expect((await agente.get('/api/renovaciones')).status).toBe(403)
    api.db.prepare("INSERT INTO usuario_permisos (usuario_id, permiso_id) SELECT ?, id FROM permisos WHERE nombre_normalizado = 'VERRENOVACIONES'").run(agenteUserId)
    try {
      const rows = await allRows<Row>(agente, '/api/renovaciones')
      const expected = count(`SELECT COUNT(*) AS n FROM renovaciones r JOIN contratos c ON c.id = r.contrato_id WHERE r.marca_id = ? AND c.agente_id IN ${inSubtree()}`, marcaId)
      expect(rows).toHaveLength(expected)
      expect(rows.every((r) => subtree.includes(r.AgenteId))).toBe(true)
      const [outside] = (await allRows<Row>(admin, '/api/renovaciones')).filter((r) => !subtree.includes(r.AgenteId))
      expect((await agente.post('/api/renovaciones/renovacion-descargar', { CodigoContrato: outside!.CodigoContrato })).status).toBe(404)
      expect((await agente.post('/api/renovaciones/renovar', { CodigoContrato: outside!.CodigoContrato })).status).toBe(404)
    } finally {
      api.db.prepare('DELETE FROM usuario_permisos WHERE usuario_id = ?').run(agenteUserId)
    }
  })

  it('the rule holds in every brand the user is linked in', async () => {
    const grupo = agente.forBrand(BRAND_DOMAINS.grupo)
    const grupoId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'grupoenergia.es'").get() as { id: number }).id
    const linked = (api.db.prepare('SELECT id FROM agentes WHERE usuario_id = ? AND marca_id = ?').get(agenteUserId, grupoId) as { id: number }).id
    const ids = (
      api.db.prepare('WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT a.id FROM agentes a JOIN t ON a.padre_id = t.id) SELECT id FROM t').all(linked) as { id: number }[]
    ).map((r) => r.id)
    const rows = await allRows<Row>(grupo, '/api/contract')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((r) => ids.includes(r.AgenteId) && r.CodigoContrato.startsWith('GE-'))).toBe(true)
  })

  it('with GESTORACCESS the same user sees the whole brand', async () => {
    api.db.prepare("INSERT INTO usuario_permisos (usuario_id, permiso_id) SELECT ?, id FROM permisos WHERE nombre_normalizado = 'GESTORACCESS'").run(agenteUserId)
    try {
      const all = (await page(admin, '/api/contract')).TotalCount
      expect((await page(agente, '/api/contract')).TotalCount).toBe(all)
    } finally {
      api.db.prepare('DELETE FROM usuario_permisos WHERE usuario_id = ?').run(agenteUserId)
    }
    expect((await page(agente, '/api/contract')).TotalCount).toBeLessThan((await page(admin, '/api/contract')).TotalCount)
  })
})

describe('GET /api/utility/dashboard/resumen', () => {
  it("answers the brand's real figures on today's date", async () => {
    const res = await admin.get<DashboardSummary>('/api/utility/dashboard/resumen')
    expect(res.status).toBe(200)
    const s = res.body
    expect(s.Fecha).toBe('2026-11-21')
    expect(s.ContratosTotal).toBe(count('SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ?', marcaId))
    expect(s.ContratosActivos).toBe(count("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND estado IN ('activo', 'modificacion_en_curso')", marcaId))
    expect(s.ContratosEnTramite).toBe(
      count("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND estado IN ('borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado')", marcaId),
    )
    expect(s.AltasMesAnterior).toBe(count("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND fecha_alta LIKE '2026-10-%'", marcaId))
    expect(s.AltasMesAnterior).toBeGreaterThan(0)
    expect(s.AltasMesActual).toBe(count("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND fecha_alta BETWEEN '2026-11-01' AND '2026-11-21'", marcaId))
    const facturado = (api.db.prepare("SELECT COALESCE(SUM(total), 0) AS t FROM facturas WHERE marca_id = ? AND fecha_emision LIKE '2026-10-%'").get(marcaId) as { t: number }).t
    expect(s.FacturacionMesAnterior).toBeCloseTo(facturado, 2)
    expect(s.FacturacionMesAnterior).toBeGreaterThan(0)
    expect(s.ImpagosNumero).toBe(count("SELECT COUNT(*) AS n FROM facturas WHERE marca_id = ? AND estado_pago IN ('devuelta', 'impagada')", marcaId))
    expect(s.ImpagosImporte).toBeGreaterThan(0)
    expect(s.FacturasPendientes).toBe(count("SELECT COUNT(*) AS n FROM facturas WHERE marca_id = ? AND estado_pago = 'pendiente'", marcaId))
    expect(s.RenovacionesProximas).toBe(
      count("SELECT COUNT(*) AS n FROM renovaciones WHERE marca_id = ? AND subestado_id <> 4 AND fecha_renovacion BETWEEN '2026-11-21' AND '2026-12-21'", marcaId),
    )
    expect(s.Agentes).toBe(count('SELECT COUNT(*) AS n FROM agentes WHERE marca_id = ? AND activo = 1', marcaId))
    expect(s.ConsumoAnualCarteraKwh).toBeGreaterThan(0)
    const grupo = (await admin.forBrand(BRAND_DOMAINS.grupo).get<DashboardSummary>('/api/utility/dashboard/resumen')).body
    expect(grupo.ContratosTotal).toBe(count("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = (SELECT id FROM marcas WHERE dominio = 'grupoenergia.es')"))
  })
})
