import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalStore, StoredApproval } from '../../server/approvals/approval-store'
import { RedisApprovalStore } from '../../server/approvals/redis-approval-store'
import { SqliteApprovalStore } from '../../server/approvals/sqlite-approval-store'
import type { NoticeStore } from '../../server/notices/notice-store'
import { RedisNoticeStore } from '../../server/notices/redis-notice-store'
import { SqliteNoticeStore } from '../../server/notices/sqlite-notice-store'
import { startTestRedis, type TestRedis } from '../helpers/redis'

/** The held requests' and the notices' stores: both adapters, the same behaviour; one winner per transition. */

const held = (id: string, requester: number, createdAt: number): StoredApproval => ({
  id,
  status: 'pending',
  policies: [{ id: 'apikey-generate', label: { es: 'Generar una clave de API' } }],
  call: 'POST api/apikey/generate',
  callId: 'apiKey.generate',
  changes: [],
  requester: { id: requester, email: `u${requester}@portal.test` },
  brand: 'verde',
  brandDomain: 'energiaverde.es',
  method: 'POST',
  upstreamPath: '/api/apikey/generate',
  sealedBody: 'v1.sellado',
  requestId: `req-${id}`,
  createdAt,
  expiresAt: createdAt + 48 * 3600_000,
  waitingForApprover: false,
})

let redis: TestRedis
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-approvals-'))
beforeAll(async () => {
  redis = await startTestRedis()
}, 30_000)
afterAll(async () => {
  await redis?.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const adapters: [string, () => Promise<{ approvals: ApprovalStore; notices: NoticeStore }>][] = [
  ['SQLite', async () => ({ approvals: new SqliteApprovalStore(path.join(dir, `a-${Math.random()}.db`)), notices: new SqliteNoticeStore(path.join(dir, `n-${Math.random()}.db`)) })],
  [
    'Redis',
    async () => {
      await redis.flush()
      return { approvals: await RedisApprovalStore.open(redis.url), notices: await RedisNoticeStore.open(redis.url) }
    },
  ],
]

describe.each(adapters)('%s', (_name, open) => {
  let stores: { approvals: ApprovalStore; notices: NoticeStore }
  beforeEach(async () => {
    stores = await open()
    return async () => {
      await stores.approvals.close()
      await stores.notices.close()
    }
  })

  it('keeps requests, lists them newest first by state and requester', async () => {
    await stores.approvals.create(held('a', 1, 1000))
    await stores.approvals.create(held('b', 2, 2000))
    await stores.approvals.create(held('c', 1, 3000))
    expect((await stores.approvals.get('b'))?.requester.id).toBe(2)
    expect(await stores.approvals.get('z')).toBeNull()
    expect((await stores.approvals.list({ status: ['pending'], limit: 10 })).map((a) => a.id)).toEqual(['c', 'b', 'a'])
    expect((await stores.approvals.list({ requesterId: 1, limit: 10 })).map((a) => a.id)).toEqual(['c', 'a'])
    expect((await stores.approvals.list({ status: ['pending'], limit: 1 })).map((a) => a.id)).toEqual(['c'])
  })

  it('a transition happens once: of two racing approvals, one wins; a decided request does not move back', async () => {
    await stores.approvals.create(held('a', 1, 1000))
    const [one, two] = await Promise.all([
      stores.approvals.transition('a', 'pending', { status: 'approving', decidedBy: { id: 2, email: 'u2@portal.test' } }),
      stores.approvals.transition('a', 'pending', { status: 'rejected', decidedBy: { id: 3, email: 'u3@portal.test' } }),
    ])
    expect([one, two].filter(Boolean)).toHaveLength(1)
    const winner = (one ?? two)!
    expect((await stores.approvals.get('a'))?.status).toBe(winner.status)
    expect(await stores.approvals.transition('a', 'pending', { status: 'expired' })).toBeNull()
    expect(await stores.approvals.transition('nada', 'pending', { status: 'expired' })).toBeNull()
    expect((await stores.approvals.list({ status: ['pending'], limit: 10 })).map((a) => a.id)).toEqual([])
  })

  it('prunes decided and expired requests decided before the cut, keeping pending, in-flight and recent ones', async () => {
    const DAY = 24 * 3600_000
    const t0 = 100 * DAY
    const make = async (id: string, createdAt: number, status: StoredApproval['status'] | null, decidedAt?: number) => {
      await stores.approvals.create(held(id, 1, createdAt))
      if (status) expect(await stores.approvals.transition(id, 'pending', { status, decidedAt })).not.toBeNull()
    }
    await make('approved-old', t0, 'approved', t0 + DAY)
    await make('rejected-old', t0 + 1, 'rejected', t0 + DAY)
    await make('failed-old', t0 + 2, 'failed', t0 + DAY)
    await make('expired-old', t0 + 3, 'expired', t0 + 2 * DAY)
    // Created long ago but decided after the cut: kept.
    await make('approved-late', t0 + 4, 'approved', t0 + 20 * DAY)
    // Never decided, however old: kept until decided or expired.
    await make('pending-old', t0 + 5, null)
    await make('approving-old', t0 + 6, 'approving', t0 + DAY)
    await make('approved-new', t0 + 15 * DAY, 'approved', t0 + 15 * DAY)
    const cut = t0 + 10 * DAY

    expect(await stores.approvals.prune(cut)).toBe(4)
    for (const id of ['approved-old', 'rejected-old', 'failed-old', 'expired-old']) expect(await stores.approvals.get(id)).toBeNull()
    const left = (await stores.approvals.list({ limit: 100 })).map((a) => a.id).sort()
    expect(left).toEqual(['approved-late', 'approved-new', 'approving-old', 'pending-old'])
    // Nothing more to prune at the same cut.
    expect(await stores.approvals.prune(cut)).toBe(0)
  })

  it('notices wait per user until dismissed', async () => {
    const notice = (id: string, at: string) => ({ id, at, severity: 'info' as const, title: { es: 'Aprobaciones', en: 'Approvals' }, text: { es: 'Hola', en: 'Hello' } })
    await stores.notices.add(1, notice('n2', '2026-11-28T10:00:01.000Z'))
    await stores.notices.add(1, notice('n1', '2026-11-28T10:00:00.000Z'))
    await stores.notices.add(2, notice('n3', '2026-11-28T10:00:00.000Z'))
    expect((await stores.notices.pending(1)).map((n) => n.id)).toEqual(['n1', 'n2'])
    await stores.notices.dismiss(1, ['n1', 'n3'])
    expect((await stores.notices.pending(1)).map((n) => n.id)).toEqual(['n2'])
    expect((await stores.notices.pending(2)).map((n) => n.id)).toEqual(['n3'])
  })
})
