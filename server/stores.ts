import path from 'node:path'
import type { Config } from './config'
import type { StoreLog } from './lib/redis-client'
import type { MenuStore } from './manifest/menu-store'
import { MemoryAttemptCounter, type AttemptCounter } from './security/attempt-counter'
import { RedisAttemptCounter } from './security/redis-attempt-counter'
import { RedisMenuStore } from './manifest/redis-menu-store'
import { SqliteMenuStore } from './manifest/sqlite-menu-store'
import { RedisSessionStore } from './session/redis-session-store'
import type { SessionStore } from './session/session-store'
import { SqliteSessionStore } from './session/sqlite-session-store'

export interface Stores {
  sessions: SessionStore
  menus: MenuStore
  /** Failed sign-in counts (the throttle). */
  attempts: AttemptCounter
}

/**
 * The BFF's stores. Given ones (tests) are kept; otherwise REDIS_URL means Redis, shared
 * by every replica, and its absence SQLite files under DATA_DIR for a single instance.
 */
export async function openStores(config: Config, given: Partial<Stores>, log: StoreLog): Promise<Stores> {
  const timeouts = { idleMs: config.sessionIdleTimeoutMs, absoluteMs: config.sessionAbsoluteTimeoutMs }
  if (config.redisUrl) {
    const [sessions, menus, attempts] = await Promise.all([
      given.sessions ?? RedisSessionStore.open(config.redisUrl, timeouts, { log }),
      given.menus ?? RedisMenuStore.open(config.redisUrl, { log }),
      given.attempts ?? RedisAttemptCounter.open(config.redisUrl, log),
    ])
    return { sessions, menus, attempts }
  }
  return {
    sessions: given.sessions ?? new SqliteSessionStore(path.join(config.dataDir, 'bff-sessions.db'), timeouts),
    menus: given.menus ?? new SqliteMenuStore(path.join(config.dataDir, 'bff-menus.db')),
    attempts: given.attempts ?? new MemoryAttemptCounter(),
  }
}
