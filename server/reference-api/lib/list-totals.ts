import type Database from 'better-sqlite3'
import { UnchangedDbCache } from './unchanged-db-cache'

/** Queries kept at most: each filter value (a typed text too) and each record's own list is a key; at the bound the cache starts over. */
const CAPACITY = 500

const caches = new WeakMap<Database.Database, UnchangedDbCache<string, number[]>>()

/**
 * The first row of an aggregate query over a list (`COUNT(*)` and `TOTAL(…)`s), as numbers, kept
 * while the database is unchanged. Every page of a list asks for the same totals (its count, its
 * totals row); over 100 000 rows they cost more than the page itself, and an export reading the
 * list page by page asked for them hundreds of times.
 */
export function listTotals(db: Database.Database, sql: string, params: readonly unknown[]): number[] {
  let cache = caches.get(db)
  if (!cache) {
    cache = new UnchangedDbCache(
      db,
      (key: string) => {
        const { sql: query, params: values } = JSON.parse(key) as { sql: string; params: unknown[] }
        return db.prepare(query).raw().get(...values) as number[]
      },
      CAPACITY,
    )
    caches.set(db, cache)
  }
  // The key is read back as the query's parameters: only values JSON gives back unchanged.
  if (!params.every(isPlain)) return db.prepare(sql).raw().get(...params) as number[]
  return cache.get(JSON.stringify({ sql, params }))
}

const isPlain = (value: unknown) => value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
