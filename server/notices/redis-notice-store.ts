import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, openRedis, storeCall, type StoreLog } from '../lib/redis-client'
import { NOTICE_TTL_MS, type Notice, type NoticeStore } from './notice-store'

/** The shared notice store: one hash per user (`portal:notices:<user>`, id → notice), expiring NOTICE_TTL_MS after its last notice. */
export class RedisNoticeStore implements NoticeStore {
  private constructor(
    private readonly redis: Redis,
    private readonly log: StoreLog | undefined,
  ) {}

  static async open(url: string, opts: { log?: StoreLog } = {}): Promise<RedisNoticeStore> {
    const client = openRedis(url, 'notices', opts.log)
    if (!(await firstConnection(client))) opts.log?.warn({ event: 'store_unavailable', store: 'noticeStore' }, 'notice store not reachable at start; serving 503 until it is')
    return new RedisNoticeStore(client, opts.log)
  }

  private key(userId: number): string {
    return `portal:notices:${userId}`
  }

  async add(userId: number, notice: Notice): Promise<void> {
    await this.call(() => this.redis.multi().hset(this.key(userId), notice.id, JSON.stringify(notice)).pexpire(this.key(userId), NOTICE_TTL_MS).exec())
  }

  async pending(userId: number): Promise<Notice[]> {
    const all = await this.call(() => this.redis.hvals(this.key(userId)))
    return all.map((raw) => JSON.parse(raw) as Notice).sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
  }

  async dismiss(userId: number, ids: string[]): Promise<void> {
    await this.call(() => this.redis.hdel(this.key(userId), ...ids))
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('noticeStore', this.log, work)
  }
}
