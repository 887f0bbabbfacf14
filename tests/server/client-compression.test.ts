import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInBffOverFake, type SignedInBff } from '../helpers/bff'
import { GZIPPED_JSON } from '../helpers/fake-upstream'

/**
 * Issue 8, client budget: the built client is served compressed (the build's .br/.gz copies),
 * hashed assets are cached for good and everything else revalidated, dynamic JSON is
 * compressed on the fly, and what the upstream compressed itself is passed on untouched.
 */

const APP_JS = `export const rows = ${JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, label: `fila ${i}` })))}\n`
const THEME_CSS = `${Array.from({ length: 200 }, (_, i) => `.c${i} { color: #047857; margin: ${i}px; }`).join('\n')}\n`
// Over the 1 KB threshold below which nothing is worth compressing.
const INDEX_HTML = `<!doctype html><html lang="es"><head><title>Portal</title><script type="module" src="/assets/app-3f2a1b.js"></script></head><body><div id="root"></div>${'<!-- relleno -->'.repeat(100)}</body></html>`

let dist: string
let portal: SignedInBff

function write(rel: string, content: string | Buffer) {
  const file = path.join(dist, rel)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
}

beforeAll(async () => {
  // A client build as `vite build` leaves it: hashed assets with their .br and .gz copies.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-dist-'))
  write('index.html', INDEX_HTML)
  write('build.json', JSON.stringify({ buildId: 'prueba' }))
  write('assets/app-3f2a1b.js', APP_JS)
  // Settings unlike the on-the-fly compressor's, so a test can tell which one answered.
  write('assets/app-3f2a1b.js.br', zlib.brotliCompressSync(APP_JS, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }))
  write('assets/app-3f2a1b.js.gz', zlib.gzipSync(APP_JS, { level: 1 }))
  write('themes/lara-light-green/theme.css', THEME_CSS)
  write('themes/lara-light-green/theme.css.br', zlib.brotliCompressSync(THEME_CSS, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }))
  write('themes/lara-light-green/theme.css.gz', zlib.gzipSync(THEME_CSS))
  portal = await signedInBffOverFake({ CLIENT_DIST: dist })
})

afterAll(async () => {
  await portal?.close()
  fs.rmSync(dist, { recursive: true, force: true })
})

const built = (rel: string) => fs.readFileSync(path.join(dist, rel))
const get = (url: string, headers: Record<string, string> = {}) => portal.bff.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } })

describe('hashed assets', () => {
  it('are sent as the build’s brotli copy when the browser accepts it, cached for a year', async () => {
    const res = await get('/assets/app-3f2a1b.js', { 'accept-encoding': 'gzip, deflate, br' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.rawPayload.equals(built('assets/app-3f2a1b.js.br'))).toBe(true)
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP_JS)
  })

  it('are sent gzip to a browser without brotli', async () => {
    const res = await get('/assets/app-3f2a1b.js', { 'accept-encoding': 'gzip' })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.rawPayload.equals(built('assets/app-3f2a1b.js.gz'))).toBe(true)
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(APP_JS)
  })

  it('are sent as they are when no compression is accepted', async () => {
    const res = await get('/assets/app-3f2a1b.js')
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.payload).toBe(APP_JS)
  })

  it('never serve the compressed copies under their own names', async () => {
    expect((await get('/assets/app-3f2a1b.js.br')).statusCode).toBe(404)
    expect((await get('/assets/app-3f2a1b.js.gz')).statusCode).toBe(404)
  })

  it('a missing chunk is a 404, not the app: a page of an older build must see its import fail', async () => {
    const res = await get('/assets/app-0ld0ld.js', { accept: '*/*' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/json/)
  })
})

describe('unhashed files', () => {
  it('index.html is revalidated on every visit and compressed', async () => {
    for (const url of ['/', '/soluciones/contratos/listado']) {
      const res = await get(url, { 'accept-encoding': 'br, gzip' })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/text\/html/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.headers['content-encoding']).toBe('br')
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX_HTML)
    }
  })

  it('theme stylesheets (fixed names) are revalidated, and compressed', async () => {
    const res = await get('/themes/lara-light-green/theme.css?v=prueba', { 'accept-encoding': 'br' })
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.rawPayload.equals(built('themes/lara-light-green/theme.css.br'))).toBe(true)
  })
})

describe('dynamic answers', () => {
  it('JSON from the BFF is compressed on the fly', async () => {
    const res = await get('/bff/manifest', { 'accept-encoding': 'gzip', cookie: portal.cookie })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(zlib.gunzipSync(res.rawPayload).toString()).authenticated).toBe(true)
  })

  it('plain upstream JSON is compressed; what the upstream compressed passes through untouched', async () => {
    const long = `/api/echo/lista?filtro=${'x'.repeat(2000)}`
    const plain = await get(long, { 'accept-encoding': 'br', cookie: portal.cookie })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-encoding']).toBe('br')
    expect(JSON.parse(zlib.brotliDecompressSync(plain.rawPayload).toString()).url).toBe(long)

    const gzipped = await get('/api/gzipped', { 'accept-encoding': 'gzip, br', cookie: portal.cookie })
    expect(gzipped.statusCode).toBe(200)
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    // One layer: it decompresses once to the upstream's JSON.
    expect(zlib.gunzipSync(gzipped.rawPayload).toString()).toBe(GZIPPED_JSON)
  })
})
