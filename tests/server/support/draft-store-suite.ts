import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DRAFT_TTL_MS, type DraftOwner, type DraftStore, type DraftStoreOptions } from '../../../server/drafts/draft-store'

export interface DraftStoreFactory {
  /** A fresh, empty store; `opts.now` drives every expiry decision. */
  create(opts: DraftStoreOptions): Promise<DraftStore>
  /** A second handle on the same storage, as another BFF replica would have. */
  sibling?(opts: DraftStoreOptions): Promise<DraftStore>
  cleanup?(): Promise<void>
}

export const LUCIA: DraftOwner = { userId: 1, brand: 'verde' }
export const PABLO: DraftOwner = { userId: 2, brand: 'verde' }

const DAY = 24 * 3600_000

/** What the contract sign-up keeps: personal data, nested values, numbers, booleans, nulls. */
const VALUES = {
  'Cliente.Nif': '12345678Z',
  'Cliente.Nombre': 'Lucía Núñez',
  'Cliente.Telefono': '612345678',
  Iban: 'ES9121000418450200051332',
  'Potencias.P1': 4.6,
  Acepta: true,
  Observaciones: null,
  Servicios: ['luz', 'gas'],
  Direccion: { Calle: 'Calle Mayor 1, 2º B', CodigoPostal: '28013' },
}

/**
 * The DraftStore contract: the embedded SQLite store and the Redis store run this same suite.
 * Time moves only through the injected clock.
 */
export function draftStoreSuite(name: string, factory: DraftStoreFactory) {
  describe(`DraftStore contract: ${name}`, () => {
    let store: DraftStore
    let now = 1_700_000_000_000
    const opts: DraftStoreOptions = { now: () => now }

    beforeEach(async () => {
      now = 1_700_000_000_000
      store = await factory.create(opts)
    })
    afterEach(async () => {
      await store.close()
      await factory.cleanup?.()
    })

    it('answers null for a draft never saved', async () => {
      expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
    })

    it('saves a draft and reads it back whole, with the time it was saved', async () => {
      const saved = await store.put(LUCIA, 'contrato-alta', VALUES)
      expect(saved).toEqual({ values: VALUES, savedAt: now })
      now += 5_000
      expect(await store.get(LUCIA, 'contrato-alta')).toEqual({ values: VALUES, savedAt: 1_700_000_000_000 })
    })

    it('overwrites: the last save replaces the whole draft and its time', async () => {
      await store.put(LUCIA, 'contrato-alta', VALUES)
      now += 60_000
      await store.put(LUCIA, 'contrato-alta', { 'Cliente.Nif': '87654321X' })
      expect(await store.get(LUCIA, 'contrato-alta')).toEqual({ values: { 'Cliente.Nif': '87654321X' }, savedAt: now })
    })

    it('keeps each user’s drafts apart, and each brand’s and key’s', async () => {
      await store.put(LUCIA, 'contrato-alta', VALUES)
      expect(await store.get(PABLO, 'contrato-alta')).toBeNull()
      expect(await store.get({ userId: 1, brand: 'grupo' }, 'contrato-alta')).toBeNull()
      expect(await store.get(LUCIA, 'otra-alta')).toBeNull()
      await store.put(PABLO, 'contrato-alta', { 'Cliente.Nif': '00000000T' })
      expect((await store.get(LUCIA, 'contrato-alta'))?.values).toEqual(VALUES)
      expect((await store.get(PABLO, 'contrato-alta'))?.values).toEqual({ 'Cliente.Nif': '00000000T' })
      // a user id that is a prefix of another's does not reach it
      await store.put({ userId: 11, brand: 'verde' }, 'contrato-alta', { a: 11 })
      expect((await store.get(LUCIA, 'contrato-alta'))?.values).toEqual(VALUES)
    })

    it('deletes one draft only; deleting a missing one is harmless', async () => {
      await store.put(LUCIA, 'contrato-alta', VALUES)
      await store.put(LUCIA, 'otra-alta', { a: 1 })
      await store.put(PABLO, 'contrato-alta', { b: 2 })
      await store.delete(LUCIA, 'contrato-alta')
      expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
      expect(await store.get(LUCIA, 'otra-alta')).not.toBeNull()
      expect(await store.get(PABLO, 'contrato-alta')).not.toBeNull()
      await store.delete(LUCIA, 'contrato-alta')
      await store.delete(PABLO, 'nunca-guardado')
    })

    it('expires a draft 7 days after its last save; a new save restarts the count', async () => {
      expect(DRAFT_TTL_MS).toBe(7 * DAY)
      await store.put(LUCIA, 'contrato-alta', VALUES)
      now += 6 * DAY
      await store.put(LUCIA, 'contrato-alta', { ...VALUES, Observaciones: 'sigue' })
      now += 7 * DAY - 1
      expect((await store.get(LUCIA, 'contrato-alta'))?.values.Observaciones).toBe('sigue')
      now += 1
      expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
      // and stays gone, even when the clock is asked again later
      now += DAY
      expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
    })

    it('honours a shorter TTL when one is given', async () => {
      await store.close()
      store = await factory.create({ ...opts, ttlMs: 60_000 })
      await store.put(LUCIA, 'contrato-alta', VALUES)
      now += 59_999
      expect(await store.get(LUCIA, 'contrato-alta')).not.toBeNull()
      now += 1
      expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
    })

    it('is shared: another handle on the same storage (another replica, another device) sees the draft', async () => {
      if (!factory.sibling) return
      const other = await factory.sibling(opts)
      try {
        await store.put(LUCIA, 'contrato-alta', VALUES)
        expect((await other.get(LUCIA, 'contrato-alta'))?.values).toEqual(VALUES)
        await other.delete(LUCIA, 'contrato-alta')
        expect(await store.get(LUCIA, 'contrato-alta')).toBeNull()
      } finally {
        await other.close()
      }
    })

    it('answers a ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined()
    })
  })
}
