import { EventEmitter } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, luaScript, openRedis, runScript, storeCall, type StoreLog } from '../lib/redis-client'
import { VersionConflictError, type Author, type MenuStore, type StoredVersion } from './menu-store'

/**
 * Versions of a document are fields 1..n of one hash, so the field count is the current
 * version. The check and the write run as one script, atomic across every instance, and the
 * change is published in the same step.
 */
const SAVE = luaScript(`
if redis.call('HLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], tonumber(ARGV[1]) + 1, ARGV[2])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1`)

type StoredRecord = Omit<StoredVersion, 'doc'>

const PREFIX = 'portal:'

/** How long a start waits for the change subscription before serving anyway. */
const SUBSCRIBE_WAIT_MS = 2_000

export interface RedisMenuStoreOptions {
  now?: () => number
  log?: StoreLog
}

/**
 * The shared menu store: versions and history in Redis, and change notices over
 * Redis pub/sub, so a save on one BFF replica drops the cached menus and screens of all.
 * Notices sent while an instance is cut off are lost; its caches expire within seconds anyway.
 */
export class RedisMenuStore implements MenuStore {
  private readonly events = new EventEmitter()
  private readonly now: () => number
  private readonly log: StoreLog | undefined
  private readonly channel: string

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    opts: RedisMenuStoreOptions,
  ) {
    this.now = opts.now ?? Date.now
    this.log = opts.log
    this.channel = `${PREFIX}menu-changes`
    this.events.setMaxListeners(0)
    subscriber.on('message', (channel: string, doc: string) => {
      if (channel === this.channel) this.events.emit('change', doc)
    })
  }

  /** Connects and subscribes (waiting briefly; a Redis that is down is retried in the background). */
  static async open(url: string, opts: RedisMenuStoreOptions = {}): Promise<RedisMenuStore> {
    const redis = openRedis(url, 'menus', opts.log)
    // Subscribed again by hand on every (re)connection: a first subscribe that failed while Redis was down is not remembered by the client.
    const subscriber = openRedis(url, 'menu-changes', opts.log, { autoResubscribe: false })
    const store = new RedisMenuStore(redis, subscriber, opts)
    const subscribed = new Promise<void>((resolve) => {
      const subscribe = () =>
        subscriber.subscribe(store.channel).then(
          () => resolve(),
          () => undefined,
        )
      subscriber.on('ready', subscribe)
      if (subscriber.status === 'ready') void subscribe()
    })
    const [commands, changes] = await Promise.all([firstConnection(redis), firstConnection(subscriber)])
    const inTime = commands && changes && (await Promise.race([subscribed.then(() => true), delay(SUBSCRIBE_WAIT_MS, false, { ref: false })]))
    if (!inTime) opts.log?.warn({ event: 'store_unavailable', store: 'menuStore' }, 'menu store not reachable at start; serving 503 until it is')
    return store
  }

  private key(doc: string): string {
    return `${PREFIX}menu-versions:${doc}`
  }

  async current<T>(doc: string): Promise<StoredVersion<T> | null> {
    const top = await this.call(() => this.redis.hlen(this.key(doc)))
    return top === 0 ? null : this.get<T>(doc, top)
  }

  async get<T>(doc: string, version: number): Promise<StoredVersion<T> | null> {
    const raw = await this.call(() => this.redis.hget(this.key(doc), String(version)))
    return raw ? toVersion<T>(doc, raw) : null
  }

  async history<T>(doc: string, limit = 100): Promise<StoredVersion<T>[]> {
    const top = await this.call(() => this.redis.hlen(this.key(doc)))
    const versions: string[] = []
    for (let v = top; v >= 1 && versions.length < limit; v--) versions.push(String(v))
    if (versions.length === 0) return []
    const raws = await this.call(() => this.redis.hmget(this.key(doc), ...versions))
    return raws.filter((r): r is string => r !== null).map((r) => toVersion<T>(doc, r))
  }

  async save<T>(doc: string, expectedVersion: number, body: T, author: Author, kind: StoredVersion['kind'] = 'edit', restoredFrom: number | null = null): Promise<StoredVersion<T>> {
    const record: StoredRecord = { version: expectedVersion + 1, body, author, createdAt: this.now(), kind, restoredFrom }
    const raw = JSON.stringify(record)
    const saved = await this.call(() => runScript(this.redis, SAVE, [this.key(doc)], [expectedVersion, raw, this.channel, doc]))
    if (Number(saved) !== 1) throw new VersionConflictError(await this.current(doc))
    return toVersion<T>(doc, raw)
  }

  subscribe(listener: (doc: string) => void): () => void {
    this.events.on('change', listener)
    return () => this.events.off('change', listener)
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping())
  }

  async close(): Promise<void> {
    this.events.removeAllListeners()
    await Promise.all([closeRedis(this.subscriber), closeRedis(this.redis)])
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('menuStore', this.log, work)
  }
}

function toVersion<T>(doc: string, raw: string): StoredVersion<T> {
  const record = JSON.parse(raw) as StoredRecord
  return {
    doc,
    version: record.version,
    body: record.body as T,
    author: record.author,
    createdAt: record.createdAt,
    kind: record.kind,
    restoredFrom: record.restoredFrom,
  }
}
