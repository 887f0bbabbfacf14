import { createHash, randomBytes } from 'node:crypto'
import type { SessionUser } from '../../schemas/session-user'

/**
 * The admin behind a view-as session: read-only, ended by its expiry or by the admin. `token`:
 * the upstream issued a read-only token of the user (it decides what they see); `permissions`:
 * an upstream without view-as, so only the user's permissions are applied, over the admin's
 * token. `actorKey`: the store key of the admin's own session, which must come with it.
 */
export interface SessionActor {
  userId: number
  name: string
  email: string
  mode: 'token' | 'permissions'
  actorKey: string
}

/** What the BFF keeps for a signed-in browser. Never leaves the server. */
export interface SessionData {
  userId: number
  brand: string
  token: string
  refreshToken: string | null
  /** Access token expiry, seconds since the epoch (the JWT `exp`). */
  tokenExp: number
  user: SessionUser
  /** Set on a view-as session only. */
  actor?: SessionActor
}

export interface Session extends SessionData {
  id: string
  createdAt: number
  lastSeenAt: number
}

export type SessionPatch = Partial<Pick<SessionData, 'token' | 'refreshToken' | 'tokenExp' | 'user'>>

export interface SessionTimeouts {
  idleMs: number
  absoluteMs: number
  now?: () => number
}

/**
 * The session store port. Adapters (embedded SQLite, Redis) pass the same test suite.
 * `get` answers null for unknown, idle-expired or absolutely-expired sessions.
 */
export interface SessionStore {
  create(data: SessionData): Promise<Session>
  get(id: string): Promise<Session | null>
  /**
   * The session when it is at hand without waiting (a memory cache's fresh entry, its token not
   * yet due for refresh), else undefined: then ask `get`. Stores without a memory leave it out.
   */
  peek?(id: string): Session | undefined
  update(id: string, patch: SessionPatch): Promise<void>
  delete(id: string): Promise<void>
  /** Ends every session of a user, except `exceptId` when given; returns how many ended. */
  deleteByUser(userId: number, exceptId?: string): Promise<number>
  /** Ends every session of the user with this e-mail (any case): a password recovered by e-mail. */
  deleteByEmail(email: string): Promise<number>
  countActive(): Promise<number>
  ping(): Promise<void>
  close(): Promise<void>
}

/** A new session id: 256 random bits, URL-safe. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url')
}

/** Stores key sessions by a hash of the id, so a leaked store holds no usable cookie. */
export function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('hex')
}

/** Shape check of a cookie value before any store lookup. */
export function looksLikeSessionId(id: string | undefined): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9_-]{43}$/.test(id)
}
