import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { FastifyRequest } from 'fastify'
import type { NewAuditEntry } from '../../schemas/audit'
import { ApprovalService, type ApprovalServiceOptions } from '../../server/approvals/approval-service'
import type { StoredApproval } from '../../server/approvals/approval-store'
import { SqliteApprovalStore } from '../../server/approvals/sqlite-approval-store'
import { TokenCipher } from '../../server/session/token-cipher'
import type { UpstreamCall } from '../../server/upstream/upstream-client'

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

      expect(await svc.sweep()).toEqual({ expired: 1, pruned: 1, withdrawn: 0 })
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

  it('a sign-up that expires is withdrawn upstream with its token, no session; a failed withdrawal is tried again by the sweep until it goes', async () => {
    const store = new SqliteApprovalStore(path.join(dir, 'd.db'))
    let now = 500 * DAY
    const sent: UpstreamCall[] = []
    const answers = [503, 204]
    const audit: NewAuditEntry[] = []
    const opts = {
      store,
      catalogue: {
        calls: [
          { id: 'auth.activate', method: 'PUT', path: 'api/auth/activate' },
          { id: 'auth.rejectSignup', method: 'DELETE', path: 'api/auth/pending' },
          { id: 'auth.withdrawSignup', method: 'POST', path: 'api/auth/register/withdraw' },
        ],
      },
      upstream: {
        call: async (c: UpstreamCall) => {
          sent.push(c)
          return { status: answers.shift() ?? 500, body: '' }
        },
      },
      audit: { write: async (e: NewAuditEntry) => void audit.push(e) },
      notices: { add: async () => undefined },
      cipher: TokenCipher.random(),
      now: () => now,
    } as unknown as ApprovalServiceOptions
    const svc = new ApprovalService(opts)
    const request = { id: 'req-signup', brand: { key: 'verde', Domain: 'energiaverde.es' }, log: { info: () => undefined, warn: () => undefined } } as unknown as FastifyRequest
    try {
      const held = await svc.holdSignUp(request, { Id: 77, Email: 'nueva@correo.es', Nombre: 'Nueva', TokenRetirada: 'token-de-retirada-0123456789' })
      // The token is kept sealed, never in clear.
      expect(JSON.stringify(await store.get(held.id))).not.toContain('token-de-retirada-0123456789')
      expect(sent).toHaveLength(0)

      now += 49 * 3600_000
      expect(await svc.sweep()).toEqual({ expired: 1, pruned: 0, withdrawn: 0 })
      expect(sent).toHaveLength(1)
      expect(sent[0]).toMatchObject({ method: 'POST', path: '/api/auth/register/withdraw', brandDomain: 'energiaverde.es', body: { Id: 77, Token: 'token-de-retirada-0123456789' } })
      expect(sent[0]!.token).toBeUndefined()
      expect((await store.get(held.id))?.status).toBe('expired')
      expect(audit.map((e) => [e.action ?? e.callId, e.outcome.status])).toEqual([
        ['approval.expire', 200],
        ['auth.withdrawSignup', 503],
      ])

      // The next sweep tries again, and once it goes, never again.
      now += 60_000
      expect(await svc.sweep()).toEqual({ expired: 0, pruned: 0, withdrawn: 1 })
      expect(sent).toHaveLength(2)
      expect(audit.at(-1)).toMatchObject({ kind: 'call', actor: null, callId: 'auth.withdrawSignup', call: 'POST api/auth/register/withdraw', outcome: { status: 204, ok: true }, record: { entity: 'usuario', id: '77' } })
      expect(JSON.stringify(audit)).not.toContain('token-de-retirada')
      now += 60_000
      expect(await svc.sweep()).toEqual({ expired: 0, pruned: 0, withdrawn: 0 })
      expect(sent).toHaveLength(2)
    } finally {
      svc.close()
      await store.close()
    }
  })
})
