import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FaultRegistry, parseFaultSpec } from '../../server/reference-api/lib/faults'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE } from './business-support'

/** Faults on purpose (tests only): the registry, its control routes, and its refusal in production. */

interface Fault {
  Id: number
  Method: string
  Path: string
  Status: number
  DelayMs: number
  Times: number | null
  Scope: string | null
  Restantes: number | null
  Aplicados: number
  Origen: 'entorno' | 'api'
}

const CODE_QUERY = { codigo: 'EV-2026-000001' }
const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now()
  const value = await fn()
  return [value, performance.now() - start]
}

describe('the fault registry', () => {
  it('parses REFERENCE_API_FAULTS', () => {
    expect(parseFaultSpec('GET /api/contract/id=500;POST /api/contract/insert=503:2000; get /api/client/ = 0:150 ')).toEqual([
      { Method: 'GET', Path: '/api/contract/id', Status: 500, DelayMs: 0, Times: null, Scope: null },
      { Method: 'POST', Path: '/api/contract/insert', Status: 503, DelayMs: 2000, Times: null, Scope: null },
      { Method: 'GET', Path: '/api/client', Status: 0, DelayMs: 150, Times: null, Scope: null },
    ])
    expect(parseFaultSpec('')).toEqual([])
    for (const bad of ['GET /api/x', 'GET /api/x=abc', '/api/x=500', 'GET /otra=500', 'GET /api/x=42', 'GET /api/x=0', 'GET /api/__test/faults=500', 'GET /api/x=500:999999']) {
      expect(() => parseFaultSpec(bad), bad).toThrow(/REFERENCE_API_FAULTS no válido/)
    }
  })

  it('counts Times, matches method and path (no query, no trailing slash, any case), replaces a fault of the same call', () => {
    const r = new FaultRegistry()
    r.add({ Method: 'get', Path: '/api/contract/id', Status: 500, DelayMs: 0, Times: 2, Scope: null })
    expect(r.take('POST', '/api/contract/id')).toBeNull()
    expect(r.take('GET', '/api/contract/id?codigo=EV-2026-000001')).toMatchObject({ Status: 500, Restantes: 1, Aplicados: 1 })
    expect(r.take('GET', '/API/Contract/Id/')).toMatchObject({ Restantes: 0, Aplicados: 2 })
    expect(r.take('GET', '/api/contract/id')).toBeNull()
    expect(r.list()).toEqual([])
    r.add({ Method: 'GET', Path: '/api/contract/id', Status: 500, DelayMs: 0, Times: null, Scope: null })
    r.add({ Method: 'GET', Path: '/api/contract/id/', Status: 503, DelayMs: 0, Times: null, Scope: null })
    expect(r.list()).toHaveLength(1)
    expect(r.take('GET', '/api/contract/id')?.Status).toBe(503)
    expect(r.clear()).toBe(1)
  })

  it('a scoped fault fails only its own scope\'s calls, before an unscoped one; scopes do not replace each other', () => {
    const r = new FaultRegistry()
    const call = { Method: 'GET', Path: '/api/client', Status: 500, DelayMs: 0, Times: 1 }
    r.add({ ...call, Scope: 'prueba-a' })
    r.add({ ...call, Scope: 'prueba-b', Status: 503 })
    expect(r.list()).toHaveLength(2)
    expect(r.take('GET', '/api/client')).toBeNull()
    expect(r.take('GET', '/api/client', 'otra')).toBeNull()
    expect(r.take('GET', '/api/client', 'prueba-b')?.Status).toBe(503)
    expect(r.take('GET', '/api/client', 'prueba-b')).toBeNull()
    r.add({ ...call, Scope: null, Status: 502 })
    expect(r.take('GET', '/api/client', 'prueba-a')?.Status).toBe(500)
    expect(r.take('GET', '/api/client', 'prueba-a')?.Status).toBe(502)
    expect(r.list()).toEqual([])
    expect(() => r.add({ ...call, Scope: 'con espacios' })).toThrow(/Scope debe tener/)
  })
})

describe('faults through HTTP', () => {
  let api: RunningReferenceApi
  let admin: ApiCaller

  beforeAll(async () => {
    api = await startReferenceApi({ REFERENCE_API_FAULTS: 'GET /api/contract/id=500;POST /api/contract/insert=503:200' })
    admin = await ApiCaller.signIn(api.url, ADMIN)
  })
  afterAll(async () => {
    await api?.close()
  })

  it('the environment faults apply from the start: an empty body with the status, after the delay', async () => {
    const list = await admin.get<Fault[]>('/api/__test/faults')
    expect(list.status).toBe(200)
    expect(list.body.map((f) => [f.Method, f.Path, f.Status, f.DelayMs, f.Times, f.Origen])).toEqual([
      ['GET', '/api/contract/id', 500, 0, null, 'entorno'],
      ['POST', '/api/contract/insert', 503, 200, null, 'entorno'],
    ])
    const res = await admin.get('/api/contract/id', CODE_QUERY)
    expect(res.status).toBe(500)
    expect(res.text).toBe('')
    expect(res.headers.get('content-length')).toBe('0')
    const [insert, ms] = await timed(() => admin.post('/api/contract/insert', {}))
    expect(insert.status).toBe(503)
    expect(insert.text).toBe('')
    expect(ms).toBeGreaterThanOrEqual(190)
    // Before any route logic: the invalid body above was never looked at.
    expect((await admin.get<Fault[]>('/api/__test/faults')).body[0]!.Aplicados).toBe(1)
  })

  it('DELETE clears every fault (204); calls answer normally again', async () => {
    const del = await admin.delete('/api/__test/faults')
    expect(del.status).toBe(204)
    expect((await admin.get<Fault[]>('/api/__test/faults')).body).toEqual([])
    expect((await admin.get('/api/contract/id', CODE_QUERY)).status).not.toBe(500)
  })

  it('POST adds one (201); Times limits how many calls fail', async () => {
    const add = await admin.post<Fault>('/api/__test/faults', { Method: 'GET', Path: '/api/contract/situacion-contratos', Status: 502, Times: 2 })
    expect(add.status).toBe(201)
    expect(add.body).toMatchObject({ Method: 'GET', Path: '/api/contract/situacion-contratos', Status: 502, DelayMs: 0, Times: 2, Restantes: 2, Aplicados: 0, Origen: 'api' })
    expect((await admin.get('/api/contract/situacion-contratos')).status).toBe(502)
    expect((await admin.get<Fault[]>('/api/__test/faults')).body[0]).toMatchObject({ Restantes: 1, Aplicados: 1 })
    expect((await admin.get('/api/contract/situacion-contratos')).status).toBe(502)
    const third = await admin.get('/api/contract/situacion-contratos')
    expect(third.status).toBe(200)
    expect(Array.isArray(third.body)).toBe(true)
    expect((await admin.get<Fault[]>('/api/__test/faults')).body).toEqual([])
  })

  it('a fault with a Scope fails only calls sent with that X-Fault-Scope', async () => {
    const add = await admin.post<Fault>('/api/__test/faults', { Method: 'GET', Path: '/api/utility/cnaes', Status: 500, Times: 1, Scope: 'prueba-7' })
    expect(add.body).toMatchObject({ Scope: 'prueba-7', Restantes: 1 })
    expect((await admin.get('/api/utility/cnaes')).status).toBe(200)
    expect((await admin.call('GET', '/api/utility/cnaes', { headers: { 'X-Fault-Scope': 'prueba-8' } })).status).toBe(200)
    expect((await admin.call('GET', '/api/utility/cnaes', { headers: { 'X-Fault-Scope': 'prueba-7' } })).status).toBe(500)
    expect((await admin.get<Fault[]>('/api/__test/faults')).body).toEqual([])
    const bad = await admin.post('/api/__test/faults', { Method: 'GET', Path: '/api/utility/cnaes', Status: 500, Scope: 'a b' })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('Scope debe tener de 1 a 64 letras')
    expect((await admin.get<Fault[]>('/api/__test/faults')).body).toEqual([])
  })

  it('DELETE /{Id} removes that fault only (204), then 404; a bad id is a 400', async () => {
    const mine = await admin.post<Fault>('/api/__test/faults', { Method: 'GET', Path: '/api/utility/cnaes', Status: 500 })
    const theirs = await admin.post<Fault>('/api/__test/faults', { Method: 'GET', Path: '/api/utility/provincias', Status: 500 })
    expect((await admin.delete(`/api/__test/faults/${mine.body.Id}`)).status).toBe(204)
    expect((await admin.get('/api/utility/cnaes')).status).toBe(200)
    expect((await admin.get('/api/utility/provincias')).status).toBe(500)
    expect((await admin.get<Fault[]>('/api/__test/faults')).body.map((f) => f.Id)).toEqual([theirs.body.Id])
    expect((await admin.delete(`/api/__test/faults/${mine.body.Id}`)).status).toBe(404)
    expect((await admin.delete('/api/__test/faults/uno')).status).toBe(400)
    expect((await admin.delete(`/api/__test/faults/${theirs.body.Id}`)).status).toBe(204)
    expect((await admin.get<Fault[]>('/api/__test/faults')).body).toEqual([])
  })

  it('a delay without a status: the call waits, then answers normally', async () => {
    await admin.post('/api/__test/faults', { Method: 'GET', Path: '/api/utility/tarifas', DelayMs: 250, Times: 1 })
    const [res, ms] = await timed(() => admin.get('/api/utility/tarifas'))
    expect(res.status).toBe(200)
    expect((res.body as unknown[]).length).toBe(6)
    expect(ms).toBeGreaterThanOrEqual(240)
    const [fast, ms2] = await timed(() => admin.get('/api/utility/tarifas'))
    expect(fast.status).toBe(200)
    expect(ms2).toBeLessThan(240)
  })

  it('the public auth calls can fail too; a fault on another brand’s call applies to every brand', async () => {
    await admin.post('/api/__test/faults', { Method: 'POST', Path: '/api/auth/login', Status: 500, Times: 1 })
    const res = await fetch(`${api.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-brand-domain': BRAND_DOMAINS.grupo },
      body: JSON.stringify(AGENTE),
    })
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('')
    await expect(ApiCaller.signIn(api.url, AGENTE)).resolves.toBeInstanceOf(ApiCaller)
  })

  it('a bad fault is a 400; the control calls need a signed-in user (any: no permission) and cannot be faulted', async () => {
    for (const body of [
      { Method: 'GET', Path: '/api/x', Status: 42 },
      { Method: 'GET', Path: '/otra', Status: 500 },
      { Method: 'GET', Path: '/api/__test/faults', Status: 500 },
      { Path: '/api/x', Status: 500 },
      { Method: 'GET', Status: 500 },
      { Method: 'GET', Path: '/api/x' },
      { Method: 'GET', Path: '/api/x', Status: 500, Times: 0 },
      { Method: 'GET', Path: '/api/x', Status: 500, DelayMs: -1 },
      [1, 2],
    ]) {
      const res = await admin.post('/api/__test/faults', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.text.length).toBeGreaterThan(5)
    }
    const anonymous = new ApiCaller(api.url, null)
    expect((await anonymous.get('/api/__test/faults')).status).toBe(401)
    expect((await anonymous.delete('/api/__test/faults')).status).toBe(401)
    const agente = await ApiCaller.signIn(api.url, AGENTE)
    expect((await agente.get('/api/__test/faults')).status).toBe(200)
    // A client that always declares a JSON body may clear them too.
    const del = await agente.call('DELETE', '/api/__test/faults', { headers: { 'content-type': 'application/json' } })
    expect(del.status).toBe(204)
  })
})

describe('production refuses faults', () => {
  let api: RunningReferenceApi
  beforeAll(async () => {
    api = await startReferenceApi({ NODE_ENV: 'production', REFERENCE_API_FAULTS: 'GET /api/utility/tarifas=500;this is not even valid' })
  })
  afterAll(async () => {
    await api?.close()
  })

  it('the control routes do not exist and REFERENCE_API_FAULTS is ignored', async () => {
    const admin = await ApiCaller.signIn(api.url, ADMIN)
    expect((await admin.get('/api/__test/faults')).status).toBe(404)
    expect((await admin.post('/api/__test/faults', { Method: 'GET', Path: '/api/utility/tarifas', Status: 500 })).status).toBe(404)
    expect((await admin.delete('/api/__test/faults')).status).toBe(404)
    expect((await admin.get('/api/utility/tarifas')).status).toBe(200)
  })
})
