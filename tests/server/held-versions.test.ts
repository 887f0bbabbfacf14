import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApprovalView, HeldAnswer } from '../../schemas/approval'
import type { AuditPageAnswer } from '../../schemas/audit'
import type { ContractDetail } from '../../schemas/business/contracts'
import type { Notice } from '../../schemas/notice'
import { ADMIN, buildTestBff, sessionCookie, SUPERVISOR, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * No lost updates on the end of a contract (issues 16, 18): «Dar de baja» and «Anular» send the
 * version of the contract they were opened with (If-Match). Sent straight upstream, a stale one
 * is a 412 that changes nothing; held for four-eyes, a stale one is refused at once (412), a
 * current one goes with the held request and is sent again on approval, so a contract changed
 * between request and approval refuses it: the request is failed, with its reason, and nothing lands.
 */

let api: RunningReferenceApi
let bff: TestBff
/** The same upstream through a BFF whose policies hold no end of contract: the calls go straight upstream. */
let direct: TestBff
let admin = ''
let supervisor = ''
let adminDirect = ''
let offset = 0

type Method = 'get' | 'put' | 'post'

async function signIn(creds: typeof ADMIN, app: TestBff) {
  const res = await request(app.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

function call(method: Method, path: string, cookie: string, body?: unknown, headers: Record<string, string> = {}, app = bff) {
  const r = request(app.app.server)[method](path).set('X-CSRF', '1').set('Cookie', cookie)
  for (const [k, v] of Object.entries(headers)) r.set(k, v)
  return body === undefined ? r : r.send(body as object)
}

/** An active contract of the brand no other test here has touched. */
const activeContract = () =>
  (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id LIMIT 1 OFFSET ?").get(offset++) as { codigo: string }).codigo
const draftContract = () =>
  (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'borrador' ORDER BY c.id LIMIT 1 OFFSET ?").get(offset++) as { codigo: string }).codigo
const stateOf = (code: string) => (api.db.prepare('SELECT estado, fecha_baja FROM contratos WHERE codigo = ?').get(code) as { estado: string; fecha_baja: string | null })
const read = async (code: string, app = bff, cookie = admin) => {
  const res = await call('get', `/api/contract/id?codigo=${code}`, cookie, undefined, {}, app).expect(200)
  return { record: res.body as ContractDetail, etag: res.headers.etag as string }
}
/** Another person saves the contract (a town of the holder changes): a new version. */
const editTown = async (code: string, municipio: string) => {
  const { record, etag } = await read(code)
  await call('put', `/api/contract/update?codigo=${code}`, admin, { ...record, Cliente: { ...record.Cliente, Municipio: municipio } }, { 'If-Match': etag }).expect(200)
}
const end = (code: string, body: object, ifMatch?: string, app = bff, cookie = admin) =>
  call('put', `/api/contract/update/fin?codigo=${code}`, cookie, body, ifMatch ? { 'If-Match': ifMatch } : {}, app)
const inbox = async () => ((await call('get', '/bff/approvals', supervisor).expect(200)).body as { Items: ApprovalView[] }).Items
const mine = async () => ((await call('get', '/bff/approvals/mine', admin).expect(200)).body as { Items: ApprovalView[] }).Items
const audit = async (app = bff, cookie = admin) => ((await call('get', '/bff/admin/audit?pageSize=500', cookie, undefined, {}, app).expect(200)).body as AuditPageAnswer).Items
const notices = async () => ((await call('get', '/bff/notices', admin).expect(200)).body as { notices: Notice[] }).notices

const BAJA = { Estado: 'baja', Motivo: 'Cambio de comercializadora.' }
const ANULACION = { Estado: 'anulado', Motivo: 'El cliente no sigue adelante.' }

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  direct = await buildTestBff(api.url)
  admin = await signIn(ADMIN, bff)
  supervisor = await signIn(SUPERVISOR, bff)
  adminDirect = await signIn(ADMIN, direct)
  const current = (await call('get', '/bff/admin/approval-policies', adminDirect, undefined, {}, direct).expect(200)).body as { version: number; policies: { id: string }[] }
  await call('put', '/bff/admin/approval-policies', adminDirect, { version: current.version, policies: current.policies.filter((p) => p.id !== 'contract-end'), note: 'Sin cuatro ojos en la baja (prueba)' }, {}, direct).expect(200)
})
afterAll(async () => {
  await bff?.close()
  await direct?.close()
  await api?.close()
})

describe('the end of a contract sent straight upstream (no policy holds it)', () => {
  it('with the version it was opened with, lands and answers the new version', async () => {
    const code = activeContract()
    const opened = await read(code, direct, adminDirect)
    const res = await end(code, BAJA, opened.etag, direct, adminDirect).expect(200)
    expect(res.headers.etag).toMatch(/^"/)
    expect(res.headers.etag).not.toBe(opened.etag)
    expect(stateOf(code).estado).toBe('baja')
  })

  it('with a stale version, is a Spanish 412 that changes nothing, and the audit has it refused', async () => {
    const code = draftContract()
    const opened = await read(code, direct, adminDirect)
    await editTown(code, 'Leganés')
    const res = await end(code, ANULACION, opened.etag, direct, adminDirect).expect(412)
    // The upstream's own refusal, passed on as it is.
    expect(res.text).toContain(`El contrato ${code} ha cambiado desde que lo abriste: otra persona lo ha guardado antes. Revisa sus cambios y vuelve a guardar.`)
    expect(stateOf(code).estado).toBe('borrador')
    const entry = (await audit(direct, adminDirect)).find((e) => e.callId === 'contract.end' && e.record?.id === code)
    expect(entry?.outcome).toEqual({ status: 412, ok: false })
  })
})

describe('the end of a contract held for four-eyes', () => {
  it('with a stale version, is refused at once (412): nothing held, nothing changed', async () => {
    const code = activeContract()
    const opened = await read(code)
    await editTown(code, 'Getafe')
    const pending = (await inbox()).length
    const res = await end(code, BAJA, opened.etag).expect(412)
    expect(res.body.message).toMatch(/^Este registro \(contrato .+\) ha cambiado desde que lo abriste: otra persona lo ha guardado antes\./)
    expect(res.headers['x-approval-pending']).toBeUndefined()
    expect((await inbox()).length).toBe(pending)
    expect(stateOf(code).estado).toBe('activo')
    expect((await audit()).find((e) => e.callId === 'contract.end' && e.record?.id === code)?.outcome).toEqual({ status: 412, ok: false })
    // A weak validator of the same version never matches (strong comparison).
    const now = await read(code)
    await end(code, BAJA, `W/${now.etag}`).expect(412)
    expect((await inbox()).length).toBe(pending)
  })

  it('ended by someone else since it was opened: a 412 (the contract changed), not held and not a refused state', async () => {
    const code = activeContract()
    const opened = await read(code)
    await end(code, BAJA, undefined, direct, adminDirect).expect(200)
    const pending = (await inbox()).length
    const res = await end(code, BAJA, opened.etag).expect(412)
    expect(res.text).toContain(`El contrato ${code} ha cambiado desde que lo abriste`)
    expect((await inbox()).length).toBe(pending)
  })

  it('with the current version, is held and lands on approval when nothing changed meanwhile', async () => {
    const code = activeContract()
    const opened = await read(code)
    const held = (await end(code, BAJA, opened.etag).expect(202)).body as HeldAnswer
    expect(stateOf(code).estado).toBe('activo')
    const res = await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, {}).expect(200)
    expect(res.body).toMatchObject({ status: 'approved', upstreamStatus: 200 })
    expect(res.body.failure).toBeUndefined()
    expect(stateOf(code).estado).toBe('baja')
  })

  it('keeps the requester’s version: changed before the approval, the approval fails with its reason, nothing lands, and the requester is told why', async () => {
    const code = activeContract()
    const opened = await read(code)
    const held = (await end(code, BAJA, opened.etag).expect(202)).body as HeldAnswer
    // Someone saves the contract while the request waits.
    await editTown(code, 'Alcorcón')

    const refused = await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, { comment: 'Visto' }).expect(409)
    expect(refused.body.message).toMatch(/^Has aprobado el cambio, pero no se ha aplicado\. El registro cambió después de que se pidiera el cambio/)
    expect(stateOf(code)).toEqual({ estado: 'activo', fecha_baja: null })
    expect((await read(code)).record.Cliente.Municipio).toBe('Alcorcón')
    // Decided once: out of the inbox, and not approvable again.
    expect((await inbox()).some((a) => a.id === held.pendingId)).toBe(false)
    await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, {}).expect(409)

    const own = (await mine()).find((a) => a.id === held.pendingId)
    expect(own).toMatchObject({ status: 'failed', upstreamStatus: 412, decidedBy: { email: 'supervisor@portal.test' } })
    expect(own!.failure?.es).toMatch(/El registro cambió después de que se pidiera el cambio .*no se ha aplicado nada/)
    expect(own!.failure?.en).toMatch(/The record changed after the change was requested/)
    const notice = (await notices()).find((n) => n.id === `approval-${held.pendingId}`)
    expect(notice?.severity).toBe('warn')
    expect(notice?.text.es).toMatch(/ha aprobado tu cambio \(PUT api\/contract\/update\/fin\), pero no se ha aplicado\. El registro cambió/)
    expect(notice?.text.en).toMatch(/but it was not applied\. The record changed/)

    const entries = (await audit()).filter((e) => e.approval?.id === held.pendingId)
    expect(entries.find((e) => e.kind === 'call' && e.outcome.status === 412)).toMatchObject({ callId: 'contract.end', approval: { decidedBy: { email: 'supervisor@portal.test' } } })
    expect(entries.find((e) => e.action === 'approval.failed')).toMatchObject({ actor: { email: 'supervisor@portal.test' }, outcome: { status: 412, ok: false } })
  })

  it('a held change sent without a version goes as before: the approval lands whatever changed meanwhile', async () => {
    const code = activeContract()
    const held = (await end(code, BAJA).expect(202)).body as HeldAnswer
    await editTown(code, 'Parla')
    await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, {}).expect(200)
    expect(stateOf(code).estado).toBe('baja')
  })
})
