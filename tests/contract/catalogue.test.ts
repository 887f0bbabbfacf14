import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { SHIPPED_CATALOGUE } from '../../schemas/catalogue/index'
import { callName } from '../../schemas/catalogue/match'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { SPEC_CALLS } from './spec-calls'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

const catalogue = loadCatalogue()
const catalogued = new Set(catalogue.calls.map((c) => callName(c).toLowerCase()))

describe('endpoint catalogue', () => {
  it('holds the 118 business calls of spec §7, area by area', () => {
    const all = Object.values(SPEC_CALLS).flat()
    expect(all).toHaveLength(118)
    const missing = all.filter((name) => !catalogued.has(name.toLowerCase()))
    expect(missing, `calls of spec §7 missing from the catalogue: ${missing.join(', ')}`).toEqual([])
  })

  it('ships every file of its folder, listed once in schemas/catalogue/index.ts', () => {
    const folder = fs.readdirSync(path.join(import.meta.dirname, '../../schemas/catalogue')).filter((f) => f.endsWith('.json'))
    expect(Object.keys(SHIPPED_CATALOGUE).sort()).toEqual(folder.sort())
  })

  it('names every call once, by id and by method and path', () => {
    const ids = catalogue.calls.map((c) => c.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(catalogued.size).toBe(catalogue.calls.length)
  })

  it('gives every call an error area, and a read or mutation effect that fits its method', () => {
    for (const call of catalogue.calls) {
      const area = call.error.area
      expect(typeof area === 'string' ? area : area.es, callName(call)).not.toBe('')
      // Shipped areas and messages speak both languages.
      expect(typeof area === 'object' && area.en, `${callName(call)}: English area`).toBeTruthy()
      if (call.error.message !== undefined) expect(typeof call.error.message === 'object' && call.error.message.en, `${callName(call)}: English message`).toBeTruthy()
      if (call.method === 'GET') expect(call.effect, `${callName(call)} is a GET`).toBe('read')
      if (call.method === 'PUT' || call.method === 'DELETE' || call.method === 'PATCH') expect(call.effect, callName(call)).toBe('mutation')
    }
  })

  it('finds calls by their exact path, a static call before a template', () => {
    expect(catalogue.find('GET', 'api/agentes/export')?.call.id).not.toBe(catalogue.find('GET', 'api/agentes/12')?.call.id)
    expect(catalogue.find('GET', 'api/agentes/12')?.pathParams).toEqual({ id: '12' })
    expect(catalogue.find('GET', '/api/contract/id?codigo=x')?.call.path).toBe('api/contract/id')
    expect(catalogue.find('GET', '/API/Contract/ID?codigo=x')).toBeNull()
    expect(catalogue.find('DELETE', 'api/contract/id')).toBeNull()
    expect(catalogue.find('GET', 'api/nada')).toBeNull()
  })

  describe('against the reference API', () => {
    let api: RunningReferenceApi
    beforeAll(async () => {
      api = await startReferenceApi()
    })
    afterAll(async () => api?.close())

    it('every catalogued call is a route of the reference API, and every /api route of it is catalogued', async () => {
      const routes = routesOf(api)
      const asRoute = (path: string) => `/${path.replace(/\{([A-Za-z0-9]+)\}/g, ':$1')}`.toLowerCase()
      const notServed = catalogue.calls.filter((c) => !routes.has(`${c.method} ${asRoute(c.path)}`)).map(callName)
      expect(notServed, 'catalogued but not a reference API route').toEqual([])
      const known = new Set(catalogue.calls.map((c) => `${c.method} ${asRoute(c.path)}`))
      const notCatalogued = [...routes].filter((r) => !known.has(r) && !r.includes('/api/__test/'))
      expect(notCatalogued, 'reference API routes missing from the catalogue').toEqual([])
    })
  })
})

/** `METHOD /path` (lower case, `:param`) of every /api route the reference API registered. */
function routesOf(api: RunningReferenceApi): Set<string> {
  return new Set(api.routes.filter((r) => r.url.startsWith('/api/')).map((r) => `${r.method} ${r.url.toLowerCase()}`))
}
