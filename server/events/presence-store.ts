/** One tab viewing a record: its connection, and whose it is. */
export interface PresenceEntry {
  connection: string
  userId: number
  name: string
}

/**
 * Who views which record, with expiry: a tab marks itself every ~20 s, and an entry not marked
 * again within its time is gone (a closed laptop, a lost replica). `key` names the record with
 * its brand. In memory for a single BFF, in Redis across replicas.
 */
export interface PresenceStore {
  /** Marks the tab as viewing until `ttlMs` from now; true when it was not (or no longer) there. */
  touch(key: string, entry: PresenceEntry, ttlMs: number): Promise<boolean>
  /** The tab stopped viewing; true when it was there. */
  leave(key: string, connection: string): Promise<boolean>
  /** The tabs viewing now (expired ones dropped). */
  viewers(key: string): Promise<PresenceEntry[]>
  close(): Promise<void>
}

export class MemoryPresenceStore implements PresenceStore {
  private readonly records = new Map<string, Map<string, { entry: PresenceEntry; until: number }>>()

  constructor(private readonly now: () => number = Date.now) {}

  async touch(key: string, entry: PresenceEntry, ttlMs: number): Promise<boolean> {
    const tabs = this.live(key) ?? new Map()
    const isNew = !tabs.has(entry.connection)
    tabs.set(entry.connection, { entry, until: this.now() + ttlMs })
    this.records.set(key, tabs)
    return isNew
  }

  async leave(key: string, connection: string): Promise<boolean> {
    const tabs = this.live(key)
    const was = tabs?.delete(connection) ?? false
    if (tabs?.size === 0) this.records.delete(key)
    return was
  }

  async viewers(key: string): Promise<PresenceEntry[]> {
    return [...(this.live(key)?.values() ?? [])].map((t) => t.entry)
  }

  async close(): Promise<void> {
    this.records.clear()
  }

  /** The record's tabs with the expired ones dropped. */
  private live(key: string) {
    const tabs = this.records.get(key)
    if (!tabs) return undefined
    const now = this.now()
    for (const [id, t] of tabs) if (t.until <= now) tabs.delete(id)
    if (tabs.size === 0) {
      this.records.delete(key)
      return undefined
    }
    return tabs
  }
}
