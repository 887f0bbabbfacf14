import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContractDetail } from '../../schemas/business/contracts'
import { ADMIN, AGENTE, SUPERVISOR, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { openEvents, type SseEvent, type SseStream } from '../helpers/sse'

/**
 * `GET /bff/events` (issues 16 and 17): a server-sent event stream that opens at once and is never
 * compressed, change events of catalogued mutations to the users of the same brand who may read
 * the record, and presence on detail screens (join, leave, expiry), never naming the user
 * themselves. Streams are read over a real socket: supertest waits for whole answers.
 */

const GRUPO = 'portal.grupoenergia.localhost'
const TTL_MS = 1_500

let api: RunningReferenceApi
let bff: TestBff
let base = ''
let admin = ''
let supervisor = ''
let agente = ''
let adminGrupo = ''
let code = ''
const open: SseStream[] = []

async function signIn(creds: { username: string; password: string }, host = 'localhost') {
  const res = await request(bff.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}
const call = (method: 'get' | 'put' | 'post', path: string, cookie: string, body?: unknown, headers: Record<string, string> = {}) => {
  const r = request(bff.app.server)[method](path).set('X-CSRF', '1').set('Cookie', cookie)
  for (const [k, v] of Object.entries(headers)) r.set(k, v)
  return body === undefined ? r : r.send(body as object)
}
async function stream(cookie: string, host?: string): Promise<SseStream & { connection: string }> {
  const s = await openEvents(base, { cookie, host })
  open.push(s)
  expect(s.status).toBe(200)
  const hello = await s.next((e) => e.event === 'hello')
  return Object.assign(s, { connection: hello.data.connection as string })
}
const isChange = (entity: string, id?: string) => (e: SseEvent) => e.event === 'change' && e.data.entity === entity && (id === undefined || e.data.id === id)
const presenceOf = (id: string, names: string[]) => (e: SseEvent) => e.event === 'presence' && e.data.id === id && JSON.stringify(e.data.viewers.map((v: { name: string }) => v.name)) === JSON.stringify(names)
const present = (cookie: string, connection: string, id = code, entity = 'contrato') => call('post', '/bff/presence', cookie, { entity, id, connection })
const nameOf = (email: string) => {
  const u = api.db.prepare('SELECT nombre, apellidos FROM usuarios WHERE email = ?').get(email) as { nombre: string; apellidos: string | null }
  return [u.nombre, u.apellidos].filter(Boolean).join(' ')
}
/** Nothing matching arrives within `ms` (after something else that must, so the wait is not for nothing). */
const silentFor = async (s: SseStream, match: (e: SseEvent) => boolean, ms = 400) => {
  await new Promise((r) => setTimeout(r, ms))
  expect(s.events.filter(match)).toEqual([])
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url, {}, { liveTimings: { heartbeatMs: 300, presenceTtlMs: TTL_MS, sweepMs: 100, maxStreamsPerUser: 3 } })
  base = await bff.app.listen({ host: '127.0.0.1', port: 0 })
  admin = await signIn(ADMIN)
  supervisor = await signIn(SUPERVISOR)
  agente = await signIn(AGENTE)
  adminGrupo = await signIn(ADMIN, GRUPO)
  code = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id LIMIT 1").get() as { codigo: string }).codigo
}, 60_000)
afterAll(async () => {
  for (const s of open) s.close()
  await bff?.close()
  await api?.close()
})

describe('the stream', () => {
  it('sends its headers and a first comment at once, then a hello naming the connection', async () => {
    const s = await stream(admin)
    expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(s.headers['cache-control']).toBe('no-store')
    expect(s.headers['x-request-id']).toBeTruthy()
    expect(s.firstBytesMs).toBeGreaterThanOrEqual(0)
    expect(s.firstBytesMs).toBeLessThan(1_000)
    expect(s.raw().startsWith(': stream open\n\n')).toBe(true)
    expect(s.connection).toMatch(/^[A-Za-z0-9_-]{22}$/)
    s.close()
  })

  it('is 401 with a Spanish message when signed out, and with a cookie of no session', async () => {
    for (const cookie of [undefined, 'portal_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const s = await openEvents(base, { cookie })
      expect(s.status).toBe(401)
      expect(s.body.message).toMatch(/sesión/)
    }
  })

  it('is never compressed, whatever the browser accepts', async () => {
    const s = await openEvents(base, { cookie: admin, headers: { 'accept-encoding': 'gzip, deflate, br' } })
    open.push(s)
    expect(s.status).toBe(200)
    expect(s.headers['content-encoding']).toBeUndefined()
    await s.next((e) => e.event === 'hello')
    expect(s.raw()).toContain('event: hello\ndata: {')
    s.close()
  })

  it('beats every heartbeat, and ends when its session does', async () => {
    const cookie = await signIn(SUPERVISOR)
    const s = await stream(cookie)
    await new Promise((r) => setTimeout(r, 700))
    expect(s.comments.filter((c) => c === 'ping').length).toBeGreaterThanOrEqual(1)
    await call('post', '/bff/auth/logout', cookie).expect((res) => expect(res.status).toBeLessThan(300))
    await Promise.race([s.ended, new Promise((_, fail) => setTimeout(() => fail(new Error('stream still open after sign-out')), 3_000))])
  })

  it('refuses (429) a user’s streams beyond the cap, and admits one again when another closes', async () => {
    const cookie = await signIn(AGENTE)
    const mine = [await stream(cookie), await stream(cookie), await stream(cookie)]
    const refused = await openEvents(base, { cookie })
    expect(refused.status).toBe(429)
    expect(refused.body.message).toMatch(/demasiadas pestañas/)
    mine[0]!.close()
    await new Promise((r) => setTimeout(r, 100))
    ;(await stream(cookie)).close()
    for (const s of mine) s.close()
  })
})

describe('change events', () => {
  it('reach the users of the same brand after a saved contract, not another brand’s, and carry no personal values', async () => {
    const other = await stream(supervisor)
    const sameAgent = await stream(agente)
    const elsewhere = await stream(adminGrupo, GRUPO)
    const read = await call('get', `/api/contract/id?codigo=${code}`, admin).expect(200)
    const record = read.body as ContractDetail
    await call('put', `/api/contract/update?codigo=${code}`, admin, { ...record, Cliente: { ...record.Cliente, Municipio: 'Leganés' } }, { 'If-Match': String(read.headers.etag) }).expect(200)
    const event = await other.next(isChange('contrato', code))
    expect(event.data).toEqual({ type: 'change', entity: 'contrato', id: code, call: 'PUT api/contract/update' })
    // An agent sees only its own hierarchy's contracts, which the BFF cannot tell: it hears that a contract changed, not which.
    expect((await sameAgent.next(isChange('contrato'))).data).toEqual({ type: 'change', entity: 'contrato', call: 'PUT api/contract/update' })
    await silentFor(elsewhere, isChange('contrato'))
    // The body's values (a holder's town, the masked IBAN) are nowhere in any stream.
    for (const s of [other, sameAgent]) expect(s.raw()).not.toMatch(/Leganés|Iban|\*\*\*\*/)
    for (const s of [other, sameAgent, elsewhere]) s.close()
  })

  it('are not sent for a refused or failed mutation', async () => {
    const other = await stream(supervisor)
    const read = await call('get', `/api/contract/id?codigo=${code}`, admin).expect(200)
    const record = read.body as ContractDetail
    await call('put', `/api/contract/update?codigo=${code}`, admin, { ...record, Cliente: { ...record.Cliente, Municipio: 'Parla' } }, { 'If-Match': '"stale-version-000000000000"' }).expect(412)
    await silentFor(other, isChange('contrato', code))
    other.close()
  })

  it('of records only GESTORACCESS reads (users) do not reach a user without it', async () => {
    const gestor = await stream(supervisor)
    const plain = await stream(agente)
    const userId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }).id
    const read = await call('get', `/api/usuarios/${userId}`, admin).expect(200)
    await call('put', `/api/usuarios/update?Id=${userId}`, admin, { Nombre: read.body.Nombre }).expect(200)
    await gestor.next(isChange('usuario', String(userId)))
    await silentFor(plain, isChange('usuario'))
    gestor.close()
    plain.close()
  })

  it('follow a held change once it is approved and lands, not while it waits', async () => {
    const code2 = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id DESC LIMIT 1").get() as { codigo: string }).codigo
    const watcher = await stream(agente)
    const record = (await call('get', `/api/contract/id?codigo=${code2}`, admin).expect(200)).body as ContractDetail
    const held = await call('put', `/api/contract/update?codigo=${code2}`, admin, { ...record, Iban: 'ES7620770024003102575766' }).expect(202)
    // The watcher is an agent: it hears of a contract change without its code (see above).
    await silentFor(watcher, isChange('contrato'))
    await call('post', `/bff/approvals/${held.body.pendingId}/approve`, supervisor, {}).expect(200)
    expect((await watcher.next(isChange('contrato'))).data).toEqual({ type: 'change', entity: 'contrato', call: 'PUT api/contract/update' })
    expect(watcher.raw()).not.toContain('ES76')
    watcher.close()
  })
})

describe('presence', () => {
  it('tells the others who joins and leaves a record, never the user themselves', async () => {
    const sup = await stream(supervisor)
    const adm = await stream(admin)
    expect((await present(supervisor, sup.connection).expect(200)).body).toEqual({ viewers: [] })
    // The answer names who is there already; the one there is told of the newcomer.
    expect((await present(admin, adm.connection).expect(200)).body).toEqual({ viewers: [{ name: nameOf('supervisor@portal.test') }] })
    await sup.next(presenceOf(code, [nameOf('admin@portal.test')]))
    await adm.next(presenceOf(code, [nameOf('supervisor@portal.test')]))
    // A second tab of the same user does not make them a viewer of their own record.
    const adm2 = await stream(admin)
    expect((await present(admin, adm2.connection).expect(200)).body).toEqual({ viewers: [{ name: nameOf('supervisor@portal.test') }] })
    // Leaving (both tabs): the other is told nobody is there.
    await call('post', '/bff/presence/leave', admin, { entity: 'contrato', id: code, connection: adm.connection }).expect(204)
    adm2.close()
    await sup.next(presenceOf(code, []))
    for (const s of [sup, adm]) s.close()
  })

  it('ends when a tab stops saying so (expiry) and when its stream closes', async () => {
    const sup = await stream(supervisor)
    const adm = await stream(admin)
    await present(supervisor, sup.connection).expect(200)
    await present(admin, adm.connection).expect(200)
    await sup.next(presenceOf(code, [nameOf('admin@portal.test')]))
    // The supervisor keeps saying so; admin does not: gone within the expiry and a sweep.
    const beat = setInterval(() => void present(supervisor, sup.connection).then(() => undefined), 400)
    try {
      const gone = sup.events.length
      await sup.next((e) => sup.events.indexOf(e) >= gone && presenceOf(code, [])(e), TTL_MS * 3)
      // Back, then the stream closes: told at once.
      await present(admin, adm.connection).expect(200)
      await sup.next((e) => sup.events.indexOf(e) > gone && presenceOf(code, [nameOf('admin@portal.test')])(e))
      const before = sup.events.length
      adm.close()
      await sup.next((e) => sup.events.indexOf(e) >= before && presenceOf(code, [])(e), 1_000)
    } finally {
      clearInterval(beat)
      sup.close()
    }
  })

  it('is refused to a user who cannot read the record, for records without a detail, and for bad bodies', async () => {
    const ag = await stream(agente)
    const userId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'admin@portal.test'").get() as { id: number }).id
    expect((await present(agente, ag.connection, String(userId), 'usuario').expect(403)).body.message).toBe('No puedes ver este registro.')
    expect((await present(admin, ag.connection, 'x', 'factura').expect(400)).body.message).toMatch(/no muestra quién/)
    await call('post', '/bff/presence', admin, { entity: 'contrato', id: '../../x', connection: ag.connection }).expect(400)
    await call('post', '/bff/presence', admin, { entity: 'contrato', id: code }).expect(400)
    await request(bff.app.server).post('/bff/presence').set('X-CSRF', '1').send({ entity: 'contrato', id: code, connection: ag.connection }).expect(401)
    // The POST is covered by the CSRF check, as every state-changing request is.
    await request(bff.app.server).post('/bff/presence').set('Cookie', admin).send({ entity: 'contrato', id: code, connection: ag.connection }).expect(403)
    ag.close()
  })

  it('is not reached from another brand: the same record key there is another record', async () => {
    const sup = await stream(supervisor)
    const grupo = await stream(adminGrupo, GRUPO)
    await present(supervisor, sup.connection).expect(200)
    // The grupo admin cannot read a verde contract through its brand: refused, and nobody is told.
    const res = await request(bff.app.server).post('/bff/presence').set('Host', GRUPO).set('X-CSRF', '1').set('Cookie', adminGrupo).send({ entity: 'contrato', id: code, connection: grupo.connection })
    expect(res.status).toBe(403)
    await silentFor(sup, presenceOf(code, [nameOf('admin@portal.test')]))
    sup.close()
    grupo.close()
  })
})
