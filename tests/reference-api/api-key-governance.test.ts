import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { API_SCOPES, defaultApiScopes } from '../../schemas/business/api-scopes'
import type { ApiKey, ApiScope } from '../../schemas/business/access'
import publicApi from '../../schemas/catalogue/public-api.json'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, NOW } from './business-support'

/**
 * API keys that can be governed: scopes enforced on every public v1 call, expiry, rotation
 * with an overlap window and the last use recorded at most once a minute, on a fake clock.
 */

const HOUR = 3_600_000
/** An instant as the API writes it: to the second. */
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
const DAY = 24 * HOUR
let clock = NOW
let api: RunningReferenceApi
let admin: ApiCaller
let apiUserId: number

type Generated = ApiKey & { Clave: string; Aviso: string }
type Rotated = Generated & { Anterior: ApiKey }

async function pub(key: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(`${api.url}${path}`, { headers: { 'x-brand-domain': BRAND_DOMAINS.verde, 'x-api-key': key, ...headers } })
  return { status: res.status, text: await res.text() }
}

async function generate(body: Record<string, unknown> = {}): Promise<Generated> {
  const res = await admin.post<Generated>('/api/apikey/generate', { ApiUserId: apiUserId, Descripcion: 'Pruebas de ámbitos', ...body })
  expect(res.status, res.text).toBe(201)
  return res.body
}

/** The key as listed at the clock's time (signing in again when the clock has left the admin's token behind). */
async function keyOf(publicId: string): Promise<ApiKey> {
  const caller = clock === NOW ? admin : await ApiCaller.signIn(api.url, ADMIN)
  const res = await caller.get<ApiKey[]>('/api/apikey', { apiUserId })
  expect(res.status, res.text).toBe(200)
  return res.body.find((k) => k.ApiKey === publicId)!
}

/** Every public v1 call with arguments that work for a key of the whole brand, and the scope it needs. */
let calls: { path: string; scope: string | null }[]

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => clock })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  const user = await admin.post<{ Id: number }>('/api/apiusers/register-api-user', { Nombre: `Ámbitos ${Date.now()}`, Email: 'ambitos@pruebas.test' })
  expect(user.status, user.text).toBe(201)
  apiUserId = user.body.Id
  const permisos = api.db.prepare("SELECT id FROM permisos WHERE nombre_normalizado IN ('APICONTRATOSLECTURA', 'APISIPS', 'APIFACTURAS')").all() as { id: number }[]
  expect((await admin.put('/api/apiusers/add-permisos-to-user', permisos.map((p) => p.id), { userId: apiUserId })).status).toBe(200)
  // examples from the public catalogue itself, read with a key holding every scope
  const all = await generate({ Scopes: API_SCOPES.map((s) => s.Scope) })
  const cat = JSON.parse((await pub(all.Clave, '/api/public/v1')).text) as { Ruta: string; Parametros: { Nombre: string; En: string; Requerido: boolean; Ejemplo: string | number }[] }[]
  calls = cat.map((c) => {
    let path = c.Ruta
    const query = new URLSearchParams()
    for (const p of c.Parametros.filter((p) => p.Requerido)) {
      if (p.En === 'path') path = path.replace(`{${p.Nombre}}`, encodeURIComponent(String(p.Ejemplo)))
      else query.set(p.Nombre, String(p.Ejemplo))
    }
    const catalogued = publicApi.calls.find((k) => `/${k.path}` === c.Ruta) as { scope?: string } | undefined
    expect(catalogued, c.Ruta).toBeDefined()
    return { path: query.size ? `${path}?${query}` : path, scope: catalogued!.scope ?? null }
  })
  for (const c of calls) expect((await pub(all.Clave, c.path)).status, c.path).toBe(200)
  await admin.delete('/api/apikey/delete', { ApiKey: all.ApiKey })
})
afterAll(async () => {
  await api?.close()
})
beforeEach(() => {
  clock = NOW
})

describe('scopes', () => {
  it('lists the declared scopes with the public calls each opens; the read ones are the default', async () => {
    const res = await admin.get<ApiScope[]>('/api/apikey/scopes')
    expect(res.status, res.text).toBe(200)
    expect(res.body.map((s) => s.Scope)).toEqual(API_SCOPES.map((s) => s.Scope))
    expect(res.body.filter((s) => s.PorDefecto).map((s) => s.Scope)).toEqual(defaultApiScopes())
    expect(res.body.find((s) => s.Scope === 'contratos:lectura')!.Llamadas).toEqual(['GET /api/public/v1/contratos', 'GET /api/public/v1/contratos/{codigo}'])
    // every scope opens at least one call, and every call that needs a scope names a declared one
    for (const s of res.body) expect(s.Llamadas.length, s.Scope).toBeGreaterThan(0)
  })

  it('gives a key the read scopes and a year of life unless told otherwise', async () => {
    const key = await generate()
    expect(key.Scopes).toEqual(defaultApiScopes())
    // an empty choice (a form with nothing ticked) is no choice
    const empty = await generate({ Scopes: [] })
    expect(empty.Scopes).toEqual(defaultApiScopes())
    await admin.delete('/api/apikey/delete', { ApiKey: empty.ApiKey })
    expect(Date.parse(key.FechaExpiracion!)).toBe(NOW + 365 * DAY)
    expect(key.Estado).toBe('activa')
    await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })
  })

  it('refuses unknown or no scopes and an expiry in the past or beyond two years, changing nothing', async () => {
    const before = (await admin.get<ApiKey[]>('/api/apikey', { apiUserId })).body.length
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ Scopes: ['contratos:borrar'] }, /Ámbito desconocido: «contratos:borrar»/],
      [{ Scopes: 'contratos:lectura' }, /lista de nombres/],
      [{ FechaExpiracion: new Date(NOW - DAY).toISOString() }, /debe ser futura/],
      [{ FechaExpiracion: new Date(NOW + 732 * DAY).toISOString().slice(0, 10) }, /más de dos años/],
    ]
    for (const [body, message] of bad) {
      const res = await admin.post('/api/apikey/generate', { ApiUserId: apiUserId, ...body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.text).toMatch(message)
    }
    expect((await admin.get<ApiKey[]>('/api/apikey', { apiUserId })).body.length).toBe(before)
    const twoYears = await generate({ FechaExpiracion: new Date(NOW + 730 * DAY).toISOString() })
    expect(twoYears.FechaExpiracion).toBe(iso(NOW + 730 * DAY))
    await admin.delete('/api/apikey/delete', { ApiKey: twoYears.ApiKey })
  })

  it('names the missing scope in a Spanish 403', async () => {
    const key = await generate({ Scopes: ['sips:lectura'] })
    const res = await pub(key.Clave, '/api/public/v1/contratos')
    expect(res.status).toBe(403)
    expect(res.text).toBe(`La clave de API ${key.ApiKey} no tiene el ámbito «contratos:lectura» que necesita esta llamada.`)
    expect((await pub(key.Clave, '/api/public/v1/me')).status).toBe(200)
    await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })
  })

  type KeyState = 'fresh' | 'expired' | 'rotating' | 'rotated-out'

  it('a public call succeeds iff the key holds its scope and is neither expired nor past its rotation window', async () => {
    const scopeNames = API_SCOPES.map((s) => s.Scope)
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(scopeNames, { minLength: 1 }),
        fc.constantFrom<KeyState>('fresh', 'expired', 'rotating', 'rotated-out'),
        fc.integer({ min: 0, max: 1000 }),
        async (scopes, state, pick) => {
          clock = NOW
          const call = calls[pick % calls.length]!
          const key = await generate({ Scopes: scopes, ...(state === 'expired' ? { FechaExpiracion: new Date(NOW + DAY).toISOString() } : {}) })
          let secret = key.Clave
          let replacement: string | null = null
          if (state === 'rotating' || state === 'rotated-out') {
            const rotated = await admin.post<Rotated>('/api/apikey/rotate', { ApiKey: key.ApiKey, HorasSolapamiento: 24 })
            expect(rotated.status, rotated.text).toBe(201)
            replacement = rotated.body.ApiKey
            secret = key.Clave // the old secret is the one on trial
          }
          clock = NOW + (state === 'expired' ? 2 * DAY : state === 'rotating' ? 23 * HOUR : state === 'rotated-out' ? 25 * HOUR : 0)
          const res = await pub(secret, call.path)
          clock = NOW
          await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })
          if (replacement) await admin.delete('/api/apikey/delete', { ApiKey: replacement })
          const valid = state === 'fresh' || state === 'rotating'
          const inScope = call.scope === null || scopes.includes(call.scope)
          const expected = !valid ? 401 : inScope ? 200 : 403
          expect(res.status, `${call.path} with ${scopes.join(',')} (${state}): ${res.text}`).toBe(expected)
          if (expected === 403) expect(res.text).toContain(`«${call.scope}»`)
          if (state === 'expired') expect(res.text).toMatch(/caducó el/)
          if (state === 'rotated-out') expect(res.text).toMatch(/se rotó y dejó de valer/)
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('rotation', () => {
  it('keeps the old secret valid through the overlap window, then refuses it; both are listed with their states', async () => {
    const old = await generate({ Scopes: ['contratos:lectura'], Descripcion: 'Producción' })
    const rotated = await admin.post<Rotated>('/api/apikey/rotate', { ApiKey: old.ApiKey, HorasSolapamiento: 48 })
    expect(rotated.status, rotated.text).toBe(201)
    const fresh = rotated.body
    expect(fresh.Clave).toMatch(/^pk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/)
    expect(fresh.ApiKey).not.toBe(old.ApiKey)
    expect(fresh).toMatchObject({ Scopes: ['contratos:lectura'], Descripcion: 'Producción', FechaExpiracion: old.FechaExpiracion, SustituyeA: old.ApiKey, Estado: 'activa' })
    expect(fresh.Anterior).toMatchObject({ ApiKey: old.ApiKey, Estado: 'en-rotacion', SustituidaPor: fresh.ApiKey, RotadaHasta: iso(NOW + 48 * HOUR) })
    // the secret is never listed
    expect(JSON.stringify((await admin.get('/api/apikey', { apiUserId })).body)).not.toContain(fresh.Clave.split('.')[1]!)

    clock = NOW + 47 * HOUR
    expect((await pub(old.Clave, '/api/public/v1/contratos')).status).toBe(200)
    expect((await pub(fresh.Clave, '/api/public/v1/contratos')).status).toBe(200)
    clock = NOW + 48 * HOUR
    const refused = await pub(old.Clave, '/api/public/v1/contratos')
    expect(refused.status).toBe(401)
    expect(refused.text).toContain(`usa la clave ${fresh.ApiKey}`)
    expect((await pub(fresh.Clave, '/api/public/v1/contratos')).status).toBe(200)
    clock = NOW
    expect((await keyOf(old.ApiKey)).Estado).toBe('en-rotacion')
    clock = NOW + 48 * HOUR
    expect((await keyOf(old.ApiKey)).Estado).toBe('caducada')
    expect((await keyOf(fresh.ApiKey)).Estado).toBe('activa')
    clock = NOW
    for (const k of [old.ApiKey, fresh.ApiKey]) await admin.delete('/api/apikey/delete', { ApiKey: k })
  })

  it('defaults to 24 hours, allows a week at most, and rotates only a working key once', async () => {
    const key = await generate()
    for (const hours of [0, 169, 1.5, 'mucho']) {
      const res = await admin.post('/api/apikey/rotate', { ApiKey: key.ApiKey, HorasSolapamiento: hours })
      expect(res.status, String(hours)).toBe(400)
      expect(res.text).toMatch(/entre 1 y 168/)
    }
    expect((await keyOf(key.ApiKey)).Estado).toBe('activa')
    const rotated = await admin.post<Rotated>('/api/apikey/rotate', { ApiKey: key.ApiKey })
    expect(rotated.status, rotated.text).toBe(201)
    expect(rotated.body.Anterior.RotadaHasta).toBe(iso(NOW + 24 * HOUR))
    const again = await admin.post('/api/apikey/rotate', { ApiKey: key.ApiKey })
    expect(again.status).toBe(409)
    expect(again.text).toContain(rotated.body.ApiKey)
    // a revoked key is not rotated
    await admin.put('/api/apikey/toggle', { ApiKey: rotated.body.ApiKey, Activa: false })
    expect((await keyOf(rotated.body.ApiKey)).Estado).toBe('revocada')
    expect((await admin.post('/api/apikey/rotate', { ApiKey: rotated.body.ApiKey })).status).toBe(409)
    expect((await admin.post('/api/apikey/rotate', { ApiKey: 'pk_0000000000000000' })).status).toBe(404)
    const trail = api.db.prepare("SELECT detalle FROM auditoria_admin WHERE accion = 'apikey.rotada' AND detalle LIKE ?").get(`%${key.ApiKey}%`) as { detalle: string }
    expect(JSON.parse(trail.detalle)).toMatchObject({ ApiKey: key.ApiKey, Nueva: rotated.body.ApiKey, HorasSolapamiento: 24 })
    for (const k of [key.ApiKey, rotated.body.ApiKey]) await admin.delete('/api/apikey/delete', { ApiKey: k })
  })
})

describe('expiry', () => {
  it('refuses an expired key with a 401 saying when it expired', async () => {
    const expiry = iso(NOW + 3 * DAY)
    const key = await generate({ FechaExpiracion: expiry })
    clock = NOW + 3 * DAY - 1
    expect((await pub(key.Clave, '/api/public/v1/me')).status).toBe(200)
    clock = NOW + 3 * DAY
    const res = await pub(key.Clave, '/api/public/v1/me')
    expect(res.status).toBe(401)
    expect(res.text).toBe(`La clave de API ${key.ApiKey} caducó el ${expiry}.`)
    expect((await keyOf(key.ApiKey)).Estado).toBe('caducada')
    clock = NOW
    await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })
  })
})

describe('last use', () => {
  it('records the time and client address, writing at most once a minute from one address', async () => {
    const key = await generate()
    expect((await keyOf(key.ApiKey)).UltimoUso).toBeNull()
    const from = { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }
    expect((await pub(key.Clave, '/api/public/v1/me', from)).status).toBe(200)
    expect(await keyOf(key.ApiKey)).toMatchObject({ UltimoUso: iso(NOW), UltimoUsoIp: '203.0.113.7' })
    clock = NOW + 59_000
    await pub(key.Clave, '/api/public/v1/me', from)
    expect((await keyOf(key.ApiKey)).UltimoUso).toBe(iso(NOW))
    clock = NOW + 60_000
    await pub(key.Clave, '/api/public/v1/me', from)
    expect((await keyOf(key.ApiKey)).UltimoUso).toBe(iso(NOW + 60_000))
    // another address is written at once
    clock = NOW + 61_000
    await pub(key.Clave, '/api/public/v1/me', { 'x-forwarded-for': '198.51.100.4' })
    expect(await keyOf(key.ApiKey)).toMatchObject({ UltimoUso: iso(NOW + 61_000), UltimoUsoIp: '198.51.100.4' })
    // a refused call records nothing
    clock = NOW + 10 * 60_000
    await pub(`${key.ApiKey}.${'A'.repeat(43)}`, '/api/public/v1/me')
    expect((await keyOf(key.ApiKey)).UltimoUso).toBe(iso(NOW + 61_000))
    clock = NOW
    await admin.delete('/api/apikey/delete', { ApiKey: key.ApiKey })
  })
})
