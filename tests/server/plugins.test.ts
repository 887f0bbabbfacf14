import Fastify, { type FastifyInstance } from 'fastify'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadBrands } from '../../server/brand/brand-registry'
import { MESSAGES } from '../../server/lib/errors'
import { accessLogPlugin } from '../../server/plugins/access-log'
import { brandPlugin } from '../../server/plugins/brand'
import { csrfPlugin } from '../../server/plugins/csrf'
import { hostCheckPlugin } from '../../server/plugins/host-check'
import { requestIdPlugin } from '../../server/plugins/request-id'
import { requestTargetPlugin } from '../../server/plugins/request-target'
import { securityHeadersPlugin } from '../../server/plugins/security-headers'
import { buildTestBff, LogCapture, type TestBff } from '../helpers/bff'

/** Issue 14: each cross-cutting concern is a named plugin (server/plugins/<name>/). */

const brands = loadBrands(path.resolve('brands'))

/** The plugins before the first route, in the order their hooks run (the order is security-relevant). */
const ORDER = [
  'security-headers',
  'request-target',
  'host-check',
  'brand',
  'request-id',
  'csrf',
  'access-log',
  '@fastify/under-pressure',
  'metrics',
  'compression',
  '@fastify/cookie',
]

/** The plugins registered on the root, in registration order, from Fastify's own tree. */
const topLevelPlugins = (app: FastifyInstance) =>
  app
    .printPlugins()
    .split('\n')
    .map((line) => /^[├└]─[┬─] (\S+) \d+ ms$/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'bound')

describe('the cross-cutting plugins in the BFF', () => {
  let bff: TestBff
  beforeAll(async () => {
    // Nothing here calls the upstream.
    bff = await buildTestBff('http://127.0.0.1:9')
  })
  afterAll(async () => {
    await bff?.close()
  })

  it('are registered by name, in the order their hooks run, before every route', () => {
    for (const name of ORDER) expect(bff.app.hasPlugin(name), name).toBe(true)
    expect(topLevelPlugins(bff.app).slice(0, ORDER.length)).toEqual(ORDER)
  })
})

describe('the plugins’ dependencies', () => {
  it.each([
    { name: 'request-target', plugin: requestTargetPlugin, missing: 'security-headers' },
    { name: 'host-check', plugin: hostCheckPlugin, missing: 'security-headers' },
    { name: 'brand', plugin: brandPlugin, missing: 'host-check' },
    { name: 'request-id', plugin: requestIdPlugin, missing: 'host-check' },
    { name: 'csrf', plugin: csrfPlugin, missing: 'host-check' },
    { name: 'access-log', plugin: accessLogPlugin, missing: 'request-id' },
  ])('$name registered without $missing stops the start', async ({ plugin, missing }) => {
    const app = Fastify()
    app.register(plugin as never, { production: false, brands, allowedHosts: [], level: 'info', destination: new LogCapture() })
    await expect(app.ready()).rejects.toMatchObject({ code: 'FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', message: expect.stringContaining(missing) })
    await app.close()
  })
})

/** A bare Fastify with the BFF's plugins up to CSRF, in the BFF's order, and a few routes. */
async function bareApp(opts: { production?: boolean } = {}) {
  const production = opts.production ?? false
  const reached: string[] = []
  const app = Fastify()
  await app.register(securityHeadersPlugin, { production })
  await app.register(requestTargetPlugin)
  await app.register(hostCheckPlugin, { production, brands, allowedHosts: [] })
  await app.register(brandPlugin, { brands })
  await app.register(requestIdPlugin)
  await app.register(csrfPlugin)
  app.get('/marca', async (request) => ({ brand: request.brand.key }))
  app.get('/falla', async () => {
    throw new Error('falla')
  })
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'HEAD', 'OPTIONS'],
    url: '/escribe',
    handler: async (request) => {
      reached.push(request.method)
      return { ok: true }
    },
  })
  app.setNotFoundHandler((request, reply) => void reply.code(404).send({ brand: request.brand.key }))
  app.setErrorHandler((_err, request, reply) => void reply.code(500).send({ brand: request.brand.key }))
  await app.ready()
  return { app, reached }
}

describe('the brand plugin', () => {
  it('sets request.brand from the Host of every request: a route’s, a 404’s, an error’s', async () => {
    const { app } = await bareApp()
    for (const [host, key] of [
      ['portal.energialimpia.localhost:3000', 'limpia'],
      ['portal.grupoenergia.localhost', 'grupo'],
      ['localhost', 'verde'],
    ] as const) {
      for (const [url, status] of [
        ['/marca', 200],
        ['/no-existe', 404],
        ['/falla', 500],
      ] as const) {
        const res = await app.inject({ method: 'GET', url, headers: { host } })
        expect(res.statusCode, `${host}${url}`).toBe(status)
        expect(res.json(), `${host}${url}`).toEqual({ brand: key })
      }
    }
    await app.close()
  })
})

describe('the CSRF plugin', () => {
  const host = 'localhost:3000'

  it('lets reads through and refuses every write without X-CSRF: 1 before its route runs', async () => {
    const { app, reached } = await bareApp()
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      expect((await app.inject({ method, url: '/escribe', headers: { host } })).statusCode, method).toBe(200)
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const headers of [{ host }, { host, 'x-csrf': 'true' }, { host, 'x-csrf': '0' }]) {
        const res = await app.inject({ method, url: '/escribe', headers, payload: {} })
        expect(res.statusCode, `${method} ${JSON.stringify(headers)}`).toBe(403)
        expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: MESSAGES.csrf })
      }
    }
    expect(reached).toEqual(['GET', 'HEAD', 'OPTIONS'])
    await app.close()
  })

  it('with X-CSRF, accepts no Origin or this very host’s, and refuses another host, another port or a non-URL', async () => {
    const { app, reached } = await bareApp()
    const write = (origin?: string) => app.inject({ method: 'POST', url: '/escribe', headers: { host, 'x-csrf': '1', ...(origin === undefined ? {} : { origin }) }, payload: {} })
    expect((await write()).statusCode).toBe(200)
    expect((await write('http://localhost:3000')).statusCode).toBe(200)
    expect((await write('http://LOCALHOST:3000')).statusCode).toBe(200)
    for (const origin of ['http://evil.example', 'http://localhost:4000', 'http://localhost', 'null', '']) {
      expect((await write(origin)).statusCode, origin).toBe(403)
    }
    expect(reached).toEqual(['POST', 'POST', 'POST'])
    await app.close()
  })

  it('its refusal carries the security headers and the request id, and a foreign host is refused first, as such', async () => {
    const { app } = await bareApp({ production: true })
    const refused = await app.inject({ method: 'POST', url: '/escribe', headers: { host: 'portal.energiaverde.es' }, payload: {} })
    expect(refused.statusCode).toBe(403)
    expect(refused.headers['content-security-policy']).toContain("default-src 'self'")
    expect(refused.headers['x-request-id']).toMatch(/^req-/)
    // An Origin equal to a foreign Host would pass the CSRF check: the host check answers before it.
    const foreign = await app.inject({ method: 'POST', url: '/escribe', headers: { host: 'evil.example', origin: 'http://evil.example', 'x-csrf': '1' }, payload: {} })
    expect(foreign.statusCode).toBe(421)
    expect(foreign.headers['content-security-policy']).toContain("default-src 'self'")
    await app.close()
  })
})
