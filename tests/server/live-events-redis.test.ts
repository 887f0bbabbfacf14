import { randomBytes } from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContractDetail } from '../../schemas/business/contracts'
import { ADMIN, SUPERVISOR, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startTestRedis, type TestRedis } from '../helpers/redis'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { openEvents, type SseEvent, type SseStream } from '../helpers/sse'

/**
 * Live events across replicas: two BFFs sharing a Redis (pub/sub for events, a hash per record for
 * presence). A change saved through one reaches a stream held by the other; a tab whose stream is
 * on one replica and whose presence calls reach the other is still told, and expiries are seen
 * by every replica.
 */

const TTL_MS = 1_500

let redis: TestRedis
let api: RunningReferenceApi
let a: TestBff
let b: TestBff
const bases: Record<'a' | 'b', string> = { a: '', b: '' }
let admin = ''
let supervisor = ''
let code = ''
const open: SseStream[] = []

const app = (which: 'a' | 'b') => (which === 'a' ? a : b).app.server
const call = (which: 'a' | 'b', method: 'get' | 'put' | 'post', path: string, cookie: string, body?: unknown, headers: Record<string, string> = {}) => {
  const r = request(app(which))[method](path).set('X-CSRF', '1').set('Cookie', cookie)
  for (const [k, v] of Object.entries(headers)) r.set(k, v)
  return body === undefined ? r : r.send(body as object)
}
async function stream(which: 'a' | 'b', cookie: string) {
  const s = await openEvents(bases[which], { cookie })
  open.push(s)
  expect(s.status).toBe(200)
  return Object.assign(s, { connection: (await s.next((e) => e.event === 'hello')).data.connection as string })
}
const nameOf = (email: string) => {
  const u = api.db.prepare('SELECT nombre, apellidos FROM usuarios WHERE email = ?').get(email) as { nombre: string; apellidos: string | null }
  return [u.nombre, u.apellidos].filter(Boolean).join(' ')
}
const names = (e: SseEvent) => JSON.stringify(e.data.viewers.map((v: { name: string }) => v.name))

beforeAll(async () => {
  redis = await startTestRedis()
  api = await startReferenceApi()
  const env = { REDIS_URL: redis.url, SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64') }
  const liveTimings = { heartbeatMs: 5_000, presenceTtlMs: TTL_MS, sweepMs: 100 }
  a = await buildTestBff(api.url, env, { liveTimings })
  b = await buildTestBff(api.url, env, { liveTimings })
  bases.a = await a.app.listen({ host: '127.0.0.1', port: 0 })
  bases.b = await b.app.listen({ host: '127.0.0.1', port: 0 })
  const signIn = async (creds: { username: string; password: string }) => sessionCookie((await request(app('a')).post('/bff/auth/login').set('X-CSRF', '1').send(creds).expect(200)).headers['set-cookie'])
  admin = await signIn(ADMIN)
  supervisor = await signIn(SUPERVISOR)
  code = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id LIMIT 1").get() as { codigo: string }).codigo
}, 60_000)
afterAll(async () => {
  for (const s of open) s.close()
  await a?.close()
  await b?.close()
  await api?.close()
  await redis?.close()
})

describe('across two replicas over Redis', () => {
  it('a contract saved through one reaches a stream held by the other', async () => {
    const onB = await stream('b', supervisor)
    const read = await call('a', 'get', `/api/contract/id?codigo=${code}`, admin).expect(200)
    const record = read.body as ContractDetail
    await call('a', 'put', `/api/contract/update?codigo=${code}`, admin, { ...record, Cliente: { ...record.Cliente, Municipio: 'Fuenlabrada' } }, { 'If-Match': String(read.headers.etag) }).expect(200)
    expect((await onB.next((e) => e.event === 'change' && e.data.id === code)).data).toEqual({ type: 'change', entity: 'contrato', id: code, call: 'PUT api/contract/update' })
    onB.close()
  })

  it('presence reaches a tab whatever replica holds its stream or answers its calls, and its expiry too', async () => {
    const supOnB = await stream('b', supervisor)
    const admOnA = await stream('a', admin)
    // Each tab's presence call reaches the other replica than its stream.
    await call('a', 'post', '/bff/presence', supervisor, { entity: 'contrato', id: code, connection: supOnB.connection }).expect(200)
    const answer = await call('b', 'post', '/bff/presence', admin, { entity: 'contrato', id: code, connection: admOnA.connection }).expect(200)
    expect(answer.body.viewers).toHaveLength(1)
    const told = await supOnB.next((e) => e.event === 'presence' && e.data.viewers.length === 1)
    expect(names(told)).toBe(JSON.stringify([nameOf('admin@portal.test')]))
    expect(answer.body.viewers).toEqual([{ name: nameOf('supervisor@portal.test') }])
    await admOnA.next((e) => e.event === 'presence' && names(e) === JSON.stringify([nameOf('supervisor@portal.test')]))
    // Admin stops saying so; the supervisor keeps on: replica B sees the expiry in Redis.
    const beat = setInterval(() => void call('a', 'post', '/bff/presence', supervisor, { entity: 'contrato', id: code, connection: supOnB.connection }).then(() => undefined), 400)
    try {
      const from = supOnB.events.length
      await supOnB.next((e) => supOnB.events.indexOf(e) >= from && e.event === 'presence' && e.data.viewers.length === 0, TTL_MS * 3)
    } finally {
      clearInterval(beat)
    }
    supOnB.close()
    admOnA.close()
  })
})
