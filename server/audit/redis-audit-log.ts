import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, luaScript, openRedis, runScript, storeCall, type StoreLog } from '../lib/redis-client'
import { dedupeKey, matches, type AuditEntry, type AuditFilter, type AuditLog, type AuditPage, type NewAuditEntry } from './audit-log'

const PREFIX = 'portal:audit'
const LOG_KEY = `${PREFIX}:log`
/** A record's own stream (by its id, lower-cased): its timeline without scanning the whole log. */
const recordKey = (id: string) => `${PREFIX}:record:${id.toLowerCase()}`
const seenKey = (key: string) => `${PREFIX}:seen:${key}`

/** A retried append (the client resends a command lost with its connection) is recognised this long. */
const SEEN_MS = 24 * 3600_000
/** Entries read per XREVRANGE. */
const BATCH = 500
/** Entries a query looks at, at most (newest first, within its dates): the bound of filtering in the BFF. */
const SCAN_LIMIT = 20_000
/** Stream ids are Redis's clock, `at` the BFF's: dates are widened by this much, then applied exactly. */
const CLOCK_MARGIN_MS = 5 * 60_000

/**
 * Appends once: an entry whose mark is set is dropped, else it is written and marked, in one
 * step. The entry goes to the log (under the id asked for, or the next one when that is not
 * after the newest) and, under the same id, to its record's stream; both drop what the retention
 * setting no longer keeps (MINID), and a record's stream expires when nothing touched it for as
 * long.
 */
const APPEND = luaScript(`
if redis.call('EXISTS', KEYS[2]) == 1 then return false end
local id = redis.pcall('XADD', KEYS[1], 'MINID', ARGV[1], ARGV[5], 'e', ARGV[2])
if type(id) == 'table' and id.err then id = redis.call('XADD', KEYS[1], 'MINID', ARGV[1], '*', 'e', ARGV[2]) end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
if KEYS[3] then
  redis.call('XADD', KEYS[3], 'MINID', ARGV[1], id, 'e', ARGV[2])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return id`)

export interface RedisAuditLogOptions {
  retentionMs: number
  /** Entries a query looks at, at most (SCAN_LIMIT). */
  scanLimit?: number
  now?: () => number
  log?: StoreLog
}

/**
 * The shared audit log: Redis streams (XADD with retention by MINID), read newest first with
 * XREVRANGE and filtered in the BFF. A read looks at no more than SCAN_LIMIT entries of its
 * date range (or of the record's own stream) and says so when it stopped there.
 */
export class RedisAuditLog implements AuditLog {
  private readonly now: () => number

  private constructor(
    private readonly redis: Redis,
    private readonly opts: RedisAuditLogOptions,
  ) {
    this.now = opts.now ?? Date.now
  }

  static async open(url: string, opts: RedisAuditLogOptions): Promise<RedisAuditLog> {
    const redis = openRedis(url, 'audit', opts.log)
    if (!(await firstConnection(redis))) opts.log?.warn({ event: 'store_unavailable', store: 'auditLog' }, 'audit log not reachable at start; entries fail (logged) until it is')
    return new RedisAuditLog(redis, opts)
  }

  async append(entry: NewAuditEntry): Promise<void> {
    await this.call(() => this.appendAs(entry, '*'))
  }

  /**
   * Entries of an older trail, oldest first, filed at the time they happened when the log has
   * nothing newer yet (so date ranges find them), else now.
   */
  async import(entries: NewAuditEntry[]): Promise<void> {
    for (const entry of entries) {
      await this.call(() => this.appendAs(entry, `${Date.parse(entry.at)}-*`))
    }
  }

  private appendAs(entry: NewAuditEntry, id: string): Promise<unknown> {
    const keys = [LOG_KEY, seenKey(dedupeKey(entry)), ...(entry.record ? [recordKey(entry.record.id)] : [])]
    const oldest = Math.max(0, this.now() - this.opts.retentionMs)
    return runScript(this.redis, APPEND, keys, [oldest, JSON.stringify(entry), SEEN_MS, this.opts.retentionMs, id])
  }

  async query(filter: AuditFilter, page: { offset: number; limit: number }): Promise<AuditPage> {
    const items: AuditEntry[] = []
    let total = 0
    const scan = this.scan(filter)
    for await (const entry of scan.entries) {
      if (total >= page.offset && items.length < page.limit) items.push(entry)
      total++
    }
    const next = scan.stoppedAt()
    return { items, total, partial: next !== undefined, ...(next !== undefined ? { next } : {}) }
  }

  async *entries(filter: AuditFilter, max: number): AsyncIterable<AuditEntry> {
    let given = 0
    for await (const entry of this.scan(filter).entries) {
      if (given++ >= max) return
      yield entry
    }
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping())
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  /**
   * The entries a filter keeps, newest first, from the record's stream when it names one, within
   * the scan bound; `stoppedAt` is the oldest id looked at when older entries were left unread.
   */
  private scan(filter: AuditFilter): { entries: AsyncIterable<AuditEntry>; stoppedAt: () => string | undefined } {
    const key = filter.record ? recordKey(filter.record.id) : LOG_KEY
    let end = filter.until !== undefined ? String(filter.until + CLOCK_MARGIN_MS) : '+'
    // A cursor is exact (stream ids only grow): it replaces the widened date when it is the older bound.
    if (filter.before !== undefined && (end === '+' || compareIds(filter.before, `${end}-0`) <= 0)) end = `(${filter.before}`
    const start = filter.from !== undefined ? String(Math.max(0, filter.from - CLOCK_MARGIN_MS)) : '-'
    const limit = this.opts.scanLimit ?? SCAN_LIMIT
    let looked = 0
    let lastId: string | undefined
    let more = false
    const read = async function* (this: RedisAuditLog): AsyncIterable<AuditEntry> {
      while (looked < limit) {
        const count = Math.min(BATCH, limit - looked)
        const batch = await this.call(() => this.redis.xrevrange(key, end, start, 'COUNT', count))
        for (const [id, fields] of batch) {
          const entry: AuditEntry = { id, ...(JSON.parse(fields[1]!) as NewAuditEntry) }
          if (matches(entry, filter)) yield entry
        }
        looked += batch.length
        if (batch.length < count) return
        lastId = batch[batch.length - 1]![0]
        end = `(${lastId}`
      }
      // Stopped at the bound: is there anything older it did not look at?
      more = (await this.call(() => this.redis.xrevrange(key, end, start, 'COUNT', 1))).length > 0
    }
    return { entries: read.call(this), stoppedAt: () => (more ? lastId : undefined) }
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('auditLog', this.opts.log, work)
  }
}

/** Stream ids in order (`ms-seq`, numerically; ids beyond 2^53 ms do not occur). */
function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number)
  const [bm = 0, bs = 0] = b.split('-').map(Number)
  return am - bm || as - bs
}
