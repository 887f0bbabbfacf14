import type { Redis } from 'ioredis'
import { closeRedis, execAll, firstConnection, luaScript, openRedis, runScript, storeCall, type StoreLog } from '../lib/redis-client'
import {
  newSessionId,
  sessionKey,
  type Session,
  type SessionData,
  type SessionPatch,
  type SessionStore,
  type SessionTimeouts,
} from './session-store'
import { openTokens, sealToken, UNREADABLE_SESSION, type TokenCipher } from './token-cipher'

/** Last-seen is written at most this often, so reads do not turn into writes on every request. */
const TOUCH_EVERY_MS = 5_000

/** Fields that exist only on a live session: a write after a delete must not bring back half of one. */
const TOUCH = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
return 1`)

const UPDATE = luaScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if #ARGV > 1 then redis.call('HSET', KEYS[1], unpack(ARGV, 2)) end
if ARGV[1] == '1' then redis.call('HDEL', KEYS[1], 'refreshToken') end
return 1`)

const DELETE = luaScript(`
local user = redis.call('HGET', KEYS[1], 'userId')
local n = redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if user then redis.call('SREM', ARGV[2] .. user, ARGV[1]) end
return n`)

const DELETE_BY_USER = luaScript(`
local n = 0
for _, member in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if member ~= ARGV[2] then
    n = n + redis.call('DEL', ARGV[1] .. member)
    redis.call('SREM', KEYS[1], member)
    redis.call('ZREM', KEYS[2], member)
  end
end
return n`)

/** Sessions of the accounts that have held this e-mail whose stored user still has it. */
const DELETE_BY_EMAIL = luaScript(`
local n = 0
for _, user in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local set = ARGV[2] .. user
  for _, member in ipairs(redis.call('SMEMBERS', set)) do
    local key = ARGV[1] .. member
    local email = redis.call('HGET', key, 'email')
    if email == ARGV[3] then
      n = n + redis.call('DEL', key)
      redis.call('SREM', set, member)
      redis.call('ZREM', KEYS[2], member)
    elseif not email then
      redis.call('SREM', set, member)
    end
  end
end
return n`)

export interface RedisSessionStoreOptions {
  /** Encrypts the upstream tokens in Redis; every replica needs the same key. */
  cipher: TokenCipher
  log?: StoreLog
}

const PREFIX = 'portal:'

/**
 * The shared session store: every BFF replica pointing at the same Redis sees the same
 * sessions. A session is a hash under the hash of its id; a set per user lists theirs (for
 * "sign out everywhere"), a set per e-mail its user ids, and a sorted set holds each
 * session's deadline (the earlier of idle and absolute expiry) to count the active ones.
 * Keys carry a TTL so abandoned sessions vanish, but every decision follows the injected
 * clock, like the SQLite store. Scripts build some key names themselves: one Redis, not
 * Redis Cluster. The upstream tokens are stored encrypted (see token-cipher).
 */
export class RedisSessionStore implements SessionStore {
  private readonly now: () => number
  private readonly log: StoreLog | undefined
  private readonly cipher: TokenCipher
  private readonly keys

  constructor(
    private readonly redis: Redis,
    private readonly timeouts: SessionTimeouts,
    opts: RedisSessionStoreOptions,
  ) {
    this.now = timeouts.now ?? Date.now
    this.log = opts.log
    this.cipher = opts.cipher
    this.keys = {
      sessionPrefix: `${PREFIX}session:`,
      userPrefix: `${PREFIX}user-sessions:`,
      deadlines: `${PREFIX}session-deadlines`,
      session: (hash: string) => `${PREFIX}session:${hash}`,
      user: (userId: number) => `${PREFIX}user-sessions:${userId}`,
      emailUsers: (email: string) => `${PREFIX}email-users:${email}`,
    }
  }

  /** Connects (waiting briefly for the first connection; a Redis that is down is retried in the background). */
  static async open(url: string, timeouts: SessionTimeouts, opts: RedisSessionStoreOptions): Promise<RedisSessionStore> {
    const client = openRedis(url, 'sessions', opts.log)
    if (!(await firstConnection(client))) opts.log?.warn({ event: 'store_unavailable', store: 'sessionStore' }, 'session store not reachable at start; serving 503 until it is')
    return new RedisSessionStore(client, timeouts, opts)
  }

  async create(data: SessionData): Promise<Session> {
    const id = newSessionId()
    const hash = sessionKey(id)
    const now = this.now()
    const deadline = this.deadline(now, now)
    const key = this.keys.session(hash)
    const fields: Record<string, string | number> = {
      userId: data.userId,
      brand: data.brand,
      token: sealToken(this.cipher, hash, 'token', data.token),
      tokenExp: data.tokenExp,
      user: JSON.stringify(data.user),
      email: normalEmail(data.user.Email),
      createdAt: now,
      lastSeenAt: now,
    }
    if (data.refreshToken !== null) fields.refreshToken = sealToken(this.cipher, hash, 'refreshToken', data.refreshToken)
    if (data.actor) fields.actor = JSON.stringify(data.actor)
    await this.call(() =>
      execAll(
        this.redis
          .multi()
          .hset(key, fields)
          .pexpire(key, deadline - now)
          .sadd(this.keys.user(data.userId), hash)
          // The user's set lives as long as their newest session can.
          .pexpire(this.keys.user(data.userId), this.timeouts.absoluteMs)
          .sadd(this.keys.emailUsers(normalEmail(data.user.Email)), data.userId)
          .pexpire(this.keys.emailUsers(normalEmail(data.user.Email)), this.timeouts.absoluteMs)
          .zremrangebyscore(this.keys.deadlines, '-inf', now)
          .zadd(this.keys.deadlines, deadline, hash),
      ),
    )
    return { ...data, id, createdAt: now, lastSeenAt: now }
  }

  async get(id: string): Promise<Session | null> {
    const hash = sessionKey(id)
    const key = this.keys.session(hash)
    const row = await this.call(() => this.redis.hgetall(key))
    if (!row.userId) return null
    const createdAt = Number(row.createdAt)
    const lastSeenAt = Number(row.lastSeenAt)
    const now = this.now()
    if (now >= this.deadline(createdAt, lastSeenAt)) {
      await this.remove(hash)
      return null
    }
    const tokens = openTokens(this.cipher, hash, { token: row.token, refreshToken: row.refreshToken ?? null })
    if (!tokens) {
      // Another key, altered, or stored in clear by an older version: the session has ended.
      await this.remove(hash)
      this.log?.warn(UNREADABLE_SESSION.fields, UNREADABLE_SESSION.message)
      return null
    }
    if (now - lastSeenAt >= TOUCH_EVERY_MS) {
      const deadline = this.deadline(createdAt, now)
      await this.call(() => runScript(this.redis, TOUCH, [key, this.keys.deadlines], [now, deadline, deadline - now, hash]))
    }
    return {
      id,
      userId: Number(row.userId),
      brand: row.brand ?? '',
      token: tokens.token,
      refreshToken: tokens.refreshToken,
      tokenExp: Number(row.tokenExp),
      user: JSON.parse(row.user ?? 'null'),
      ...(row.actor ? { actor: JSON.parse(row.actor) } : {}),
      createdAt,
      lastSeenAt: now,
    }
  }

  async update(id: string, patch: SessionPatch): Promise<void> {
    const hash = sessionKey(id)
    const set: (string | number)[] = []
    if (patch.token !== undefined) set.push('token', sealToken(this.cipher, hash, 'token', patch.token))
    if (typeof patch.refreshToken === 'string') set.push('refreshToken', sealToken(this.cipher, hash, 'refreshToken', patch.refreshToken))
    if (patch.tokenExp !== undefined) set.push('tokenExp', patch.tokenExp)
    if (patch.user !== undefined) set.push('user', JSON.stringify(patch.user), 'email', normalEmail(patch.user.Email))
    const dropRefresh = patch.refreshToken === null
    if (set.length === 0 && !dropRefresh) return
    const updated = await this.call(() => runScript(this.redis, UPDATE, [this.keys.session(hash)], [dropRefresh ? '1' : '0', ...set]))
    // The e-mail may have changed upstream: index the new one too (deleteByEmail checks it before deleting).
    if (updated === 1 && patch.user !== undefined) {
      const key = this.keys.emailUsers(normalEmail(patch.user.Email))
      await this.call(() => execAll(this.redis.multi().sadd(key, patch.user!.Id).pexpire(key, this.timeouts.absoluteMs)))
    }
  }

  async delete(id: string): Promise<void> {
    await this.remove(sessionKey(id))
  }

  async deleteByUser(userId: number, exceptId?: string): Promise<number> {
    const except = exceptId ? sessionKey(exceptId) : ''
    const n = await this.call(() => runScript(this.redis, DELETE_BY_USER, [this.keys.user(userId), this.keys.deadlines], [this.keys.sessionPrefix, except]))
    return Number(n)
  }

  async deleteByEmail(email: string): Promise<number> {
    const wanted = normalEmail(email)
    const n = await this.call(() =>
      runScript(this.redis, DELETE_BY_EMAIL, [this.keys.emailUsers(wanted), this.keys.deadlines], [this.keys.sessionPrefix, this.keys.userPrefix, wanted]),
    )
    return Number(n)
  }

  async countActive(): Promise<number> {
    const now = this.now()
    const [, count] = await this.call(() => execAll(this.redis.multi().zremrangebyscore(this.keys.deadlines, '-inf', now).zcard(this.keys.deadlines)))
    return Number(count)
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping())
  }

  async close(): Promise<void> {
    await closeRedis(this.redis)
  }

  /** When a session created and last seen at these times ends: the earlier of idle and absolute expiry. */
  private deadline(createdAt: number, lastSeenAt: number): number {
    return Math.min(lastSeenAt + this.timeouts.idleMs, createdAt + this.timeouts.absoluteMs)
  }

  private async remove(hash: string): Promise<void> {
    await this.call(() => runScript(this.redis, DELETE, [this.keys.session(hash), this.keys.deadlines], [hash, this.keys.userPrefix]))
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    return storeCall('sessionStore', this.log, work)
  }
}

function normalEmail(email: string): string {
  return email.trim().toLowerCase()
}
