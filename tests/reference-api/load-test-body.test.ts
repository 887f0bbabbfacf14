import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN } from '../helpers/bff'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

let api: RunningReferenceApi

beforeAll(async () => {
  api = await startReferenceApi()
})
afterAll(async () => {
  await api?.close()
})

describe('GET /api/utility/prueba-carga', () => {
  it('answers the same 2 048-byte JSON body to a signed-in user', async () => {
    const caller = await ApiCaller.signIn(api.url, ADMIN)
    const first = await caller.call<{ Tamano: number; Items: { Id: number }[] }>('GET', '/api/utility/prueba-carga')
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(first.bytes.length).toBe(2048)
    expect(first.body.Tamano).toBe(2048)
    expect(first.body.Items.length).toBeGreaterThan(10)
    const second = await caller.call('GET', '/api/utility/prueba-carga')
    expect(second.bytes.equals(first.bytes)).toBe(true)
  })

  it('checks the bearer token like every call', async () => {
    expect((await new ApiCaller(api.url, null).call('GET', '/api/utility/prueba-carga')).status).toBe(401)
    expect((await new ApiCaller(api.url, 'no-es-un-token').call('GET', '/api/utility/prueba-carga')).status).toBe(401)
  })
})
