import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { View } from '../../schemas/view'
import { RedisViewStore } from '../../server/views/redis-view-store'
import { SqliteViewStore } from '../../server/views/sqlite-view-store'
import type { ViewStore } from '../../server/views/view-store'
import { startTestRedis, type TestRedis } from '../helpers/redis'

/** The view store: both adapters, the same behaviour; names unique per owner and table, limits, one winner per version. */

let redis: TestRedis
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-views-'))
beforeAll(async () => {
  redis = await startTestRedis()
}, 30_000)
afterAll(async () => {
  await redis?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

let n = 0
const view = (name: string, extra: Partial<View> = {}): View => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  name,
  screen: 'contratos-listado',
  table: 'contratos',
  filters: { Titular: 'García' },
  sort: { field: 'FechaAlta', order: 'desc' },
  columns: ['CodigoContrato', 'Titular'],
  visibility: 'private',
  owner: { id: 1, name: 'Ana' },
  brand: 'verde',
  version: 1,
  updatedAt: '2026-11-29T10:00:00.000Z',
  ...extra,
})

const adapters: [string, () => Promise<{ store: ViewStore; sibling: () => Promise<ViewStore> }>][] = [
  [
    'SQLite',
    async () => {
      const file = path.join(dir, `v-${Math.random()}.db`)
      return { store: new SqliteViewStore(file), sibling: async () => new SqliteViewStore(file) }
    },
  ],
  [
    'Redis',
    async () => {
      await redis.flush()
      return { store: await RedisViewStore.open(redis.url), sibling: () => RedisViewStore.open(redis.url) }
    },
  ],
]

describe.each(adapters)('%s view store', (_name, open) => {
  let store: ViewStore
  let sibling: () => Promise<ViewStore>
  beforeEach(async () => {
    ;({ store, sibling } = await open())
    return () => store.close()
  })

  it('keeps views by table and brand, and gives one back whole', async () => {
    const a = view('Uno', { layout: { widths: { Titular: 200 } } })
    const b = view('Dos', { owner: { id: 2, name: 'Sara' }, visibility: 'group', groupId: 4, groupName: 'Backoffice' })
    const other = view('Otra tabla', { table: 'otra' })
    const elsewhere = view('Otra marca', { brand: 'grupo' })
    for (const v of [a, b, other, elsewhere]) expect(await store.create(v)).toBe('ok')
    expect((await store.listTable('verde', 'contratos-listado', 'contratos')).map((v) => v.name).sort()).toEqual(['Dos', 'Uno'])
    expect(await store.get(a.id)).toEqual(a)
    expect(await store.get(b.id)).toEqual(b)
    expect(await store.get('00000000-0000-4000-8000-999999999999')).toBeNull()
    expect(await store.listTable('grupo', 'contratos-listado', 'contratos')).toEqual([elsewhere])
  })

  it('a name is unique per brand, owner, screen and table, whatever its case', async () => {
    expect(await store.create(view('Activos'))).toBe('ok')
    expect(await store.create(view('  ACTIVOS '))).toBe('name-taken')
    expect(await store.create(view('Activos', { owner: { id: 2, name: 'Sara' } }))).toBe('ok')
    expect(await store.create(view('Activos', { table: 'otra' }))).toBe('ok')
    expect(await store.create(view('Activos', { brand: 'grupo' }))).toBe('ok')
    const renamed = view('Bajas')
    expect(await store.create(renamed)).toBe('ok')
    expect(await store.replace({ ...renamed, name: 'activos', version: 2 }, 1)).toBe('name-taken')
    expect(await store.replace({ ...renamed, name: 'Bajas 2026', version: 2 }, 1)).toBe('ok')
    // The old name is free again.
    expect(await store.create(view('Bajas'))).toBe('ok')
  })

  it('limits how many views an owner keeps per table and per brand', async () => {
    const limits = { perTable: 2, perOwner: 3 }
    expect(await store.create(view('a'), limits)).toBe('ok')
    expect(await store.create(view('b'), limits)).toBe('ok')
    expect(await store.create(view('c'), limits)).toBe('table-full')
    expect(await store.create(view('c', { table: 'otra' }), limits)).toBe('ok')
    expect(await store.create(view('d', { table: 'tercera' }), limits)).toBe('owner-full')
    expect(await store.create(view('d', { table: 'tercera', owner: { id: 9, name: 'Otro' } }), limits)).toBe('ok')
  })

  it('replaces and removes only at the expected version; of two racing writes one wins', async () => {
    const v = view('Carrera')
    await store.create(v)
    expect(await store.replace({ ...v, filters: {}, version: 2 }, 2)).toBe('stale')
    expect(await store.replace({ ...v, filters: {}, version: 2 }, 1)).toBe('ok')
    const other = await sibling()
    try {
      const results = await Promise.all([store.replace({ ...v, filters: { Titular: 'a' }, version: 3 }, 2), other.replace({ ...v, filters: { Titular: 'b' }, version: 3 }, 2)])
      expect(results.sort()).toEqual(['ok', 'stale'])
      expect((await other.get(v.id))?.version).toBe(3)
    } finally {
      await other.close()
    }
    expect(await store.remove(v.id, 1)).toBe('stale')
    expect(await store.remove(v.id, 3)).toBe('ok')
    expect(await store.remove(v.id)).toBe('missing')
    expect(await store.replace({ ...v, version: 4 }, 3)).toBe('missing')
    expect(await store.listTable('verde', 'contratos-listado', 'contratos')).toEqual([])
    // Its name and its place in the owner's count are free again.
    expect(await store.create(view('Carrera'), { perTable: 1, perOwner: 1 })).toBe('ok')
  })
})
