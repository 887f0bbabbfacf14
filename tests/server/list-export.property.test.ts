import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { asBytes, clearValuesOf, LIST_EXPORTS, listQuery, readSheet } from './support/list-export-support'

/**
 * Issue 16, exports: whatever the filters, sort and page asked, as the agent or the admin, a
 * masked export holds no clear value of any kind the BFF masks (NIF, e-mail, phone) that the
 * list gives the same user for the same request, and it holds the rows the list has.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const catalogue = loadCatalogue()

/** Text columns of each list with queries that match some rows and not others (personal ones among them). */
const TEXT_COLUMNS: Record<(typeof LIST_EXPORTS)[number]['id'], string[]> = {
  'contract.export': ['Titular', 'Nif', 'Cups', 'Agente', 'Provincia'],
  'invoice.export': ['Titular', 'Nif', 'Cups', 'Numero'],
  'renewal.export': ['Titular', 'Nif', 'Cups'],
  'agent.export': ['Nombre', 'Nif', 'Email', 'Telefono'],
}
const QUERIES = ['a', 'e', 'garcia', 'lopez', 'ma', '1', '2', '5', '6', 'Z', '@', 'es', 'x']

let api: RunningReferenceApi
let bff: TestBff
const users: { cookie: string; host: string; direct: ApiCaller; renewals: boolean }[] = []

async function signIn(creds: typeof ADMIN, host: string) {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

beforeAll(async () => {
  api = await startReferenceApi()
  // Every test here reads the BFF's files in the same process: the overload guard is not what is tested.
  bff = await buildTestBff(api.url, { MAX_EVENT_LOOP_DELAY_MS: '0' })
  users.push({ cookie: await signIn(ADMIN, 'localhost'), host: 'localhost', direct: await ApiCaller.signIn(api.url, ADMIN), renewals: true })
  users.push({ cookie: await signIn(AGENTE, GRUPO), host: GRUPO, direct: await ApiCaller.signIn(api.url, AGENTE, BRAND_DOMAINS.grupo), renewals: false })
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

/** The rows the list gives for the request: every page of it, or the one page asked. */
async function listRows(direct: ApiCaller, path: string, q: Parameters<typeof listQuery>[0]): Promise<{ status: number; pages: unknown[]; rows: number }> {
  if (q.pageSize !== -1) {
    const one = await direct.get<{ Items: unknown[] }>(path, listQuery(q))
    return { status: one.status, pages: [one.body], rows: one.status === 200 ? one.body.Items.length : 0 }
  }
  const pages: unknown[] = []
  let rows = 0
  for (let pageIndex = 0; ; pageIndex++) {
    const page = await direct.get<{ Items: unknown[]; TotalCount: number }>(path, listQuery({ ...q, pageIndex, pageSize: 500 }))
    if (page.status !== 200) return { status: page.status, pages, rows }
    pages.push(page.body)
    rows += page.body.Items.length
    if (page.body.Items.length < 500) return { status: 200, pages, rows }
  }
}

describe('a masked export, for any filters, sort and page', () => {
  it('holds none of the clear values the list gives the same user, and the list’s rows', async () => {
    const exportArb = fc.constantFrom(...LIST_EXPORTS).chain((e) =>
      fc.record({
        e: fc.constant(e),
        user: fc.integer({ min: 0, max: 1 }),
        filters: fc.uniqueArray(fc.record({ column: fc.constantFrom(...TEXT_COLUMNS[e.id]), query: fc.constantFrom(...QUERIES) }), { maxLength: 2, selector: (f) => f.column }),
        sort: fc.option(fc.record({ column: fc.constantFrom(...callSortable(e.id)), order: fc.constantFrom('asc', 'desc') }), { nil: undefined }),
        page: fc.oneof(fc.constant({ pageIndex: 0, pageSize: -1 }), fc.record({ pageIndex: fc.integer({ min: 0, max: 3 }), pageSize: fc.integer({ min: 1, max: 60 }) })),
      }),
    )
    await fc.assert(
      fc.asyncProperty(exportArb, async ({ e, user, filters, sort, page }) => {
        const who = users[user]!
        if (e.id === 'renewal.export' && !who.renewals) return
        const q = { ...page, filters, ...(sort ? { sort } : {}) }
        const direct = await listRows(who.direct, e.list, q)
        const qs = new URLSearchParams(Object.entries(listQuery(q)).map(([k, v]) => [k, String(v)])).toString()
        const res = await asBytes(request(bff.app.server).get(`${e.path}?${qs}`).set('Host', who.host).set('X-CSRF', '1').set('Cookie', who.cookie))
        expect(res.status).toBe(direct.status)
        if (res.status !== 200) return
        const sheet = await readSheet(res.body as Buffer)
        expect(sheet.rows).toHaveLength(direct.rows)
        const list = catalogue.calls.find((c) => c.id === e.id.replace('.export', '.list'))!
        const clear = new Set(direct.pages.flatMap((p) => clearValuesOf(list, p)))
        const cells = sheet.rows.flat()
        for (const cell of cells) expect(clear.has(cell), `${e.id}: a clear value in a cell`).toBe(false)
        // Identifiers and e-mails are also looked for inside other text (a phone's digits may sit in a CUPS).
        const joined = cells.join('\n')
        for (const v of clear) if (/[A-Za-z@]/.test(v) && v.length >= 8) expect(joined.includes(v), `${e.id}: ${v} inside a cell`).toBe(false)
      }),
      { numRuns: 25 },
    )
  }, 240_000)
})

function callSortable(id: string): string[] {
  return catalogue.calls.find((c) => c.id === id)!.list!.sortable
}
