import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRAFT_MAX_BYTES, DRAFT_MESSAGES } from '../../server/drafts/draft-routes'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startTestRedis } from '../helpers/redis'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

let api: RunningReferenceApi
let bff: TestBff

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

const PATH = '/bff/drafts/contrato-alta'
const VALUES = {
  'Cliente.Nif': '73000019K',
  'Cliente.Telefono': '612345678',
  'Cliente.Direccion': 'Calle Mayor 1, 2º B',
  Iban: 'ES9121000418450200051332',
  'Potencias.P1': 4.6,
}

async function signIn(target: TestBff, creds: { username: string; password: string }): Promise<string> {
  const res = await request(target.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

const get = (cookie: string, path = PATH, target = bff) => request(target.app.server).get(path).set('Cookie', cookie)
const put = (cookie: string, body: unknown, path = PATH, target = bff) =>
  request(target.app.server).put(path).set('Cookie', cookie).set('X-CSRF', '1').set('Content-Type', 'application/json').send(JSON.stringify(body))
const del = (cookie: string, path = PATH, target = bff) => request(target.app.server).delete(path).set('Cookie', cookie).set('X-CSRF', '1')

describe('/bff/drafts/:key', () => {
  it('saves, reads back (not cached), overwrites and deletes the signed-in user’s draft', async () => {
    const cookie = await signIn(bff, ADMIN)
    const none = await get(cookie, '/bff/drafts/nunca-guardado').expect(404)
    expect(none.body).toEqual({ statusCode: 404, error: 'Not Found', message: DRAFT_MESSAGES.none })

    const before = Date.now()
    const saved = await put(cookie, VALUES).expect(200)
    expect(saved.body.savedAt).toBeGreaterThanOrEqual(before)
    const read = await get(cookie).expect(200)
    expect(read.headers['cache-control']).toBe('no-store')
    expect(read.body).toEqual({ values: VALUES, savedAt: saved.body.savedAt })

    await put(cookie, { 'Cliente.Nif': '00000000T' }).expect(200)
    expect((await get(cookie).expect(200)).body.values).toEqual({ 'Cliente.Nif': '00000000T' })

    await del(cookie).expect(204)
    await get(cookie).expect(404)
    // deleting again is harmless
    await del(cookie).expect(204)
  })

  it('answers 401 to a caller without a session, before reading anything', async () => {
    for (const res of [
      await request(bff.app.server).get(PATH),
      await request(bff.app.server).put(PATH).set('X-CSRF', '1').send(VALUES),
      await request(bff.app.server).delete(PATH).set('X-CSRF', '1'),
      await get('portal_session=' + 'x'.repeat(43)),
    ]) {
      expect(res.status).toBe(401)
      expect(res.body.message).toBe('Tu sesión ha caducado o no has iniciado sesión.')
    }
  })

  it('refuses a save or a delete without the CSRF header or from a foreign origin (403), and keeps the draft', async () => {
    const cookie = await signIn(bff, ADMIN)
    await put(cookie, VALUES).expect(200)
    const noHeader = await request(bff.app.server).put(PATH).set('Cookie', cookie).send({ 'Cliente.Nif': 'cambiado' })
    expect(noHeader.status).toBe(403)
    expect(noHeader.body.message).toMatch(/CSRF/)
    await request(bff.app.server).delete(PATH).set('Cookie', cookie).expect(403)
    await request(bff.app.server).delete(PATH).set('Cookie', cookie).set('X-CSRF', '1').set('Origin', 'https://malicioso.example').expect(403)
    expect((await get(cookie).expect(200)).body.values).toEqual(VALUES)
    await del(cookie).expect(204)
  })

  it('validates the key: letters, digits, _ and -, 64 at most (400 in Spanish)', async () => {
    const cookie = await signIn(bff, ADMIN)
    await put(cookie, { a: 1 }, `/bff/drafts/${'a'.repeat(64)}`).expect(200)
    for (const key of ['a.b', 'a%20b', 'a:b', '%C3%B1', 'a'.repeat(65)]) {
      for (const res of [await get(cookie, `/bff/drafts/${key}`), await put(cookie, { a: 1 }, `/bff/drafts/${key}`), await del(cookie, `/bff/drafts/${key}`)]) {
        expect(res.status, key).toBe(400)
        expect(res.body.message, key).toBe(DRAFT_MESSAGES.badKey)
      }
    }
    // An escaped slash never gets this far: the request-target guard refuses it first, also with a 400.
    expect((await get(cookie, '/bff/drafts/a%2Fb')).status).toBe(400)
    await del(cookie, `/bff/drafts/${'a'.repeat(64)}`).expect(204)
  })

  it('takes only a JSON object of values (400 in Spanish otherwise)', async () => {
    const cookie = await signIn(bff, ADMIN)
    for (const body of [['12345678Z'], 'texto', 42, null]) {
      const res = await put(cookie, body).expect(400)
      expect(res.body.message).toBe(DRAFT_MESSAGES.notObject)
    }
    const broken = await request(bff.app.server).put(PATH).set('Cookie', cookie).set('X-CSRF', '1').set('Content-Type', 'application/json').send('{"a":')
    expect(broken.status).toBe(400)
    expect(broken.body.message).toBe('El cuerpo de la petición no es un JSON válido.')
    await get(cookie).expect(404)
  })

  it('bounds a draft at 64 KB: 413 in Spanish past it, with or without Content-Length', async () => {
    const cookie = await signIn(bff, ADMIN)
    const fits = { Observaciones: 'x'.repeat(DRAFT_MAX_BYTES - 100) }
    await put(cookie, fits).expect(200)
    const tooBig = await put(cookie, { Observaciones: 'x'.repeat(DRAFT_MAX_BYTES) })
    expect(tooBig.status).toBe(413)
    expect(tooBig.body.message).toBe(DRAFT_MESSAGES.tooLarge)
    expect(DRAFT_MESSAGES.tooLarge).toBe('El borrador es demasiado grande: el máximo son 64 KB.')

    // Chunked (no Content-Length): the route's own body limit answers.
    await bff.app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = bff.app.server.address() as AddressInfo
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: PATH, headers: { Cookie: cookie, 'X-CSRF': '1', 'Content-Type': 'application/json' } }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString('utf8')))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.write('{"Observaciones":"')
      req.write('x'.repeat(DRAFT_MAX_BYTES))
      req.end('"}')
    })
    expect(chunked.status).toBe(413)
    expect(JSON.parse(chunked.body).message).toBe('La petición es demasiado grande.')
    // the draft that fitted is still the one kept
    expect((await get(cookie).expect(200)).body.values).toEqual(fits)
    await del(cookie).expect(204)
  })

  it('keeps each user’s drafts to themselves: another user never reads, overwrites or deletes them', async () => {
    const admin = await signIn(bff, ADMIN)
    const agente = await signIn(bff, AGENTE)
    await put(admin, VALUES).expect(200)
    await get(agente).expect(404)
    await del(agente).expect(204)
    await put(agente, { 'Cliente.Nif': '00000000T' }).expect(200)
    expect((await get(admin).expect(200)).body.values).toEqual(VALUES)
    expect((await get(agente).expect(200)).body.values).toEqual({ 'Cliente.Nif': '00000000T' })
    await del(admin).expect(204)
    expect((await get(agente).expect(200)).body.values).toEqual({ 'Cliente.Nif': '00000000T' })
    await del(agente).expect(204)
  })

  it('follows the user, not the browser: another session of the same user sees it, and it outlives sign-out', async () => {
    const laptop = await signIn(bff, ADMIN)
    await put(laptop, VALUES).expect(200)
    const phone = await signIn(bff, ADMIN)
    expect(phone).not.toBe(laptop)
    expect((await get(phone).expect(200)).body.values).toEqual(VALUES)
    await request(bff.app.server).post('/bff/auth/logout').set('Cookie', laptop).set('X-CSRF', '1').expect((res) => expect(res.status).toBeLessThan(300))
    await get(laptop).expect(401)
    const again = await signIn(bff, ADMIN)
    expect((await get(again).expect(200)).body.values).toEqual(VALUES)
    await del(again).expect(204)
    await get(phone).expect(404)
  })

  it('never logs a draft’s values', async () => {
    const cookie = await signIn(bff, ADMIN)
    await put(cookie, VALUES).expect(200)
    await get(cookie).expect(200)
    await put(cookie, [VALUES['Cliente.Nif']]).expect(400)
    await put(cookie, { ...VALUES, Observaciones: 'x'.repeat(DRAFT_MAX_BYTES) }).expect(413)
    await del(cookie).expect(204)
    const logged = bff.logs.raw.join('\n')
    expect(logged).toContain('/bff/drafts/contrato-alta')
    for (const value of [VALUES['Cliente.Nif'], VALUES['Cliente.Telefono'], VALUES.Iban, 'Calle Mayor']) expect(logged).not.toContain(value)
  })
})

describe('/bff/drafts with REDIS_URL: every replica sees the same drafts', () => {
  it('a draft saved through one replica is read, and deleted, through another', async () => {
    const redis = await startTestRedis()
    const env = { REDIS_URL: redis.url, SESSION_ENCRYPTION_KEY: randomBytes(32).toString('base64') }
    const a = await buildTestBff(api.url, env)
    const b = await buildTestBff(api.url, env)
    try {
      const onA = await signIn(a, ADMIN)
      const onB = await signIn(b, ADMIN)
      await put(onA, VALUES, PATH, a).expect(200)
      expect((await get(onB, PATH, b).expect(200)).body.values).toEqual(VALUES)
      const agente = await signIn(b, AGENTE)
      await get(agente, PATH, b).expect(404)
      await del(onB, PATH, b).expect(204)
      await get(onA, PATH, a).expect(404)
    } finally {
      await a.close()
      await b.close()
      await redis.close()
    }
  })
})
