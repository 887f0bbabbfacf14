import { EventEmitter } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'
import type { Redis } from 'ioredis'
import { closeRedis, firstConnection, openRedis, type StoreLog } from '../lib/redis-client'
import { parseBusMessage, type BusMessage, type EventBus } from './event-bus'

const CHANNEL = 'portal:events'
/** How long a start waits for the subscription before serving anyway. */
const SUBSCRIBE_WAIT_MS = 2_000

/**
 * The event bus across replicas: Redis pub/sub on one channel. A replica hears its own messages
 * back, so local delivery takes the same path as remote. Messages sent while a replica is cut off
 * are lost to it: its lists catch up on their next load, and presence on its next sweep.
 */
export class RedisEventBus implements EventBus {
  private readonly events = new EventEmitter()

  private constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly log: StoreLog | undefined,
  ) {
    this.events.setMaxListeners(0)
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== CHANNEL) return
      const message = parseBusMessage(raw)
      if (message) this.events.emit('message', message)
    })
  }

  /** Connects and subscribes (waiting briefly; a Redis that is down is retried in the background). */
  static async open(url: string, opts: { log?: StoreLog } = {}): Promise<RedisEventBus> {
    const redis = openRedis(url, 'events', opts.log)
    // Subscribed again by hand on every (re)connection, as the menu store's subscriber is.
    const subscriber = openRedis(url, 'events-sub', opts.log, { autoResubscribe: false })
    const bus = new RedisEventBus(redis, subscriber, opts.log)
    const subscribed = new Promise<void>((resolve) => {
      const subscribe = () =>
        subscriber.subscribe(CHANNEL).then(
          () => resolve(),
          () => undefined,
        )
      subscriber.on('ready', subscribe)
      if (subscriber.status === 'ready') void subscribe()
    })
    const [commands, messages] = await Promise.all([firstConnection(redis), firstConnection(subscriber)])
    const inTime = commands && messages && (await Promise.race([subscribed.then(() => true), delay(SUBSCRIBE_WAIT_MS, false, { ref: false })]))
    if (!inTime) opts.log?.warn({ event: 'store_unavailable', store: 'eventBus' }, 'event bus not reachable at start; live events resume when it is')
    return bus
  }

  async publish(message: BusMessage): Promise<void> {
    try {
      await this.redis.publish(CHANNEL, JSON.stringify(message))
    } catch (err) {
      // A lost event costs a refresh, never the change that caused it.
      this.log?.warn({ event: 'event_publish_failed', kind: message.kind, err: { message: (err as Error).message } }, 'live event not published')
    }
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.events.on('message', listener)
    return () => this.events.off('message', listener)
  }

  async close(): Promise<void> {
    this.events.removeAllListeners()
    await Promise.all([closeRedis(this.subscriber), closeRedis(this.redis)])
  }
}
