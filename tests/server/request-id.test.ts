import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signedInBffOverFake, type SignedInBff } from '../helpers/bff'
import type { FakeUpstream } from '../helpers/fake-upstream'

let env: SignedInBff
let upstream: FakeUpstream
let bff: SignedInBff['bff']
let cookie: string

beforeAll(async () => {
  env = await signedInBffOverFake()
  ;({ upstream, bff, cookie } = env)
})
afterAll(async () => {
  await env?.close()
})
beforeEach(() => {
  upstream.requests.length = 0
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The request-completed log line of a request id. */
const completedLine = (id: string) => bff.logs.lines.find((l) => l.reqId === id && l.msg === 'request completed')

describe('request ids', () => {
  it('the BFF\'s own upstream calls carry the id the response echoes and the log line names', async () => {
    const res = await request(bff.app.server)
      .post('/bff/auth/login')
      .set('X-CSRF', '1')
      .set('X-Request-Id', 'elegido-por-el-cliente')
      .send({ username: 'prueba@portal.test', password: 'correcta' })
      .expect(200)
    const id = String(res.headers['x-request-id'])
    expect(id).toMatch(UUID)
    // Sign-in is two upstream calls (the token, then the user): both carry the same id.
    const calls = upstream.requests.filter((r) => r.url === '/api/auth/login' || r.url === '/api/auth/session')
    expect(calls.map((r) => r.url)).toEqual(['/api/auth/login', '/api/auth/session'])
    for (const call of calls) expect(call.headers['x-request-id']).toBe(id)
    expect(completedLine(id)).toBeDefined()
  })

  it('proxied /api/* calls carry the id the response echoes, never the browser\'s', async () => {
    const res = await request(bff.app.server).get('/api/echo/facturas?pageIndex=0').set('Cookie', cookie).set('X-Request-Id', 'elegido-por-el-cliente').expect(200)
    const id = String(res.headers['x-request-id'])
    expect(id).toMatch(UUID)
    expect(upstream.requests).toHaveLength(1)
    expect(upstream.requests[0]!.headers['x-request-id']).toBe(id)
    expect(completedLine(id)).toBeDefined()
  })

  it('every request gets its own id, errors included', async () => {
    const a = await request(bff.app.server).get('/api/echo/a').set('Cookie', cookie).expect(200)
    const b = await request(bff.app.server).get('/api/echo/b').expect(401)
    const c = await request(bff.app.server).get('/bff/no-existe').expect(404)
    const ids = [a, b, c].map((r) => String(r.headers['x-request-id']))
    for (const id of ids) expect(id).toMatch(UUID)
    expect(new Set(ids).size).toBe(3)
  })

  it('the request-completed line names method, masked URL, host, status and time, and nothing secret', async () => {
    const iban = 'ES9121000418450200051332'
    const res = await request(bff.app.server)
      .get(`/api/echo/clientes?Nif=12345678Z&iban=${iban}&pageIndex=0`)
      .set('Cookie', cookie)
      .set('Host', 'portal.energialimpia.localhost:3000')
      .expect(200)
    const line = completedLine(String(res.headers['x-request-id']))!
    expect(line).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/echo/clientes?Nif=12*****8Z&iban=ES************32&pageIndex=0', host: 'portal.energialimpia.localhost:3000' },
      res: { statusCode: 200 },
    })
    expect(typeof line.responseTime).toBe('number')
    const text = JSON.stringify(line)
    for (const secret of [iban, '12345678Z', cookie.split('=')[1]!]) expect(text).not.toContain(secret)
  })

  it('what a request logs along the way carries its id too (the request logger is made on first use)', async () => {
    const res = await request(bff.app.server).post('/api/echo/insert').set('Cookie', cookie).send({}).expect(403)
    const id = String(res.headers['x-request-id'])
    const warning = bff.logs.lines.find((l) => l.reqId === id && l.event === 'csrf_rejected')
    expect(warning).toMatchObject({ level: 40, method: 'POST' })
    expect(completedLine(id)).toBeDefined()
  })
})
