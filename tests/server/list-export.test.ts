import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry, AuditPageAnswer } from '../../schemas/audit'
import { isMasked } from '../../schemas/personal-data'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { EXPORT_MESSAGES, EXPORT_PAGE_SIZE } from '../../server/personal/list-export'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { asBytes, clearValuesOf, LIST_EXPORTS, listQuery, readSheet } from './support/list-export-support'

/**
 * Issue 16, exports: the four list exports are built by the BFF from their lists' JSON pages,
 * masked like the lists, with the columns and headers the screen sends; a user holding
 * VERDATOSPERSONALES may export clear values with a reason, which the audit records. The clear
 * values compared against are read straight from the reference API, as the same user.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const catalogue = loadCatalogue()
const callOf = (id: string) => catalogue.calls.find((c) => c.id === id)!

let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''
let adminApi: ApiCaller
let agenteApi: ApiCaller

async function signIn(creds: typeof ADMIN, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

/** The export through the BFF: `query` as the client sends it (`columns[i]`, `labels[i]`, filters…). */
function exportVia(path: string, cookie: string, query: Record<string, string | number>, opts: { host?: string; reason?: string } = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
  const r = request(bff.app.server).get(`${path}?${qs}`).set('Host', opts.host ?? 'localhost').set('X-CSRF', '1').set('Cookie', cookie)
  if (opts.reason !== undefined) r.set('X-Export-Reason', opts.reason)
  return asBytes(r)
}

const auditOf = async (call: string) => ((await request(bff.app.server).get('/bff/admin/audit').query({ call, pageSize: 100 }).set('Host', 'localhost').set('X-CSRF', '1').set('Cookie', admin).expect(200)).body as AuditPageAnswer).Items
const clearExports = async (path: string) => (await auditOf(`GET ${path.slice(1)}`)).filter((e: AuditEntry) => e.action === 'personal.export')

beforeAll(async () => {
  api = await startReferenceApi()
  // Every test here reads the BFF's files in the same process: the overload guard is not what is tested.
  bff = await buildTestBff(api.url, { MAX_EVENT_LOOP_DELAY_MS: '0' })
  admin = await signIn(ADMIN)
  agente = await signIn(AGENTE, GRUPO)
  adminApi = await ApiCaller.signIn(api.url, ADMIN)
  agenteApi = await ApiCaller.signIn(api.url, AGENTE, BRAND_DOMAINS.grupo)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('list exports, masked by default', () => {
  for (const e of LIST_EXPORTS) {
    it(`${e.id}: the filtered rows, masked, with the columns and headers the screen sent`, async () => {
      const filters = [e.filter]
      const direct = await adminApi.get<{ Items: Record<string, unknown>[]; TotalCount: number }>(e.list, listQuery({ pageSize: 500, filters }))
      expect(direct.status).toBe(200)
      expect(direct.body.TotalCount).toBeGreaterThan(0)
      const clear = clearValuesOf(callOf(e.id.replace('.export', '.list')), direct.body)
      expect(clear.length).toBeGreaterThan(0)

      const res = await exportVia(e.path, admin, { ...listQuery({ pageSize: -1, filters }), 'columns[0]': 'Id', 'columns[1]': e.nif, 'columns[2]': e.filter.column, 'labels[0]': 'Id', 'labels[1]': 'NIF/CIF', 'labels[2]': 'Títular o nombre' }).expect(200)
      expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[a-z]+-\d{4}-\d{2}-\d{2}\.xlsx"$/)
      const sheet = await readSheet(res.body as Buffer)
      expect(sheet.headers).toEqual(['Id', 'NIF/CIF', 'Títular o nombre'])
      expect(sheet.rows).toHaveLength(direct.body.TotalCount)
      expect(sheet.rows.map((r) => Number(r[0]))).toEqual(direct.body.Items.map((r) => r.Id))
      // Every NIF masked, and no clear value of the list anywhere in the file.
      expect(sheet.rows.every((r) => r[1] === '' || isMasked(r[1]))).toBe(true)
      const cells = sheet.rows.flat().join('\n')
      for (const v of clear) expect(cells.includes(v), `${e.id}: ${v} clear`).toBe(false)
    })
  }

  it('reaches the agent masked too, the rows the agent may see', async () => {
    for (const e of LIST_EXPORTS.filter((x) => x.id !== 'renewal.export')) {
      const direct = await agenteApi.get<{ Items: Record<string, unknown>[]; TotalCount: number }>(e.list, listQuery({ pageSize: 500 }))
      const res = await exportVia(e.path, agente, listQuery({ pageSize: -1 }), { host: GRUPO }).expect(200)
      const sheet = await readSheet(res.body as Buffer)
      expect(sheet.rows, e.id).toHaveLength(direct.body.TotalCount)
      const cells = sheet.rows.flat().join('\n')
      for (const v of clearValuesOf(callOf(e.id.replace('.export', '.list')), direct.body)) expect(cells.includes(v), `${e.id}: ${v} clear`).toBe(false)
    }
    // A list the agent may not read: nor its export.
    await exportVia('/api/renovaciones/export', agente, listQuery({ pageSize: -1 }), { host: GRUPO }).expect(403)
  })

  it('every row of a list longer than a page, in the sort asked, read a bounded page at a time', async () => {
    const direct = await adminApi.get<{ TotalCount: number }>('/api/contract', listQuery({ pageSize: 1 }))
    expect(direct.body.TotalCount).toBeGreaterThan(EXPORT_PAGE_SIZE)
    const res = await exportVia('/api/contract/export', admin, { ...listQuery({ pageSize: -1, sort: { column: 'Id', order: 'desc' } }), 'columns[0]': 'Id' }).expect(200)
    const ids = (await readSheet(res.body as Buffer)).rows.map((r) => Number(r[0]))
    expect(ids).toHaveLength(direct.body.TotalCount)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
  })

  it('without columns: every field of the list’s rows, headed by its name; dates as dates', async () => {
    const res = await exportVia('/api/facturas/export', admin, listQuery({ pageSize: -1, filters: [{ column: 'Titular', query: 'lopez' }] })).expect(200)
    const sheet = await readSheet(res.body as Buffer)
    expect(sheet.headers.slice(0, 4)).toEqual(['Id', 'Numero', 'CodigoContrato', 'Titular'])
    expect(sheet.headers).toContain('Nif')
    const emission = sheet.headers.indexOf('FechaEmision')
    expect(sheet.rows[0]![emission]).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  })

  it('a page size asks for that page only', async () => {
    const res = await exportVia('/api/contract/export', admin, { ...listQuery({ pageIndex: 1, pageSize: 25, sort: { column: 'Id', order: 'asc' } }), 'columns[0]': 'Id' }).expect(200)
    const direct = await adminApi.get<{ Items: { Id: number }[] }>('/api/contract', listQuery({ pageIndex: 1, pageSize: 25, sort: { column: 'Id', order: 'asc' } }))
    expect((await readSheet(res.body as Buffer)).rows.map((r) => Number(r[0]))).toEqual(direct.body.Items.map((r) => r.Id))
  })

  it('refuses, in Spanish, a column the list’s rows do not have, and headers that do not match the columns', async () => {
    const unknown = await exportVia('/api/contract/export', admin, { 'columns[0]': 'Id', 'columns[1]': 'Contraseña' }).expect(400)
    expect(JSON.parse(unknown.body.toString()).message).toMatch(/columnas que se exportan/)
    const absent = await exportVia('/api/contract/export', admin, { 'columns[0]': 'Id', 'columns[1]': 'Iban' }).expect(400)
    expect(JSON.parse(absent.body.toString()).message).toBe(EXPORT_MESSAGES.column('Iban'))
    const labels = await exportVia('/api/contract/export', admin, { 'columns[0]': 'Id', 'columns[1]': 'Nif', 'labels[0]': 'Id' }).expect(400)
    expect(JSON.parse(labels.body.toString()).message).toBe(EXPORT_MESSAGES.labels)
  })
})

describe('clear exports', () => {
  it('without VERDATOSPERSONALES: 403, nothing exported clear, nothing recorded', async () => {
    const before = await clearExports('/api/contract/export')
    const res = await exportVia('/api/contract/export', agente, listQuery({ pageSize: -1 }), { host: GRUPO, reason: 'Revisión de la cartera' }).expect(403)
    expect(JSON.parse(res.body.toString()).message).toBe(EXPORT_MESSAGES.forbidden)
    expect(await clearExports('/api/contract/export')).toHaveLength(before.length)
  })

  it('without a reason worth the name: 400, nothing recorded', async () => {
    const before = await clearExports('/api/contract/export')
    for (const reason of ['', '   ', 'abc', 'x'.repeat(301), '%E0%A4%A']) {
      const res = await exportVia('/api/contract/export', admin, listQuery({ pageSize: -1 }), { reason }).expect(400)
      expect(JSON.parse(res.body.toString()).message, reason).toBe(EXPORT_MESSAGES.reason)
    }
    expect(await clearExports('/api/contract/export')).toHaveLength(before.length)
  })

  for (const e of LIST_EXPORTS) {
    it(`${e.id}: with the permission and a reason, clear values, and the audit records who, the call, the reason and the rows`, async () => {
      const filters = [e.filter]
      const direct = await adminApi.get<{ Items: Record<string, unknown>[]; TotalCount: number }>(e.list, listQuery({ pageSize: 500, filters }))
      const reason = `Auditoría de cartera — revisión ${Date.now()}`
      const res = await exportVia(e.path, admin, { ...listQuery({ pageSize: -1, filters }), 'columns[0]': 'Id', 'columns[1]': e.nif }, { reason: encodeURIComponent(reason) }).expect(200)
      const sheet = await readSheet(res.body as Buffer)
      expect(sheet.rows.map((r) => r[1])).toEqual(direct.body.Items.map((r) => r[e.nif]))
      expect(sheet.rows.some((r) => /^\d{8}[A-Z]$|^[A-Z]\d{7}[0-9A-J]$/.test(r[1]!))).toBe(true)

      const entries = await clearExports(e.path)
      const entry = entries.find((x) => x.details?.reason === reason)!
      expect(entry, 'audited').toBeDefined()
      expect(entry.call).toBe(`GET ${e.path.slice(1)}`)
      expect(entry.actor?.email).toBe('admin@portal.test')
      expect(entry.outcome.ok).toBe(true)
      expect(entry.details).toMatchObject({ callId: e.id, rows: direct.body.TotalCount, columns: ['Id', e.nif], filters: { [e.filter.column]: e.filter.query } })
      expect(JSON.parse(entry.summary!)).toMatchObject({ motivo: reason, filas: direct.body.TotalCount })
    })
  }
})
