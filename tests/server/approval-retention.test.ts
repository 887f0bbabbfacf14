import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { ApprovalService, type ApprovalServiceOptions } from '../../server/approvals/approval-service'
import type { StoredApproval } from '../../server/approvals/approval-store'
import { SqliteApprovalStore } from '../../server/approvals/sqlite-approval-store'

/**
 * Held requests do not pile up: pending ones stay until decided or expired (48 h); decided and
 * expired ones are deleted once older than the retention, by a timer that runs on its own.
 */

const DAY = 24 * 3600_000
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-approval-retention-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
afterEach(() => vi.useRealTimers())

const held = (id: string, createdAt: number): StoredApproval => ({
  id,
  status: 'pending',
  policies: [{ id: 'apikey-generate', label: { es: 'Generar una clave de API' } }],
  call: 'POST api/apikey/generate',
  callId: 'apiKey.generate',
  changes: [],
  requester: { id: 1, email: 'u1@portal.test' },
  brand: 'verde',
  brandDomain: 'energiaverde.es',
  method: 'POST',
  upstreamPath: '/api/apikey/generate',
  sealedBody: null,
  requestId: `req-${id}`,
  createdAt,
  expiresAt: createdAt + 2 * DAY,
  waitingForApprover: false,
})

function service(store: SqliteApprovalStore, now: () => number, retentionMs?: number) {
  const written: string[] = []
  // Only what the sweep touches: the store, the audit of an expiry and the requester's notice.
  const opts = {
    store,
    catalogue: { calls: [] },
    audit: { write: async (e: { action?: string }) => void written.push(e.action ?? '') },
    notices: { add: async () => undefined },
    retentionMs,
    now,
  } as unknown as ApprovalServiceOptions
  return { svc: new ApprovalService(opts), written }
}

describe('approval retention', () => {
  it('the sweep expires what is due and prunes what was decided before the retention, keeping the rest', async () => {
    const store = new SqliteApprovalStore(path.join(dir, 'a.db'))
    let now = 200 * DAY
    const { svc, written } = service(store, () => now, 30 * DAY)
    try {
      await store.create(held('old-approved', now - 60 * DAY))
      await store.transition('old-approved', 'pending', { status: 'approved', decidedAt: now - 59 * DAY })
      await store.create(held('recent-rejected', now - 60 * DAY))
      await store.transition('recent-rejected', 'pending', { status: 'rejected', decidedAt: now - 10 * DAY })
      await store.create(held('due', now - 3 * DAY))
      await store.create(held('waiting', now - DAY))

      expect(await svc.sweep()).toEqual({ expired: 1, pruned: 1 })
      expect(written).toEqual(['approval.expire'])
      expect(await store.get('old-approved')).toBeNull()
      expect((await store.get('recent-rejected'))?.status).toBe('rejected')
      expect((await store.get('due'))?.status).toBe('expired')
      expect((await store.get('waiting'))?.status).toBe('pending')

      // 31 days on: the expiry and the rejection are past the retention; a pending request is never pruned.
      now += 31 * DAY
      await store.create(held('new-pending', now - DAY))
      const { pruned } = await svc.sweep()
      expect(pruned).toBe(2)
      expect((await store.list({ limit: 10 })).map((a) => [a.id, a.status])).toEqual([
        ['new-pending', 'pending'],
        ['waiting', 'expired'],
      ])
    } finally {
      svc.close()
      await store.close()
    }
  })

  it('runs on a timer that does not keep the process alive', () => {
    const store = new SqliteApprovalStore(path.join(dir, 'b.db'))
    const spy = vi.spyOn(globalThis, 'setInterval')
    const { svc } = service(store, () => Date.now())
    try {
      const timer = spy.mock.results[0]?.value as NodeJS.Timeout
      expect(timer.hasRef()).toBe(false)
    } finally {
      spy.mockRestore()
      svc.close()
      void store.close()
    }
  })

  it('the timer prunes by itself, 90 days after the decision by default', async () => {
    vi.useFakeTimers()
    const store = new SqliteApprovalStore(path.join(dir, 'c.db'))
    const start = 400 * DAY
    const { svc } = service(store, () => start)
    try {
      await store.create(held('a', start - 100 * DAY))
      await store.transition('a', 'pending', { status: 'approved', decidedAt: start - 91 * DAY })
      await store.create(held('b', start - 100 * DAY))
      await store.transition('b', 'pending', { status: 'approved', decidedAt: start - 89 * DAY })
      await vi.advanceTimersByTimeAsync(61_000)
      expect(await store.get('a')).toBeNull()
      expect((await store.get('b'))?.status).toBe('approved')
    } finally {
      svc.close()
      await store.close()
    }
  })
})
