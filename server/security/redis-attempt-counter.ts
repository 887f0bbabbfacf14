import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, luaScript, openRedis, runScript, storeCall, type StoreLog } from '../lib/redis-client'
import type { AttemptCounter, WindowCount } from './attempt-counter'

const PREFIX = 'portal:attempts:'

/** INCR and, for a new window, its expiry, in one step: replicas never race on the window's start. */
const HIT = luaScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { n, redis.call('PTTL', KEYS[1]) }
`)

/** Lengthens the window to at least ARGV[1] ms, keeping the count (1 when new), in one step as HIT. */
const HOLD = luaScript(`
local ttl = redis.call('PTTL', KEYS[1])
local ms = tonumber(ARGV[1])
local n = tonumber(redis.call('GET', KEYS[1]) or '1')
if ttl < ms then
  redis.call('SET', KEYS[1], n, 'PX', ms)
  ttl = ms
end
return { n, ttl }
`)

/** Counts shared by every replica (REDIS_URL): failed sign-ins are limited across the cluster. */
export class RedisAttemptCounter implements AttemptCounter {
  private constructor(
    private readonly client: Redis,
    private readonly log?: StoreLog,
  ) {}

  /** Waits for the first connection; if Redis is down it starts anyway and sign-in answers 503 until it is back. */
  static async open(url: string, log?: StoreLog): Promise<RedisAttemptCounter> {
    const client = openRedis(url, 'attempts', log)
    await firstConnection(client)
    return new RedisAttemptCounter(client, log)
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    return storeCall('sessionStore', this.log, async () => {
      const [count, ttl] = (await runScript(this.client, HIT, [PREFIX + key], [windowMs])) as [number, number]
      return { count, resetInMs: Math.max(0, ttl) }
    })
  }

  peek(key: string): Promise<WindowCount> {
    return storeCall('sessionStore', this.log, async () => {
      const [count, ttl] = await Promise.all([this.client.get(PREFIX + key), this.client.pttl(PREFIX + key)])
      return count ? { count: Number(count), resetInMs: Math.max(0, ttl) } : { count: 0, resetInMs: 0 }
    })
  }

  hold(key: string, ms: number): Promise<WindowCount> {
    return storeCall('sessionStore', this.log, async () => {
      const [count, ttl] = (await runScript(this.client, HOLD, [PREFIX + key], [ms])) as [number, number]
      return { count, resetInMs: Math.max(0, ttl) }
    })
  }

  reset(key: string): Promise<void> {
    return storeCall('sessionStore', this.log, async () => {
      await this.client.del(PREFIX + key)
    })
  }

  async close(): Promise<void> {
    await closeRedis(this.client)
  }
}
