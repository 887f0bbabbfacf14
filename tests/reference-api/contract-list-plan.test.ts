import type Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTRACT_COLUMNS } from '../../server/reference-api/routes/business/contracts'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, listQuery } from './business-support'

/**
 * The contract list's queries use indexes (migration 007, db/catalog-indexes.ts): each count
 * and page-key query `GET /api/contract` runs is captured and explained. Without statistics
 * SQLite plans the same on the demo data as on 100 000 contracts per brand, so a plan that
 * scans a table here scans it at scale (`npm run bench:data` measures the times).
 */

/** A statement's property, its methods bound to it (they are native and check their receiver). */
function bound(target: object, property: string | symbol): unknown {
  const value = Reflect.get(target, property)
  return typeof value === 'function' ? value.bind(target) : value
}

interface Captured {
  sql: string
  params: unknown[]
}

let api: RunningReferenceApi
let admin: ApiCaller
const captured: Captured[] = []

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
  // Record the list's count and key queries as the route runs them.
  const db = api.db as Database.Database & { prepare: Database.Database['prepare'] }
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    const statement = prepare(sql)
    // The count (with the summable columns' totals after it) and the page's keys.
    if (!/^SELECT (COUNT\(\*\)[ ,]|c\.id )/.test(sql)) return statement
    const record = (params: unknown[]) => captured.push({ sql, params })
    return new Proxy(statement, {
      get(target, property) {
        if (property === 'pluck' || property === 'raw') {
          return () => {
            const plucked = property === 'raw' ? target.raw() : target.pluck()
            return new Proxy(plucked, {
              get: (t, p) => (p === 'get' || p === 'all' ? (...params: unknown[]) => (record(params), t[p](...params)) : bound(t, p)),
            })
          }
        }
        return bound(target, property)
      },
    })
  }) as Database.Database['prepare']
})
afterAll(async () => {
  await api?.close()
})

/** The plan lines of the queries one list request ran. */
async function plansOf(query: Parameters<typeof listQuery>[0]): Promise<{ kind: 'count' | 'keys'; plan: string[] }[]> {
  captured.length = 0
  const res = await admin.get('/api/contract', listQuery(query))
  expect(res.status, res.text).toBe(200)
  expect(captured.length, JSON.stringify(query)).toBeGreaterThan(0)
  return captured.map(({ sql, params }) => ({
    kind: sql.startsWith('SELECT COUNT') ? 'count' : 'keys',
    plan: (api.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail),
  }))
}

const sortable = Object.entries(CONTRACT_COLUMNS)
  .filter(([, spec]) => spec.sortable !== false)
  .map(([name]) => name)
/** Sorted by the agent's rank among the brand's agents: one covering index read, then a sort (no index can hold a per-request rank). */
const SORTED_AFTER_READING = new Set(['Agente', 'AgenteCodigo'])

describe('GET /api/contract query plans', () => {
  it('the unfiltered count reads one covering index of the brand, never the table or its joins', async () => {
    const [count] = (await plansOf({})).filter((q) => q.kind === 'count')
    expect(count!.plan).toHaveLength(1)
    expect(count!.plan[0]).toMatch(/^SEARCH c USING COVERING INDEX \w+ \(marca_id=\?\)$/)
  })

  it('every sort, both ways: no table scanned, and the page read in index order (no sort of every row)', async () => {
    for (const sortColumn of sortable) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        for (const { kind, plan } of await plansOf({ sortColumn, sortOrder })) {
          const label = `${sortColumn} ${sortOrder} ${kind}: ${plan.join(' | ')}`
          for (const line of plan) expect(line, label).not.toMatch(/^SCAN /)
          if (kind === 'keys' && !SORTED_AFTER_READING.has(sortColumn)) expect(plan.join(' | '), label).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/)
        }
      }
    }
  })

  it('text, select, catalog-name, agent and date filters search indexes, never scan a table', async () => {
    const filters: [string, string][] = [
      ['Titular', 'garcia'],
      ['Cups', 'ES0021'],
      ['CodigoContrato', '2025'],
      ['Municipio', 'sevilla'],
      ['Estado', 'activo,baja'],
      ['ProvinciaId', '28'],
      ['Provincia', 'madrid'],
      ['EstadoNombre', 'firma'],
      ['Tarifa', '3.0TD'],
      ['Agente', 'ra'],
      ['FechaAlta', '2026-01-01|2026-03-31'],
      ['FechaBaja', '2025-06-01|'],
      ['ConsumoAnual', '2000|5000'],
    ]
    for (const filter of filters) {
      for (const query of [{ filters: [filter] }, { filters: [filter], sortColumn: 'Titular', sortOrder: 'desc' as const }]) {
        for (const { kind, plan } of await plansOf(query)) {
          for (const line of plan) expect(line, `${JSON.stringify(query)} ${kind}: ${plan.join(' | ')}`).not.toMatch(/^SCAN /)
        }
      }
    }
  })
})
