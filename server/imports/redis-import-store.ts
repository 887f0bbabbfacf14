import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, openRedis, storeCall, type StoreLog } from '../lib/redis-client'
import { IMPORT_JOB_TTL_MS, PEEK_CHUNK, type ImportedKey, type ImportStore, type StoredJob } from './import-store'

/**
 * The shared import store: `portal:imports:job:<id>` and `…:rows:<id>` (expiring with the job),
 * and per brand and import a hash of imported rows by key and one of keys by unique value.
 */
export class RedisImportStore implements ImportStore {
  private constructor(
    private readonly redis: Redis,
    private readonly log: StoreLog | undefined,
  ) {}

  static async open(url: string, opts: { log?: StoreLog } = {}): Promise<RedisImportStore> {
    const client = openRedis(url, 'imports', opts.log)
    if (!(await firstConnection(client))) opts.log?.warn({ event: 'store_unavailable', store: 'importStore' }, 'import store not reachable at start; serving 503 until it is')
    return new RedisImportStore(client, opts.log)
  }

  private keys(brand: string, definition: string) {
    return `portal:imports:keys:${brand}:${definition}`
  }

  private uniques(brand: string, definition: string) {
    return `portal:imports:unique:${brand}:${definition}`
  }

  async saveJob(job: StoredJob): Promise<void> {
    const ttl = Math.max(1000, job.createdAt + IMPORT_JOB_TTL_MS - Date.now())
    await this.call(() => this.redis.set(`portal:imports:job:${job.id}`, JSON.stringify(job), 'PX', ttl))
  }

  async job(id: string): Promise<StoredJob | null> {
    const raw = await this.call(() => this.redis.get(`portal:imports:job:${id}`))
    return raw ? (JSON.parse(raw) as StoredJob) : null
  }

  async saveRows(id: string, sealed: string): Promise<void> {
    await this.call(() => this.redis.set(`portal:imports:rows:${id}`, sealed, 'PX', IMPORT_JOB_TTL_MS))
  }

  async rows(id: string): Promise<string | null> {
    return this.call(() => this.redis.get(`portal:imports:rows:${id}`))
  }

  async claim(brand: string, definition: string, key: string, entry: ImportedKey): Promise<ImportedKey | null> {
    const taken = await this.call(() => this.redis.hsetnx(this.keys(brand, definition), key, JSON.stringify(entry)))
    if (taken === 1) return null
    const raw = await this.call(() => this.redis.hget(this.keys(brand, definition), key))
    return raw ? (JSON.parse(raw) as ImportedKey) : null
  }

  async peekMany(brand: string, definition: string, keys: readonly string[]): Promise<Map<string, ImportedKey>> {
    const out = new Map<string, ImportedKey>()
    for (let i = 0; i < keys.length; i += PEEK_CHUNK) {
      const chunk = keys.slice(i, i + PEEK_CHUNK)
      const raws = await this.call(() => this.redis.hmget(this.keys(brand, definition), ...chunk))
      raws.forEach((raw, j) => {
        if (raw) out.set(chunk[j]!, JSON.parse(raw) as ImportedKey)
      })
    }
    return out
  }

  async settle(brand: string, definition: string, key: string, entry: ImportedKey): Promise<void> {
    const multi = this.redis.multi().hset(this.keys(brand, definition), key, JSON.stringify(entry))
    if (entry.unique && entry.record) multi.hset(this.uniques(brand, definition), entry.unique, key)
    await this.call(() => multi.exec())
  }

  async release(brand: string, definition: string, key: string): Promise<void> {
    const raw = await this.call(() => this.redis.hget(this.keys(brand, definition), key))
    const entry = raw ? (JSON.parse(raw) as ImportedKey) : null
    const multi = this.redis.multi().hdel(this.keys(brand, definition), key)
    if (entry?.unique) multi.hdel(this.uniques(brand, definition), entry.unique)
    await this.call(() => multi.exec())
  }

  async uniqueHolders(brand: string, definition: string, values: readonly string[]): Promise<Map<string, ImportedKey & { key: string }>> {
    const out = new Map<string, ImportedKey & { key: string }>()
    for (let i = 0; i < values.length; i += PEEK_CHUNK) {
      const chunk = values.slice(i, i + PEEK_CHUNK)
      const keys = await this.call(() => this.redis.hmget(this.uniques(brand, definition), ...chunk))
      const found = chunk.flatMap((value, j) => (keys[j] ? [{ value, key: keys[j]! }] : []))
      if (found.length === 0) continue
      const entries = await this.peekMany(brand, definition, found.map((f) => f.key))
      for (const f of found) {
        const entry = entries.get(f.key)
        if (entry?.record) out.set(f.value, { key: f.key, ...entry })
      }
    }
    return out
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('importStore', this.log, work)
  }
}
