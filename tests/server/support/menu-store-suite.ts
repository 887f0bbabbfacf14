import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { VersionConflictError, type Author, type MenuStore } from '../../../server/manifest/menu-store'

export const ANA: Author = { id: 1, name: 'Ana Admin', email: 'ana@portal.test' }
export const LUIS: Author = { id: 2, name: 'Luis Admin', email: 'luis@portal.test' }

export interface StoreFactory {
  /** A fresh, empty store; `clock` drives its timestamps. */
  create(clock: () => number): Promise<MenuStore>
  /** A second handle on the same storage, as another BFF instance would have. */
  sibling?(clock: () => number): Promise<MenuStore>
  cleanup?(): Promise<void>
}

/**
 * The MenuStore contract (issue 6): every adapter (embedded SQLite now, Redis with the
 * scale-out) runs this same suite.
 */
export function menuStoreSuite(name: string, factory: StoreFactory) {
  describe(`MenuStore contract: ${name}`, () => {
    let store: MenuStore
    let now = 1_700_000_000_000
    const clock = () => now

    beforeEach(async () => {
      now = 1_700_000_000_000
      store = await factory.create(clock)
    })
    afterEach(async () => {
      await store.close()
      await factory.cleanup?.()
    })

    it('starts empty: nothing stored means version 0, the shipped default', async () => {
      expect(await store.current('menu:grupo')).toBeNull()
      expect(await store.get('menu:grupo', 1)).toBeNull()
      expect(await store.history('menu:grupo')).toEqual([])
    })

    it('saves and reads versions with author, time and body', async () => {
      const v1 = await store.save('menu:grupo', 0, { a: 1 }, ANA)
      now += 60_000
      const v2 = await store.save('menu:grupo', 1, { a: 2 }, LUIS)
      expect(v1).toMatchObject({ doc: 'menu:grupo', version: 1, body: { a: 1 }, author: ANA, createdAt: 1_700_000_000_000, kind: 'edit', restoredFrom: null })
      expect(v2).toMatchObject({ version: 2, body: { a: 2 }, author: LUIS, createdAt: 1_700_000_060_000 })
      expect(await store.current('menu:grupo')).toEqual(v2)
      expect(await store.get('menu:grupo', 1)).toEqual(v1)
      // documents are independent
      expect(await store.current('menu:limpia')).toBeNull()
    })

    it('refuses a save based on a stale version and keeps the stored one', async () => {
      await store.save('menu:grupo', 0, { a: 1 }, ANA)
      await store.save('menu:grupo', 1, { a: 2 }, ANA)
      const err = await store.save('menu:grupo', 1, { a: 'lost?' }, LUIS).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(VersionConflictError)
      expect((err as VersionConflictError).current).toMatchObject({ version: 2, body: { a: 2 }, author: ANA })
      await expect(store.save('menu:grupo', 5, { a: 'future' }, LUIS)).rejects.toBeInstanceOf(VersionConflictError)
      expect(await store.current('menu:grupo')).toMatchObject({ version: 2, body: { a: 2 } })
    })

    it('lets only one of two simultaneous saves of the same version win', async () => {
      await store.save('menu:grupo', 0, { a: 1 }, ANA)
      const results = await Promise.allSettled([store.save('menu:grupo', 1, { by: 'ana' }, ANA), store.save('menu:grupo', 1, { by: 'luis' }, LUIS)])
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
      expect(rejected.reason).toBeInstanceOf(VersionConflictError)
      expect((await store.history('menu:grupo')).map((v) => v.version)).toEqual([2, 1])
    })

    it('lists the history newest first, with a limit', async () => {
      for (let v = 0; v < 5; v++) await store.save('menu:grupo', v, { n: v + 1 }, v % 2 ? LUIS : ANA)
      const all = await store.history<{ n: number }>('menu:grupo')
      expect(all.map((v) => v.version)).toEqual([5, 4, 3, 2, 1])
      expect(all.map((v) => v.body.n)).toEqual([5, 4, 3, 2, 1])
      expect((await store.history('menu:grupo', 2)).map((v) => v.version)).toEqual([5, 4])
    })

    it('records a rollback as a new version that says what it restored', async () => {
      await store.save('menu:grupo', 0, { a: 1 }, ANA)
      await store.save('menu:grupo', 1, { a: 2 }, ANA)
      const old = (await store.get<{ a: number }>('menu:grupo', 1))!
      const back = await store.save('menu:grupo', 2, old.body, LUIS, 'rollback', 1)
      expect(back).toMatchObject({ version: 3, body: { a: 1 }, kind: 'rollback', restoredFrom: 1, author: LUIS })
      expect((await store.history('menu:grupo')).map((v) => [v.version, v.kind])).toEqual([
        [3, 'rollback'],
        [2, 'edit'],
        [1, 'edit'],
      ])
    })

    it('tells subscribers which document changed, and stops after unsubscribe', async () => {
      const seen: string[] = []
      const off = store.subscribe((doc) => seen.push(doc))
      await store.save('menu:grupo', 0, {}, ANA)
      await store.save('screen:contratos', 0, { tables: {} }, ANA)
      await expect.poll(() => seen).toEqual(['menu:grupo', 'screen:contratos'])
      off()
      await store.save('menu:grupo', 1, {}, ANA)
      await new Promise((r) => setTimeout(r, 50))
      expect(seen).toEqual(['menu:grupo', 'screen:contratos'])
    })

    it('answers ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })

    if (factory.sibling) {
      it('shares versions with another instance on the same storage', async () => {
        const other = await factory.sibling!(clock)
        try {
          await store.save('menu:grupo', 0, { from: 'one' }, ANA)
          expect(await other.current('menu:grupo')).toMatchObject({ version: 1, body: { from: 'one' } })
          await expect(other.save('menu:grupo', 0, { from: 'two' }, LUIS)).rejects.toBeInstanceOf(VersionConflictError)
        } finally {
          await other.close()
        }
      })
    }
  })
}
