import type { Redis } from 'ioredis'
import { closeRedis, execAll, openRedis, storeCall, type StoreLog } from '../lib/redis-client'
import type { PresenceEntry, PresenceStore } from './presence-store'

const PREFIX = 'portal:presence:'

/**
 * Presence shared by every replica: one hash per record, a field per tab holding its user, name
 * and expiry. The hash itself expires after its last tab would, so a record nobody views leaves
 * nothing behind.
 */
export class RedisPresenceStore implements PresenceStore {
  private constructor(
    private readonly redis: Redis,
    private readonly log: StoreLog | undefined,
    private readonly now: () => number,
  ) {}

  static open(url: string, opts: { log?: StoreLog; now?: () => number } = {}): RedisPresenceStore {
    return new RedisPresenceStore(openRedis(url, 'presence', opts.log), opts.log, opts.now ?? Date.now)
  }

  async touch(key: string, entry: PresenceEntry, ttlMs: number): Promise<boolean> {
    const value = JSON.stringify({ userId: entry.userId, name: entry.name, until: this.now() + ttlMs })
    const [added] = await this.call(() => execAll(this.redis.multi().hset(PREFIX + key, entry.connection, value).pexpire(PREFIX + key, ttlMs * 2)))
    // A field that was there but expired counts as new: the tab was gone for the others.
    return Number(added) === 1
  }

  async leave(key: string, connection: string): Promise<boolean> {
    return Number(await this.call(() => this.redis.hdel(PREFIX + key, connection))) === 1
  }

  async viewers(key: string): Promise<PresenceEntry[]> {
    const all = await this.call(() => this.redis.hgetall(PREFIX + key))
    const now = this.now()
    const live: PresenceEntry[] = []
    const expired: string[] = []
    for (const [connection, raw] of Object.entries(all)) {
      try {
        const v = JSON.parse(raw) as { userId: number; name: string; until: number }
        if (v.until > now) live.push({ connection, userId: v.userId, name: v.name })
        else expired.push(connection)
      } catch {
        expired.push(connection)
      }
    }
    if (expired.length > 0) await this.call(() => this.redis.hdel(PREFIX + key, ...expired))
    return live
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('presenceStore', this.log, work)
  }
}
