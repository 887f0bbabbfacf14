import net, { type AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'
import { UpstreamError, outcomeOfError, outcomeOfStatus } from '../../server/upstream/upstream-client'
import { FAKE_USER as USER, buildTestBff, sessionCookie, signedInBffOverFake, type SignedInBff, type TestBff } from '../helpers/bff'
import { startFakeUpstream } from '../helpers/fake-upstream'
import { freePort } from '../helpers/portal-process'

/** The value of one sample of a Prometheus text exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]))
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3])
  }
  return undefined
}

async function scrape(bff: TestBff): Promise<string> {
  const res = await request(bff.app.server).get('/metrics').expect(200)
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  return res.text
}

describe('/metrics', () => {
  let env: SignedInBff
  let bff: TestBff
  let cookie: string

  beforeAll(async () => {
    env = await signedInBffOverFake()
    ;({ bff, cookie } = env)
  })
  afterAll(async () => {
    await env?.close()
  })

  it('counts requests by method, route pattern and status, never by raw URL', async () => {
    await request(bff.app.server).get('/api/echo/contrato-991?cups=ES0021000000000001RK').set('Cookie', cookie).expect(200)
    await request(bff.app.server).get('/bff/screens/contratos-770').expect(401)
    await request(bff.app.server).get('/bff/no-existe-4411').expect(404)
    const text = await scrape(bff)

    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/api/*', status: '200' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/bff/screens/:id', status: '401' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'http_requests_total', { method: 'POST', route: '/bff/auth/login', status: '200' })).toBe(1)
    expect(text).not.toMatch(/contrato-991|ES0021000000000001RK|contratos-770|no-existe-4411/)
  })

  it('keeps a latency histogram with the same labels', async () => {
    const text = await scrape(bff)
    const count = sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/bff/auth/login', status: '200' })
    expect(count).toBe(1)
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'POST', route: '/bff/auth/login', status: '200', le: '+Inf' })).toBe(1)
    expect(sample(text, 'http_request_duration_seconds_sum', { method: 'POST', route: '/bff/auth/login', status: '200' })).toBeGreaterThan(0)
  })

  it('the request counter follows every request, also across scrapes made at the same time', async () => {
    const labels = { method: 'GET', route: '/bff/screens/:id', status: '401' }
    const before = sample(await scrape(bff), 'http_requests_total', labels) ?? 0
    for (let i = 0; i < 3; i++) await request(bff.app.server).get('/bff/screens/otra').expect(401)
    const [a, b] = await Promise.all([scrape(bff), scrape(bff)])
    // Each scrape is itself a request (GET /metrics 200), so only the 401s are compared.
    for (const text of [a, b]) {
      expect(sample(text, 'http_requests_total', labels)).toBe(before + 3)
      expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(before + 3)
    }
  })

  it('counts upstream calls of the BFF and of the proxy by outcome, with their latency', async () => {
    await request(bff.app.server).get('/api/not-in-the-fake').set('Cookie', cookie).expect(404)
    const text = await scrape(bff)
    // The sign-in is two BFF calls (login, then the user); the proxied ones come from the tests above.
    expect(sample(text, 'upstream_requests_total', { via: 'bff', outcome: '2xx' })).toBe(2)
    expect(sample(text, 'upstream_requests_total', { via: 'proxy', outcome: '2xx' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'upstream_requests_total', { via: 'proxy', outcome: '4xx' })).toBe(1)
    expect(sample(text, 'upstream_request_duration_seconds_count', { via: 'bff', outcome: '2xx' })).toBe(2)
    expect(sample(text, 'upstream_request_duration_seconds_bucket', { via: 'proxy', outcome: '4xx', le: '+Inf' })).toBe(1)
  })

  it('reports the active sessions, read from the store at scrape time', async () => {
    expect(sample(await scrape(bff), 'portal_sessions_active')).toBe(1)
    const other = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(USER).expect(200)
    expect(sample(await scrape(bff), 'portal_sessions_active')).toBe(2)
    await request(bff.app.server).post('/bff/auth/logout').set('Cookie', sessionCookie(other.headers['set-cookie'])).set('X-CSRF', '1').expect(204)
    expect(sample(await scrape(bff), 'portal_sessions_active')).toBe(1)
  })

  it('counts the bursts of new connections it accepted before reading the open ones (issue 19)', async () => {
    await bff.app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = bff.app.server.address() as AddressInfo
    // Earlier tests' parallel requests may have made some already.
    const before = sample(await scrape(bff), 'http_connection_bursts_total')!
    expect(before).toBeGreaterThanOrEqual(0)
    const sockets = Array.from({ length: 150 }, () => net.connect(port, '127.0.0.1'))
    try {
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((resolve, reject) => {
              socket.on('error', reject)
              socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n')
              socket.once('data', () => resolve())
            }),
        ),
      )
    } finally {
      for (const s of sockets) s.destroy()
    }
    expect(sample(await scrape(bff), 'http_connection_bursts_total')).toBeGreaterThan(before)
  })

  it('includes the process metrics: event-loop lag, memory, CPU', async () => {
    const text = await scrape(bff)
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0)
  })
})

describe('upstream failures in the metrics', () => {
  it('counts calls that got no answer as errors, for the BFF and for the proxy', async () => {
    const upstream = await startFakeUpstream()
    const bff = await buildTestBff(upstream.url)
    try {
      const login = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(USER).expect(200)
      const cookie = sessionCookie(login.headers['set-cookie'])
      await upstream.close()
      await request(bff.app.server).get('/api/echo/x').set('Cookie', cookie).expect(502)
      await request(bff.app.server).get('/readyz').expect(503)
      const text = await scrape(bff)
      expect(sample(text, 'upstream_requests_total', { via: 'proxy', outcome: 'error' })).toBe(1)
      expect(sample(text, 'upstream_requests_total', { via: 'bff', outcome: 'error' })).toBe(1)
      expect(sample(text, 'http_requests_total', { method: 'GET', route: '/api/*', status: '502' })).toBe(1)
    } finally {
      await bff.close()
    }
  })

  it('names outcomes by status class, and timeouts apart from other failures', () => {
    expect([200, 204, 302, 401, 404, 500, 503].map(outcomeOfStatus)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx', '5xx'])
    expect(outcomeOfError(new UpstreamError(504, 'x'))).toBe('timeout')
    expect(outcomeOfError(new UpstreamError(502, 'x'))).toBe('error')
  })
})

describe('who may read /metrics', () => {
  let upstreamUrl: string
  beforeAll(async () => {
    // Nothing listens there: these tests never reach the upstream.
    upstreamUrl = `http://127.0.0.1:${await freePort()}`
  })

  it('with METRICS_TOKEN, only a request bearing it, from anywhere', async () => {
    const bff = await buildTestBff(upstreamUrl, { METRICS_TOKEN: 'token-de-metricas-0123456789' })
    try {
      const none = await request(bff.app.server).get('/metrics').expect(401)
      expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"')
      expect(none.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.stringContaining('token de métricas') })
      await request(bff.app.server).get('/metrics').set('Authorization', 'Bearer token-de-metricas-0123456780').expect(401)
      await request(bff.app.server).get('/metrics').set('Authorization', 'Basic token-de-metricas-0123456789').expect(401)
      const remote = await bff.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.20.30.40', headers: { authorization: 'Bearer token-de-metricas-0123456789' } })
      expect(remote.statusCode).toBe(200)
      expect(remote.body).toMatch(/^# HELP /m)
    } finally {
      await bff.close()
    }
  })

  it('in production without a token, only this machine, and not through a proxy', async () => {
    const bff = await buildTestBff(upstreamUrl, { NODE_ENV: 'production' })
    try {
      const host = 'portal.energiaverde.es'
      const local = await bff.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { host } })
      expect(local.statusCode).toBe(200)
      const local6 = await bff.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1', headers: { host } })
      expect(local6.statusCode).toBe(200)
      const remote = await bff.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.20.30.40', headers: { host } })
      expect(remote.statusCode).toBe(403)
      expect(remote.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: expect.stringContaining('misma máquina') })
      const proxied = await bff.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers: { host, 'x-forwarded-for': '203.0.113.9' } })
      expect(proxied.statusCode).toBe(403)
    } finally {
      await bff.close()
    }
  })

  it('outside production without a token, anyone (development)', async () => {
    const bff = await buildTestBff(upstreamUrl)
    try {
      const remote = await bff.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.20.30.40' })
      expect(remote.statusCode).toBe(200)
    } finally {
      await bff.close()
    }
  })

  it('refuses a short METRICS_TOKEN at start, in Spanish', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'corto' })).toThrow(ConfigError)
    expect(() => loadConfig({ METRICS_TOKEN: 'corto' })).toThrow(/METRICS_TOKEN="corto": debe tener al menos 16 caracteres/)
  })
})
