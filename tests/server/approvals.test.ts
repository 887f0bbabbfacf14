import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApprovalView, HeldAnswer } from '../../schemas/approval'
import type { AuditPageAnswer } from '../../schemas/audit'
import type { Notice } from '../../schemas/notice'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, SUPERVISOR, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 16, four-eyes approval: a mutation a policy names is held (202 with a pending id), shown
 * in the inbox of the other GESTORACCESS users, sent upstream only on their approval, with both
 * people in the audit; rejection and expiry (48 h) are recorded and notified to the requester.
 */

const HOUR = 3600_000

let api: RunningReferenceApi
let bff: TestBff
let clock = Date.now()
let admin = ''
let supervisor = ''
let agente = ''
let apiUserId = 0

type Method = 'get' | 'put' | 'post' | 'delete'

async function signIn(creds: typeof ADMIN, app = bff) {
  const res = await request(app.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

function call(method: Method, path: string, cookie: string, body?: unknown, app = bff) {
  const r = request(app.app.server)[method](path).set('X-CSRF', '1').set('Cookie', cookie)
  return body === undefined ? r : r.send(body as object)
}

const keysOf = async (id = apiUserId) => ((await call('get', `/api/apiusers/api-user?id=${id}`, admin).expect(200)).body as { Claves: unknown[] }).Claves.length
const inbox = async (cookie = supervisor) => ((await call('get', '/bff/approvals', cookie).expect(200)).body as { Items: ApprovalView[] }).Items
const mine = async (cookie = admin) => ((await call('get', '/bff/approvals/mine', cookie).expect(200)).body as { Items: ApprovalView[] }).Items
const audit = async (query: string) => (await call('get', `/bff/admin/audit${query}`, admin).expect(200)).body as AuditPageAnswer
const notices = async (cookie = admin) => ((await call('get', '/bff/notices', cookie).expect(200)).body as { notices: Notice[] }).notices

async function holdKey(description: string): Promise<HeldAnswer> {
  const res = await call('post', '/api/apikey/generate', admin, { ApiUserId: apiUserId, Descripcion: description }).expect(202)
  expect(res.headers['x-approval-pending']).toBe(res.body.pendingId)
  return res.body as HeldAnswer
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url, {}, { approvalClock: () => clock })
  admin = await signIn(ADMIN)
  supervisor = await signIn(SUPERVISOR)
  agente = await signIn(AGENTE)
  const list = await call('get', '/api/apiusers/listado-api-user?pageIndex=0&pageSize=1', admin).expect(200)
  apiUserId = list.body.Items[0].Id
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('a held change', () => {
  it('is answered 202 with a pending id and a Spanish message, and does not reach the upstream', async () => {
    const before = await keysOf()
    const held = await holdKey('Clave retenida')
    expect(held.pendingId).toMatch(/^[0-9a-f-]{36}$/)
    expect(held.message).toMatch(/necesita la aprobación de otra persona/)
    expect(held.waitingForApprover).toBe(false)
    expect(await keysOf()).toBe(before)
    // The audit has the request, as held (202), with its approval id and requester.
    const entry = (await audit('?call=apikey/generate')).Items.find((e) => e.approval?.id === held.pendingId)
    expect(entry).toMatchObject({ outcome: { status: 202, ok: true }, actor: { email: 'admin@portal.test' }, approval: { requestedBy: { email: 'admin@portal.test' } } })
  })

  it('is in the inbox of another GESTORACCESS user with its diff, not in the requester’s; the requester sees it in «Mis solicitudes»', async () => {
    const held = await holdKey('Para la bandeja')
    const item = (await inbox()).find((a) => a.id === held.pendingId)
    expect(item).toMatchObject({ status: 'pending', callId: 'apiKey.generate', requester: { email: 'admin@portal.test' }, record: { entity: 'apiUsuario', id: String(apiUserId) } })
    expect(item!.policies.map((p) => p.id)).toEqual(['apikey-generate'])
    expect(item!.changes).toEqual(expect.arrayContaining([{ field: 'Descripcion', before: null, after: 'Para la bandeja' }]))
    expect(Date.parse(item!.expiresAt) - Date.parse(item!.createdAt)).toBe(48 * HOUR)
    expect((await inbox(admin)).some((a) => a.id === held.pendingId)).toBe(false)
    expect((await mine()).find((a) => a.id === held.pendingId)?.status).toBe('pending')
  })

  it('cannot be approved nor rejected by its requester (403), and the inbox is refused without GESTORACCESS (403)', async () => {
    const held = await holdKey('Autoaprobación')
    const own = await call('post', `/bff/approvals/${held.pendingId}/approve`, admin, {}).expect(403)
    expect(own.body.message).toMatch(/tu propia solicitud/)
    await call('post', `/bff/approvals/${held.pendingId}/reject`, admin, {}).expect(403)
    await call('get', '/bff/approvals', agente).expect(403)
    await call('post', `/bff/approvals/${held.pendingId}/approve`, agente, {}).expect(403)
    await request(bff.app.server).get('/bff/approvals').expect(401)
    expect((await inbox()).find((a) => a.id === held.pendingId)?.status).toBe('pending')
  })
})

describe('approval', () => {
  it('sends the change upstream, records requester and approver, and tells the requester', async () => {
    const before = await keysOf()
    const held = await holdKey('Aprobada por supervisión')
    const res = await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, { comment: 'Revisado' }).expect(200)
    expect(res.body).toMatchObject({ status: 'approved', upstreamStatus: 201, decidedBy: { email: 'supervisor@portal.test' }, comment: 'Revisado' })
    expect(await keysOf()).toBe(before + 1)
    // Once: a second approval is a 409 and sends nothing.
    await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, {}).expect(409)
    expect(await keysOf()).toBe(before + 1)

    const entries = (await audit('?pageSize=500')).Items.filter((e) => e.approval?.id === held.pendingId)
    const sent = entries.find((e) => e.kind === 'call' && e.outcome.status === 201)
    expect(sent).toMatchObject({ callId: 'apiKey.generate', actor: { email: 'admin@portal.test' }, approval: { requestedBy: { email: 'admin@portal.test' }, decidedBy: { email: 'supervisor@portal.test' } } })
    expect(entries.find((e) => e.action === 'approval.approve')).toMatchObject({ actor: { email: 'supervisor@portal.test' }, details: { comment: 'Revisado' } })
    expect((await mine()).find((a) => a.id === held.pendingId)).toMatchObject({ status: 'approved', resultWaiting: true })
    // The key's secret, shown by the upstream once: to the requester alone, once.
    await call('get', `/bff/approvals/${held.pendingId}/result`, supervisor).expect(404)
    const result = await call('get', `/bff/approvals/${held.pendingId}/result`, admin).expect(200)
    expect(result.body.Clave).toMatch(/^pk_[0-9a-f]{16}\./)
    await call('get', `/bff/approvals/${held.pendingId}/result`, admin).expect(410)
    expect((await mine()).find((a) => a.id === held.pendingId)?.resultWaiting).toBeUndefined()
    const notice = (await notices()).find((n) => n.id === `approval-${held.pendingId}`)
    expect(notice?.text.es).toMatch(/ha aprobado tu cambio/)
    await call('post', '/bff/notices/dismiss', admin, { ids: [notice!.id] }).expect(204)
    expect((await notices()).some((n) => n.id === notice!.id)).toBe(false)
  })

  it('is approved without a comment, as the inbox form sends an empty one (null)', async () => {
    const before = await keysOf()
    const held = await holdKey('Aprobada sin comentario')
    const res = await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, { comment: null }).expect(200)
    expect(res.body.status).toBe('approved')
    expect(res.body.comment).toBeUndefined()
    expect(await keysOf()).toBe(before + 1)
  })

  it('rejection sends nothing, is recorded with its comment and told to the requester', async () => {
    const before = await keysOf()
    const held = await holdKey('Para rechazar')
    const res = await call('post', `/bff/approvals/${held.pendingId}/reject`, supervisor, { comment: 'No procede' }).expect(200)
    expect(res.body).toMatchObject({ status: 'rejected', comment: 'No procede' })
    await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, {}).expect(409)
    expect(await keysOf()).toBe(before)
    expect((await audit('?pageSize=500')).Items.find((e) => e.action === 'approval.reject' && e.approval?.id === held.pendingId)).toMatchObject({ actor: { email: 'supervisor@portal.test' } })
    expect((await notices()).find((n) => n.id === `approval-${held.pendingId}`)?.text.es).toMatch(/ha rechazado tu cambio.*No procede/)
  })

  it('an unknown id is a 404, a malformed one a 400', async () => {
    await call('post', '/bff/approvals/00000000-0000-4000-8000-000000000000/approve', supervisor, {}).expect(404)
    const bad = await call('post', '/bff/approvals/nada/approve', supervisor, {}).expect(400)
    expect(bad.body.message).toMatch(/no son válidos/)
  })
})

describe('expiry', () => {
  it('after 48 hours a pending request expires: out of the inbox, recorded, told, and it can no longer be approved', async () => {
    const before = await keysOf()
    const held = await holdKey('Caducará')
    clock += 47 * HOUR
    expect((await inbox()).some((a) => a.id === held.pendingId)).toBe(true)
    clock += 2 * HOUR
    expect((await inbox()).some((a) => a.id === held.pendingId)).toBe(false)
    expect((await mine()).find((a) => a.id === held.pendingId)?.status).toBe('expired')
    await call('post', `/bff/approvals/${held.pendingId}/approve`, supervisor, {}).expect(409)
    expect(await keysOf()).toBe(before)
    expect((await audit('?pageSize=500')).Items.find((e) => e.action === 'approval.expire' && e.approval?.id === held.pendingId)).toBeTruthy()
    expect((await notices()).find((n) => n.id === `approval-${held.pendingId}`)?.text.es).toMatch(/ha caducado/)
  })
})

describe('conditions', () => {
  it('granting GESTORACCESS through a group is held; adding to a group without it goes through', async () => {
    const groups = (await call('get', '/api/grupousuarios/user-groups', admin).expect(200)).body as { Id: number; Nombre: string }[]
    const admins = groups.find((g) => g.Nombre === 'Administradores')!.Id
    const backoffice = groups.find((g) => g.Nombre === 'Backoffice')!.Id
    const users = (await call('get', '/api/usuarios?pageIndex=0&pageSize=50', admin).expect(200)).body.Items as { Id: number; Email: string; Grupos: string }[]
    const plain = users.find((u) => u.Grupos === 'Comerciales' && !u.Email.startsWith('agente'))!
    const held = await call('post', `/api/usuarios/add-user-group?userId=${plain.Id}&userGroup=${admins}`, admin).expect(202)
    expect((await inbox()).find((a) => a.id === held.body.pendingId)?.policies.map((p) => p.id)).toEqual(['grant-gestoraccess-group'])
    await call('post', `/api/usuarios/add-user-group?userId=${plain.Id}&userGroup=${backoffice}`, admin).expect(200)
    // Directly: the permission's id.
    const permisos = (await call('get', '/api/permission', admin).expect(200)).body as { Id: number; NombreNormalizado: string }[]
    const gestor = permisos.find((p) => p.NombreNormalizado === 'GESTORACCESS')!.Id
    const other = permisos.find((p) => p.NombreNormalizado === 'VERRENOVACIONES')!.Id
    await call('put', `/api/permission/add-permisos-to-user?userId=${plain.Id}`, admin, [other, gestor]).expect(202)
    await call('put', `/api/permission/add-permisos-to-user?userId=${plain.Id}`, admin, [other]).expect(200)
  })

  it('a renewal’s «Baja solicitada» is held, another sub-state is not', async () => {
    const renewals = (await call('get', '/api/renovaciones?pageIndex=0&pageSize=5&filterColumns[0]=SubestadoId&filterQueries[0]=1', admin).expect(200)).body.Items as { CodigoContrato: string }[]
    const code = renewals[0]!.CodigoContrato
    await call('put', '/api/renovaciones/change-subestado', admin, { CodigoContrato: code, SubestadoId: 6 }).expect(202)
    await call('put', '/api/renovaciones/change-subestado', admin, { CodigoContrato: code, SubestadoId: 2 }).expect(200)
  })
})

describe('an IBAN change on an active contract', () => {
  it('is held, while saving the same contract with its IBAN as shown (masked) goes through', async () => {
    const code = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id DESC LIMIT 1").get() as { codigo: string }).codigo
    const ibanOf = () => (api.db.prepare('SELECT iban FROM contratos WHERE codigo = ?').get(code) as { iban: string }).iban
    const before = ibanOf()
    const record = (await call('get', `/api/contract/id?codigo=${code}`, admin).expect(200)).body as { Iban: string; Cliente: Record<string, unknown> }
    expect(record.Iban).toMatch(/^ES\d\d \*{4}/)

    // The IBAN as shown: put back by the BFF, unchanged, not held.
    await call('put', `/api/contract/update?codigo=${code}`, admin, { ...record, Cliente: { ...record.Cliente, Municipio: 'Getafe' } }).expect(200)
    expect(ibanOf()).toBe(before)

    // A new IBAN: held for a second person, and nothing changes until then.
    const held = await call('put', `/api/contract/update?codigo=${code}`, admin, { ...record, Iban: 'ES7620770024003102575766' }).expect(202)
    expect((held.body as HeldAnswer).pendingId).toBe(held.headers['x-approval-pending'])
    expect(ibanOf()).toBe(before)
    const item = (await inbox()).find((a) => a.id === (held.body as HeldAnswer).pendingId)
    expect(item).toMatchObject({ callId: 'contract.update', record: { entity: 'contrato', id: code } })
    // The diff the approver reads keeps both IBANs masked.
    expect(JSON.stringify(item)).not.toContain(before)
    expect(JSON.stringify(item)).not.toContain('ES7620770024003102575766')
  })
})

describe('the end of a contract (contract-end)', () => {
  it('a baja of an active contract is held (202) and lands once the supervisor approves it', async () => {
    const code = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id LIMIT 1 OFFSET 3").get() as { codigo: string }).codigo
    const stateOf = () => (api.db.prepare('SELECT estado, fecha_baja FROM contratos WHERE codigo = ?').get(code) as { estado: string; fecha_baja: string | null })
    const read = await call('get', `/api/contract/id?codigo=${code}`, admin).expect(200)
    const etag = read.headers.etag as string
    const held = await call('put', `/api/contract/update/fin?codigo=${code}`, admin, { Estado: 'baja', Motivo: 'Baja por cambio de comercializadora.' }).set('If-Match', etag).expect(202)
    const pendingId = (held.body as HeldAnswer).pendingId
    expect(held.headers['x-approval-pending']).toBe(pendingId)
    expect((held.body as HeldAnswer).message).toMatch(/necesita la aprobación de otra persona/)
    expect(stateOf().estado).toBe('activo')
    const item = (await inbox()).find((a) => a.id === pendingId)
    expect(item).toMatchObject({ callId: 'contract.end', policies: [{ id: 'contract-end' }], record: { entity: 'contrato', id: code } })
    await call('post', `/bff/approvals/${pendingId}/approve`, admin, {}).expect(403)
    expect(stateOf().estado).toBe('activo')

    const res = await call('post', `/bff/approvals/${pendingId}/approve`, supervisor, {}).expect(200)
    expect(res.body).toMatchObject({ status: 'approved', upstreamStatus: 200, decidedBy: { email: 'supervisor@portal.test' } })
    expect(stateOf()).toMatchObject({ estado: 'baja' })
    expect(stateOf().fecha_baja).not.toBeNull()
    const sent = (await audit('?pageSize=500')).Items.find((e) => e.approval?.id === pendingId && e.kind === 'call' && e.outcome.status === 200)
    expect(sent).toMatchObject({ callId: 'contract.end', approval: { requestedBy: { email: 'admin@portal.test' }, decidedBy: { email: 'supervisor@portal.test' } } })
  })

  it('a call refused by the catalogue (a state outside baja/anulado) is a 400 and is not held', async () => {
    const code = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'borrador' ORDER BY c.id LIMIT 1").get() as { codigo: string }).codigo
    const pending = (await inbox()).length
    await call('put', `/api/contract/update/fin?codigo=${code}`, admin, { Estado: 'activo', Motivo: 'No vale.' }).expect(400)
    expect((await inbox()).length).toBe(pending)
  })
})

describe('policies as data', () => {
  it('admins read them with their version, a bad one is refused in Spanish, a save changes what is held, a stale save is a 409', async () => {
    const current = (await call('get', '/bff/admin/approval-policies', admin).expect(200)).body as { version: number; policies: { id: string; calls: string[] }[] }
    expect(current.version).toBe(0)
    expect(current.policies.map((p) => p.id)).toContain('apikey-generate')
    // The contract's edit call is catalogued: its default (an IBAN change on an active contract) applies.
    expect(current.policies.find((p) => p.id === 'contract-iban-active')?.calls).toEqual(['contract.update'])
    await call('get', '/bff/admin/approval-policies', agente).expect(403)

    const unknown = await call('put', '/bff/admin/approval-policies', admin, { version: 0, policies: [{ id: 'x', label: { es: 'X' }, calls: ['no.existe'] }] }).expect(400)
    expect(unknown.body.message).toMatch(/no está en el catálogo: «no\.existe»/)
    const read = await call('put', '/bff/admin/approval-policies', admin, { version: 0, policies: [{ id: 'x', label: { es: 'X' }, calls: ['contract.detail'] }] }).expect(400)
    expect(read.body.message).toMatch(/es una consulta/)

    const without = current.policies.filter((p) => p.id !== 'apikey-generate')
    const saved = await call('put', '/bff/admin/approval-policies', admin, { version: 0, policies: without }).expect(200)
    expect(saved.body.version).toBe(1)
    await call('post', '/api/apikey/generate', admin, { ApiUserId: apiUserId, Descripcion: 'Sin política' }).expect(201)
    const stale = await call('put', '/bff/admin/approval-policies', admin, { version: 0, policies: current.policies }).expect(409)
    expect(stale.body.message).toMatch(/Otra persona ha guardado/)
    await call('put', '/bff/admin/approval-policies', admin, { version: 1, policies: current.policies }).expect(200)
    await call('post', '/api/apikey/generate', admin, { ApiUserId: apiUserId, Descripcion: 'Con política' }).expect(202)
    const history = (await call('get', '/bff/admin/approval-policies/history', admin).expect(200)).body.versions as { version: number }[]
    expect(history.map((v) => v.version)).toEqual([2, 1])
    expect((await audit('?pageSize=500')).Items.filter((e) => e.action === 'approvals.policies.save')).toHaveLength(2)
  })
})

describe('the only approver', () => {
  it('a request whose requester is the only GESTORACCESS user waits, and says so', async () => {
    const lone = await startReferenceApi()
    const loneBff = await buildTestBff(lone.url)
    try {
      lone.db.prepare("DELETE FROM usuario_grupos WHERE usuario_id = (SELECT id FROM usuarios WHERE email = 'supervisor@portal.test')").run()
      const cookie = await signIn(ADMIN, loneBff)
      const id = (await call('get', '/api/apiusers/listado-api-user?pageIndex=0&pageSize=1', cookie, undefined, loneBff).expect(200)).body.Items[0].Id
      const res = await call('post', '/api/apikey/generate', cookie, { ApiUserId: id }, loneBff).expect(202)
      expect(res.body.waitingForApprover).toBe(true)
      expect(res.body.message).toMatch(/no hay nadie más que pueda aprobarlo/)
      const own = ((await call('get', '/bff/approvals/mine', cookie, undefined, loneBff).expect(200)).body as { Items: ApprovalView[] }).Items
      expect(own[0]).toMatchObject({ id: res.body.pendingId, status: 'pending', waitingForApprover: true })
    } finally {
      await loneBff.close()
      await lone.close()
    }
  })
})
