import type Database from 'better-sqlite3'
import type { ComposedList } from './paging'
import { listTotals } from './list-totals'

/**
 * Pages of large lists (the contracts at 100 000 rows per brand). A list row is one row of its
 * own table (`base`), joined to at most one row of each other table for more columns. Three
 * short queries instead of one long one:
 *
 * 1. the count joins only the tables its filters name (a join that never adds nor removes rows
 *    does not change a count), so an unfiltered count reads one index;
 * 2. the page's keys join only what the filters and the sort name; when the sort is on a joined
 *    table's column and the matches are many, the query walks that table's index in order
 *    (CROSS JOIN makes SQLite start there) and stops at the page, instead of sorting every
 *    match;
 * 3. the whole rows (every join, every computed column) are read for the page's keys alone.
 */
export interface KeyedTables {
  /** The list's own table: `{ table: 'contratos', alias: 'c', key: 'c.id', keyField: 'Id' }`; `key` is unique, `keyField` is the list field holding it. */
  base: { table: string; alias: string; key: string; keyField: string }
  /** Joined tables by alias, each adding at most one row per base row. */
  joins: Record<string, KeyedJoin>
}

export interface KeyedJoin {
  table: string
  /** Join condition on the base table: `cl.id = c.cliente_id`. */
  on: string
  /**
   * Every base row has exactly one match (a required foreign key). Otherwise a LEFT JOIN that
   * may find none, never walked from.
   */
  required: boolean
  /**
   * What every row of a required join meets anyway (its brand): added where the table is
   * joined, so indexes led by it serve the join's filters and sort.
   */
  scope?: { condition: string; params: unknown[] }
}

export interface KeyedPage<T> {
  items: T[]
  total: number
  /** The totals of the asked sums over every matching row, in their order. */
  sums: number[]
}

/** Aliases of `joins` named in an SQL fragment (`cl.titular` names `cl`). */
function aliasesIn(joins: Record<string, KeyedJoin>, sql: string): string[] {
  return Object.keys(joins).filter((alias) => new RegExp(`\\b${alias}\\.`).test(sql))
}

/**
 * `FROM base JOIN …` with the given aliases (in declaration order), plus the joins' scope.
 * With `lead`, that join comes first (`CROSS JOIN` keeps SQLite from reordering): a filtered
 * join, or the table whose index gives the sort order.
 */
function fromClause(keyed: KeyedTables, aliases: readonly string[], lead?: string, leadIndex?: string) {
  const { base, joins } = keyed
  const indexed = leadIndex ? ` INDEXED BY ${leadIndex}` : ''
  const parts = [lead ? `FROM ${joins[lead]!.table} ${lead}${indexed} CROSS JOIN ${base.table} ${base.alias} ON ${joins[lead]!.on}` : `FROM ${base.table} ${base.alias}`]
  const conditions: string[] = []
  const params: unknown[] = []
  for (const [alias, join] of Object.entries(joins)) {
    if (alias !== lead && !aliases.includes(alias)) continue
    if (alias !== lead) parts.push(`${join.required ? 'JOIN' : 'LEFT JOIN'} ${join.table} ${alias} ON ${join.on}`)
    if ((join.required || alias === lead) && join.scope) {
      conditions.push(join.scope.condition)
      params.push(...join.scope.params)
    }
  }
  return { sql: parts.join(' '), conditions, params }
}

function whereClause(conditions: readonly string[]): string {
  return conditions.length ? ` WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}` : ''
}

/** One page: `total` matching rows and the `items` at `offset`, read whole, in order. */
export function keyedPage<T>(db: Database.Database, select: string, keyed: KeyedTables, list: ComposedList, page: { offset: number; limit: number }, sumExprs: readonly string[] = []): KeyedPage<T> {
  const filterAliases = aliasesIn(keyed.joins, list.conditions.join(' '))
  // A filter on a joined table rejects rows without a match, so any filtered join (LEFT ones
  // too) can lead: SQLite cannot guess how few rows `LIKE '%…%'` keeps and would start from
  // the list's table, testing every row.
  const filteredJoin = filterAliases[0]
  const count = (conditions: readonly string[], params: readonly unknown[], lead?: string) => {
    const from = fromClause(keyed, aliasesIn(keyed.joins, conditions.join(' ')), lead)
    return listTotals(db, `SELECT COUNT(*) ${from.sql}${whereClause([...from.conditions, ...conditions])}`, [...from.params, ...params])[0]!
  }
  // The count and the sums in one query: a summed column's table joins too (at most one row per
  // base row, so the count stays the same).
  const countAndSums = (): [number, number[]] => {
    if (sumExprs.length === 0) return [count(list.conditions, list.params, filteredJoin), []]
    const from = fromClause(keyed, aliasesIn(keyed.joins, [...list.conditions, ...sumExprs].join(' ')), filteredJoin)
    const [n, ...sums] = listTotals(db, `SELECT ${['COUNT(*)', ...sumExprs.map((e) => `TOTAL(${e})`)].join(', ')} ${from.sql}${whereClause([...from.conditions, ...list.conditions])}`, [...from.params, ...list.params])
    return [n!, sums]
  }
  const [total, sums] = countAndSums()
  if (total === 0 || page.offset >= total) return { items: [], total, sums }

  // Walk the sort's table in order and stop at the page (the list's table, or a required join
  // sorted by its column), or take the matches first and sort them: the walk visits about
  // (offset + limit) × rows in scope / matches rows, the other the matches.
  const sortAliases = aliasesIn(keyed.joins, list.sortExpr)
  const sortJoin = sortAliases.length === 1 && keyed.joins[sortAliases[0]!]!.required ? sortAliases[0] : undefined
  const filtered = list.conditions.length > list.scopeConditions
  const inScope = filtered ? count(list.conditions.slice(0, list.scopeConditions), list.params.slice(0, list.scopeParams)) : total
  const walkSort = (page.offset + page.limit) * inScope <= total * total
  const lead = walkSort ? sortJoin : filteredJoin
  const from = fromClause(keyed, [...filterAliases, ...sortAliases], lead, walkSort && sortJoin ? list.sortIndex : undefined)
  const keys = db
    .prepare(`SELECT ${keyed.base.key} ${from.sql}${whereClause([...from.conditions, ...list.conditions])} ORDER BY ${list.orderBy} LIMIT ${page.limit} OFFSET ${page.offset}`)
    .pluck()
    .all(...from.params, ...list.params) as unknown[]
  if (keys.length === 0) return { items: [], total, sums }

  const rows = db.prepare(`${select} WHERE ${keyed.base.key} IN (${keys.map(() => '?').join(', ')})`).all(...keys) as Record<string, unknown>[]
  const byKey = new Map(rows.map((row) => [row[keyed.base.keyField], row]))
  return { items: keys.map((k) => byKey.get(k)).filter((row) => row !== undefined) as T[], total, sums }
}
