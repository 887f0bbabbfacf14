import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_USER, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'
import { rawRequest } from '../helpers/raw-http'

/**
 * Issue 13: dynamic answers are never stored by a browser or a shared cache, brand artwork and
 * hashed assets keep their long caching, and the files of the client build that are not for
 * the browser (Vite's manifest, the source maps in production) are never served.
 */

const VERDE = 'portal.energiaverde.es'
const INDEX_HTML = '<!doctype html><html lang="es"><head><title>Portal</title></head><body><div id="root"></div></body></html>'
// Over 1 KB, so the build's .br and .gz copies exist as `vite build` writes them.
const VITE_MANIFEST = JSON.stringify(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/pantalla-${i}.tsx`, { file: `assets/pantalla-${i}-a1b2c3.js`, imports: ['_boot'] }])))
const APP_JS = 'export const x = 1\n//# sourceMappingURL=app-3f2a1b.js.map\n'
const APP_MAP = JSON.stringify({ version: 3, sources: ['../../client/src/main.tsx'], sourcesContent: ['// el código fuente del cliente'], mappings: 'AAAA' })

let upstream: FakeUpstream
let dist: string

function write(rel: string, content: string | Buffer) {
  const file = path.join(dist, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
}

beforeAll(async () => {
  upstream = await startFakeUpstream()
  // A client build as `vite build` leaves it: the module graph in .vite/ (with its compressed
  // copies) and a source map next to each chunk, one more at the root in case a plugin puts one there.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-dist-'))
  write('index.html', INDEX_HTML)
  write('build.json', JSON.stringify({ buildId: 'prueba' }))
  write('.vite/manifest.json', VITE_MANIFEST)
  write('.vite/manifest.json.br', zlib.brotliCompressSync(VITE_MANIFEST))
  write('.vite/manifest.json.gz', zlib.gzipSync(VITE_MANIFEST))
  write('assets/app-3f2a1b.js', APP_JS)
  write('assets/app-3f2a1b.js.map', APP_MAP)
  write('raiz.js.map', APP_MAP)
})

afterAll(async () => {
  await upstream?.close()
  if (dist) fs.rmSync(dist, { recursive: true, force: true })
})

async function withBff<T>(env: Record<string, string>, run: (bff: TestBff) => Promise<T>): Promise<T> {
  const bff = await buildTestBff(upstream.url, { CLIENT_DIST: dist, ...env })
  try {
    return await run(bff)
  } finally {
    await bff.close()
  }
}

/** The BFF in development and in production, with the Host each one accepts. */
const MODES = [
  { mode: 'development', env: { NODE_ENV: 'development' }, host: 'localhost' },
  { mode: 'production', env: { NODE_ENV: 'production' }, host: VERDE },
] as const

describe('Cache-Control: no-store on every dynamic /bff/* answer', () => {
  it.each(MODES)('sign-in, session, manifest, screens, admin and errors ($mode)', async ({ env, host }) => {
    await withBff(env, async (bff) => {
      const server = bff.app.server
      const get = (url: string, cookie = '') => request(server).get(url).set('Host', host).set('Cookie', cookie)
      const login = (body: object) => request(server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(body)

      const signedIn = await login(FAKE_USER).expect(200)
      const cookie = sessionCookie(signedIn.headers['set-cookie'])
      const answers: [string, request.Response][] = [
        ['sign-in', signedIn],
        ['sign-in, wrong password', await login({ ...FAKE_USER, password: 'incorrecta' }).expect(401)],
        ['sign-in, invalid body', await login({ username: 1 }).expect(400)],
        ['sign-in, no CSRF header', await request(server).post('/bff/auth/login').set('Host', host).send(FAKE_USER).expect(403)],
        ['session', await get('/bff/auth/session', cookie).expect(200)],
        ['session, none', await get('/bff/auth/session').expect(401)],
        ['manifest', await get('/bff/manifest', cookie).expect(200)],
        ['manifest, anonymous', await get('/bff/manifest').expect(200)],
        ['build', await get('/bff/build').expect(200)],
        ['screen', await get('/bff/screens/seccion-soluciones', cookie).expect(200)],
        ['screen, no session', await get('/bff/screens/seccion-soluciones').expect(401)],
        ['screen, unknown', await get('/bff/screens/no-existe', cookie).expect(404)],
        ['admin menu, no session', await get('/bff/admin/menu').expect(401)],
        ['admin menu, no permission', await get('/bff/admin/menu', cookie).expect(403)],
        ['admin screens, no permission', await get('/bff/admin/screens', cookie).expect(403)],
        ['admin sessions, no permission', await request(server).delete('/bff/admin/users/7/sessions').set('Host', host).set('X-CSRF', '1').set('Cookie', cookie).expect(403)],
        ['unknown /bff path', await get('/bff/no-existe').expect(404)],
        ['unknown brand artwork', await get('/bff/brand/verde/no-existe.svg').expect(404)],
        ['sign-out', await request(server).post('/bff/auth/logout').set('Host', host).set('X-CSRF', '1').set('Cookie', cookie).expect((r) => expect(r.status).toBeLessThan(300))],
      ]
      for (const [what, res] of answers) {
        expect(res.headers['cache-control'], what).toBe('no-store')
        expect(res.headers['x-powered-by'], what).toBeUndefined()
        expect(res.headers.server, what).toBeUndefined()
      }
    })
  })

  it('also on the BFF’s own /api routes (password recovery), which the proxy’s hook does not reach', async () => {
    await withBff({}, async (bff) => {
      const res = await request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').send({ email: 'a@b.es' }).expect(200)
      expect(res.headers['cache-control']).toBe('no-store')
      const invalid = await request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').send({}).expect(400)
      expect(invalid.headers['cache-control']).toBe('no-store')
    })
  })

  it('also on errors answered before any route or header hook: a refused request target, a foreign host', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      await bff.app.listen({ host: '127.0.0.1', port: 0 })
      const { port } = bff.app.server.address() as { port: number }
      const refused = await rawRequest(port, `GET /bff/%2e%2e/manifest HTTP/1.1\r\nHost: ${VERDE}`)
      expect(refused.status).toBe(400)
      expect(refused.headers['cache-control']).toBe('no-store')
      const foreign = await request(bff.app.server).get('/bff/manifest').set('Host', 'portal.ajeno.es').expect(421)
      expect(foreign.headers['cache-control']).toBe('no-store')
    })
  })
})

describe('long-lived answers keep their caching', () => {
  it('brand artwork, the favicon and hashed assets', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      const get = (url: string) => request(bff.app.server).get(url).set('Host', VERDE)
      for (const file of ['icon-light.svg', 'icon-dark.svg', 'logo-light.svg', 'logo-dark.svg', 'favicon.ico']) {
        const res = await get(`/bff/brand/verde/${file}`).expect(200)
        expect(res.headers['cache-control'], file).toBe('public, max-age=86400')
      }
      expect((await get('/favicon.ico').expect(200)).headers['cache-control']).toBe('public, max-age=3600')
      const chunk = await get('/assets/app-3f2a1b.js').expect(200)
      expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(chunk.headers['x-powered-by']).toBeUndefined()
    })
  })

  it('index.html is still revalidated on every visit', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      for (const url of ['/', '/index.html', '/soluciones/contratos/listado']) {
        const res = await request(bff.app.server).get(url).set('Host', VERDE).expect(200)
        expect(res.headers['content-type'], url).toMatch(/text\/html/)
        expect(res.headers['cache-control'], url).toBe('no-cache')
        expect(res.headers['x-powered-by'], url).toBeUndefined()
      }
    })
  })
})

describe('files of the build that are not for the browser', () => {
  it.each(MODES)('Vite’s manifest (.vite/) is never served, compressed or not ($mode)', async ({ env, host }) => {
    await withBff(env, async (bff) => {
      for (const url of ['/.vite/manifest.json', '/.vite/manifest.json?v=1', '/.vite/manifest.json.br', '/.vite/manifest.json.gz', '/.vite/', '/.vite', '/%2evite/manifest.json']) {
        for (const encoding of ['identity', 'br', 'gzip']) {
          const res = await request(bff.app.server).get(url).set('Host', host).set('Accept-Encoding', encoding)
          expect(res.status, `${url} (${encoding})`).toBe(404)
          expect(res.text, `${url} (${encoding})`).not.toContain('pantalla-0')
          expect(res.headers['content-type'], `${url} (${encoding})`).toMatch(/json/)
        }
      }
    })
  })

  it('source maps are not served in production', async () => {
    await withBff({ NODE_ENV: 'production' }, async (bff) => {
      for (const url of ['/assets/app-3f2a1b.js.map', '/raiz.js.map', '/raiz.js.MAP', '/assets/app-3f2a1b.js.map?v=1']) {
        const res = await request(bff.app.server).get(url).set('Host', VERDE).set('Accept-Encoding', 'br, gzip')
        expect(res.status, url).toBe(404)
        expect(res.text, url).not.toContain('sourcesContent')
      }
      // The chunk itself still is.
      await request(bff.app.server).get('/assets/app-3f2a1b.js').set('Host', VERDE).expect(200)
    })
  })

  it('source maps are served in development, for the browser’s debugger', async () => {
    await withBff({ NODE_ENV: 'development' }, async (bff) => {
      for (const url of ['/assets/app-3f2a1b.js.map', '/raiz.js.map']) {
        const res = await request(bff.app.server).get(url).expect(200)
        expect(res.text, url).toBe(APP_MAP)
      }
    })
  })
})
