import { randomBytes } from 'node:crypto'
import type { LiveEvent, Viewer } from '../../schemas/events'
import type { RecordRef } from '../../schemas/catalogue/records'
import type { StoreLog } from '../lib/redis-client'
import type { BusMessage, EventBus } from './event-bus'
import type { PresenceEntry, PresenceStore } from './presence-store'

/** One open `GET /bff/events` stream of this replica (one browser tab). */
export interface LiveConnection {
  readonly id: string
  readonly userId: number
  readonly brand: string
  readonly permissions: ReadonlySet<string>
  /**
   * The upstream narrows what this user sees to part of the brand (an agent: its own
   * hierarchy), which the BFF cannot tell per record: its change events name the kind of
   * record only, so it refreshes its lists without learning which record of others changed.
   */
  readonly scoped: boolean
  send(event: LiveEvent): void
  /** Ends the stream (the BFF is closing: a stream never ends on its own). */
  end(reason: string): void
}

export interface EventHubOptions {
  bus: EventBus
  presence: PresenceStore
  log: StoreLog
  /** Streams one user may hold open on this replica. */
  maxPerUser: number
  /** A tab not marked again within this is no longer viewing. */
  presenceTtlMs: number
  /** How often this replica rechecks who views what its tabs view (expiries). */
  sweepMs: number
}

/** A new connection id: 128 random bits, URL-safe. */
export const newConnectionId = () => randomBytes(16).toString('base64url')

const recordKey = (brand: string, r: RecordRef) => `${brand}:${r.entity}:${r.id}`

/**
 * This replica's open streams, and what each hears. Every message comes from the bus (a
 * replica hears its own), so one path serves one BFF and many. Changes go to the streams of the
 * record's brand whose user holds the permission to read such records; presence goes to the
 * tabs viewing that record, naming the others (never the user themselves).
 */
export class EventHub {
  private readonly connections = new Map<string, LiveConnection>()
  /** Per local connection: the records it views, and the viewer list it was last told. */
  private readonly watching = new Map<string, Map<string, { ref: RecordRef; told: string }>>()
  private readonly unsubscribe: () => void
  private readonly sweeper: NodeJS.Timeout

  constructor(private readonly opts: EventHubOptions) {
    this.unsubscribe = opts.bus.subscribe((m) => void this.heard(m))
    this.sweeper = setInterval(() => void this.sweep(), opts.sweepMs)
    this.sweeper.unref()
  }

  /** Whether this user may open one more stream here. */
  admits(userId: number): boolean {
    let open = 0
    for (const c of this.connections.values()) if (c.userId === userId) open++
    return open < this.opts.maxPerUser
  }

  add(connection: LiveConnection): void {
    this.connections.set(connection.id, connection)
    this.watching.set(connection.id, new Map())
  }

  /** A stream closed: its tab stops viewing everything it viewed. */
  async remove(connection: LiveConnection): Promise<void> {
    const watched = this.watching.get(connection.id)
    this.connections.delete(connection.id)
    this.watching.delete(connection.id)
    for (const { ref } of watched?.values() ?? []) await this.leave(connection.brand, ref, connection.id, connection.userId)
  }

  get size(): number {
    return this.connections.size
  }

  /** A tab says it views a record (first time or again): marked, and the others told when it is new. Answers who else views it. */
  async join(brand: string, ref: RecordRef, entry: PresenceEntry): Promise<Viewer[]> {
    const key = recordKey(brand, ref)
    const isNew = await this.opts.presence.touch(key, entry, this.opts.presenceTtlMs)
    if (isNew) await this.opts.bus.publish({ kind: 'presence', brand, ...ref, connection: entry.connection, userId: entry.userId, joined: true })
    return othersOf(await this.opts.presence.viewers(key), entry.userId)
  }

  /** A tab left a record (its screen closed, its stream ended); only its own user's tab is taken off. */
  async leave(brand: string, ref: RecordRef, connection: string, userId: number): Promise<void> {
    const key = recordKey(brand, ref)
    try {
      const mark = (await this.opts.presence.viewers(key)).find((v) => v.connection === connection)
      if (mark?.userId !== userId) return
      if (await this.opts.presence.leave(key, connection)) await this.opts.bus.publish({ kind: 'presence', brand, ...ref, connection, userId, joined: false })
    } catch (err) {
      // Its entry expires on its own.
      this.opts.log.warn({ event: 'presence_leave_failed', err: { message: (err as Error).message } }, 'presence not cleared; it expires')
    }
  }

  /** A change landed: every replica tells its streams that may hear of it. */
  async changed(message: Extract<BusMessage, { kind: 'change' }>): Promise<void> {
    await this.opts.bus.publish(message)
  }

  /** Ends every stream (the BFF is closing). */
  close(): void {
    clearInterval(this.sweeper)
    this.unsubscribe()
    for (const c of [...this.connections.values()]) c.end('shutdown')
  }

  private async heard(m: BusMessage): Promise<void> {
    if (m.kind === 'change') {
      for (const c of this.connections.values()) {
        if (c.brand !== m.brand || (m.permission && !c.permissions.has(m.permission))) continue
        c.send({ type: 'change', entity: m.entity, ...(m.id !== undefined && !c.scoped ? { id: m.id } : {}), call: m.call })
      }
      return
    }
    const ref = { entity: m.entity, id: m.id }
    const key = recordKey(m.brand, ref)
    // The tab that joined or left, when it is one of ours (and its user's: a connection id is no credential).
    const own = this.connections.get(m.connection)
    if (own && own.userId === m.userId && own.brand === m.brand) {
      if (m.joined) this.watching.get(own.id)?.set(key, { ref, told: '' })
      else this.watching.get(own.id)?.delete(key)
    }
    await this.tell(key, ref, true)
  }

  /** Tells the local tabs viewing `key` who else does; `always` false: only when it changed since they were last told. */
  private async tell(key: string, ref: RecordRef, always: boolean): Promise<void> {
    const watchers = [...this.watching].filter(([, w]) => w.has(key))
    if (watchers.length === 0) return
    let viewers: PresenceEntry[]
    try {
      viewers = await this.opts.presence.viewers(key)
    } catch {
      return
    }
    for (const [id, watched] of watchers) {
      const c = this.connections.get(id)
      const w = watched.get(key)
      if (!c || !w) continue
      // Its own mark expired (the tab stopped saying so): it no longer views the record.
      if (!viewers.some((v) => v.connection === id)) {
        watched.delete(key)
        continue
      }
      const others = othersOf(viewers, c.userId)
      const told = JSON.stringify(others)
      if (!always && told === w.told) continue
      w.told = told
      c.send({ type: 'presence', ...ref, viewers: others })
    }
  }

  /** Expiries make no message: each replica rechecks the records its tabs view. */
  private async sweep(): Promise<void> {
    const keys = new Map<string, RecordRef>()
    for (const watched of this.watching.values()) for (const [key, w] of watched) keys.set(key, w.ref)
    for (const [key, ref] of keys) await this.tell(key, ref, false)
  }
}

/** The people viewing, but the user themselves; each once, by name. */
function othersOf(viewers: PresenceEntry[], userId: number): Viewer[] {
  const names = new Map<number, string>()
  for (const v of viewers) if (v.userId !== userId) names.set(v.userId, v.name)
  return [...names.values()].sort((a, b) => a.localeCompare(b, 'es')).map((name) => ({ name }))
}
