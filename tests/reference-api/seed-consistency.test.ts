import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DISTRIBUIDORAS, MUNICIPIOS_LISTA, PREFIJO_TELEFONICO, distribuidoraDeCodigoPostal } from '../../server/reference-api/data/municipios'
import { CALLES_LOCALES } from '../../server/reference-api/data/personas'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { SEED_DAY } from './business-support'

/**
 * Issue 18: the seeded data consistent end to end, over the whole seed — postcode ↔
 * municipality ↔ province ↔ phone prefix ↔ distributor, dates relative to the seed day, sign-ups
 * over three years, load profiles that differ, demand that sometimes exceeds the contracted power.
 */

let api: RunningReferenceApi
let db: Database.Database

beforeAll(async () => {
  api = await startReferenceApi()
  db = api.db
})
afterAll(async () => {
  await api?.close()
})

const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[]
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)

describe('places', () => {
  const places = () => [
    ...all<{ what: string; cp: string; municipio: string; provincia_id: number; direccion: string }>(
      "SELECT 'cliente ' || nif AS what, codigo_postal AS cp, municipio, provincia_id, direccion FROM clientes",
    ),
    ...all<{ what: string; cp: string; municipio: string; provincia_id: number; direccion: string }>(
      "SELECT 'punto ' || cups AS what, codigo_postal AS cp, municipio, provincia_id, direccion FROM puntos_suministro WHERE cups NOT LIKE 'ES0021000000000%'",
    ),
  ]

  it('every postcode is one of its municipality, and the municipality is of its province', () => {
    const rows = places()
    expect(rows.length).toBeGreaterThan(3000)
    const bad = rows.filter((r) => {
      const muni = MUNICIPIOS_LISTA.find((m) => m.nombre === r.municipio && m.provinciaId === r.provincia_id)
      return !muni || r.cp < muni.codigosPostales[0] || r.cp > muni.codigosPostales[1] || r.cp.slice(0, 2) !== String(r.provincia_id).padStart(2, '0')
    })
    expect(bad.slice(0, 5)).toEqual([])
  })

  it("a city's own streets appear only in that city", () => {
    const local = Object.entries(CALLES_LOCALES).flatMap(([city, streets]) => streets.map((s) => [city, s] as const))
    const bad = places().filter((r) => local.some(([city, street]) => r.direccion.startsWith(`${street},`) && r.municipio !== city))
    expect(bad.slice(0, 5)).toEqual([])
    // Madrid has its own streets in the data (Paseo de la Castellana…), and only Madrid.
    expect(places().some((r) => r.municipio === 'Madrid' && CALLES_LOCALES.Madrid!.some((s) => r.direccion.startsWith(s)))).toBe(true)
  })

  it("every landline has the prefix of its holder's province; mobiles start with 6 or 7", () => {
    const rows = all<{ telefono: string; provincia_id: number }>('SELECT telefono, provincia_id FROM clientes')
    for (const r of rows) {
      expect(r.telefono, r.telefono).toMatch(/^[6789]\d{8}$/)
      if (r.telefono.startsWith('9') || r.telefono.startsWith('8')) expect(r.telefono.startsWith(PREFIJO_TELEFONICO[r.provincia_id]!), `${r.telefono} in ${r.provincia_id}`).toBe(true)
    }
    expect(rows.filter((r) => r.telefono.startsWith('9')).length).toBeGreaterThan(500)
  })

  it("every supply point's distributor serves its postcode, and its CUPS carries that distributor's code", () => {
    const rows = all<{ cups: string; cp: string; municipio: string; distribuidora_codigo: string; distribuidora_nombre: string }>(
      "SELECT cups, codigo_postal AS cp, municipio, distribuidora_codigo, distribuidora_nombre FROM puntos_suministro WHERE cups NOT LIKE 'ES0021000000000%'",
    )
    const bad = rows.filter((r) => {
      const muni = MUNICIPIOS_LISTA.find((m) => m.nombre === r.municipio)!
      return (
        r.cups.slice(2, 6) !== r.distribuidora_codigo ||
        distribuidoraDeCodigoPostal(r.cp) !== r.distribuidora_codigo ||
        !muni.distribuidoras.some(([code]) => code === r.distribuidora_codigo) ||
        DISTRIBUIDORAS[r.distribuidora_codigo] !== r.distribuidora_nombre
      )
    })
    expect(bad.slice(0, 5)).toEqual([])
  })

  it('provinces served by several distributors have supply points of each: Madrid i-DE and UFD', () => {
    const madrid = all<{ d: string }>("SELECT DISTINCT distribuidora_codigo AS d FROM puntos_suministro WHERE provincia_id = 28").map((r) => r.d)
    expect(madrid.sort()).toEqual(['0021', '0022'])
    const shared = all<{ provincia_id: number }>('SELECT provincia_id FROM puntos_suministro GROUP BY provincia_id HAVING COUNT(DISTINCT distribuidora_codigo) > 1')
    expect(shared.length).toBeGreaterThanOrEqual(4)
  })
})

describe('dates relative to the seed day', () => {
  it('sign-ups spread over the last three years: each year holds a fair share, none after the seed day', () => {
    const rows = all<{ fecha_alta: string }>('SELECT fecha_alta FROM contratos')
    const yearStart = [addDays(SEED_DAY, -3 * 365), addDays(SEED_DAY, -2 * 365), addDays(SEED_DAY, -365), addDays(SEED_DAY, 1)]
    const shares = [0, 1, 2].map((i) => rows.filter((r) => r.fecha_alta >= yearStart[i]! && r.fecha_alta < yearStart[i + 1]!).length / rows.length)
    for (const s of shares) expect(s).toBeGreaterThan(0.2)
    for (const s of shares) expect(s).toBeLessThan(0.5)
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6)
  })

  it('the next renewal of a supplying contract is never in the past; a past anniversary in the window is renewed', () => {
    const past = all<{ codigo: string; next: string }>(
      "SELECT codigo, fecha_proxima_renovacion AS next FROM contratos WHERE estado IN ('activo', 'modificacion_en_curso') AND (fecha_proxima_renovacion IS NULL OR fecha_proxima_renovacion < ?)",
      SEED_DAY,
    )
    expect(past).toEqual([])
    const open = all<{ n: number }>("SELECT COUNT(*) AS n FROM renovaciones WHERE fecha_renovacion < ? AND subestado_id <> 4", SEED_DAY)
    expect(open[0]!.n).toBe(0)
  })

  it('invoices follow the supply: after activation, before the end, issued after the period and before the seed day', () => {
    const bad = all<{ numero: string }>(
      `SELECT f.numero FROM facturas f JOIN contratos c ON c.id = f.contrato_id
       WHERE f.periodo_desde < c.fecha_activacion OR (c.fecha_baja IS NOT NULL AND f.periodo_hasta > c.fecha_baja)
          OR f.fecha_emision <= f.periodo_hasta OR f.fecha_emision > ? OR f.detalle IS NULL`,
      SEED_DAY,
    )
    expect(bad).toEqual([])
  })
})

describe('consumption', () => {
  it('business load profiles differ: the share of P6 (nights and weekends) varies among 3.0TD supplies', () => {
    const shares = all<{ s: number }>(
      `SELECT json_extract(f.detalle, '$.Energia[5].Kwh') / f.consumo_kwh AS s FROM facturas f JOIN contratos c ON c.id = f.contrato_id
       WHERE c.tarifa_id IN (2, 3) AND f.periodo_desde LIKE '2025-11-%' AND f.consumo_kwh > 0`,
    ).map((r) => r.s)
    expect(shares.length).toBeGreaterThan(30)
    expect(Math.max(...shares) - Math.min(...shares)).toBeGreaterThan(0.3)
  })

  it('demand sometimes exceeds the contracted power, and 3.0TD and 6.1TD bill it; 2.0TD never does', () => {
    const excess = all<{ tarifa_id: number; n: number; total: number }>(
      `SELECT c.tarifa_id, SUM(json_extract(f.detalle, '$.ExcesosPotencia') > 0) AS n, COUNT(*) AS total FROM facturas f JOIN contratos c ON c.id = f.contrato_id GROUP BY c.tarifa_id`,
    )
    const of = (id: number) => excess.find((r) => r.tarifa_id === id)!
    expect(of(1).n).toBe(0)
    expect(of(2).n / of(2).total).toBeGreaterThan(0.02)
    expect(of(2).n / of(2).total).toBeLessThan(0.4)
    expect(of(3).n).toBeGreaterThan(0)
    // A billed excess always comes with a demand above the contracted power of that period.
    const rows = all<{ d: string }>("SELECT detalle AS d FROM facturas WHERE json_extract(detalle, '$.ExcesosPotencia') > 0 LIMIT 200")
    for (const { d } of rows) {
      const detail = JSON.parse(d) as { Excesos: { Kw: number; DemandaMaximaKw: number; Importe: number }[] }
      for (const x of detail.Excesos) expect(x.DemandaMaximaKw).toBeGreaterThan(x.Kw)
    }
  })
})
