import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, luaScript, openRedis, runScript, storeCall, type StoreLog } from '../lib/redis-client'
import { nameKey, VIEW_LIMITS, type View, type ViewStore, type ViewWriteResult } from './view-store'

/*
 * Keys (prefix `portal:views:`): `v:<id>` the view with its name key, `t:<brand>:<screen>:<table>`
 * the set of a table's view ids, `n:<brand>:<owner>:<screen>:<table>` the owner's names on that
 * table (name key → id), `o:<brand>:<owner>` the set of the owner's view ids in the brand.
 * Every write checks and changes them in one script, atomic across replicas.
 */

const CREATE = luaScript(`
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return 'name-taken' end
if redis.call('HLEN', KEYS[3]) >= tonumber(ARGV[4]) then return 'table-full' end
if redis.call('SCARD', KEYS[4]) >= tonumber(ARGV[5]) then return 'owner-full' end
redis.call('SET', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[1])
return 'ok'`)

const REPLACE = luaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 'missing' end
local stored = cjson.decode(raw)
if stored.view.version ~= tonumber(ARGV[1]) then return 'stale' end
local taken = redis.call('HGET', KEYS[2], ARGV[2])
if taken and taken ~= ARGV[4] then return 'name-taken' end
redis.call('HDEL', KEYS[2], stored.nameKey)
redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
redis.call('SET', KEYS[1], ARGV[3])
return 'ok'`)

const REMOVE = luaScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 'missing' end
local stored = cjson.decode(raw)
if ARGV[2] ~= '' and stored.view.version ~= tonumber(ARGV[2]) then return 'stale' end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], stored.nameKey)
redis.call('SREM', KEYS[4], ARGV[1])
return 'ok'`)

interface Stored {
  nameKey: string
  view: View
}

const PREFIX = 'portal:views:'

/** The shared view store (REDIS_URL). */
export class RedisViewStore implements ViewStore {
  private constructor(
    private readonly redis: Redis,
    private readonly log: StoreLog | undefined,
  ) {}

  static async open(url: string, opts: { log?: StoreLog } = {}): Promise<RedisViewStore> {
    const client = openRedis(url, 'views', opts.log)
    if (!(await firstConnection(client))) opts.log?.warn({ event: 'store_unavailable', store: 'viewStore' }, 'view store not reachable at start; serving 503 until it is')
    return new RedisViewStore(client, opts.log)
  }

  private keysOf(view: Pick<View, 'id' | 'brand' | 'screen' | 'table' | 'owner'>): string[] {
    return [
      `${PREFIX}v:${view.id}`,
      `${PREFIX}t:${view.brand}:${view.screen}:${view.table}`,
      `${PREFIX}n:${view.brand}:${view.owner.id}:${view.screen}:${view.table}`,
      `${PREFIX}o:${view.brand}:${view.owner.id}`,
    ]
  }

  async listTable(brand: string, screen: string, table: string): Promise<View[]> {
    return this.call(async () => {
      const ids = await this.redis.smembers(`${PREFIX}t:${brand}:${screen}:${table}`)
      if (ids.length === 0) return []
      const raws = await this.redis.mget(...ids.map((id) => `${PREFIX}v:${id}`))
      return raws.filter((r): r is string => r !== null).map((r) => (JSON.parse(r) as Stored).view)
    })
  }

  async get(id: string): Promise<View | null> {
    const raw = await this.call(() => this.redis.get(`${PREFIX}v:${id}`))
    return raw ? (JSON.parse(raw) as Stored).view : null
  }

  async create(view: View, limits = VIEW_LIMITS): Promise<ViewWriteResult> {
    const key = nameKey(view.name)
    const stored: Stored = { nameKey: key, view }
    return (await this.call(() => runScript(this.redis, CREATE, this.keysOf(view), [view.id, key, JSON.stringify(stored), limits.perTable, limits.perOwner]))) as ViewWriteResult
  }

  async replace(next: View, expectedVersion: number): Promise<ViewWriteResult> {
    const key = nameKey(next.name)
    const stored: Stored = { nameKey: key, view: next }
    const [viewKey, , namesKey] = this.keysOf(next)
    return (await this.call(() => runScript(this.redis, REPLACE, [viewKey!, namesKey!], [expectedVersion, key, JSON.stringify(stored), next.id]))) as ViewWriteResult
  }

  async remove(id: string, expectedVersion?: number): Promise<ViewWriteResult> {
    const current = await this.get(id)
    if (!current) return 'missing'
    return (await this.call(() => runScript(this.redis, REMOVE, this.keysOf(current), [id, expectedVersion ?? '']))) as ViewWriteResult
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('viewStore', this.log, work)
  }
}
