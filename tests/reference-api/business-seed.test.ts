import type Database from 'better-sqlite3'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { distribuidoraDeCodigoPostal } from '../../server/reference-api/data/municipios'
import { openReferenceDb } from '../../server/reference-api/db/database'
import { seedIfEmpty } from '../../server/reference-api/db/seed/seed'
import { validateCups, validateIban, validateNif } from '../../server/reference-api/domain/identifiers'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/** Seeding a fresh database computes every invoice hour by hour: seconds alone, more on a busy machine. */
const SEED_AGAIN_TIMEOUT_MS = 90_000

/** The seeded business data, read straight from the template database. */

let api: RunningReferenceApi
let db: Database.Database
let brands: { id: number; dominio: string; prefix: string }[]

const PREFIX: Record<string, string> = { 'energiaverde.es': 'EV', 'grupoenergia.es': 'GE', 'energialimpia.es': 'EL' }
const BANKS = new Set(['2100', '0049', '0182', '0081', '2085', '0128', '1465', '2080', '3058'])

beforeAll(async () => {
  api = await startReferenceApi()
  db = api.db
  brands = (db.prepare('SELECT id, dominio FROM marcas ORDER BY id').all() as { id: number; dominio: string }[]).map((b) => ({ ...b, prefix: PREFIX[b.dominio]! }))
})
afterAll(async () => {
  await api?.close()
})

const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[]
const one = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).get(...params) as T

describe('volumes per brand', () => {
  it('≥ 600 contracts, ≥ 3 000 invoices, 40 agents, ≥ 60 renewals spread over the sub-states', () => {
    expect(brands).toHaveLength(3)
    for (const b of brands) {
      expect(one<{ n: number }>('SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ?', b.id).n, b.dominio).toBeGreaterThanOrEqual(600)
      expect(one<{ n: number }>('SELECT COUNT(*) AS n FROM facturas WHERE marca_id = ?', b.id).n, b.dominio).toBeGreaterThanOrEqual(3000)
      expect(one<{ n: number }>('SELECT COUNT(*) AS n FROM agentes WHERE marca_id = ?', b.id).n).toBe(40)
      const renewals = all<{ subestado_id: number; n: number }>('SELECT subestado_id, COUNT(*) AS n FROM renovaciones WHERE marca_id = ? GROUP BY subestado_id', b.id)
      expect(renewals.reduce((s, r) => s + r.n, 0), b.dominio).toBeGreaterThanOrEqual(60)
      expect(renewals.length, b.dominio).toBeGreaterThanOrEqual(5)
      // A few clients hold several supply points.
      const multi = one<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT cliente_id FROM puntos_suministro WHERE marca_id = ? GROUP BY cliente_id HAVING COUNT(*) > 1)', b.id).n
      expect(multi).toBeGreaterThan(10)
    }
  })

  it('every contract state of the life cycle occurs; most contracts are active', () => {
    const states = new Map(all<{ estado: string; n: number }>('SELECT estado, COUNT(*) AS n FROM contratos GROUP BY estado').map((r) => [r.estado, r.n]))
    for (const s of ['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'rechazado', 'activo', 'baja', 'desistido', 'anulado']) {
      expect(states.get(s) ?? 0, s).toBeGreaterThan(0)
    }
    const total = [...states.values()].reduce((a, b) => a + b, 0)
    expect(states.get('activo')! / total).toBeGreaterThan(0.5)
    expect(states.get('baja')!).toBeGreaterThan(states.get('enviado_distribuidora')!)
  })
})

describe('identifiers', () => {
  it('every NIF/NIE/CIF is valid; about 70 % natural persons', () => {
    const clients = all<{ tipo: string; nif: string; razon_social: string | null; forma_juridica: string | null }>('SELECT tipo, nif, razon_social, forma_juridica FROM clientes')
    for (const c of clients) {
      const v = validateNif(c.nif)
      expect(v.valid, `${c.nif}: ${v.reason}`).toBe(true)
      expect(v.kind).toBe(c.tipo === 'fisica' ? (c.nif.match(/^[XYZ]/) ? 'NIE' : 'DNI') : 'CIF')
      if (c.forma_juridica === 'S.L.') expect(c.nif[0]).toBe('B')
      if (c.forma_juridica === 'S.A.') expect(c.nif[0]).toBe('A')
    }
    const persons = clients.filter((c) => c.tipo === 'fisica').length / clients.length
    expect(persons).toBeGreaterThan(0.6)
    expect(persons).toBeLessThan(0.8)
    expect(clients.some((c) => /^[XYZ]/.test(c.nif))).toBe(true)
    for (const b of brands) {
      const dup = one<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT nif FROM clientes WHERE marca_id = ? GROUP BY nif HAVING COUNT(*) > 1)', b.id).n
      expect(dup).toBe(0)
    }
  })

  it('every CUPS is valid, unique, with the distributor of its postcode', () => {
    const points = all<{ cups: string; codigo_postal: string; distribuidora_codigo: string; distribuidora_nombre: string }>(
      'SELECT cups, codigo_postal, distribuidora_codigo, distribuidora_nombre FROM puntos_suministro',
    )
    expect(new Set(points.map((p) => p.cups)).size).toBe(points.length)
    for (const p of points) {
      expect(validateCups(p.cups).valid, p.cups).toBe(true)
      expect(p.cups.slice(2, 6)).toBe(p.distribuidora_codigo)
      expect(p.distribuidora_codigo).toBe(distribuidoraDeCodigoPostal(p.codigo_postal))
      expect(p.distribuidora_nombre.length).toBeGreaterThan(3)
    }
  })

  it('every IBAN (clients and contracts) is valid and from a real Spanish bank', () => {
    const ibans = all<{ iban: string }>('SELECT iban FROM clientes UNION ALL SELECT iban FROM contratos')
    for (const { iban } of ibans) {
      expect(validateIban(iban).valid, iban).toBe(true)
      expect(BANKS.has(iban.slice(4, 8)), iban).toBe(true)
    }
  })

  it('contract codes and invoice numbers follow the brand format and are unique per brand', () => {
    for (const b of brands) {
      const codes = all<{ codigo: string; fecha_alta: string }>('SELECT codigo, fecha_alta FROM contratos WHERE marca_id = ?', b.id)
      for (const c of codes) {
        expect(c.codigo).toMatch(new RegExp(`^${b.prefix}-\\d{4}-\\d{6}$`))
        expect(c.codigo.slice(3, 7)).toBe(c.fecha_alta.slice(0, 4))
      }
      const numbers = all<{ numero: string; fecha_emision: string }>('SELECT numero, fecha_emision FROM facturas WHERE marca_id = ?', b.id)
      expect(new Set(numbers.map((n) => n.numero)).size).toBe(numbers.length)
      for (const n of numbers) {
        expect(n.numero).toMatch(new RegExp(`^F${b.prefix}\\d{4}-\\d{7}$`))
        expect(n.numero.slice(3, 7)).toBe(n.fecha_emision.slice(0, 4))
      }
    }
  })
})

describe('tariffs, powers, prices and consumption', () => {
  it('~80 % 2.0TD, ~17 % 3.0TD, ~3 % 6.1TD', () => {
    const rows = all<{ tarifa_id: number; n: number }>('SELECT tarifa_id, COUNT(*) AS n FROM contratos GROUP BY tarifa_id')
    const total = rows.reduce((s, r) => s + r.n, 0)
    const share = (id: number) => (rows.find((r) => r.tarifa_id === id)?.n ?? 0) / total
    expect(share(1)).toBeGreaterThan(0.72)
    expect(share(1)).toBeLessThan(0.88)
    expect(share(2)).toBeGreaterThan(0.1)
    expect(share(3)).toBeGreaterThan(0.01)
    expect(share(3)).toBeLessThan(0.06)
    expect(share(4) + share(5) + share(6)).toBe(0)
  })

  it('powers fit the tariff: 2.0TD 3.3–9.9 kW in two periods, 3.0TD and 6.1TD non-decreasing over six', () => {
    const rows = all<Record<string, number | null> & { tarifa_id: number; codigo: string }>(
      'SELECT codigo, tarifa_id, potencia_p1 AS p1, potencia_p2 AS p2, potencia_p3 AS p3, potencia_p4 AS p4, potencia_p5 AS p5, potencia_p6 AS p6 FROM contratos',
    )
    let equal = 0
    let twoTd = 0
    for (const r of rows) {
      const p = [r.p1, r.p2, r.p3, r.p4, r.p5, r.p6]
      if (r.tarifa_id === 1) {
        twoTd++
        if (r.p1 === r.p2) equal++
        expect(p.slice(2).every((v) => v === null), r.codigo).toBe(true)
        for (const v of p.slice(0, 2)) expect(v !== null && v !== undefined && v >= 3.3 && v <= 9.9, `${r.codigo} ${v}`).toBe(true)
      } else {
        expect(p.every((v) => v !== null), r.codigo).toBe(true)
        for (let i = 1; i < 6; i++) expect(p[i]! >= p[i - 1]!, r.codigo).toBe(true)
        if (r.tarifa_id === 2) expect(r.p1! >= 15 && r.p6! <= 100, r.codigo).toBe(true)
        if (r.tarifa_id === 3) expect(r.p1! >= 100 && r.p6! <= 450, r.codigo).toBe(true)
      }
    }
    expect(equal / twoTd).toBeGreaterThan(0.7)
  })

  it('fixed prices 0.11–0.19 €/kWh, indexed contracts carry a fee, households consume 1 800–5 500 kWh', () => {
    // Renewed contracts carry the renewal's new prices (a few % up or down), so they are left out.
    const fixed = all<Record<string, number | null>>(
      "SELECT precio_energia_p1 AS p1, precio_energia_p2 AS p2, precio_energia_p3 AS p3, precio_energia_p6 AS p6 FROM contratos WHERE modalidad = 'fijo' AND id NOT IN (SELECT contrato_id FROM renovaciones WHERE subestado_id = 4)",
    )
    expect(fixed.length).toBeGreaterThan(1000)
    for (const r of fixed) for (const v of [r.p1, r.p2, r.p3, r.p6]) if (typeof v === 'number') expect(v >= 0.11 && v <= 0.19, String(v)).toBe(true)
    expect(one<{ n: number }>("SELECT COUNT(*) AS n FROM contratos WHERE modalidad = 'indexado' AND (fee_mwh IS NULL OR precio_energia_p1 IS NOT NULL)").n).toBe(0)
    expect(one<{ n: number }>("SELECT COUNT(*) AS n FROM contratos WHERE modalidad = 'indexado'").n).toBeGreaterThan(100)
    const homes = one<{ lo: number; hi: number }>("SELECT MIN(consumo_anual_kwh) AS lo, MAX(consumo_anual_kwh) AS hi FROM contratos WHERE cnae = '9820'")
    expect(homes.lo).toBeGreaterThanOrEqual(1800)
    expect(homes.hi).toBeLessThanOrEqual(5500)
    const big = one<{ lo: number }>('SELECT MIN(consumo_anual_kwh) AS lo FROM contratos WHERE tarifa_id = 3')
    expect(big.lo).toBeGreaterThan(100_000)
  })
})

describe('life cycle consistency', () => {
  it("the history replays each contract's path to its current state", () => {
    const contracts = all<{ id: number; codigo: string; estado: string; motivo_rechazo: string | null; fecha_alta: string; fecha_activacion: string | null; fecha_baja: string | null }>(
      'SELECT id, codigo, estado, motivo_rechazo, fecha_alta, fecha_activacion, fecha_baja FROM contratos',
    )
    const history = db.prepare('SELECT fecha, accion, estado_anterior, estado_nuevo FROM contrato_historial WHERE contrato_id = ? ORDER BY fecha, id')
    const allowed: Record<string, string[]> = {
      borrador: ['pendiente_firma', 'anulado'],
      pendiente_firma: ['firmado', 'anulado'],
      firmado: ['enviado_distribuidora', 'desistido'],
      enviado_distribuidora: ['aceptado', 'rechazado', 'desistido'],
      aceptado: ['activo'],
      activo: ['baja', 'modificacion_en_curso'],
    }
    for (const c of contracts) {
      const h = history.all(c.id) as { fecha: string; accion: string; estado_anterior: string | null; estado_nuevo: string | null }[]
      expect(h[0]!.accion, c.codigo).toBe('alta')
      expect(h[0]!.fecha.slice(0, 10)).toBe(c.fecha_alta)
      let state: string | null = null
      for (const e of h) {
        if (e.estado_nuevo === null) continue
        expect(e.estado_anterior, c.codigo).toBe(state)
        if (state !== null) expect(allowed[state], `${c.codigo}: ${state} → ${e.estado_nuevo}`).toContain(e.estado_nuevo)
        state = e.estado_nuevo
      }
      expect(state, c.codigo).toBe(c.estado)
      expect(h.every((e) => e.fecha <= '2026-11-01T23:59:59Z')).toBe(true)
      if (c.estado === 'rechazado') expect(c.motivo_rechazo, c.codigo).toBeTruthy()
      else expect(c.motivo_rechazo).toBeNull()
      if (['activo', 'baja', 'modificacion_en_curso'].includes(c.estado)) {
        const accepted = h.find((e) => e.accion === 'aceptacion')!.fecha.slice(0, 10)
        const days = (Date.parse(c.fecha_activacion!) - Date.parse(accepted)) / 86_400_000
        expect(days >= 15 && days <= 30, `${c.codigo}: ${days}`).toBe(true)
      } else expect(c.fecha_activacion).toBeNull()
      if (c.estado === 'baja') expect(c.fecha_baja! > c.fecha_activacion!).toBe(true)
      else expect(c.fecha_baja).toBeNull()
    }
  })

  it('invoices cover the months of supply, with amounts that add up and recent ones pending', () => {
    const bad = one<{ n: number }>(
      `SELECT COUNT(*) AS n FROM facturas f JOIN contratos c ON c.id = f.contrato_id
       WHERE c.fecha_activacion IS NULL OR f.periodo_desde < c.fecha_activacion OR (c.fecha_baja IS NOT NULL AND f.periodo_hasta > c.fecha_baja)
          OR abs(f.total - f.base_imponible - f.iva) > 0.011
          OR abs(f.base_imponible - (f.termino_energia + f.termino_potencia + f.impuesto_electrico + f.alquiler_contador)) > 0.011
          OR abs(f.iva - f.base_imponible * json_extract(f.detalle, '$.Iva.Tipo')) > 0.011
          OR f.impuesto_electrico < (f.termino_energia + f.termino_potencia) * json_extract(f.detalle, '$.ImpuestoElectrico.Tipo') - 0.011
          -- The electricity tax of each month: 0.5 % to 2023, 2.5 % and 3.8 % in the first two quarters of 2024, then 5.11269632 %.
          OR json_extract(f.detalle, '$.ImpuestoElectrico.Tipo') <> (CASE WHEN f.periodo_desde < '2024-01-01' THEN 0.005 WHEN f.periodo_desde < '2024-04-01' THEN 0.025
                                                                        WHEN f.periodo_desde < '2024-07-01' THEN 0.038 ELSE 0.0511269632 END)
          -- VAT 21 %, or the reduced 5 % (2023) and 10 % (2024) of supplies up to 10 kW; 21 % for all since 2025.
          OR json_extract(f.detalle, '$.Iva.Tipo') NOT IN (0.21, CASE WHEN f.periodo_desde < '2024-01-01' THEN 0.05 WHEN f.periodo_desde < '2025-01-01' THEN 0.1 ELSE 0.21 END)`,
    ).n
    expect(bad).toBe(0)
    const states = new Map(all<{ estado_pago: string; n: number }>('SELECT estado_pago, COUNT(*) AS n FROM facturas GROUP BY estado_pago').map((r) => [r.estado_pago, r.n]))
    const total = [...states.values()].reduce((a, b) => a + b, 0)
    expect(states.get('pagada')! / total).toBeGreaterThan(0.8)
    for (const s of ['pendiente', 'devuelta', 'impagada']) expect(states.get(s) ?? 0, s).toBeGreaterThan(0)
    expect(one<{ n: number }>("SELECT COUNT(*) AS n FROM facturas WHERE estado_pago = 'pendiente' AND fecha_vencimiento < '2026-11-01'").n).toBe(0)
    // Monthly and seasonal: a household uses more in January than in May.
    const season = one<{ jan: number; may: number }>(
      `SELECT AVG(CASE WHEN substr(f.periodo_desde, 6, 2) = '01' THEN f.consumo_kwh END) AS jan, AVG(CASE WHEN substr(f.periodo_desde, 6, 2) = '05' THEN f.consumo_kwh END) AS may
       FROM facturas f JOIN contratos c ON c.id = f.contrato_id WHERE c.cnae = '9820' AND f.periodo_desde LIKE '%-01'`,
    )
    expect(season.jan).toBeGreaterThan(season.may * 1.2)
  })

  it('renewal dates are anniversaries of the activation, and the contract points at them', () => {
    const rows = all<{ fecha_renovacion: string; fecha_activacion: string; fecha_proxima_renovacion: string; subestado_id: number }>(
      'SELECT r.fecha_renovacion, c.fecha_activacion, c.fecha_proxima_renovacion, r.subestado_id FROM renovaciones r JOIN contratos c ON c.id = r.contrato_id',
    )
    for (const r of rows) {
      expect(r.fecha_renovacion.slice(5)).toBe(r.fecha_activacion.slice(5).replace('02-29', '02-28'))
      const next = r.subestado_id === 4 ? `${Number(r.fecha_renovacion.slice(0, 4)) + 1}${r.fecha_renovacion.slice(4)}` : r.fecha_renovacion
      expect(r.fecha_proxima_renovacion).toBe(next)
    }
  })
})

describe('determinism', () => {
  it('seeding again on the same day gives the same business rows', async () => {
    const fresh = openReferenceDb(':memory:')
    try {
      await seedIfEmpty(fresh, { brandsDir: path.resolve('brands'), today: new Date('2026-11-01T10:00:00Z') })
      const digest = (d: Database.Database) =>
        d
          .prepare(
            `SELECT (SELECT group_concat(codigo || estado || cliente_id || fecha_alta, ',') FROM (SELECT * FROM contratos ORDER BY id)) AS c,
                    (SELECT group_concat(numero || total, ',') FROM (SELECT * FROM facturas ORDER BY id)) AS f,
                    (SELECT group_concat(nif || iban, ',') FROM (SELECT * FROM clientes ORDER BY id)) AS cl`,
          )
          .get()
      expect(digest(fresh)).toEqual(digest(db))
    } finally {
      fresh.close()
    }
  }, SEED_AGAIN_TIMEOUT_MS)
})
