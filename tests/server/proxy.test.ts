import http from 'node:http'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signedInBffOverFake, type SignedInBff } from '../helpers/bff'
import { DOWNLOAD_BYTES, type FakeUpstream } from '../helpers/fake-upstream'

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

const last = () => upstream.requests[upstream.requests.length - 1]!

describe('/api/* forwarding', () => {
  it('adds the bearer token and the brand-domain header, and drops the browser cookie', async () => {
    await request(bff.app.server).get('/api/echo/contratos?pageIndex=0').set('Host', 'portal.energialimpia.localhost:3000').set('Cookie', `${cookie}; other=1`).expect(200)
    const seen = last()
    expect(seen.url).toBe('/api/echo/contratos?pageIndex=0')
    expect(seen.headers.authorization).toMatch(/^Bearer eyJ/)
    expect(upstream.validTokens.has(String(seen.headers.authorization).slice(7))).toBe(true)
    expect(seen.headers['x-brand-domain']).toBe('energialimpia.es')
    expect(seen.headers.cookie).toBeUndefined()
    expect(seen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('replaces identity headers the browser tried to set', async () => {
    await request(bff.app.server)
      .post('/api/echo/insert')
      .set('Cookie', cookie)
      .set('X-CSRF', '1')
      .set('Authorization', 'Bearer forged')
      .set('X-Brand-Domain', 'grupoenergia.es')
      .set('X-Forwarded-For', '6.6.6.6')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Request-Id', 'client-chosen')
      .send({ CodigoContrato: 'X' })
      .expect(200)
    const seen = last()
    expect(seen.headers.authorization).not.toBe('Bearer forged')
    expect(seen.headers['x-brand-domain']).toBe('energiaverde.es') // default brand for a plain host
    expect(seen.headers['x-forwarded-for']).toBeUndefined()
    expect(seen.headers['x-forwarded-host']).not.toBe('evil.example')
    expect(seen.headers['x-request-id']).not.toBe('client-chosen')
    expect(seen.headers['x-csrf']).toBeUndefined()
    expect(seen.body).toEqual({ CodigoContrato: 'X' })
  })

  it('echoes the request id it forwarded', async () => {
    const res = await request(bff.app.server).get('/api/echo/x').set('Cookie', cookie).expect(200)
    expect(res.headers['x-request-id']).toBe(last().headers['x-request-id'])
  })

  it('answers 401 without a session and forwards nothing', async () => {
    const res = await request(bff.app.server).get('/api/echo/contratos').expect(401)
    expect(res.body.statusCode).toBe(401)
    expect(upstream.requests).toHaveLength(0)
  })

  it('forwards the public password-recovery calls without a session', async () => {
    await request(bff.app.server).post('/api/auth/request-change-password').set('X-CSRF', '1').send({ email: 'a@b.es' }).expect(200)
    expect(last().headers.authorization).toBeUndefined()
    expect(last().headers['x-brand-domain']).toBe('energiaverde.es')
  })

  it('refuses state-changing calls without X-CSRF before anything reaches the upstream', async () => {
    await request(bff.app.server).post('/api/echo/insert').set('Cookie', cookie).send({}).expect(403)
    await request(bff.app.server).delete('/api/echo/x').set('Cookie', cookie).expect(403)
    expect(upstream.requests).toHaveLength(0)
  })

  it('streams a large download through byte for byte, with its length and file name, and without the upstream’s cookie', async () => {
    const res = await request(bff.app.server)
      .get('/api/download')
      .set('Cookie', cookie)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = []
        r.on('data', (c: Buffer) => chunks.push(c))
        r.on('end', () => done(null, Buffer.concat(chunks)))
      })
      .expect(200)
    expect(res.headers['content-length']).toBe(String(DOWNLOAD_BYTES.length))
    expect(res.headers['content-disposition']).toBe('attachment; filename="listado.bin"')
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(Buffer.compare(res.body as Buffer, DOWNLOAD_BYTES)).toBe(0)
  })

  it('stops reading a download the browser gave up on, and keeps serving', async () => {
    const server = bff.app.server.listening ? bff.app.server : await new Promise<typeof bff.app.server>((resolve) => bff.app.server.listen(0, '127.0.0.1', () => resolve(bff.app.server)))
    const { port } = server.address() as { port: number }
    const firstChunk = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/download', headers: { cookie } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy()
          resolve(chunk.length)
        })
      })
      req.on('error', (err) => ((err as { code?: string }).code === 'ECONNRESET' ? undefined : reject(err)))
    })
    expect(firstChunk).toBeGreaterThan(0)
    expect(firstChunk).toBeLessThan(DOWNLOAD_BYTES.length)
    for (let i = 0; i < 3; i++) await request(bff.app.server).get('/api/echo/despues').set('Cookie', cookie).expect(200)
    const whole = await request(bff.app.server).get('/api/unsized').set('Cookie', cookie).expect(200)
    expect(whole.text).toBe('Codigo;Estado\nEV-1;activo\nEV-2;baja\n')
  })

  it('passes on an answer of unknown length whole', async () => {
    const res = await request(bff.app.server).get('/api/unsized').set('Cookie', cookie).expect(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.text).toBe('Codigo;Estado\nEV-1;activo\nEV-2;baja\n')
  })

  it('streams an upload to the upstream unchanged, without the hop’s own headers', async () => {
    const upload = Buffer.from(Array.from({ length: 300 * 1024 }, (_, i) => (i * 13) % 256))
    await request(bff.app.server)
      .post('/api/echo/upload')
      .set('Cookie', cookie)
      .set('X-CSRF', '1')
      .set('Content-Type', 'multipart/form-data; boundary=portal')
      .set('TE', 'trailers')
      .set('Proxy-Authorization', 'Basic c2VjcmV0bw==')
      .send(upload)
      .expect(200)
    const seen = last()
    expect(Buffer.compare(seen.body as Buffer, upload)).toBe(0)
    expect(seen.headers['content-length']).toBe(String(upload.length))
    expect(seen.headers.te).toBeUndefined()
    expect(seen.headers['proxy-authorization']).toBeUndefined()
  })

  it.each(['/api/auth/login', '/api/auth/session', '/api/auth/refresh', '/api/auth/logout', '/api/AUTH/login', '/api/auth/%6Cogin', '/api/auth/login/'])(
    'keeps the upstream auth path %s out of reach',
    async (path) => {
      const method = path.includes('session') ? 'get' : 'post'
      await request(bff.app.server)[method](path).set('Cookie', cookie).set('X-CSRF', '1').send({}).expect(404)
      expect(upstream.requests).toHaveLength(0)
    },
  )

  // Spellings without a canonical form are refused before any route or session is looked at.
  it.each(['/api//auth/session/', '/api/x/../auth/login', '/api/./auth/refresh', '/api/auth%2flogin', '/api/%zz'])('refuses %s with 400 and forwards nothing', async (path) => {
    const res = await request(bff.app.server).post(path).set('Cookie', cookie).set('X-CSRF', '1').send({}).expect(400)
    expect(res.body.message).toMatch(/^La dirección de la petición no es válida/)
    expect(upstream.requests).toHaveLength(0)
  })
})
