import Fastify, { type FastifyInstance } from 'fastify'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRACING_SERVICE_NAME, startTracing, type Tracing } from '../../server/ops/tracing'
import { buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'
import { freePort, startPortalProcess } from '../helpers/portal-process'

interface OtlpValue {
  stringValue?: string
  intValue?: number | string
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: OtlpValue }[]
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[]
}

const SPAN_KIND_SERVER = 2
const SPAN_KIND_CLIENT = 3

/** A stand-in OpenTelemetry collector: keeps what the OTLP/HTTP JSON exporter posts to /v1/traces. */
async function startCollector(): Promise<{ url: string; exports: OtlpExport[]; app: FastifyInstance }> {
  const app = Fastify()
  const exports: OtlpExport[] = []
  app.post('/v1/traces', async (req) => {
    exports.push(req.body as OtlpExport)
    return {}
  })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return { url, exports, app }
}

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value
  return v?.stringValue ?? (v?.intValue === undefined ? undefined : String(v.intValue))
}

/** Signs in sending the body in two writes, the second a moment later (as a slow client would). */
async function slowLogin(bff: TestBff): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  await bff.app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = bff.app.server.address() as AddressInfo
  const body = Buffer.from(JSON.stringify({ username: 'prueba@portal.test', password: 'correcta' }))
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/bff/auth/login', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-csrf': '1' } })
    req.once('error', reject)
    req.once('response', (res) => {
      res.resume()
      res.once('end', () => (res.statusCode === 200 ? resolve({ status: 200, headers: res.headers }) : reject(new Error(`sign-in answered ${res.statusCode}`))))
    })
    req.write(body.subarray(0, 10))
    setTimeout(() => req.end(body.subarray(10)), 50)
  })
}

describe('tracing', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>
  let upstream: FakeUpstream
  let tracing: Tracing
  let bff: TestBff
  let spans: OtlpSpan[]
  let serviceNames: string[]
  let loginRequestId: string
  let proxiedRequestId: string

  beforeAll(async () => {
    collector = await startCollector()
    upstream = await startFakeUpstream()
    tracing = await startTracing(collector.url)
    bff = await buildTestBff(upstream.url, {}, { tracing })

    // A call whose JSON body arrives in two pieces, read before the handler runs, and a proxied one.
    const login = await slowLogin(bff)
    loginRequestId = String(login.headers['x-request-id'])
    const proxied = await request(bff.app.server).get('/api/echo/contratos?pageIndex=0').set('Cookie', sessionCookie(login.headers['set-cookie'] ?? [])).expect(200)
    proxiedRequestId = String(proxied.headers['x-request-id'])
    await request(bff.app.server).get('/healthz').expect(200)
    await request(bff.app.server).get('/metrics').expect(200)

    await tracing.shutdown() // flushes to the collector
    spans = collector.exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
    serviceNames = collector.exports.flatMap((e) => e.resourceSpans.map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? ''))
  })
  afterAll(async () => {
    await bff?.close()
    await upstream?.close()
    await collector?.app.close()
  })

  const requestSpan = (route: string) => {
    const found = spans.filter((s) => s.kind === SPAN_KIND_SERVER && attr(s, 'http.route') === route)
    expect(found).toHaveLength(1)
    return found[0]!
  }
  const upstreamSpans = (pathPrefix: string) => spans.filter((s) => s.kind === SPAN_KIND_CLIENT && new URL(attr(s, 'url.full') ?? 'x:').pathname.startsWith(pathPrefix))

  it('exports as the portal-bff service', () => {
    expect(serviceNames.length).toBeGreaterThan(0)
    expect(new Set(serviceNames)).toEqual(new Set([TRACING_SERVICE_NAME]))
  })

  it('makes the BFF\'s own upstream calls children of the request span', () => {
    const parent = requestSpan('/bff/auth/login')
    expect(attr(parent, 'http.response.status_code')).toBe('200')
    const children = [...upstreamSpans('/api/auth/login'), ...upstreamSpans('/api/auth/session')]
    expect(children).toHaveLength(2)
    for (const child of children) {
      expect(child.traceId).toBe(parent.traceId)
      expect(child.parentSpanId).toBe(parent.spanId)
    }
  })

  it('makes the proxied call a child of the request span', () => {
    const parent = requestSpan('/api/*')
    const [child, ...more] = upstreamSpans('/api/echo/contratos')
    expect(more).toHaveLength(0)
    expect(child!.traceId).toBe(parent.traceId)
    expect(child!.parentSpanId).toBe(parent.spanId)
    expect(attr(child!, 'http.response.status_code')).toBe('200')
  })

  it('leaves liveness probes and metric scrapes out', () => {
    const routes = spans.filter((s) => s.kind === SPAN_KIND_SERVER).map((s) => attr(s, 'http.route'))
    expect(routes).toEqual(expect.arrayContaining(['/bff/auth/login', '/api/*']))
    expect(routes).not.toContain('/healthz')
    expect(routes).not.toContain('/metrics')
  })

  it('sends the trace context upstream next to the request id', () => {
    const login = upstream.requests.find((r) => r.url === '/api/auth/login')!
    expect(login.headers['x-request-id']).toBe(loginRequestId)
    expect(String(login.headers.traceparent)).toMatch(new RegExp(`^00-${requestSpan('/bff/auth/login').traceId}-[0-9a-f]{16}-01$`))
    const proxied = upstream.requests.find((r) => r.url.startsWith('/api/echo/contratos'))!
    expect(proxied.headers['x-request-id']).toBe(proxiedRequestId)
    expect(String(proxied.headers.traceparent)).toMatch(new RegExp(`^00-${requestSpan('/api/*').traceId}-`))
  })
})

describe('tracing off', () => {
  /** The modules a portal process resolved while starting, recorded by a module hook. */
  async function modulesLoadedAtStart(env: Record<string, string>): Promise<string[]> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-modules-'))
    const record = path.join(dir, 'modules.txt')
    const portal = await startPortalProcess({ ...env, RECORD_MODULES_TO: record }, ['--import', './tests/helpers/record-modules.mjs'])
    try {
      portal.child.kill('SIGTERM')
      expect((await portal.exited).code, portal.output()).toBe(0)
      return fs.readFileSync(record, 'utf8').split('\n').filter(Boolean)
    } finally {
      await portal.cleanup()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
  const SDK = /node_modules\/(@opentelemetry\/(sdk-|exporter-|instrumentation|resources)|@fastify\/otel)/

  it('loads no OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is unset, and does when set', { timeout: 120_000 }, async () => {
    const without = await modulesLoadedAtStart({})
    expect(without.some((m) => m.includes('/server/app.ts'))).toBe(true)
    expect(without.filter((m) => SDK.test(m))).toEqual([])

    // Nothing listens at that collector: spans are dropped, the portal runs the same.
    const withTracing = await modulesLoadedAtStart({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await freePort()}` })
    expect(withTracing.filter((m) => SDK.test(m)).length).toBeGreaterThan(0)
  })
})
