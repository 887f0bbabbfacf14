import fc from 'fast-check'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Four-eyes as a security boundary: whatever people do, in whatever order (ask for a change a
 * policy names, approve or reject anyone's request, let 48 hours pass), a policy-matching
 * mutation reaches the upstream only after a GESTORACCESS user other than its requester
 * approved it, and only once. The upstream is watched through a recording relay in front of
 * the reference API.
 */

const SUPERVISOR = { username: 'supervisor@portal.test', password: 'Portal-Supervisor-2026!' }
const PEOPLE = ['admin', 'supervisor', 'agente'] as const
type Person = (typeof PEOPLE)[number]
const APPROVERS = new Set<Person>(['admin', 'supervisor'])

let api: RunningReferenceApi
let relay: http.Server
let bff: TestBff
let clock = Date.now()
let apiUserId = 0
const cookies = {} as Record<Person, string>
/** Descriptions of the key generations the upstream received. */
const reachedUpstream: string[] = []

/** Forwards everything to the reference API, noting each key generation it passes on. */
function startRelay(target: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      if (req.method === 'POST' && req.url?.startsWith('/api/apikey/generate')) reachedUpstream.push(String((JSON.parse(body.toString('utf8')) as { Descripcion?: string }).Descripcion))
      const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      up.on('error', () => res.writeHead(502).end())
      up.end(body)
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

const signIn = async (creds: typeof ADMIN) => sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(creds).expect(200)).headers['set-cookie'])

beforeAll(async () => {
  api = await startReferenceApi()
  relay = await startRelay(api.url)
  bff = await buildTestBff(`http://127.0.0.1:${(relay.address() as AddressInfo).port}`, {}, { approvalClock: () => clock })
  cookies.admin = await signIn(ADMIN)
  cookies.supervisor = await signIn(SUPERVISOR)
  cookies.agente = await signIn(AGENTE)
  apiUserId = (await request(bff.app.server).get('/api/apiusers/listado-api-user?pageIndex=0&pageSize=1').set('Cookie', cookies.admin).expect(200)).body.Items[0].Id
}, 60_000)
afterAll(async () => {
  await bff?.close()
  await new Promise((r) => relay?.close(r))
  await api?.close()
})

type Step = { kind: 'ask'; who: Person } | { kind: 'approve' | 'reject'; who: Person; pick: number } | { kind: 'wait' }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('ask' as const), who: fc.constantFrom(...PEOPLE) }),
  fc.record({ kind: fc.constantFrom('approve' as const, 'reject' as const), who: fc.constantFrom(...PEOPLE), pick: fc.nat(20) }),
  fc.constant({ kind: 'wait' as const }),
)

let run = 0

describe('four-eyes, whatever the order of events', () => {
  it('a policy-matching mutation reaches the upstream only once approved by another GESTORACCESS user, and once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        run++
        const held: { id: string; description: string; requester: Person }[] = []
        const approvedByAnother = new Set<string>()
        const before = reachedUpstream.length
        for (const [i, s] of steps.entries()) {
          if (s.kind === 'wait') {
            clock += 49 * 3600_000
            continue
          }
          if (s.kind === 'ask') {
            const description = `propiedad ${run}-${i}`
            const res = await request(bff.app.server).post('/api/apikey/generate').set('X-CSRF', '1').set('Cookie', cookies[s.who]).send({ ApiUserId: apiUserId, Descripcion: description })
            // Never sent straight through: held for approval, or refused to whoever lacks the call's permission.
            expect(res.status).toBe(APPROVERS.has(s.who) ? 202 : 403)
            if (res.status === 202) held.push({ id: res.body.pendingId, description, requester: s.who })
            continue
          }
          const target = held[s.pick % Math.max(held.length, 1)]
          if (!target) continue
          const res = await request(bff.app.server).post(`/bff/approvals/${target.id}/${s.kind}`).set('X-CSRF', '1').set('Cookie', cookies[s.who]).send({})
          expect(res.status).not.toBe(500)
          if (s.kind === 'approve' && res.status === 200 && res.body.status === 'approved') {
            expect(APPROVERS.has(s.who) && s.who !== target.requester).toBe(true)
            approvedByAnother.add(target.description)
          }
        }
        const reached = reachedUpstream.slice(before)
        // Each that reached the upstream was approved by someone else with GESTORACCESS, once; and each such approval reached it.
        expect([...reached].sort()).toEqual([...approvedByAnother].sort())
        expect(new Set(reached).size).toBe(reached.length)
      }),
      { numRuns: 25 },
    )
  }, 240_000)
})
