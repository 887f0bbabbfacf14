import { createHash } from 'node:crypto'
import { Redis, ReplyError, type ChainableCommander, type RedisOptions } from 'ioredis'
import { StoreUnavailableError, type StoreName } from './store-errors'

/** Where a store reports its connection (pino's logger fits). */
export interface StoreLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

/** Short, so a lost Redis turns into a quick 503 instead of requests piling up behind it. */
const CONNECT_TIMEOUT_MS = 2_000
const COMMAND_TIMEOUT_MS = 2_000
/** Reconnect soon and for ever: service resumes on its own when Redis is back. */
const MAX_RECONNECT_DELAY_MS = 1_000

/** The Redis address without credentials, for logs. */
export function redisTarget(url: string): string {
  const u = new URL(url)
  return `${u.protocol}//${u.hostname}:${u.port || '6379'}${u.pathname === '/' ? '' : u.pathname}`
}

/**
 * A Redis connection for a store. While it is down, commands fail at once (no offline queue)
 * and it keeps reconnecting in the background; going down and coming back are logged once each.
 */
export function openRedis(url: string, name: string, log?: StoreLog, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    connectionName: `portal-${name}`,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (times) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    ...extra,
  })
  const where = redisTarget(url)
  let down = false
  const markDown = (err?: Error) => {
    if (down) return
    down = true
    log?.warn({ event: 'redis_down', redis: where, connection: name, err: err && { message: err.message, code: (err as { code?: string }).code } }, 'Redis is not answering; reconnecting')
  }
  client.on('error', (err: Error) => markDown(err))
  client.on('reconnecting', () => markDown())
  client.on('ready', () => {
    if (!down) return
    down = false
    log?.info({ event: 'redis_up', redis: where, connection: name }, 'Redis is answering again')
  })
  return client
}

/** Resolves true once connected, false on the first failure or after the connect timeout (it keeps retrying). */
export function firstConnection(client: Redis): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer)
      client.off('ready', onReady)
      client.off('error', onFailure)
      client.off('reconnecting', onFailure)
      resolve(ok)
    }
    const onReady = () => done(true)
    const onFailure = () => done(false)
    const timer = setTimeout(onFailure, CONNECT_TIMEOUT_MS)
    client.on('ready', onReady)
    client.on('error', onFailure)
    client.on('reconnecting', onFailure)
  })
}

export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    const quit = await client.quit().then(
      () => true,
      () => false,
    )
    if (quit) return
  }
  client.disconnect()
}

/**
 * Runs store work against Redis; any Redis failure becomes a StoreUnavailableError (a 503).
 * A reply error is Redis refusing a command (memory, permissions, a bug), not a lost
 * connection, so it also gets an error line of its own.
 */
export async function storeCall<T>(store: StoreName, log: StoreLog | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof ReplyError) log?.error({ event: 'redis_command_failed', store, err: { message: (err as Error).message } }, 'Redis refused a command')
    throw new StoreUnavailableError(store, err)
  }
}

/** A MULTI/EXEC whose every reply is checked. */
export async function execAll(multi: ChainableCommander): Promise<unknown[]> {
  const results = await multi.exec()
  if (!results) throw new Error('Redis transaction aborted')
  for (const [err] of results) if (err) throw err
  return results.map(([, value]) => value)
}

export interface LuaScript {
  lua: string
  sha: string
}

export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') }
}

/** Runs a Lua script by its hash, sending the source only when Redis does not know it (first use, after a restart). */
export async function runScript(client: Redis, script: LuaScript, keys: string[], args: (string | number)[] = []): Promise<unknown> {
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args)
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err
    return client.eval(script.lua, keys.length, ...keys, ...args)
  }
}
