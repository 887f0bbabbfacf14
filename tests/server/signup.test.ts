import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApprovalView } from '../../schemas/approval'
import type { AuditPageAnswer } from '../../schemas/audit'
import type { Manifest } from '../../schemas/manifest'
import { ADMIN, buildTestBff, sessionCookie, SUPERVISOR, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Spec §7 sign-up (issue 18): `POST /bff/auth/signup`, off unless SIGNUP_ENABLED=true, throttled
 * as sign-in, creates an inactive account upstream and holds it in the Aprobaciones inbox of its
 * brand; approved it signs in, rejected it never does; both decisions are in the audit.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const PASSWORD = 'Alta-Nueva-2027'

let api: RunningReferenceApi
let bff: TestBff
let off: TestBff
let supervisor = ''
let supervisorGrupo = ''
let seq = 0

const newAccount = () => ({ Email: `alta.${Date.now().toString(36)}${(seq++).toString(36)}@pruebas.test`, Nombre: 'Nuria', Apellidos: 'Gil Pardo', Password: PASSWORD })

async function signIn(creds: { username: string; password: string }, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}
const login = (username: string, password = PASSWORD) => request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send({ username, password })
const signUp = (body: object, app = bff, ip = '10.0.0.1') => request(app.app.server).post('/bff/auth/signup').set('X-CSRF', '1').set('X-Forwarded-For', ip).send(body)
const inbox = async (cookie = supervisor, host = 'localhost') => ((await request(bff.app.server).get('/bff/approvals').set('Host', host).set('Cookie', cookie).expect(200)).body as { Items: ApprovalView[] }).Items
const decide = (id: string, what: 'approve' | 'reject', cookie = supervisor) => request(bff.app.server).post(`/bff/approvals/${id}/${what}`).set('X-CSRF', '1').set('Cookie', cookie).send({})
const audit = async () => ((await request(bff.app.server).get('/bff/admin/audit?pageSize=500').set('Cookie', supervisor).expect(200)).body as AuditPageAnswer).Items
const heldFor = async (email: string) => (await inbox()).find((a) => a.callId === 'auth.activate' && a.requester.email === email)

beforeAll(async () => {
  api = await startReferenceApi()
  // Few requests per e-mail and address, so the throttle is reached within the test; each test acts from its own address.
  bff = await buildTestBff(api.url, { SIGNUP_ENABLED: 'true', SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3', SIGNIN_MAX_FAILURES_PER_IP: '8', TRUST_PROXY: 'true' })
  off = await buildTestBff(api.url)
  supervisor = await signIn(SUPERVISOR)
  supervisorGrupo = await signIn(SUPERVISOR, GRUPO)
})
afterAll(async () => {
  await bff?.close()
  await off?.close()
  await api?.close()
})

describe('sign-up switched off (the default)', () => {
  it('does not exist: 404, nothing created upstream, and the manifest offers no link', async () => {
    const body = newAccount()
    await signUp(body, off).expect(404)
    expect(api.db.prepare('SELECT 1 FROM usuarios WHERE email = ?').get(body.Email)).toBeUndefined()
    const manifest = (await request(off.app.server).get('/bff/manifest').expect(200)).body as Manifest
    expect(manifest.signup).toBeUndefined()
    expect(((await request(bff.app.server).get('/bff/manifest').expect(200)).body as Manifest).signup).toBe(true)
  })
})

describe('sign-up switched on', () => {
  it('refuses a request without the CSRF header or from a foreign origin, creating nothing', async () => {
    const body = newAccount()
    await request(bff.app.server).post('/bff/auth/signup').send(body).expect(403)
    await request(bff.app.server).post('/bff/auth/signup').set('X-CSRF', '1').set('Origin', 'https://evil.example').send(body).expect(403)
    expect(api.db.prepare('SELECT 1 FROM usuarios WHERE email = ?').get(body.Email)).toBeUndefined()
  })

  it('passes on the upstream’s Spanish refusals (weak password, address taken) and a bad body is a 400', async () => {
    const weak = await signUp({ ...newAccount(), Password: 'corta' }, bff, '10.0.1.1').expect(400)
    expect(weak.body.message).toBe('La contraseña debe tener al menos 10 caracteres.')
    const taken = await signUp({ ...newAccount(), Email: 'admin@portal.test' }, bff, '10.0.1.2').expect(409)
    expect(taken.body.message).toMatch(/^Ya existe una cuenta con ese correo electrónico/)
    const extra = await signUp({ ...newAccount(), Activo: true }, bff, '10.0.1.3').expect(400)
    expect(extra.body.message).toBe('Los datos enviados no son válidos: sobra «Activo».')
  })

  it('holds the new account in the inbox of its brand: not signed in, and told it waits', async () => {
    const body = newAccount()
    const res = await signUp(body, bff, '10.0.2.1').expect(202)
    expect(res.body.message).toMatch(/Un administrador debe aprobar la cuenta/)
    expect(res.headers['set-cookie']).toBeUndefined()
    const held = await heldFor(body.Email)
    expect(held).toMatchObject({ status: 'pending', brand: 'verde', record: { entity: 'usuario' }, policies: [{ id: 'self-signup' }], requester: { name: 'Nuria Gil Pardo' } })
    // The address is masked there as in the audit; the name is what the approver decides on.
    expect(held!.changes.find((c) => c.field === 'Email')!.after).not.toBe(body.Email)
    // Another brand's approver does not see it, nor may decide it.
    expect((await inbox(supervisorGrupo, GRUPO)).some((a) => a.id === held!.id)).toBe(false)
    await request(bff.app.server).post(`/bff/approvals/${held!.id}/approve`).set('Host', GRUPO).set('X-CSRF', '1').set('Cookie', supervisorGrupo).send({}).expect(404)

    const early = await login(body.Email).expect(403)
    expect(early.body.message).toBe('Tu cuenta está pendiente de aprobación.')
    expect(early.headers['set-cookie']).toBeUndefined()
    // A wrong password still reads as any bad sign-in.
    expect((await login(body.Email, 'Otra-Clave-2099').expect(401)).body.message).not.toMatch(/pendiente/)
  })

  it('approved, the account signs in; the audit names who approved it', async () => {
    const body = newAccount()
    await signUp(body, bff, '10.0.3.1').expect(202)
    const held = (await heldFor(body.Email))!
    const decided = await decide(held.id, 'approve').expect(200)
    expect(decided.body).toMatchObject({ status: 'approved', upstreamStatus: 200, decidedBy: { email: 'supervisor@portal.test' } })
    const res = await login(body.Email).expect(200)
    expect(res.body.user).toMatchObject({ Email: body.Email, Nombre: 'Nuria' })
    const entries = (await audit()).filter((e) => e.approval?.id === held.id)
    expect(entries.find((e) => e.kind === 'call')).toMatchObject({ callId: 'auth.activate', outcome: { status: 200, ok: true }, approval: { decidedBy: { email: 'supervisor@portal.test' } } })
    expect(entries.find((e) => e.action === 'approval.approve')).toBeTruthy()
    // The new account is told on its first sign-in.
    const notices = await request(bff.app.server).get('/bff/notices').set('Cookie', sessionCookie(res.headers['set-cookie'])).expect(200)
    expect(JSON.stringify(notices.body)).toMatch(/ha aprobado tu cuenta/)
  })

  it('rejected, the account is gone upstream and can never sign in; the rejection is in the audit', async () => {
    const body = newAccount()
    await signUp(body, bff, '10.0.4.1').expect(202)
    const held = (await heldFor(body.Email))!
    await decide(held.id, 'reject').expect(200)
    expect(api.db.prepare('SELECT 1 FROM usuarios WHERE email = ?').get(body.Email)).toBeUndefined()
    await login(body.Email).expect(401)
    await decide(held.id, 'approve').expect(409)
    expect((await audit()).find((e) => e.action === 'approval.reject' && e.approval?.id === held.id)).toMatchObject({ actor: { email: 'supervisor@portal.test' } })
    // The removal upstream is in the audit too, as the call it was, by the one who rejected it.
    expect((await audit()).find((e) => e.kind === 'call' && e.approval?.id === held.id)).toMatchObject({
      actor: { email: 'supervisor@portal.test' },
      callId: 'auth.rejectSignup',
      call: 'DELETE api/auth/pending',
      outcome: { status: 204, ok: true },
    })
  })

  it('is throttled as sign-in is: past the limit per e-mail and address, 429 with Retry-After before the upstream is asked', async () => {
    const body = newAccount()
    // The first creates the account; the next two are refused upstream (409) but count.
    await signUp(body, bff, '10.0.5.1').expect(202)
    await signUp(body, bff, '10.0.5.1').expect(409)
    await signUp(body, bff, '10.0.5.1').expect(409)
    const refused = await signUp(body, bff, '10.0.5.1').expect(429)
    expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    expect(refused.body.message).toMatch(/^Demasiadas solicitudes de alta\. Vuelve a intentarlo en \d+ minutos?\.$/)
    const logged = bff.logs.lines.filter((l) => l.event === 'signup_throttled')
    expect(logged.length).toBeGreaterThan(0)
    // Counted apart from sign-in: the address can still sign in.
    await login('admin@portal.test', ADMIN.password).expect(200)
  })

  it('never logs the password, nor the address whole', async () => {
    const body = newAccount()
    await signUp(body, bff, '10.0.6.1').expect(202)
    const text = bff.logs.raw.join('\n')
    expect(text).not.toContain(PASSWORD)
    expect(text).not.toContain(body.Email)
  })
})

describe('a sign-up nobody decides', () => {
  const HOUR = 3600_000
  let clock = Date.now()
  let timed: TestBff
  let timedSupervisor = ''
  const timedInbox = async () => ((await request(timed.app.server).get('/bff/approvals').set('Cookie', timedSupervisor).expect(200)).body as { Items: ApprovalView[] }).Items
  const timedAudit = async () => ((await request(timed.app.server).get('/bff/admin/audit?pageSize=500').set('Cookie', timedSupervisor).expect(200)).body as AuditPageAnswer).Items
  const accountOf = (email: string) => api.db.prepare('SELECT id, activo, alta_retirada_hash FROM usuarios WHERE email = ?').get(email) as { id: number; activo: number; alta_retirada_hash: string | null } | undefined

  beforeAll(async () => {
    timed = await buildTestBff(api.url, { SIGNUP_ENABLED: 'true', TRUST_PROXY: 'true' }, { approvalClock: () => clock })
    const res = await request(timed.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(SUPERVISOR).expect(200)
    timedSupervisor = sessionCookie(res.headers['set-cookie'])
  })
  afterAll(async () => {
    await timed?.close()
  })

  it('expires after 48 hours and the account is withdrawn upstream: gone, its address free, and the audit has both', async () => {
    const body = newAccount()
    await signUp(body, timed, '10.0.7.1').expect(202)
    const account = accountOf(body.Email)!
    expect(account).toMatchObject({ activo: 0 })
    expect(account.alta_retirada_hash).toMatch(/^[0-9a-f]{64}$/)
    const held = (await timedInbox()).find((a) => a.callId === 'auth.activate' && a.requester.email === body.Email)!

    clock += 47 * HOUR
    expect((await timedInbox()).some((a) => a.id === held.id)).toBe(true)
    expect(accountOf(body.Email)).toBeDefined()
    clock += 2 * HOUR
    expect((await timedInbox()).some((a) => a.id === held.id)).toBe(false)

    // Removed upstream through the catalogued withdrawal, with no session: it can never sign in, and the address is free again.
    expect(accountOf(body.Email)).toBeUndefined()
    expect((await login(body.Email).expect(401)).body.message).not.toMatch(/pendiente/)
    const upstreamAudit = api.db.prepare("SELECT accion, usuario_id FROM auditoria_admin WHERE entidad = 'usuario' AND entidad_id = ? ORDER BY id").all(String(account.id)) as { accion: string; usuario_id: number | null }[]
    expect(upstreamAudit.map((r) => r.accion)).toEqual(['usuario.registro', 'usuario.registro.retirado'])

    const entries = (await timedAudit()).filter((e) => e.approval?.id === held.id)
    expect(entries.find((e) => e.action === 'approval.expire')).toMatchObject({ actor: null })
    expect(entries.find((e) => e.kind === 'call')).toMatchObject({
      actor: null,
      call: 'POST api/auth/register/withdraw',
      callId: 'auth.withdrawSignup',
      record: { entity: 'usuario', id: String(account.id) },
      outcome: { status: 204, ok: true },
      approval: { requestedBy: { email: body.Email } },
    })
    await request(timed.app.server).post(`/bff/approvals/${held.id}/approve`).set('X-CSRF', '1').set('Cookie', timedSupervisor).send({}).expect(409)
    await signUp(body, timed, '10.0.7.2').expect(202)
  })

  it('the withdrawal token never leaves the BFF: not in its logs, its audit, nor the inbox', async () => {
    const body = newAccount()
    await signUp(body, timed, '10.0.7.3').expect(202)
    const held = (await timedInbox()).find((a) => a.requester.email === body.Email)!
    expect(JSON.stringify(held)).not.toMatch(/Token|Retirada/)
    clock += 49 * HOUR
    await timedInbox()
    expect(accountOf(body.Email)).toBeUndefined()
    const text = [timed.logs.raw.join('\n'), JSON.stringify(await timedAudit())].join('\n')
    expect(text).not.toMatch(/TokenRetirada|"Token":"[^"*]/)
    expect(timed.logs.lines.find((l) => l.event === 'approval_expiry_call')).toMatchObject({ call: 'auth.withdrawSignup', status: 204 })
  })
})

describe('whatever a stranger sends', () => {
  it('never signs anyone in, never answers 5xx, and whatever it creates cannot sign in before approval', async () => {
    let run = 0
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', 'admin@portal.test', 'x@y.es', PASSWORD, 'Portal-Admin-2026!'))
    const body = fc.oneof(
      fc.record({ Email: text, Nombre: text, Apellidos: fc.option(text, { nil: undefined }), Password: text }, { requiredKeys: [] }),
      fc.record({ Email: fc.emailAddress(), Nombre: fc.string({ minLength: 1, maxLength: 20 }), Password: fc.constantFrom(PASSWORD, 'débil', 'SinNumerosAqui') }),
      fc.jsonValue({ maxDepth: 2 }),
    )
    await fc.assert(
      fc.asyncProperty(body, async (sent) => {
        const res = await request(bff.app.server).post('/bff/auth/signup').set('X-CSRF', '1').set('X-Forwarded-For', `10.9.${run++ % 250}.${Math.floor(run / 250)}`).set('Content-Type', 'application/json').send(JSON.stringify(sent))
        expect([202, 400, 409, 415, 429]).toContain(res.status)
        expect(res.headers['set-cookie']).toBeUndefined()
        expect(typeof res.body.message).toBe('string')
        if (res.status === 202) {
          const email = String((sent as { Email: string }).Email).trim().toLowerCase()
          const row = api.db.prepare('SELECT activo FROM usuarios WHERE email = ?').get(email) as { activo: number }
          expect(row.activo).toBe(0)
          expect((await login(email, (sent as { Password: string }).Password)).status).toBe(403)
        }
      }),
      { numRuns: 40 },
    )
  })
})
