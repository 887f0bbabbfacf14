import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Endpoint, Param } from '../../schemas/catalogue/endpoint'
import { canonicalTarget } from '../../schemas/request-target'
import { CallChecker } from '../../server/catalogue/call-check'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { FAKE_UPSTREAM_CATALOGUE, FAKE_USER, TEST_CONTROL_CATALOGUE, signedInBffOverFake, type SignedInBff } from '../helpers/bff'
import { rawRequest, requestHead } from '../helpers/raw-http'

/**
 * The proxy's security boundary as a property (issue 13): whatever request target, method,
 * headers and body a client sends, what reaches the upstream is a catalogued call the BFF
 * authorised for that session, in its canonical spelling, and nothing else. Thousands of
 * targets are generated from the catalogue's own paths, then mangled the ways attackers mangle
 * them (case, escapes of any character, dot and empty segments, escaped slashes, NUL, `#`,
 * absolute form, a second Host header); an echo upstream records every request exactly as it
 * arrived, before any parsing of its own.
 */

const catalogue = loadCatalogue({ extraFiles: [FAKE_UPSTREAM_CATALOGUE, TEST_CONTROL_CATALOGUE] })
const checker = new CallChecker(catalogue)
/** The fake upstream's user holds only this permission (tests/helpers/fake-upstream.ts). */
const PERMISSIONS = new Set(['VERRENOVACIONES'])

let env: SignedInBff
let port: number

beforeAll(async () => {
  env = await signedInBffOverFake()
  await env.bff.app.listen({ host: '127.0.0.1', port: 0 })
  port = (env.bff.app.server.address() as { port: number }).port
})
afterAll(async () => env?.close())

// ── generators ──────────────────────────────────────────────────────────────

const calls = catalogue.calls
const VALUES = ['12', '0', '-1', 'EV-2026-000001', 'ES0021000000000001RK', 'B34091231', 'x', 'a b', 'ñ', '..', '.', '%', '%2f', '/', '\\', '#', '?', '&', '=', '[0]', '']
const EVIL_SEGMENTS = ['..', '.', '%2e%2e', '%2E', '.%2e', '', '%2f', 'a%2fb', '%5c', '%5C', '\\', '%00', '%zz', '%', '%2', '#x', '%23', '..%2f', ';x', '%3b', 'ü', '%C3%BC', '%FF', ' ', '%20', '\t', 'auth', 'login', 'session']
const QUERY_NAMES = [...new Set(calls.flatMap((c) => [...Object.keys(c.query ?? {}), ...(c.list ? ['pageIndex', 'pageSize', 'sortColumn', 'sortOrder', 'filterColumns[0]', 'filterQueries[0]', 'filterColumns[]'] : [])]))]

/** A segment spelt another way: letters in another case, some characters percent-escaped (either hex case). */
const respell = (segment: string) =>
  fc.tuple(fc.array(fc.nat(3), { minLength: segment.length, maxLength: segment.length }), fc.boolean()).map(([choices, lowerHex]) =>
    [...segment]
      .map((ch, i) => {
        const choice = choices[i]!
        if (choice === 1) return ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()
        if (choice === 2) {
          const hex = [...Buffer.from(ch, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')
          return lowerHex ? hex : hex.toUpperCase()
        }
        return ch
      })
      .join(''),
  )

const pathFromCall = fc
  .tuple(fc.constantFrom(...calls), fc.array(fc.constantFrom(...VALUES), { minLength: 3, maxLength: 3 }))
  .chain(([call, values]) => {
    let n = 0
    const segments = call.path.split('/').map((s) => (s.startsWith('{') ? values[n++ % 3]! : s))
    return fc
      .tuple(
        fc.tuple(...segments.map((s) => fc.oneof({ weight: 3, arbitrary: fc.constant(s) }, { weight: 1, arbitrary: respell(s) }))),
        fc.array(fc.tuple(fc.nat(segments.length), fc.constantFrom(...EVIL_SEGMENTS)), { maxLength: 2 }),
        fc.boolean(),
      )
      .map(([spelt, inserts, trailing]) => {
        const parts = [...spelt]
        for (const [at, evil] of inserts) parts.splice(at, 0, evil)
        return `/${parts.join('/')}${trailing ? '/' : ''}`
      })
  })

const rawPath = fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => `/${s.replace(/[\r\n]/g, '')}`)
const pathArb = fc.oneof({ weight: 4, arbitrary: pathFromCall }, { weight: 1, arbitrary: rawPath }, { weight: 1, arbitrary: fc.constantFrom('/bff/auth/logout', '/%62ff/auth/logout', '/bff/admin/menu', '/healthz', '/api', '/api/') })

const queryArb = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 6 })), fc.constantFrom(...VALUES, 'Estado', 'asc', '500', '-1', '9'.repeat(20)), fc.boolean()), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v, encode]) => (encode ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`)).join('&'))

const requestArb = fc.record({
  method: fc.constantFrom('GET', 'GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  path: pathArb,
  query: queryArb,
  absolute: fc.nat(9).map((n) => n === 0),
  cookie: fc.boolean(),
  csrf: fc.boolean(),
  foreignOrigin: fc.boolean(),
  secondHost: fc.nat(9).map((n) => n === 0),
  body: fc.oneof(fc.constant(''), fc.constant('{}'), fc.json({ maxDepth: 2 })),
})

// ── the oracle ──────────────────────────────────────────────────────────────

/** What the upstream was given for one generated request must be a call the BFF authorised, spelt as the BFF spells it. */
function assertAuthorised(seen: { method: string; url: string; headers: Record<string, unknown> }, sent: { method: string; cookie: boolean; viaBff: boolean }) {
  const where = `${seen.method} ${seen.url}`
  const q = seen.url.indexOf('?')
  const path = q < 0 ? seen.url : seen.url.slice(0, q)
  // The path is already what any URL parser would make of it: nothing left to resolve.
  expect(new URL(seen.url, 'http://upstream').pathname, where).toBe(path)
  expect(path.startsWith('/api/'), where).toBe(true)
  const segments = path.slice(1).split('/').map((s) => decodeURIComponent(s))
  for (const s of segments) {
    expect(s === '' || s === '.' || s === '..' || s.includes('/') || s.includes('\\') || s.includes('\u0000'), where).toBe(false)
  }
  const match = catalogue.match(seen.method, segments)
  expect(match, `${where}: not a catalogued call`).not.toBeNull()
  const call = match!.call
  // The upstream's own sign-in calls are the BFF's business, never a forwarded request's.
  if (call.access === 'bff') {
    expect(sent.viaBff, `${where}: an upstream auth call made for a forwarded request`).toBe(true)
    return
  }
  expect(seen.method, where).toBe(sent.method)
  if (call.permission) expect(PERMISSIONS.has(call.permission), `${where}: needs ${call.permission}`).toBe(true)
  if (call.access !== 'public') {
    expect(sent.cookie, `${where}: forwarded without a session`).toBe(true)
    expect(env.upstream.validTokens.has(String(seen.headers.authorization ?? '').replace(/^Bearer /, '')), where).toBe(true)
  }
  // What arrives is the BFF's canonical spelling: checking it again changes nothing.
  const again = checker.checkTarget(seen.method, seen.url)
  expect(again.ok, where).toBe(true)
  if (again.ok) expect(again.checked.upstreamPath, where).toBe(seen.url)
}

describe('what the upstream receives through the BFF', () => {
  it('is always a catalogued call the BFF authorised, in its canonical spelling (property, thousands of targets)', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const target = `${r.absolute ? 'http://evil.example' : ''}${r.path}${r.query ? `?${r.query}` : ''}`
        const headers: Record<string, string> = { Host: `127.0.0.1:${port}` }
        if (r.cookie) headers.Cookie = env.cookie
        if (r.csrf) headers['X-CSRF'] = '1'
        if (r.foreignOrigin) headers.Origin = 'http://evil.example'
        if (r.secondHost) headers['host'] = 'otro.example'
        const body = r.method === 'GET' ? '' : r.body
        if (body) headers['Content-Type'] = 'application/json'
        const before = env.upstream.received.length
        const answer = await rawRequest(port, requestHead(r.method, target, headers), body)
        expect(answer.status, `${r.method} ${target}`).not.toBe(500)
        expect(answer.status, `${r.method} ${target}`).toBeGreaterThan(0)
        const seen = env.upstream.received.slice(before)
        // A state-changing request without the CSRF header, or from a foreign page, reaches nothing.
        if (r.method !== 'GET' && (!r.csrf || r.foreignOrigin)) expect(seen, `${r.method} ${target}`).toEqual([])
        const canonical = canonicalTarget(target)
        const viaBff = canonical.ok && canonical.path.startsWith('/bff/')
        for (const s of seen) assertAuthorised(s, { method: r.method, cookie: r.cookie, viaBff })
      }),
      { numRuns: 3000 },
    )
  }, 180_000)

  it('forwards every catalogued read the user may make, exactly as the catalogue spells it (property)', async () => {
    // Its own session: the property above may have signed the first one out.
    const login = await rawRequest(port, requestHead('POST', '/bff/auth/login', { Host: `127.0.0.1:${port}`, 'X-CSRF': '1', 'Content-Type': 'application/json' }), JSON.stringify(FAKE_USER))
    const cookie = /portal_session=[^;]+/.exec(login.headers['set-cookie'] ?? '')![0]
    const readable = calls.filter((c) => c.method === 'GET' && c.access !== 'bff' && (!c.permission || PERMISSIONS.has(c.permission)))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...readable), fc.nat(), async (call, seed) => {
        const url = validTarget(call, seed)
        expect(checker.checkTarget('GET', url).ok, url).toBe(true)
        // An export built from its list's pages (issue 16) asks the upstream for that list's page, never for its file.
        const list = call.list?.pages ? calls.find((c) => c.id === call.list!.pages)! : null
        const expected = checker.checkTarget('GET', list ? url.replace(`/${call.path}`, `/${list.path}`) : url)
        expect(expected.ok, url).toBe(true)
        const before = env.upstream.received.length
        await rawRequest(port, requestHead('GET', url, { Host: `127.0.0.1:${port}`, Cookie: cookie }))
        const seen = env.upstream.received.slice(before).filter((s) => !s.url.startsWith('/api/auth/'))
        expect(seen.map((s) => s.url), url).toEqual([expected.ok ? expected.checked.upstreamPath : ''])
      }),
      { numRuns: 300 },
    )
  }, 60_000)
})

/** A target a well-behaved client would send for `call`: required parameters filled with valid values. */
function validTarget(call: Endpoint, seed: number): string {
  const value = (p: Param) => {
    if (p.enum) return p.enum[seed % p.enum.length]!
    switch (p.type) {
      case 'integer':
      case 'number':
        return String(Math.max(p.min ?? 1, Math.min(p.max ?? 1000, 1 + (seed % 50))))
      case 'boolean':
        return seed % 2 ? 'true' : 'false'
      case 'date':
        return '2025-03-01'
      case 'datetime':
        return '2025-03-01T10:00:00Z'
      default:
        return 'ABC-1 ñ/?&'.slice(0, Math.max(p.minLength ?? 1, Math.min(p.maxLength ?? 10, 10)))
    }
  }
  // An escaped `/` is refused in any path: a path parameter never holds one.
  const path = call.path.replace(/\{([A-Za-z0-9]+)\}/g, (_m, name: string) => encodeURIComponent(value(call.pathParams![name]!).replace(/\//g, '-')))
  const query = Object.entries(call.query ?? {})
    .filter(([, p]) => p.required || seed % 3 === 0)
    .map(([name, p]) => (p.array ? `${name}[0]=${encodeURIComponent(value(p))}` : `${name}=${encodeURIComponent(value(p))}`))
  if (call.list) query.push(`pageIndex=${seed % 5}`, `pageSize=${1 + (seed % 20)}`)
  return `/${path}${query.length ? `?${query.join('&')}` : ''}`
}
