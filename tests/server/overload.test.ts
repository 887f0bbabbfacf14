import request from 'supertest'
import { getHeapStatistics } from 'node:v8'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../server/config'
import { OVERLOAD_MESSAGE, OVERLOAD_RETRY_AFTER_S, overloadOptions } from '../../server/ops/overload'
import { buildTestBff, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

describe('overload', () => {
  let upstream: FakeUpstream
  let bff: TestBff

  beforeAll(async () => {
    upstream = await startFakeUpstream()
    // Every process is above 1 MB of resident memory: from its first sample on, the BFF is under pressure.
    bff = await buildTestBff(upstream.url, { MAX_RSS_MB: '1' })
    const deadline = Date.now() + 15_000
    while ((await request(bff.app.server).get('/bff/build')).status !== 503) {
      if (Date.now() > deadline) throw new Error('the BFF never reported pressure')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  })
  afterAll(async () => {
    await bff?.close()
    await upstream?.close()
  })

  it('answers 503 with Retry-After and the Spanish error body, before any work', async () => {
    upstream.requests.length = 0
    const res = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username: 'prueba@portal.test', password: 'correcta' }).expect(503)
    expect(res.headers['retry-after']).toBe(String(OVERLOAD_RETRY_AFTER_S))
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.headers['x-request-id']).toBeTruthy()
    expect(res.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: OVERLOAD_MESSAGE })
    expect(upstream.requests).toHaveLength(0)
  })

  it('refuses proxied calls and readiness too, so the balancer takes the instance out', async () => {
    await request(bff.app.server).get('/api/echo/x').expect(503)
    await request(bff.app.server).get('/readyz').expect(503)
  })

  it('keeps answering liveness and metrics, which show the refusals', async () => {
    await request(bff.app.server).get('/healthz').expect(200, { status: 'ok' })
    const metrics = await request(bff.app.server).get('/metrics').expect(200)
    expect(metrics.text).toMatch(/^http_requests_total\{method="POST",route="\/bff\/auth\/login",status="503"\} [1-9]/m)
  })

  it('logs why it refuses, not once per refused request', () => {
    const warnings = bff.logs.lines.filter((l) => l.event === 'overloaded')
    const refusals = bff.logs.lines.filter((l) => l.msg === 'request completed' && (l.res as { statusCode: number }).statusCode === 503)
    expect(refusals.length).toBeGreaterThanOrEqual(4)
    expect(warnings.length).toBeGreaterThanOrEqual(1)
    expect(warnings.length).toBeLessThan(refusals.length)
    expect(warnings[0]).toMatchObject({ level: 40, reason: 'rssBytes' })
  })
})

describe('overload thresholds', () => {
  const log = { warn: () => undefined } as never

  it('come from the configuration, in megabytes and milliseconds', () => {
    const config = loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '250', MAX_HEAP_USED_MB: '512', MAX_RSS_MB: '1024' })
    const options = overloadOptions(config.overload, log)
    expect(options).toMatchObject({ maxEventLoopDelay: 250, maxHeapUsedBytes: 512 * 1024 * 1024, maxRssBytes: 1024 * 1024 * 1024, retryAfter: OVERLOAD_RETRY_AFTER_S })
  })

  it('default to 1 s of event-loop delay, 90 % of the V8 heap limit and no RSS limit', () => {
    const options = overloadOptions(loadConfig({}).overload, log)
    expect(options.maxEventLoopDelay).toBe(1000)
    expect(options.maxHeapUsedBytes).toBe(Math.floor(getHeapStatistics().heap_size_limit * 0.9))
    expect(options.maxRssBytes).toBe(0)
  })

  it('0 turns a check off', () => {
    const options = overloadOptions(loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '0', MAX_HEAP_USED_MB: '0' }).overload, log)
    expect(options.maxEventLoopDelay).toBe(0)
    expect(options.maxHeapUsedBytes).toBe(0)
  })

  it('refuses a wrong value at start, naming the variable in Spanish', () => {
    expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '-5' })).toThrow(ConfigError)
    expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '-5' })).toThrow(/MAX_EVENT_LOOP_DELAY_MS="-5": debe ser un número entero entre 0 y 60000/)
    expect(() => loadConfig({ MAX_RSS_MB: 'mucho' })).toThrow(/MAX_RSS_MB="mucho": debe ser un número entero/)
  })
})
