import { EventEmitter } from 'node:events'

/**
 * What one BFF replica tells every replica (itself included) about records: a change landed, or
 * a tab started or stopped viewing one. Replicas then tell their own connections what concerns
 * them. No personal values travel here either.
 */
export type BusMessage =
  | {
      kind: 'change'
      brand: string
      entity: string
      /** Absent when the record's key is personal data. */
      id?: string
      /** `METHOD path` of the catalogued call. */
      call: string
      /** The permission a user needs to hear of it (that of the record's read call, else of the call). */
      permission?: string
    }
  | {
      kind: 'presence'
      brand: string
      entity: string
      id: string
      /** The tab that joined or left, and its user: the replica holding that tab starts or stops watching the record for it. */
      connection: string
      userId: number
      joined: boolean
    }

/** The event bus port: in-process for a single BFF, Redis pub/sub across replicas. */
export interface EventBus {
  /** Delivers to every subscriber of every replica, this one included (at most once, none while cut off). */
  publish(message: BusMessage): Promise<void>
  subscribe(listener: (message: BusMessage) => void): () => void
  close(): Promise<void>
}

/** One BFF process: delivery is a function call, after the current tick (as a remote one would be). */
export class MemoryEventBus implements EventBus {
  private readonly events = new EventEmitter()

  constructor() {
    this.events.setMaxListeners(0)
  }

  async publish(message: BusMessage): Promise<void> {
    queueMicrotask(() => this.events.emit('message', message))
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.events.on('message', listener)
    return () => this.events.off('message', listener)
  }

  async close(): Promise<void> {
    this.events.removeAllListeners()
  }
}

/** A bus message read back from the wire, or null when it is not one (another writer, a bad version). */
export function parseBusMessage(raw: string): BusMessage | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (value === null || typeof value !== 'object') return null
  const m = value as Record<string, unknown>
  if (typeof m.brand !== 'string' || typeof m.entity !== 'string') return null
  if (m.kind === 'change' && typeof m.call === 'string' && (m.id === undefined || typeof m.id === 'string')) return m as BusMessage
  if (m.kind === 'presence' && typeof m.id === 'string' && typeof m.connection === 'string' && typeof m.userId === 'number' && typeof m.joined === 'boolean') return m as BusMessage
  return null
}
