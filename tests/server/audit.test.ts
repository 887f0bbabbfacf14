import ExcelJS from 'exceljs'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry, AuditPageAnswer } from '../../schemas/audit'
import { spainWallClock } from '../../server/lib/spain-time'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 16: every mutation through the BFF and every BFF admin action is in the audit, once,
 * with who, the catalogued call, the record, a masked body and the outcome; reads never are.
 * `GET /bff/admin/audit` filters and pages it (GESTORACCESS), `/export` gives it as XLSX, and a
 * record's timeline is served to whoever may read the record.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const STRONG = 'Nueva-Clave-2027'
let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch'

async function signIn(creds: typeof ADMIN, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

function call(method: Method, path: string, cookie: string, body?: unknown, host = 'localhost') {
  const r = request(bff.app.server)[method](path).set('Host', host).set('X-CSRF', '1')
  if (cookie) r.set('Cookie', cookie)
  return body === undefined ? r : r.send(body as object)
}

const audit = async (query = '', cookie = admin) => (await call('get', `/bff/admin/audit${query}`, cookie).expect(200)).body as AuditPageAnswer
/** The entry of one request, by the id the BFF answered it with. */
const entryOf = async (requestId: string) => (await audit('?pageSize=500')).Items.filter((e) => e.requestId === requestId)
const today = () => spainWallClock(Date.now()).toISOString().slice(0, 10)

let userId = 0
let email = ''

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  admin = await signIn(ADMIN)
  agente = await signIn(AGENTE, GRUPO)
  email = `auditoria-${Date.now()}@portal.test`
  const created = await call('post', '/api/usuarios/register', admin, { Email: email, Nombre: 'Lucía', Apellidos: 'Fernández Ruiz', Telefono: '612 345 678', Password: STRONG }).expect(201)
  userId = created.body.Id
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('what is recorded', () => {
  it('a change through the proxy: once, with the catalogued call, the record, the masked body, what changed and the outcome', async () => {
    const res = await call('put', `/api/usuarios/update?Id=${userId}`, admin, { Nombre: 'Lucía María', Telefono: '698 765 432' }).expect(200)
    const entries = await entryOf(String(res.headers['x-request-id']))
    expect(entries).toHaveLength(1)
    const entry = entries[0]!
    expect(entry).toMatchObject({
      kind: 'call',
      call: 'PUT api/usuarios/update',
      callId: 'user.update',
      record: { entity: 'usuario', id: String(userId) },
      actor: { email: 'admin@portal.test' },
      brand: 'verde',
      outcome: { status: 200, ok: true },
    })
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(60_000)
    expect(JSON.parse(entry.summary!)).toEqual({ Nombre: 'Lucía María', Telefono: '******432' })
    expect(entry.changes).toEqual(
      expect.arrayContaining([
        { field: 'Nombre', before: 'Lucía', after: 'Lucía María' },
        { field: 'Telefono', before: '******678', after: '******432' },
      ]),
    )
    expect(JSON.stringify(entry)).not.toMatch(/698 ?765 ?432|612 ?345 ?678/)
  })

  it('the register that created the user: the password never kept, the phone masked', async () => {
    const created = (await audit(`?call=usuarios/register&user=admin`)).Items.find((e) => e.summary?.includes(email))!
    expect(created).toMatchObject({ call: 'POST api/usuarios/register', outcome: { status: 201, ok: true } })
    expect(JSON.parse(created.summary!)).toMatchObject({ Email: email, Telefono: '******678', Password: '[oculto]' })
    expect(JSON.stringify(created)).not.toContain(STRONG)
  })

  it('failures with their outcome: the upstream’s, the catalogue’s and the permission’s', async () => {
    const missing = await call('put', '/api/usuarios/update?Id=999999', admin, { Nombre: 'Nadie' }).expect(404)
    expect((await entryOf(String(missing.headers['x-request-id'])))[0]).toMatchObject({ record: { entity: 'usuario', id: '999999' }, outcome: { status: 404, ok: false } })

    const badParam = await call('put', '/api/usuarios/update?Id=abc', admin, { Nombre: 'X' }).expect(400)
    const refused = await entryOf(String(badParam.headers['x-request-id']))
    expect(refused).toHaveLength(1)
    expect(refused[0]).toMatchObject({ call: 'PUT api/usuarios/update', outcome: { status: 400, ok: false }, actor: { email: 'admin@portal.test' } })
    expect(refused[0]!.record).toBeUndefined()

    const badBody = await call('put', `/api/usuarios/update?Id=${userId}`, admin, { Nombre: 12 }).expect(400)
    expect((await entryOf(String(badBody.headers['x-request-id'])))[0]).toMatchObject({ outcome: { status: 400, ok: false }, record: { id: String(userId) } })

    const denied = await call('delete', `/api/usuarios/delete?Id=${userId}`, agente, undefined, GRUPO).expect(403)
    expect((await entryOf(String(denied.headers['x-request-id'])))[0]).toMatchObject({ call: 'DELETE api/usuarios/delete', actor: { email: 'agente@portal.test' }, brand: 'grupo', outcome: { status: 403, ok: false } })

    // Nobody signed in: not recorded (there is no one to name, and it reached nothing).
    const anonymous = await call('delete', `/api/usuarios/delete?Id=${userId}`, '').expect(401)
    expect(await entryOf(String(anonymous.headers['x-request-id']))).toEqual([])
  })

  it('reads are never recorded', async () => {
    const before = (await audit('?pageSize=1')).TotalCount
    await call('get', '/api/usuarios?pageIndex=0&pageSize=5', admin).expect(200)
    await call('get', `/api/usuarios/${userId}`, admin).expect(200)
    await call('get', '/api/contract?pageIndex=0&pageSize=5', agente, undefined, GRUPO).expect(200)
    await call('get', '/api/usuarios?pageIndex=x', admin).expect(400)
    expect((await audit('?pageSize=1')).TotalCount).toBe(before)
  })

  it('an admin’s action of the BFF itself goes to the same log, filed under its record', async () => {
    const res = await call('delete', `/bff/admin/users/${userId}/sessions`, admin).expect(200)
    const [entry] = await entryOf(String(res.headers['x-request-id']))
    expect(entry).toMatchObject({ kind: 'admin', call: 'DELETE bff/admin/users/:id/sessions', action: 'sessions.end', record: { entity: 'usuario', id: String(userId) }, outcome: { status: 200, ok: true } })
  })
})

describe('GET /bff/admin/audit', () => {
  it('newest first, and filters by user, record, call (any part) and dates', async () => {
    const all = await audit()
    const times = all.Items.map((e) => Date.parse(e.at))
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(all.Items.every((e, i) => i === 0 || Number(all.Items[i - 1]!.id) > Number(e.id))).toBe(true)

    const byUser = await audit('?user=AGENTE@')
    expect(byUser.Items.length).toBeGreaterThan(0)
    expect(byUser.Items.every((e) => e.actor?.email === 'agente@portal.test')).toBe(true)

    const byRecord = await audit(`?record=usuario:${userId}`)
    expect(byRecord.Items.map((e) => e.call)).toEqual(expect.arrayContaining(['PUT api/usuarios/update', 'DELETE bff/admin/users/:id/sessions']))
    expect(byRecord.Items.every((e) => e.record?.entity === 'usuario' && e.record.id === String(userId))).toBe(true)
    expect((await audit(`?record=${userId}`)).TotalCount).toBe(byRecord.TotalCount)

    const byCall = await audit('?call=usuarios/upd')
    expect(byCall.Items.length).toBeGreaterThan(0)
    expect(byCall.Items.every((e) => e.call === 'PUT api/usuarios/update')).toBe(true)

    expect((await audit(`?desde=${today()}&hasta=${today()}`)).TotalCount).toBe(all.TotalCount)
    expect((await audit('?hasta=2020-01-01')).TotalCount).toBe(0)
    const newest = all.Items[0]!
    expect((await audit(`?desde=${encodeURIComponent(newest.at)}`)).Items.map((e) => e.id)).toContain(newest.id)
    expect((await audit(`?desde=${encodeURIComponent(new Date(Date.parse(newest.at) + 1).toISOString())}`)).TotalCount).toBe(0)
  })

  it('pages the spec §7 way, and takes a table’s filterColumns/filterQueries', async () => {
    const first = await audit('?pageIndex=0&pageSize=2')
    const second = await audit('?pageIndex=1&pageSize=2')
    expect(first).toMatchObject({ PageIndex: 0, PageSize: 2, Partial: false })
    expect(first.Items).toHaveLength(2)
    expect(second.Items[0]!.id).not.toBe(first.Items[1]!.id)
    expect(first.TotalCount).toBe(second.TotalCount)

    // `antesDe` reads on from an entry: the second page's entries, by cursor instead of by offset.
    const onwards = await audit(`?pageSize=2&antesDe=${first.Items[1]!.id}`)
    expect(onwards.Items.map((e) => e.id)).toEqual(second.Items.map((e) => e.id))

    const table = await audit(`?pageIndex=0&pageSize=10&filterColumns[0]=record&filterQueries[0]=${userId}&filterColumns[1]=at&filterQueries[1]=${today()}|${today()}&filterColumns[2]=call&filterQueries[2]=update`)
    expect(table.Items.length).toBeGreaterThan(0)
    expect(table.Items.every((e) => e.record?.id === String(userId) && e.call.includes('update'))).toBe(true)
  })

  it('refuses without GESTORACCESS before looking at the query; refuses bad filters in Spanish', async () => {
    await call('get', '/bff/admin/audit?desde=ayer', '').expect(401)
    const denied = await call('get', '/bff/admin/audit?desde=ayer&sortColumn=x', agente, undefined, GRUPO).expect(403)
    expect(denied.body.message).toBe('No tienes permiso para acceder a este recurso.')
    await call('get', '/bff/admin/audit/export?desde=ayer', agente, undefined, GRUPO).expect(403)

    const bad: [string, RegExp][] = [
      ['?desde=ayer', /«desde» debe ser una fecha AAAA-MM-DD/],
      ['?hasta=2026-02-30', /«hasta» debe ser una fecha/],
      ['?desde=2026-03-02&hasta=2026-03-01', /«desde» debe ser anterior a «hasta»/],
      ['?sortColumn=at', /de la más reciente a la más antigua/],
      ['?usuario=ana', /El parámetro «usuario» no se admite/],
      ['?pageSize=0', /«pageSize» debe ser un número entero entre 1 y 500/],
      ['?pageSize=-1', /«pageSize»/],
      [`?user=${'x'.repeat(201)}`, /«user» admite como mucho 200 caracteres/],
      ['?user=a&user=b', /se indica una sola vez/],
      ['?filterColumns[0]=Nif&filterQueries[0]=1', /no se filtra por «Nif»/],
      ['?filterColumns[0]=user', /el mismo número de valores/],
      ['?brand=nadie', /Marca desconocida: «nadie»/],
      ['?antesDe=ayer', /«antesDe» debe ser el identificador de una entrada/],
      ['?antesDe=1-2-3', /«antesDe» debe ser el identificador de una entrada/],
    ]
    for (const [query, message] of bad) {
      const res = await call('get', `/bff/admin/audit${query}`, admin).expect(400)
      expect(res.body.message, query).toMatch(message)
    }
  })

  it('no route edits or deletes an entry', async () => {
    const before = await audit('?pageSize=500')
    const id = before.Items[0]!.id
    for (const path of ['/bff/admin/audit', `/bff/admin/audit/${id}`, '/bff/admin/audit/export', `/bff/audit/record?entity=usuario&id=${userId}`]) {
      for (const method of ['put', 'patch', 'delete', 'post'] as const) {
        const res = await call(method, path, admin, { outcome: { status: 200, ok: true } })
        expect([404, 405], `${method} ${path}`).toContain(res.status)
      }
    }
    const after = await audit('?pageSize=500')
    expect(after.Items.slice(-before.Items.length)).toEqual(before.Items)
  })

  it('exports the filtered entries as XLSX, with Spanish headers', async () => {
    const expected = await audit(`?record=usuario:${userId}`)
    const res = await call('get', `/bff/admin/audit/export?record=usuario:${userId}&pageIndex=0&pageSize=-1`, admin)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = []
        r.on('data', (c: Buffer) => chunks.push(c))
        r.on('end', () => done(null, Buffer.concat(chunks)))
      })
      .expect(200)
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="auditoria-\d{4}-\d{2}-\d{2}\.xlsx"$/)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(res.body as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('Auditoría')!
    const header = (sheet.getRow(1).values as unknown[]).slice(1)
    expect(header).toEqual(['Fecha', 'Usuario', 'Nombre', 'En nombre de', 'Marca', 'Tipo', 'Llamada', 'Acción', 'Entidad', 'Registro', 'Estado HTTP', 'Correcta', 'Resumen', 'Cambios', 'Versión', 'Petición'])
    expect(sheet.rowCount - 1).toBe(expected.TotalCount)
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.getRow(i + 2))
    expect(rows.map((r) => r.getCell(16).value)).toEqual(expected.Items.map((e) => e.requestId))
    expect(rows.every((r) => r.getCell(10).value === String(userId))).toBe(true)
    expect(rows.map((r) => r.getCell(7).value)).toContain('PUT api/usuarios/update')
    expect(rows.map((r) => r.getCell(14).value)).toContainEqual(expect.stringMatching(/Telefono: \*{6}678 → \*{6}432/))
    expect(rows[0]!.getCell(1).value).toBeInstanceOf(Date)
  })
})

describe('GET /bff/audit/record: a record’s timeline', () => {
  it('the changes of a user, to whoever may read the user (GESTORACCESS), successful ones only', async () => {
    const timeline = (await call('get', `/bff/audit/record?entity=usuario&id=${userId}`, admin).expect(200)).body as AuditPageAnswer
    expect(timeline.Items.length).toBeGreaterThan(0)
    expect(timeline.Items.every((e: AuditEntry) => e.outcome.ok && e.record?.id === String(userId))).toBe(true)
    expect(timeline.Items.flatMap((e) => e.changes ?? [])).toContainEqual({ field: 'Nombre', before: 'Lucía', after: 'Lucía María' })
    await call('get', `/bff/audit/record?entity=usuario&id=${userId}`, agente, undefined, GRUPO).expect(403)
    await call('get', `/bff/audit/record?entity=usuario&id=${userId}`, '').expect(401)
  })

  it('a contract’s timeline: the agent’s own contract yes, another one no, as the upstream decides', async () => {
    const own = (await call('get', '/api/contract?pageIndex=0&pageSize=500', agente, undefined, GRUPO).expect(200)).body.Items as { CodigoContrato: string }[]
    const all = (await call('get', '/api/contract?pageIndex=0&pageSize=500', admin, undefined, GRUPO).expect(200)).body.Items as { CodigoContrato: string }[]
    const mine = own[0]!.CodigoContrato
    const other = all.find((c) => !own.some((o) => o.CodigoContrato === c.CodigoContrato))!.CodigoContrato
    await call('get', `/bff/audit/record?entity=contrato&id=${mine}`, agente, undefined, GRUPO).expect(200)
    const refused = await call('get', `/bff/audit/record?entity=contrato&id=${other}`, agente, undefined, GRUPO)
    expect([403, 404]).toContain(refused.status)
  })

  it('refuses what it cannot answer, in Spanish', async () => {
    const unknown = await call('get', '/bff/audit/record?entity=factura&id=1', admin).expect(400)
    expect(unknown.body.message).toBe('No se guarda el historial de «factura» (se guarda el de: agente, apiUsuario, contrato, usuario).')
    const badId = await call('get', '/bff/audit/record?entity=usuario&id=abc', admin).expect(400)
    expect(badId.body.message).toMatch(/el identificador de usuario/)
    await call('get', '/bff/audit/record?entity=usuario', admin).expect(400)
    await call('get', '/bff/audit/record?entity=usuario&id=999999', admin).expect(404)
  })
})
