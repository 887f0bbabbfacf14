import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, luaScript, openRedis, runScript, storeCall, type StoreLog } from '../lib/redis-client'
import { FINAL_STATUSES, type ApprovalListFilter, type ApprovalStore, type StoredApproval } from './approval-store'

const PREFIX = 'portal:approval'
/** Every request by creation time; the list reads a window of it and filters. */
const INDEX = `${PREFIX}s`
/** Requests read per list, at most (the inbox shows pending ones, a few dozen at a time). */
const WINDOW = 2_000

/** Writes the new request only if it is still in the state the caller expects: one winner per transition, across replicas. */
const TRANSITION = luaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
if cjson.decode(raw).status ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1`)

/** Deletes a request only if it is still in a final state and was decided before ARGV[1]: a request moving meanwhile stays. */
const PRUNE = luaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then redis.call('ZREM', KEYS[2], ARGV[2]) return 0 end
local a = cjson.decode(raw)
local final = { approved = true, failed = true, rejected = true, expired = true }
if not final[a.status] then return 0 end
local decided = a.decidedAt
if type(decided) ~= 'number' then decided = a.createdAt end
if decided >= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1`)
/** Requests looked at per prune batch. */
const PRUNE_BATCH = 500

/** The shared store of held requests: one JSON string per request and a sorted set by creation time. */
export class RedisApprovalStore implements ApprovalStore {
  private constructor(
    private readonly redis: Redis,
    private readonly log: StoreLog | undefined,
  ) {}

  static async open(url: string, opts: { log?: StoreLog } = {}): Promise<RedisApprovalStore> {
    const client = openRedis(url, 'approvals', opts.log)
    if (!(await firstConnection(client))) opts.log?.warn({ event: 'store_unavailable', store: 'approvalStore' }, 'approval store not reachable at start; serving 503 until it is')
    return new RedisApprovalStore(client, opts.log)
  }

  private key(id: string): string {
    return `${PREFIX}:${id}`
  }

  async create(a: StoredApproval): Promise<void> {
    await this.call(() => this.redis.multi().set(this.key(a.id), JSON.stringify(a)).zadd(INDEX, a.createdAt, a.id).exec())
  }

  async get(id: string): Promise<StoredApproval | null> {
    const raw = await this.call(() => this.redis.get(this.key(id)))
    return raw ? (JSON.parse(raw) as StoredApproval) : null
  }

  async list(filter: ApprovalListFilter): Promise<StoredApproval[]> {
    const ids = await this.call(() => this.redis.zrevrange(INDEX, 0, WINDOW - 1))
    if (ids.length === 0) return []
    const raws = await this.call(() => this.redis.mget(...ids.map((id) => this.key(id))))
    const out: StoredApproval[] = []
    for (const raw of raws) {
      if (!raw) continue
      const a = JSON.parse(raw) as StoredApproval
      if (filter.status && !filter.status.includes(a.status)) continue
      if (filter.requesterId !== undefined && a.requester.id !== filter.requesterId) continue
      out.push(a)
      if (out.length === filter.limit) break
    }
    return out
  }

  async transition(id: string, from: StoredApproval['status'], patch: Partial<StoredApproval> & { status: StoredApproval['status'] }): Promise<StoredApproval | null> {
    const current = await this.get(id)
    if (!current || current.status !== from) return null
    const next = { ...current, ...patch }
    const done = await this.call(() => runScript(this.redis, TRANSITION, [this.key(id)], [from, JSON.stringify(next)]))
    return Number(done) === 1 ? next : null
  }

  async prune(before: number): Promise<number> {
    let pruned = 0
    let offset = 0
    // Only requests created before the cut can have been decided before it (oldest first).
    for (;;) {
      const ids = await this.call(() => this.redis.zrangebyscore(INDEX, '-inf', `(${before}`, 'LIMIT', offset, PRUNE_BATCH))
      if (ids.length === 0) break
      const raws = await this.call(() => this.redis.mget(...ids.map((id) => this.key(id))))
      let kept = 0
      for (const [i, id] of ids.entries()) {
        const raw = raws[i]
        const a = raw ? (JSON.parse(raw) as StoredApproval) : null
        if (a && (!FINAL_STATUSES.includes(a.status) || (a.decidedAt ?? a.createdAt) >= before)) {
          kept++
          continue
        }
        const gone = Number(await this.call(() => runScript(this.redis, PRUNE, [this.key(id), INDEX], [String(before), id])))
        if (gone === 1) pruned++
        // A request that moved meanwhile stays in the index; a dangling id was dropped from it.
        else if (a) kept++
      }
      offset += kept
      if (ids.length < PRUNE_BATCH) break
    }
    return pruned
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping())
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('approvalStore', this.log, work)
  }
}
