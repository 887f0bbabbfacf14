import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionUser } from '../../../schemas/session-user'
import { looksLikeSessionId, newSessionId, type SessionData, type SessionStore, type SessionTimeouts } from '../../../server/session/session-store'

export interface SessionStoreFactory {
  /** A fresh, empty store with these timeouts (their `now` drives every decision). */
  create(timeouts: SessionTimeouts): Promise<SessionStore>
  /** A second handle on the same storage, as another BFF replica would have. */
  sibling?(timeouts: SessionTimeouts): Promise<SessionStore>
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

    beforeEach(async () => {
      now = 1_700_000_000_000
      store = await factory.create(timeouts)
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

    if (factory.sibling) {
      it('shares sessions with another replica on the same storage', async () => {
        const other = await factory.sibling!(timeouts)
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
