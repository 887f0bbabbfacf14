import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEARCH_UNAVAILABLE_HEADER, type SearchResult } from '../../schemas/search'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * `GET /bff/search` (issue 17, command palette): screens from the user's own route view, records
 * through catalogued calls made with the user's token, permission-filtered, one failing lookup
 * leaving the others.
 */

let api: RunningReferenceApi
let bff: TestBff
let admin: string
let agente: string

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  const login = async (c: typeof ADMIN) => sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(c).expect(200)).headers['set-cookie'])
  admin = await login(ADMIN)
  agente = await login(AGENTE)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

const search = (cookie: string | null, q: string | undefined, extra = '') => {
  const req = request(bff.app.server).get(`/bff/search${q === undefined ? '' : `?q=${encodeURIComponent(q)}`}${extra}`)
  return cookie ? req.set('Cookie', cookie) : req
}
const results = async (cookie: string, q: string, extra = ''): Promise<SearchResult[]> => (await search(cookie, q, extra).expect(200)).body as SearchResult[]

/** The manifest's route paths of a user. */
async function manifestPaths(cookie: string): Promise<Set<string>> {
  const res = await request(bff.app.server).get('/bff/manifest').set('Cookie', cookie).expect(200)
  const perms = new Set<string>(res.body.user.permissions)
  return new Set((res.body.routes as { path: string; permission?: string }[]).filter((r) => !r.permission || perms.has(r.permission)).map((r) => r.path))
}

/** Codes of the brand's contracts: the first ones visible to the agent, and one it does not see. */
function contractCodes(): { all: string[] } {
  const rows = api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' ORDER BY c.codigo").pluck().all() as string[]
  return { all: rows }
}

describe('GET /bff/search', () => {
  it('401 signed out', async () => {
    const res = await search(null, 'contratos').expect(401)
    expect(res.body.message).toMatch(/sesión/)
  })

  it('400 in Spanish on a bad or missing q, an empty list on a blank one, never a 500', async () => {
    expect((await search(admin, undefined).expect(400)).body.message).toBe('Falta el texto que buscar (q).')
    expect((await search(admin, 'x'.repeat(101)).expect(400)).body.message).toMatch(/más de 100 caracteres/)
    expect((await search(admin, 'a<script>').expect(400)).body.message).toMatch(/solo puede tener letras/)
    expect((await search(admin, 'a', '&q=b').expect(400)).body.message).toMatch(/una sola vez/)
    expect(await results(admin, '   ')).toEqual([])
  })

  it('finds screens by title in either language, with the route path, in the language asked', async () => {
    const es = await results(admin, 'renovaciones')
    expect(es[0]).toMatchObject({ kind: 'screen', group: 'screens', path: '/soluciones/renovaciones' })
    const en = await results(admin, 'renewals', '&lang=en')
    const hit = en.find((r) => r.path === '/soluciones/renovaciones')
    expect(hit?.label).toMatch(/Renewals/)
  })

  it('never gives the agente a GESTORACCESS screen, nor a record it opens (users)', async () => {
    const adminUsers = await results(admin, 'usuarios')
    expect(adminUsers.some((r) => r.path === '/usuarios/listado')).toBe(true)
    for (const q of ['usuarios', 'grupos', 'permisos', 'auditoria', 'api', 'pantallas', 'menu', 'sysmanager']) {
      const found = await results(agente, q)
      const paths = found.map((r) => r.path)
      expect(paths.filter((p) => p.startsWith('/sysmanager') || p.startsWith('/usuarios') || p === '/apikeys'), q).toEqual([])
      expect(found.filter((r) => r.kind === 'user'), q).toEqual([])
    }
    const allowed = await manifestPaths(agente)
    for (const r of await results(agente, 'a')) expect(allowed.has(r.path), r.path).toBe(true)
  })

  it('opens a contract by its code, and the start of a code finds a few', async () => {
    const code = contractCodes().all[0]!
    const exact = await results(admin, code.toLowerCase())
    expect(exact).toContainEqual(expect.objectContaining({ kind: 'contract', group: 'contracts', label: code, path: `/soluciones/contratos/${code}` }))
    const prefix = await results(admin, code.slice(0, 9))
    const contracts = prefix.filter((r) => r.kind === 'contract')
    expect(contracts.length).toBeGreaterThan(1)
    expect(contracts.length).toBeLessThanOrEqual(5)
    for (const r of contracts) expect(r.label.startsWith(code.slice(0, 9))).toBe(true)
  })

  it('asks with the user’s own token: the agente finds only contracts of its hierarchy', async () => {
    const agentSees = async (code: string) => (await request(bff.app.server).get(`/api/contract/id?codigo=${code}`).set('Cookie', agente).set('X-CSRF', '1')).status === 200
    const codes = contractCodes().all
    let hidden: string | undefined
    let visible: string | undefined
    for (const code of codes) {
      if (hidden && visible) break
      if (await agentSees(code)) visible ??= code
      else hidden ??= code
    }
    expect(hidden && visible).toBeTruthy()
    expect((await results(admin, hidden!)).some((r) => r.label === hidden)).toBe(true)
    expect((await results(agente, hidden!)).filter((r) => r.kind === 'contract')).toEqual([])
    expect((await results(agente, visible!)).some((r) => r.kind === 'contract' && r.label === visible)).toBe(true)
  })

  it('finds a supply point by CUPS and a client by NIF without showing what was not typed', async () => {
    const row = api.db
      .prepare("SELECT ps.cups AS cups, cl.nif AS nif, cl.email AS email, cl.telefono AS telefono, cl.iban AS iban FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id JOIN clientes cl ON cl.id = c.cliente_id JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' LIMIT 1")
      .get() as { cups: string; nif: string; email: string | null; telefono: string | null; iban: string | null }
    const byCups = await results(admin, row.cups)
    expect(byCups).toContainEqual(expect.objectContaining({ kind: 'supplyPoint', group: 'supplyPoints', label: row.cups, path: `/utilidades/sips?cups=${row.cups}` }))
    expect(byCups.some((r) => r.kind === 'contract')).toBe(true)
    const byNif = await results(admin, row.nif.toLowerCase())
    const client = byNif.find((r) => r.kind === 'client')
    expect(client).toMatchObject({ group: 'clients', detail: row.nif, path: `/soluciones/contratos/listado?f.Nif=${row.nif}` })
    for (const r of [...byCups, ...byNif]) {
      const text = `${r.label} ${r.detail ?? ''}`
      for (const secret of [row.email, row.telefono, row.iban]) if (secret) expect(text).not.toContain(secret)
      if (r.kind !== 'client') expect(text).not.toContain(row.nif)
    }
  })

  it('finds users (admin only) and agents by name', async () => {
    const user = api.db.prepare("SELECT id, nombre FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number; nombre: string }
    const found = await results(admin, user.nombre)
    expect(found).toContainEqual(expect.objectContaining({ kind: 'user', group: 'users', path: `/usuarios/${user.id}` }))
    const agent = api.db.prepare('SELECT codigo, nombre FROM agentes WHERE nivel = 1 LIMIT 1').get() as { codigo: string; nombre: string } | undefined
    if (agent) {
      const agents = await results(admin, agent.nombre.split(' ')[0]!)
      expect(agents.some((r) => r.kind === 'agent' && r.path.startsWith('/agentes/listado?f.Codigo='))).toBe(true)
    }
  })

  it('one failing lookup leaves the others and says which group failed', async () => {
    const agent = api.db.prepare("SELECT a.nombre FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'energiaverde.es' LIMIT 1").get() as { nombre: string }
    const user = { nombre: agent.nombre.split(' ')[0]! }
    await request(bff.app.server).post('/api/__test/faults').set('Cookie', admin).set('X-CSRF', '1').send({ Method: 'GET', Path: '/api/usuarios', Status: 500, Times: 1 }).expect(201)
    const res = await search(admin, user.nombre).expect(200)
    expect(res.headers[SEARCH_UNAVAILABLE_HEADER]).toBe('users')
    const body = res.body as SearchResult[]
    expect(body.some((r) => r.kind === 'user')).toBe(false)
    expect(body.some((r) => r.kind === 'agent')).toBe(true)
    // Gone with the fault: the next search has them again.
    const again = await search(admin, user.nombre).expect(200)
    expect(again.headers[SEARCH_UNAVAILABLE_HEADER]).toBeUndefined()
    expect((again.body as SearchResult[]).some((r) => r.kind === 'agent')).toBe(true)
  })
})
