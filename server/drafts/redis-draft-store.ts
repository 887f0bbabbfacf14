import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, openRedis, storeCall, type StoreLog } from '../lib/redis-client'
import { DRAFT_TTL_MS, type DraftOwner, type DraftStore, type DraftStoreOptions, type SavedDraft } from './draft-store'

const PREFIX = 'portal:'

export interface RedisDraftStoreOptions extends DraftStoreOptions {
  log?: StoreLog
}

/**
 * The shared draft store: one string per draft, `portal:draft:<user>:<brand>:<key>`, holding
 * the values and the save time, with a TTL so abandoned drafts vanish by themselves. Reads
 * still follow the injected clock, like the SQLite store. The key is validated by the routes
 * (no `:`), so names cannot collide.
 */
export class RedisDraftStore implements DraftStore {
  private readonly now: () => number
  private readonly ttlMs: number
  private readonly log: StoreLog | undefined

  constructor(
    private readonly redis: Redis,
    opts: RedisDraftStoreOptions = {},
  ) {
    this.now = opts.now ?? Date.now
    this.ttlMs = opts.ttlMs ?? DRAFT_TTL_MS
    this.log = opts.log
  }

  /** Connects (waiting briefly for the first connection; a Redis that is down is retried in the background). */
  static async open(url: string, opts: RedisDraftStoreOptions = {}): Promise<RedisDraftStore> {
    const client = openRedis(url, 'drafts', opts.log)
    if (!(await firstConnection(client))) opts.log?.warn({ event: 'store_unavailable', store: 'draftStore' }, 'draft store not reachable at start; serving 503 until it is')
    return new RedisDraftStore(client, opts)
  }

  private key(owner: DraftOwner, key: string): string {
    return `${PREFIX}draft:${owner.userId}:${owner.brand}:${key}`
  }

  async get(owner: DraftOwner, key: string): Promise<SavedDraft | null> {
    const raw = await this.call(() => this.redis.get(this.key(owner, key)))
    if (!raw) return null
    const draft = JSON.parse(raw) as SavedDraft
    if (this.now() - draft.savedAt >= this.ttlMs) {
      await this.call(() => this.redis.del(this.key(owner, key)))
      return null
    }
    return draft
  }

  async put(owner: DraftOwner, key: string, values: Record<string, unknown>): Promise<SavedDraft> {
    const draft: SavedDraft = { values, savedAt: this.now() }
    await this.call(() => this.redis.set(this.key(owner, key), JSON.stringify(draft), 'PX', this.ttlMs))
    return draft
  }

  async delete(owner: DraftOwner, key: string): Promise<void> {
    await this.call(() => this.redis.del(this.key(owner, key)))
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping())
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('draftStore', this.log, work)
  }
}
