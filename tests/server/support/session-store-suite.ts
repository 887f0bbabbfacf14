import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionUser } from '../../../schemas/session-user'
import type { StoreLog } from '../../../server/lib/redis-client'
import { looksLikeSessionId, newSessionId, type SessionData, type SessionStore, type SessionTimeouts } from '../../../server/session/session-store'
import { TokenCipher, type TokenField } from '../../../server/session/token-cipher'

/** What every adapter is opened with. */
export interface StoreOptions {
  cipher: TokenCipher
  log: StoreLog
}

export interface SessionStoreFactory {
  /** A fresh, empty store with these timeouts (their `now` drives every decision). */
  create(timeouts: SessionTimeouts, opts: StoreOptions): Promise<SessionStore>
  /** A second handle on the same storage, as another BFF replica would have. */
  sibling?(timeouts: SessionTimeouts, opts: StoreOptions): Promise<SessionStore>
  /** Everything the storage holds, as text: what a stolen file or dump would show. */
  dump(): Promise<string>
  /** A session's token field as stored, read behind the store's back (null when absent). */
  rawToken(id: string, field: TokenField): Promise<string | null>
  /** Overwrites a session's token field behind the store's back (an older version, an attacker). */
  setRawToken(id: string, field: TokenField, value: string): Promise<void>
  cleanup?(): Promise<void>
}

const MINUTE = 60_000
const IDLE = 30 * MINUTE
const ABSOLUTE = 12 * 60 * MINUTE

function user(id: number, email: string, extra: Partial<SessionUser> = {}): SessionUser {
  return { Id: id, UserName: email, Email: email, Nombre: `Usuario ${id}`, Apellidos: 'Prueba', Permisos: [{ NombreNormalizado: 'VERRENOVACIONES' }], ...extra } as SessionUser
}

function data(userId: number, email = `u${userId}@portal.test`, extra: Partial<SessionData> = {}): SessionData {
  return { userId, brand: 'verde', token: `token-${userId}`, refreshToken: `refresh-${userId}`, tokenExp: 1_700_000_900, user: user(userId, email), ...extra }
}

/**
 * The SessionStore contract: the embedded SQLite store and the Redis store run this same
 * suite. Time moves only through the injected clock.
 */
export function sessionStoreSuite(name: string, factory: SessionStoreFactory) {
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore
    let now = 1_700_000_000_000
    const timeouts: SessionTimeouts = { idleMs: IDLE, absoluteMs: ABSOLUTE, now: () => now }
    let warnings: { obj: object; msg: string }[] = []
    const log: StoreLog = { info: () => undefined, warn: (obj, msg) => warnings.push({ obj, msg }), error: () => undefined }
    let opts: StoreOptions

    beforeEach(async () => {
      now = 1_700_000_000_000
      warnings = []
      opts = { cipher: TokenCipher.random(), log }
      store = await factory.create(timeouts, opts)
    })
    afterEach(async () => {
      await store.close()
      await factory.cleanup?.()
    })

    it('creates a session with a fresh opaque id and reads it back whole', async () => {
      const created = await store.create(data(1))
      expect(looksLikeSessionId(created.id)).toBe(true)
      expect(created).toMatchObject({ ...data(1), createdAt: now, lastSeenAt: now })
      const other = await store.create(data(1))
      expect(other.id).not.toBe(created.id)
      expect(await store.get(created.id)).toEqual(created)
    })

    it('keeps the admin behind a view-as session, and no actor on an ordinary one', async () => {
      const actor = { userId: 9, name: 'Ana Admin', email: 'ana@portal.test', mode: 'token' as const, actorKey: 'a'.repeat(64) }
      const view = await store.create(data(3, undefined, { refreshToken: null, actor }))
      expect(await store.get(view.id)).toEqual(view)
      expect((await store.get(view.id))?.actor).toEqual(actor)
      const plain = await store.create(data(4))
      expect((await store.get(plain.id))?.actor).toBeUndefined()
    })

    it('keeps a session without a refresh token as such', async () => {
      const created = await store.create(data(2, undefined, { refreshToken: null }))
      expect((await store.get(created.id))?.refreshToken).toBeNull()
    })

    it('answers null for ids it never issued, and ignores updates and deletes of them', async () => {
      const unknown = newSessionId()
      expect(await store.get(unknown)).toBeNull()
      await store.update(unknown, { token: 'x', user: user(9, 'x@portal.test') })
      await store.delete(unknown)
      expect(await store.get(unknown)).toBeNull()
      expect(await store.countActive()).toBe(0)
    })

    it('updates only the fields it is given', async () => {
      const s = await store.create(data(3))
      await store.update(s.id, { token: 'token-nuevo', tokenExp: 1_700_001_800 })
      expect(await store.get(s.id)).toMatchObject({ token: 'token-nuevo', tokenExp: 1_700_001_800, refreshToken: 'refresh-3', user: data(3).user, brand: 'verde' })
      const renamed = user(3, 'u3@portal.test', { Nombre: 'Renombrado', Permisos: [] })
      await store.update(s.id, { user: renamed, refreshToken: 'refresh-nuevo' })
      expect(await store.get(s.id)).toMatchObject({ token: 'token-nuevo', refreshToken: 'refresh-nuevo', user: renamed })
      await store.update(s.id, { refreshToken: null })
      expect((await store.get(s.id))?.refreshToken).toBeNull()
      await store.update(s.id, {})
      expect(await store.get(s.id)).toMatchObject({ token: 'token-nuevo', user: renamed })
    })

    it('deletes one session and leaves the others', async () => {
      const a = await store.create(data(4))
      const b = await store.create(data(4))
      await store.delete(a.id)
      expect(await store.get(a.id)).toBeNull()
      expect(await store.get(b.id)).not.toBeNull()
      expect(await store.countActive()).toBe(1)
    })

    it('ends every session of a user, or all but one, and says how many', async () => {
      const kept = await store.create(data(5))
      const a = await store.create(data(5))
      const b = await store.create(data(5))
      const someoneElse = await store.create(data(6))
      expect(await store.deleteByUser(5, kept.id)).toBe(2)
      expect(await store.get(a.id)).toBeNull()
      expect(await store.get(b.id)).toBeNull()
      expect(await store.get(kept.id)).not.toBeNull()
      expect(await store.get(someoneElse.id)).not.toBeNull()
      expect(await store.deleteByUser(5, kept.id)).toBe(0)
      expect(await store.deleteByUser(5)).toBe(1)
      expect(await store.get(kept.id)).toBeNull()
      expect(await store.deleteByUser(404)).toBe(0)
      expect(await store.countActive()).toBe(1)
    })

    it('ends every session of the user with an e-mail, in any case', async () => {
      const a = await store.create(data(7, 'Ana.Lopez@portal.test'))
      const b = await store.create(data(7, 'Ana.Lopez@portal.test'))
      const other = await store.create(data(8, 'luis@portal.test'))
      expect(await store.deleteByEmail('ana.lopez@PORTAL.test')).toBe(2)
      expect(await store.get(a.id)).toBeNull()
      expect(await store.get(b.id)).toBeNull()
      expect(await store.get(other.id)).not.toBeNull()
      expect(await store.deleteByEmail('nadie@portal.test')).toBe(0)
    })

    it('follows an e-mail changed by a session update', async () => {
      const s = await store.create(data(9, 'viejo@portal.test'))
      await store.update(s.id, { user: user(9, 'nuevo@portal.test') })
      expect(await store.deleteByEmail('viejo@portal.test')).toBe(0)
      expect(await store.deleteByEmail('nuevo@portal.test')).toBe(1)
      expect(await store.get(s.id)).toBeNull()
    })

    it('ends a session left idle, and keeps one in use alive', async () => {
      const idle = await store.create(data(10))
      const used = await store.create(data(11))
      for (let i = 0; i < 3; i++) {
        now += IDLE - MINUTE
        expect(await store.get(used.id)).toMatchObject({ lastSeenAt: now })
      }
      expect(await store.get(idle.id)).toBeNull()
      expect(await store.countActive()).toBe(1)
      now += IDLE
      expect(await store.countActive()).toBe(0)
      expect(await store.get(used.id)).toBeNull()
    })

    it('ends a session at the absolute timeout however much it is used', async () => {
      const s = await store.create(data(12))
      while (now + IDLE / 2 < 1_700_000_000_000 + ABSOLUTE) {
        now += IDLE / 2
        expect(await store.get(s.id)).not.toBeNull()
      }
      now = 1_700_000_000_000 + ABSOLUTE
      expect(await store.get(s.id)).toBeNull()
      // once ended it stays ended, even if the clock were to read earlier
      now -= MINUTE
      expect(await store.get(s.id)).toBeNull()
    })

    it('counts only sessions still active', async () => {
      expect(await store.countActive()).toBe(0)
      await store.create(data(13))
      now += 10 * MINUTE
      await store.create(data(14))
      expect(await store.countActive()).toBe(2)
      now += IDLE - 5 * MINUTE
      expect(await store.countActive()).toBe(1)
    })

    it('answers ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })

    it('keeps neither token in clear in the storage, and reads both back', async () => {
      const access = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxNiJ9.firma-de-acceso-16'
      const refresh = 'refresco-secreto-16-0123456789abcdef'
      const s = await store.create(data(16, undefined, { token: access, refreshToken: refresh }))
      for (const field of ['token', 'refreshToken'] as const) expect(await factory.rawToken(s.id, field)).toMatch(/^v1\./)
      expect(await factory.rawToken(s.id, 'token')).not.toBe(await factory.rawToken(s.id, 'refreshToken'))
      let raw = await factory.dump()
      expect(raw).toContain('u16@portal.test')
      expect(raw).not.toContain(access)
      expect(raw).not.toContain(refresh)
      expect(await store.get(s.id)).toMatchObject({ token: access, refreshToken: refresh })

      await store.update(s.id, { token: `${access}-renovado`, refreshToken: `${refresh}-renovado` })
      raw = await factory.dump()
      expect(raw).not.toContain(access)
      expect(raw).not.toContain(refresh)
      expect(await store.get(s.id)).toMatchObject({ token: `${access}-renovado`, refreshToken: `${refresh}-renovado` })
      expect(warnings).toEqual([])
    })

    it('ends a session whose stored token is in clear (an older version), altered, or copied from another session', async () => {
      const clear = await store.create(data(17))
      await factory.setRawToken(clear.id, 'token', 'token-17')
      const clearRefresh = await store.create(data(18))
      await factory.setRawToken(clearRefresh.id, 'refreshToken', 'refresh-18')
      const altered = await store.create(data(19))
      const sealed = (await factory.rawToken(altered.id, 'token'))!
      await factory.setRawToken(altered.id, 'token', sealed.slice(0, 20) + (sealed[20] === 'A' ? 'B' : 'A') + sealed.slice(21))
      const victim = await store.create(data(20))
      const thief = await store.create(data(21))
      await factory.setRawToken(thief.id, 'token', (await factory.rawToken(victim.id, 'token'))!)
      const moved = await store.create(data(22))
      await factory.setRawToken(moved.id, 'token', (await factory.rawToken(moved.id, 'refreshToken'))!)

      for (const s of [clear, clearRefresh, altered, thief, moved]) {
        expect(await store.get(s.id)).toBeNull()
        // Ended, not only hidden: a second read finds nothing and logs nothing more.
        expect(await store.get(s.id)).toBeNull()
      }
      expect(await store.get(victim.id)).toMatchObject({ token: 'token-20' })
      expect(await store.countActive()).toBe(1)
      expect(warnings).toHaveLength(5)
      for (const w of warnings) expect(w.obj).toEqual({ event: 'session_unreadable', store: 'sessionStore' })
      expect(JSON.stringify(warnings)).not.toMatch(/token-|refresh-|v1\./)
    })

    if (factory.sibling) {
      it('a store opened with another key does not return the session; it is ended, not a failure', async () => {
        const s = await store.create(data(23))
        const other = await factory.sibling!(timeouts, { cipher: TokenCipher.random(), log })
        try {
          expect(await other.get(s.id)).toBeNull()
          expect(warnings).toHaveLength(1)
          expect(JSON.stringify(warnings)).not.toMatch(/token-23|refresh-23/)
          expect(await store.get(s.id)).toBeNull()
        } finally {
          await other.close()
        }
      })

      it('shares sessions with another replica on the same storage', async () => {
        const other = await factory.sibling!(timeouts, opts)
        try {
          const s = await store.create(data(15))
          expect(await other.get(s.id)).toMatchObject({ userId: 15, token: 'token-15' })
          await other.update(s.id, { token: 'desde-la-otra' })
          expect((await store.get(s.id))?.token).toBe('desde-la-otra')
          expect(await other.deleteByUser(15)).toBe(1)
          expect(await store.get(s.id)).toBeNull()
        } finally {
          await other.close()
        }
      })
    }
  })
}
