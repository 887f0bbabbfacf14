import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PolicyItem, PolicyVersionView } from '../../schemas/approval'
import type { AuditPageAnswer } from '../../schemas/audit'
import { describeCondition } from '../../server/approvals/policy-describe'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * The approval-policy editor's routes (GESTORACCESS): one policy at a time over the versioned
 * list, each change a new version with its note and in the audit; a stale edit is a 412; bad
 * input a Spanish 400 naming the field; the history says who changed what; a restore saves an
 * earlier version as the newest.
 */

let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''

type Method = 'get' | 'put' | 'post' | 'delete'
function call(method: Method, path: string, cookie = admin, body?: unknown, headers: Record<string, string> = {}) {
  const r = request(bff.app.server)[method](path).set('X-CSRF', '1').set('Cookie', cookie)
  for (const [k, v] of Object.entries(headers)) r.set(k, v)
  return body === undefined ? r : r.send(body as object)
}
const items = async () => (await call('get', '/bff/admin/approval-policies/items').expect(200)).body as { version: number; Items: PolicyItem[] }
const history = async () => ((await call('get', '/bff/admin/approval-policies/history').expect(200)).body as { versions: PolicyVersionView[] }).versions

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  admin = sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN).expect(200)).headers['set-cookie'])
  agente = sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(AGENTE).expect(200)).headers['set-cookie'])
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('the condition in words', () => {
  it('says each kind of condition in Spanish and English', () => {
    expect(describeCondition(undefined).es).toMatch(/^Siempre/)
    expect(describeCondition({ value: 'body.Estado', in: ['baja', 'anulado'] })).toEqual({ es: 'El campo «Estado» enviado es «baja» o «anulado».', en: 'The field «Estado» sent is «baja» or «anulado».' })
    expect(describeCondition({ all: [{ value: 'record.Estado', in: ['activo'] }, { any: [{ changed: 'Iban' }, { changed: 'Cliente.Iban' }] }] }).es).toBe(
      'El campo «Estado» del registro actual es «activo» y (cambia «Iban» o cambia «Cliente.Iban»).',
    )
    expect(describeCondition({ not: { value: 'query.permiso', present: true } }).en).toBe('Not (the parameter «permiso» has a value).')
    expect(describeCondition({ value: 'body[]', lookup: { call: 'permission.list', key: 'Id', field: 'NombreNormalizado' }, in: ['GESTORACCESS'] }).es).toBe(
      'Cada elemento enviado (su «NombreNormalizado» según «permission.list») es «GESTORACCESS».',
    )
  })
})

describe('the policy editor', () => {
  it('is for GESTORACCESS only', async () => {
    await call('get', '/bff/admin/approval-policies/items', agente).expect(403)
    await call('get', '/bff/admin/approval-policies/calls', agente).expect(403)
    await call('post', '/bff/admin/approval-policies/items', agente, { id: 'x', label: { es: 'X' }, calls: ['apiKey.generate'] }).expect(403)
    await call('post', '/bff/admin/approval-policies/restore', agente, { version: 0 }).expect(403)
  })

  it('lists the policies with their calls and their condition in words; offers only calls that change something', async () => {
    const { version, Items } = await items()
    expect(version).toBe(0)
    const end = Items.find((p) => p.id === 'contract-end')!
    expect(end).toMatchObject({ calls: ['contract.end'], callNames: ['PUT api/contract/update/fin'], enabled: true })
    expect(end.condition.es).toBe('El campo «Estado» enviado es «baja» o «anulado» y cambia «Estado».')
    const calls = (await call('get', '/bff/admin/approval-policies/calls').expect(200)).body as { Id: string }[]
    expect(calls.map((c) => c.Id)).toContain('contract.end')
    expect(calls.map((c) => c.Id)).not.toContain('contract.detail')
  })

  it('edits a policy with If-Match and a note: a new version, audited, in the history with its diff; a stale edit is a 412', async () => {
    const first = await call('get', '/bff/admin/approval-policies/items/contract-end').expect(200)
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^"/)
    const record = first.body as PolicyItem
    const edited = { ...record, when: JSON.stringify({ value: 'body.Estado', in: ['baja'] }), note: 'Solo las bajas' }
    const saved = await call('put', '/bff/admin/approval-policies/items/contract-end', admin, edited, { 'If-Match': etag }).expect(200)
    expect(saved.body).toMatchObject({ version: 1, condition: { es: 'El campo «Estado» enviado es «baja».' } })
    expect(saved.headers.etag).not.toBe(etag)

    const stale = await call('put', '/bff/admin/approval-policies/items/contract-end', admin, { ...record, note: 'Tarde' }, { 'If-Match': etag }).expect(412)
    expect(stale.body.message).toMatch(/ha cambiado desde que la abriste/)
    expect((await items()).version).toBe(1)

    const [v1] = await history()
    expect(v1).toMatchObject({ version: 1, kind: 'edit', note: 'Solo las bajas', author: { email: 'admin@portal.test' } })
    expect(v1!.changes).toEqual([{ field: 'contract-end · condición', before: 'El campo «Estado» enviado es «baja» o «anulado» y cambia «Estado».', after: 'El campo «Estado» enviado es «baja».' }])
    const audit = (await call('get', '/bff/admin/audit?pageSize=50').expect(200)).body as AuditPageAnswer
    expect(audit.Items.find((e) => e.action === 'approvals.policies.save' && e.version === 1)).toMatchObject({ actor: { email: 'admin@portal.test' }, details: { note: 'Solo las bajas' } })
  })

  it('refuses bad input with a Spanish 400 naming the field, and saves nothing', async () => {
    const before = (await items()).version
    const base = { id: 'nueva', label: { es: 'Nueva' }, calls: ['apiKey.generate'], note: 'Prueba' }
    const cases: [unknown, RegExp][] = [
      [{ ...base, id: 'Mal Id' }, /^Identificador: /],
      [{ ...base, label: { es: ' ' } }, /^Nombre: /],
      [{ ...base, calls: [] }, /^Llamadas: elige al menos una/],
      [{ ...base, calls: ['no.existe'] }, /^Llamadas: .*no está en el catálogo: «no\.existe»/],
      [{ ...base, calls: ['contract.detail'] }, /^Llamadas: .*es una consulta/],
      [{ ...base, when: '{ "value": ' }, /^Condición: no es un JSON válido/],
      [{ ...base, when: '{ "value": "cuerpo.X", "in": [1] }' }, /^Condición: no es válida/],
      [{ ...base, when: '{ "value": "body[]", "lookup": { "call": "apiKey.generate", "key": "Id", "field": "X" }, "in": [1] }' }, /^Condición: .*no es una consulta de lista/],
      [{ ...base, id: 'contract-end' }, /^Identificador: ya hay una política «contract-end»/],
    ]
    for (const [body, message] of cases) {
      const res = await call('post', '/bff/admin/approval-policies/items', admin, body).expect(400)
      expect(res.body.message, JSON.stringify(body)).toMatch(message)
    }
    expect((await items()).version).toBe(before)
    const check = (await call('get', `/bff/admin/approval-policies/check-condition?when=${encodeURIComponent('{ "changed": 1 }')}`).expect(200)).body
    expect(check).toMatchObject({ Valido: false })
    expect(check.Motivo).toMatch(/^no es válida/)
    const ok = (await call('get', `/bff/admin/approval-policies/check-condition?when=${encodeURIComponent('{ "changed": "Iban" }')}`).expect(200)).body
    expect(ok).toMatchObject({ Valido: true, Texto: { es: 'Cambia «Iban».' } })
  })

  it('adds and removes a policy, each a version that holds or lets through the call', async () => {
    const list = await call('get', '/api/apiusers/listado-api-user?pageIndex=0&pageSize=1', admin).expect(200)
    const apiUserId = list.body.Items[0].Id as number
    // The shipped policy holds key generation: removing it lets the call through.
    await call('delete', '/bff/admin/approval-policies/items/apikey-generate').expect(200)
    await call('post', '/api/apikey/generate', admin, { ApiUserId: apiUserId, Descripcion: 'Sin política' }).expect(201)
    const added = await call('post', '/bff/admin/approval-policies/items', admin, { id: 'claves', label: { es: 'Claves de API', en: 'API keys' }, calls: ['apiKey.generate'], enabled: true, note: 'Vuelven las claves' }).expect(201)
    expect(added.body).toMatchObject({ id: 'claves', condition: { es: 'Siempre: se retiene cada llamada de la política.' } })
    await call('post', '/api/apikey/generate', admin, { ApiUserId: apiUserId, Descripcion: 'Con política' }).expect(202)
    const [latest, removed] = await history()
    expect(latest!.changes).toEqual([{ field: 'claves', before: null, after: 'Claves de API — apiKey.generate — Siempre: se retiene cada llamada de la política.' }])
    expect(removed!.note).toBe('Quitada la política «apikey-generate».')
    expect(removed!.changes).toMatchObject([{ field: 'apikey-generate', after: null }])
    await call('delete', '/bff/admin/approval-policies/items/no-existe').expect(404)
  })

  it('restores an earlier version as the newest, audited; the version in force cannot be restored', async () => {
    const before = await history()
    const res = await call('post', '/bff/admin/approval-policies/restore', admin, { version: 1, note: 'Volvemos a la 1' }).expect(200)
    expect(res.body).toEqual({ version: before[0]!.version + 1, restoredFrom: 1 })
    const [restored] = await history()
    expect(restored).toMatchObject({ kind: 'rollback', restoredFrom: 1, note: 'Volvemos a la 1' })
    expect((await items()).Items.map((p) => p.id)).toEqual(before.find((v) => v.version === 1)!.policies.map((p) => p.id))
    await call('post', '/bff/admin/approval-policies/restore', admin, { version: restored!.version }).expect(409)
    await call('post', '/bff/admin/approval-policies/restore', admin, { version: 999 }).expect(404)
    const audit = (await call('get', '/bff/admin/audit?pageSize=50').expect(200)).body as AuditPageAnswer
    expect(audit.Items.find((e) => e.action === 'approvals.policies.restore')).toMatchObject({ details: { restoredFrom: 1 } })
    // Version 0, the shipped defaults, can be restored too.
    await call('post', '/bff/admin/approval-policies/restore', admin, { version: 0 }).expect(200)
    expect((await items()).Items.find((p) => p.id === 'contract-end')?.condition.es).toBe('El campo «Estado» enviado es «baja» o «anulado» y cambia «Estado».')
  })
})
