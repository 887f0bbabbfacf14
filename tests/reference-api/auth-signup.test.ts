import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, STRONG, login, snapshot, uniqueEmail } from './admin-support'

let api: RunningReferenceApi
let admin: ApiCaller
let adminGrupo: ApiCaller
let agente: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
  adminGrupo = await ApiCaller.signIn(api.url, ADMIN, BRAND_DOMAINS.grupo)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

async function register(body: Record<string, unknown>, brand: string = BRAND_DOMAINS.verde) {
  const res = await fetch(`${api.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-brand-domain': brand }, body: JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as { Id: number; Email: string; Estado: string }) : null }
}

const signUp = (email = uniqueEmail('registro')) => ({ Email: email, Nombre: 'Nuria', Apellidos: 'Gil Pardo', Password: STRONG })

describe('POST api/auth/register (self sign-up)', () => {
  it('creates an account, without a token, that cannot sign in until it is activated', async () => {
    const body = signUp()
    const created = await register(body)
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ Email: body.Email, Nombre: 'Nuria', Apellidos: 'Gil Pardo', Estado: 'pendiente' })
    const row = api.db.prepare('SELECT activo, alta_pendiente_marca_id FROM usuarios WHERE id = ?').get(created.body!.Id) as { activo: number; alta_pendiente_marca_id: number }
    expect(row.activo).toBe(0)
    expect(row.alta_pendiente_marca_id).toBeGreaterThan(0)

    // The right password is told it waits; a wrong one learns nothing more than a bad sign-in.
    const early = await fetch(`${api.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-brand-domain': BRAND_DOMAINS.verde }, body: JSON.stringify({ username: body.Email, password: STRONG }) })
    expect(early.status).toBe(403)
    expect(await early.text()).toBe('Tu cuenta está pendiente de aprobación.')
    expect((await login(api.url, { username: body.Email, password: 'Otra-Clave-2027' })).status).toBe(401)

    const activated = await admin.put<{ Id: number; Activo: boolean }>('/api/auth/activate', undefined, { id: created.body!.Id })
    expect(activated.status).toBe(200)
    expect(activated.body).toMatchObject({ Id: created.body!.Id, Activo: true })
    expect((await login(api.url, { username: body.Email, password: STRONG })).status).toBe(200)
    // Activated once: a second activation finds nothing pending.
    expect((await admin.put('/api/auth/activate', undefined, { id: created.body!.Id })).status).toBe(404)
  })

  it('refuses a bad e-mail, a missing name and a weak password with a Spanish 400, creating nothing', async () => {
    const before = snapshot(api.db)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...signUp(), Email: 'no-es-un-correo' }, /correo electrónico/],
      [{ ...signUp(), Nombre: '   ' }, /Falta el nombre/],
      [{ ...signUp(), Password: 'corta' }, /al menos 10 caracteres/],
      [{ ...signUp(), Password: 'todo-minusculas-123' }, /mayúsculas, minúsculas y números/],
      [{ ...signUp(), Password: undefined }, /Falta la contraseña/],
    ]
    for (const [body, message] of cases) {
      const res = await register(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.text).toMatch(message)
    }
    expect(snapshot(api.db)).toBe(before)
  })

  it('answers 409 for an address already taken, active or pending, saying no more than that', async () => {
    const pending = signUp()
    expect((await register(pending)).status).toBe(201)
    const before = snapshot(api.db)
    for (const email of [pending.Email, 'ADMIN@portal.test']) {
      const res = await register({ ...signUp(), Email: email })
      expect(res.status).toBe(409)
      expect(res.text).toBe('Ya existe una cuenta con ese correo electrónico. Si es tuya, inicia sesión o recupera la contraseña.')
    }
    expect(snapshot(api.db)).toBe(before)
  })
})

describe('PUT api/auth/activate and DELETE api/auth/pending', () => {
  it('are decided only by GESTORACCESS of the brand signed up in', async () => {
    const created = await register(signUp(), BRAND_DOMAINS.verde)
    const id = created.body!.Id
    expect((await agente.put('/api/auth/activate', undefined, { id })).status).toBe(403)
    expect((await agente.delete('/api/auth/pending', undefined, { id })).status).toBe(403)
    // Another brand's administrator does not see it pending.
    expect((await adminGrupo.put('/api/auth/activate', undefined, { id })).status).toBe(404)
    expect((await adminGrupo.delete('/api/auth/pending', undefined, { id })).status).toBe(404)
    const row = api.db.prepare('SELECT activo FROM usuarios WHERE id = ?').get(id) as { activo: number }
    expect(row.activo).toBe(0)
  })

  it('rejecting removes the account: it cannot sign in and the address is free again', async () => {
    const body = signUp()
    const created = await register(body)
    const res = await admin.delete('/api/auth/pending', undefined, { id: created.body!.Id })
    expect(res.status).toBe(204)
    expect((await login(api.url, { username: body.Email, password: STRONG })).status).toBe(401)
    expect((await register(body)).status).toBe(201)
  })

  it('a pending sign-up is withdrawn, with no session, by the token its registration answered, and by nothing else', async () => {
    const body = signUp()
    const created = await register(body)
    const token = (created.body as unknown as { TokenRetirada: string }).TokenRetirada
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Only its digest is kept.
    const row = api.db.prepare('SELECT alta_retirada_hash FROM usuarios WHERE id = ?').get(created.body!.Id) as { alta_retirada_hash: string }
    expect(row.alta_retirada_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(row.alta_retirada_hash).not.toContain(token)
    const withdraw = (Id: unknown, Token: unknown, brand: string = BRAND_DOMAINS.verde) =>
      fetch(`${api.url}/api/auth/register/withdraw`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-brand-domain': brand }, body: JSON.stringify({ Id, Token }) })
    const other = await register(signUp())
    const before = snapshot(api.db)
    // A wrong token, another brand, another account: no such sign-up, nothing changes.
    const wrong = await withdraw(created.body!.Id, `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`)
    expect(wrong.status).toBe(404)
    expect(await wrong.text()).toBe(`No hay ninguna alta pendiente con el identificador ${created.body!.Id} en esta marca.`)
    expect((await withdraw(created.body!.Id, token, BRAND_DOMAINS.grupo)).status).toBe(404)
    expect((await withdraw(other.body!.Id, token)).status).toBe(404)
    expect((await withdraw('1', token)).status).toBe(400)
    expect((await withdraw(created.body!.Id, 'corto')).status).toBe(400)
    expect(snapshot(api.db)).toBe(before)

    expect((await withdraw(created.body!.Id, token)).status).toBe(204)
    expect(api.db.prepare('SELECT 1 FROM usuarios WHERE id = ?').get(created.body!.Id)).toBeUndefined()
    expect((await login(api.url, { username: body.Email, password: STRONG })).status).toBe(401)
    expect((await withdraw(created.body!.Id, token)).status).toBe(404)
    expect((await register(body)).status).toBe(201)
  })

  it('an activated account can no longer be withdrawn: its token is dropped', async () => {
    const created = await register(signUp())
    const token = (created.body as unknown as { TokenRetirada: string }).TokenRetirada
    expect((await admin.put('/api/auth/activate', undefined, { id: created.body!.Id })).status).toBe(200)
    expect((api.db.prepare('SELECT alta_retirada_hash FROM usuarios WHERE id = ?').get(created.body!.Id) as { alta_retirada_hash: string | null }).alta_retirada_hash).toBeNull()
    const res = await fetch(`${api.url}/api/auth/register/withdraw`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-brand-domain': BRAND_DOMAINS.verde }, body: JSON.stringify({ Id: created.body!.Id, Token: token }) })
    expect(res.status).toBe(404)
    expect(api.db.prepare('SELECT activo FROM usuarios WHERE id = ?').get(created.body!.Id)).toEqual({ activo: 1 })
  })

  it('never activates nor deletes an account an administrator made, even an inactive one', async () => {
    const made = await admin.post<{ Id: number }>('/api/usuarios/register', { Email: uniqueEmail('inactivo'), Nombre: 'Pablo', Activo: false, Password: STRONG })
    expect(made.status).toBe(201)
    expect((await admin.put('/api/auth/activate', undefined, { id: made.body.Id })).status).toBe(404)
    expect((await admin.delete('/api/auth/pending', undefined, { id: made.body.Id })).status).toBe(404)
    expect((await admin.put('/api/auth/activate', undefined, { id: 'x' as unknown as number })).status).toBe(400)
  })
})
