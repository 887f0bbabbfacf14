import { EXPIRY_SKEW_S } from './auth-service'
import type { Session, SessionData, SessionPatch, SessionStore } from './session-store'

export interface SessionCacheOptions {
  /** How long a session read from the store is served from memory (SESSION_CACHE_MS). */
  ttlMs: number
  /** SESSION_ABSOLUTE_TIMEOUT_S: a cached session never outlives it. */
  absoluteMs: number
  /** Sessions kept at most; the oldest entry goes first. */
  maxEntries?: number
  now?: () => number
}

interface Entry {
  session: Session
  /** Until when it may be served from memory (ms since the epoch). */
  until: number
}

const MAX_ENTRIES = 10_000

/**
 * The session store with a short memory in front: every proxied request needs its session,
 * and reading it (hash, store round trip, JSON) was a large share of a proxied request's
 * cost. The store stays the truth:
 *
 * - an entry lives `ttlMs` at most, never past the session's absolute timeout, and never into
 *   the window where its access token is due for refresh (that decision is always taken on
 *   what the store holds, so two replicas never spend the same rotating refresh token);
 * - every change made through this replica (sign-out, refresh, user reload, password change,
 *   an admin ending a user's sessions) drops the affected entries at once;
 * - a session ended elsewhere (another replica, straight in Redis) keeps working here for
 *   `ttlMs` at most.
 */
export class CachedSessionStore implements SessionStore {
  private readonly entries = new Map<string, Entry>()
  /** Reads already on their way to the store, shared by concurrent requests of one session. */
  private readonly reading = new Map<string, Promise<Session | null>>()
  /** Bumped by every change: a read that started before one must not refill the cache. */
  private generation = 0
  private readonly now: () => number
  private readonly maxEntries: number

  constructor(
    private readonly store: SessionStore,
    private readonly opts: SessionCacheOptions,
  ) {
    this.now = opts.now ?? Date.now
    this.maxEntries = opts.maxEntries ?? MAX_ENTRIES
  }

  peek(id: string): Session | undefined {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (entry.until > this.now()) return entry.session
    this.entries.delete(id)
    return undefined
  }

  async get(id: string): Promise<Session | null> {
    const cached = this.peek(id)
    if (cached) return cached
    const running = this.reading.get(id)
    if (running) return running
    const read = this.read(id).finally(() => {
      if (this.reading.get(id) === read) this.reading.delete(id)
    })
    this.reading.set(id, read)
    return read
  }

  private async read(id: string): Promise<Session | null> {
    const generation = this.generation
    const session = await this.store.get(id)
    if (session && generation === this.generation) this.remember(Object.freeze(session))
    return session
  }

  private remember(session: Session): void {
    const until = Math.min(
      this.now() + this.opts.ttlMs,
      session.createdAt + this.opts.absoluteMs,
      (session.tokenExp - EXPIRY_SKEW_S) * 1000,
    )
    if (until <= this.now()) return
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(session.id, { session, until })
  }

  /**
   * Drops matching entries and turns away reads in flight (they may predate the change), both
   * before the change is made and once it is: a read racing with a slow store then cannot
   * put the old session back.
   */
  private async changing<T>(matches: (session: Session) => boolean, change: () => Promise<T>): Promise<T> {
    this.forget(matches)
    try {
      return await change()
    } finally {
      this.forget(matches)
    }
  }

  private forget(matches: (session: Session) => boolean): void {
    this.generation++
    this.reading.clear()
    for (const [id, entry] of this.entries) if (matches(entry.session)) this.entries.delete(id)
  }

  create(data: SessionData): Promise<Session> {
    return this.store.create(data)
  }

  update(id: string, patch: SessionPatch): Promise<void> {
    return this.changing((s) => s.id === id, () => this.store.update(id, patch))
  }

  delete(id: string): Promise<void> {
    return this.changing((s) => s.id === id, () => this.store.delete(id))
  }

  deleteByUser(userId: number, exceptId?: string): Promise<number> {
    return this.changing((s) => s.userId === userId, () => this.store.deleteByUser(userId, exceptId))
  }

  deleteByEmail(email: string): Promise<number> {
    const wanted = email.trim().toLowerCase()
    return this.changing((s) => s.user.Email.trim().toLowerCase() === wanted, () => this.store.deleteByEmail(email))
  }

  countActive(): Promise<number> {
    return this.store.countActive()
  }

  ping(): Promise<void> {
    return this.store.ping()
  }

  async close(): Promise<void> {
    this.entries.clear()
    await this.store.close()
  }
}
