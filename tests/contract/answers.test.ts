import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Compile } from 'typebox/compile'
import { ANSWER_SHAPES, isShapeName } from '../../schemas/business/shapes'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { callName } from '../../schemas/catalogue/match'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import type { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ANSWER_REQUESTS, readSeedKeys, signInAdmin, type AnswerRequest, type SeedKeys } from './answer-requests'

/**
 * The answers of the reference API against the business shapes the catalogue names
 * (schemas/business/shapes.ts): every catalogued JSON read call names a shape, or is below with
 * the reason it does not, and its answer to realistic requests matches the shape.
 */

const catalogue = loadCatalogue()

/** JSON read calls that name no shape, and why. */
const WITHOUT_SHAPE: Record<string, string> = {
  'utility.loadTest': 'a synthetic answer of the requested size for load tests; no screen or widget reads it',
  'publicApi.catalogue': 'the public integration API answers to an API key, not a session; its own suite (tests/reference-api/public-api-v1.test.ts) checks its answers',
  'publicApi.me': 'public integration API (see publicApi.catalogue)',
  'publicApi.contractList': 'public integration API (see publicApi.catalogue)',
  'publicApi.contractDetail': 'public integration API (see publicApi.catalogue)',
  'publicApi.sips': 'public integration API (see publicApi.catalogue)',
  'publicApi.invoices': 'public integration API (see publicApi.catalogue)',
  'publicApi.omiePrices': 'public integration API (see publicApi.catalogue)',
}

const isJsonRead = (c: Endpoint) => c.effect === 'read' && (c.answer ?? 'json') === 'json'
const jsonReads = catalogue.calls.filter(isJsonRead)
const shaped = catalogue.calls.filter((c) => c.shape !== undefined)

/** `$.Items[3].Nombre` of a JSON pointer (`/Items/3/Nombre`). */
function jsonPath(pointer: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  return `$${parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join('')}`
}

/** The first mismatch of a value against a named shape, as `path: message`, or null. */
function firstMismatch(shape: string, value: unknown): string | null {
  if (!isShapeName(shape)) return `shape «${shape}» is not registered`
  const compiled = Compile(ANSWER_SHAPES[shape])
  if (compiled.Check(value)) return null
  const [first] = compiled.Errors(value)
  return first ? `${jsonPath(first.instancePath)}: ${first.message} ${JSON.stringify(first.params)}` : 'does not match'
}

const urlOf = (call: Endpoint, req: AnswerRequest) => `/${call.path.replace(/\{([A-Za-z0-9]+)\}/g, (_, name: string) => encodeURIComponent(String(req.pathParams?.[name])))}`

describe('the shapes of the answers, as the catalogue names them', () => {
  it('every JSON read call names a shape, or is an exception with its reason', () => {
    const unnamed = jsonReads.filter((c) => c.shape === undefined && !(c.id in WITHOUT_SHAPE)).map((c) => `${c.id} (${callName(c)})`)
    expect(unnamed, 'JSON read calls without a shape').toEqual([])
    const stale = Object.keys(WITHOUT_SHAPE).filter((id) => !jsonReads.some((c) => c.id === id && c.shape === undefined))
    expect(stale, 'exceptions that are not unshaped JSON read calls').toEqual([])
  })

  it('every shaped call has realistic requests here, and every request is for a shaped call', () => {
    expect(shaped.filter((c) => !(c.id in ANSWER_REQUESTS)).map((c) => c.id)).toEqual([])
    expect(Object.keys(ANSWER_REQUESTS).filter((id) => !shaped.some((c) => c.id === id))).toEqual([])
  })

  it('the catalogue refuses a shape that is not registered', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-shape-'))
    const file = path.join(dir, 'extra.json')
    const call = { id: 'extra.nothing', method: 'GET', path: 'api/extra/nada', summary: 'Nada.', effect: 'read', shape: 'extra.unknown', error: { area: 'Extra' } }
    fs.writeFileSync(file, JSON.stringify({ calls: [call] }))
    try {
      expect(() => loadCatalogue({ extraFiles: [file] })).toThrow(/«extra\.unknown» no está registrada/)
      fs.writeFileSync(file, JSON.stringify({ calls: [{ ...call, shape: 'files.tree', answer: 'file' }] }))
      expect(() => loadCatalogue({ extraFiles: [file] })).toThrow(/solo una respuesta JSON tiene forma/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('the catalogue refuses a summable column that is not a column of the list', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-summable-'))
    const file = path.join(dir, 'extra.json')
    const call = { id: 'extra.list', method: 'GET', path: 'api/extra', summary: 'Lista.', effect: 'read', list: { mode: 'paged', sortable: ['Importe'], filterable: [], summable: ['Importe'] }, error: { area: 'Extra' } }
    fs.writeFileSync(file, JSON.stringify({ calls: [call] }))
    try {
      expect(() => loadCatalogue({ extraFiles: [file] })).not.toThrow()
      fs.writeFileSync(file, JSON.stringify({ calls: [{ ...call, list: { ...call.list, summable: ['Importe', 'Otro'] } }] }))
      expect(() => loadCatalogue({ extraFiles: [file] })).toThrow(/la columna sumable «Otro» no es una columna de la lista/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a renamed or missing field is a mismatch, named by its JSON path', () => {
    const folder = { Id: 1, Nombre: 'Plantillas', CarpetaPadreId: null, NumArchivos: 0, NumCarpetas: 0, Fecha: '2026-08-16T08:59:27Z', Hijas: [] }
    expect(firstMismatch('files.tree', [folder])).toBeNull()
    const { Nombre, ...renamed } = folder
    expect(firstMismatch('files.tree', [{ ...folder, Hijas: [{ ...renamed, Name: Nombre }] }])).toMatch(/^\$\[0\]\.Hijas\[0\]/)
    expect(firstMismatch('files.tree', [renamed])).toMatch(/^\$\[0\]/)
  })

  describe('against the reference API', () => {
    let api: RunningReferenceApi
    let caller: ApiCaller
    let keys: SeedKeys
    beforeAll(async () => {
      api = await startReferenceApi()
      caller = await signInAdmin(api.url)
      keys = await readSeedKeys(caller)
    })
    afterAll(async () => api?.close())

    it.for(shaped.map((c) => [c.id, c] as const))('%s answers its shape', async ([, call]) => {
      for (const req of ANSWER_REQUESTS[call.id]!(keys)) {
        const what = `${callName(call)}${req.variant ? ` (${req.variant})` : ''}`
        const res = await caller.call(call.method, urlOf(call, req), { query: req.query, body: req.body })
        expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(200)
        expect(firstMismatch(call.shape!, res.body), `${what} against «${call.shape}»`).toBeNull()
        // A paged list totals exactly the columns the catalogue declares summable, and no others.
        if (call.list?.mode === 'paged') {
          const totals = (res.body as { Totales?: Record<string, number> }).Totales
          expect(Object.keys(totals ?? {}).sort(), `${what}: Totales`).toEqual([...(call.list.summable ?? [])].sort())
        }
      }
    })
  })
})
