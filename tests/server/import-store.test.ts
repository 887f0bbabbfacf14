import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportStore, StoredJob } from '../../server/imports/import-store'
import { RedisImportStore } from '../../server/imports/redis-import-store'
import { SqliteImportStore } from '../../server/imports/sqlite-import-store'
import { startTestRedis, type TestRedis } from '../helpers/redis'

/** The import store's contract, run against both adapters. */

const job = (id: string): StoredJob => ({
  id,
  definition: 'contratos-altas',
  fileName: 'a.csv',
  state: 'uploaded',
  headers: ['A'],
  rowCount: 1,
  mapping: { A: 'A' },
  progress: { done: 0, total: 0 },
  counts: { created: 0, held: 0, duplicate: 0, failed: 0, invalid: 0 },
  outcomes: [],
  brand: 'verde',
  ownerId: 7,
  createdAt: Date.now(),
  undoData: [],
})

function suite(name: string, open: () => Promise<ImportStore>) {
  describe(name, () => {
    let store: ImportStore
    beforeAll(async () => {
      store = await open()
    })
    afterAll(async () => store?.close())

    it('keeps a job and its sealed rows', async () => {
      const id = '11111111-1111-1111-1111-111111111111'
      await store.saveJob(job(id))
      await store.saveRows(id, 'sellado')
      expect((await store.job(id))?.ownerId).toBe(7)
      expect(await store.rows(id)).toBe('sellado')
      expect(await store.job('22222222-2222-2222-2222-222222222222')).toBeNull()
    })

    it('claims a row key once per brand and import, remembers its record and unique value, and forgets it on release', async () => {
      expect(await store.claim('verde', 'd', 'k1', { job: 'j', row: 2, unique: 'ES1' })).toBeNull()
      expect(await store.claim('verde', 'd', 'k1', { job: 'j2', row: 9 })).toMatchObject({ job: 'j', row: 2 })
      // Another brand or import does not share it.
      expect(await store.claim('grupo', 'd', 'k1', { job: 'j', row: 2 })).toBeNull()
      expect(await store.claim('verde', 'e', 'k1', { job: 'j', row: 2 })).toBeNull()
      expect((await store.uniqueHolders('verde', 'd', ['ES1'])).size).toBe(0)
      await store.settle('verde', 'd', 'k1', { job: 'j', row: 2, record: 'EV-2026-000001', unique: 'ES1' })
      expect((await store.peekMany('verde', 'd', ['k1', 'k2'])).get('k1')).toMatchObject({ record: 'EV-2026-000001' })
      expect((await store.uniqueHolders('verde', 'd', ['ES1', 'ES2'])).get('ES1')).toMatchObject({ key: 'k1', record: 'EV-2026-000001' })
      await store.release('verde', 'd', 'k1')
      expect((await store.peekMany('verde', 'd', ['k1'])).size).toBe(0)
      expect((await store.uniqueHolders('verde', 'd', ['ES1'])).size).toBe(0)
    })
  })
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-imports-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
suite('SQLite import store', async () => new SqliteImportStore(path.join(dir, 'imports.db')))

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => redis?.close())
suite('Redis import store', async () => RedisImportStore.open(redis.url))
