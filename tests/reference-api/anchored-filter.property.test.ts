import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filterSql } from '../../server/reference-api/lib/paging'
import { CONTRACT_COLUMNS, CONTRACT_FROM } from '../../server/reference-api/routes/business/contracts'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * The contract list's «contains» filter on codes and CUPS becomes an index range when the query
 * can only match at the start of a value (paging.ts, `anchored`): for any query, the range finds
 * exactly the rows `LIKE '%query%'` finds.
 */

let api: RunningReferenceApi
let codes: string[]
let cups: string[]

beforeAll(async () => {
  api = await startReferenceApi()
  codes = api.db.prepare('SELECT codigo FROM contratos').pluck().all() as string[]
  cups = api.db.prepare('SELECT cups FROM puntos_suministro').pluck().all() as string[]
})
afterAll(async () => api?.close())

function ids(where: string, params: unknown[]): number[] {
  return api.db.prepare(`SELECT c.id ${CONTRACT_FROM} WHERE ${where} ORDER BY c.id`).pluck().all(...params) as number[]
}

const contains = (sql: string, q: string) => ids(`${sql} LIKE '%' || unaccent(?) || '%' ESCAPE '\\'`, [q.replace(/[\\%_]/g, (c) => `\\${c}`)])

/** Starts of real values, then maybe changed: case, a character replaced or added, a `%` or `_`. */
const query = (values: () => string[]) =>
  fc
    .tuple(fc.nat(), fc.integer({ min: 1, max: 24 }), fc.constantFrom('keep', 'lower', 'replace', 'append'), fc.constantFrom('0', '9', 'A', 'Z', '-', '%', '_', 'ñ'), fc.nat())
    .map(([i, len, change, ch, at]) => {
      const all = values()
      let q = all[i % all.length]!.slice(0, len)
      if (change === 'lower') q = q.toLowerCase()
      if (change === 'replace' && q.length > 0) q = q.slice(0, at % q.length) + ch + q.slice((at % q.length) + 1)
      if (change === 'append') q += ch
      return q
    })

describe('anchored code filters', () => {
  it.each([
    ['CodigoContrato', 'c.codigo', () => codes],
    ['Cups', 'ps.cups', () => cups],
  ] as const)('%s: the index range finds exactly what «contains» finds', (column, sql, values) => {
    let ranged = 0
    fc.assert(
      fc.property(query(values), (q) => {
        const f = filterSql(CONTRACT_COLUMNS, [{ column, query: q }])
        if (f.clauses[0]!.includes('>=')) ranged++
        expect(ids(f.clauses.join(' AND '), f.params), q).toEqual(contains(sql, q))
      }),
      { numRuns: 300 },
    )
    // The property is about the range: most generated queries must take it.
    expect(ranged).toBeGreaterThan(100)
  })
})
