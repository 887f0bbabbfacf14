import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW, allRows, byNumber, byText, isSorted, listQuery, page, readXlsx } from './business-support'
import type { AgentNode, AgentRow } from '../../schemas/business/agents'

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

const flatten = (nodes: AgentNode[]): AgentNode[] => nodes.flatMap((n) => [n, ...flatten(n.Hijos)])
const depth = (n: AgentNode): number => 1 + Math.max(0, ...n.Hijos.map(depth))
const userId = (email: string) => (api.db.prepare('SELECT id FROM usuarios WHERE email = ?').get(email) as { id: number }).id
const groupId = (name: string) => (api.db.prepare('SELECT id FROM grupos WHERE nombre = ?').get(name) as { id: number }).id

describe('GET /api/agentes', () => {
  it('lists the 40 agents of the brand with their parent, linked user and contract counts', async () => {
    const rows = await allRows<AgentRow>(admin, '/api/agentes')
    expect(rows).toHaveLength(40)
    expect(rows.filter((r) => r.Nivel === 1)).toHaveLength(4)
    expect(rows.filter((r) => r.Nivel === 2)).toHaveLength(12)
    expect(rows.filter((r) => r.Nivel === 3)).toHaveLength(24)
    const byId = new Map(rows.map((r) => [r.Id, r]))
    for (const r of rows) {
      if (r.Nivel === 1) expect(r.AgentePadreId).toBeNull()
      else expect(byId.get(r.AgentePadreId!)!.Nombre).toBe(r.AgentePadre)
      expect(typeof r.Activo).toBe('boolean')
      expect(r.NumContratosActivos).toBeLessThanOrEqual(r.NumContratos)
    }
    const linked = rows.find((r) => r.UsuarioEmail === 'agente@portal.test')!
    expect(linked.Nivel).toBe(2)
    // Contracts are sold by level-3 agents mostly, some level-2, none by agencies.
    const total = (await page(admin, '/api/contract')).TotalCount
    expect(rows.reduce((s, r) => s + r.NumContratos, 0)).toBe(total)
    expect(rows.filter((r) => r.Nivel === 1).every((r) => r.NumContratos === 0)).toBe(true)
    const l3 = rows.filter((r) => r.Nivel === 3).reduce((s, r) => s + r.NumContratos, 0)
    expect(l3 / total).toBeGreaterThan(0.7)
  })

  it('sorts by contract count and name, filters by level, activity and linked user', async () => {
    const sorted = await page<AgentRow>(admin, '/api/agentes', { pageSize: 40, sortColumn: 'NumContratos', sortOrder: 'desc' })
    expect(isSorted(sorted.Items.map((r) => r.NumContratos), 'desc', byNumber)).toBe(true)
    const byCode = await page<AgentRow>(admin, '/api/agentes', { pageSize: 40, sortColumn: 'Codigo', sortOrder: 'desc' })
    expect(isSorted(byCode.Items.map((r) => r.Codigo), 'desc', byText)).toBe(true)
    const level3 = await page<AgentRow>(admin, '/api/agentes', { pageSize: 40, filters: [['Nivel', '3']] })
    expect(level3.TotalCount).toBe(24)
    const active = (await page<AgentRow>(admin, '/api/agentes', { filters: [['Activo', 'true']] })).TotalCount
    const inactive = (await page<AgentRow>(admin, '/api/agentes', { filters: [['Activo', 'false']] })).TotalCount
    expect(active + inactive).toBe(40)
    expect((await admin.get('/api/agentes', listQuery({ filters: [['Activo', 'quizá']] }))).status).toBe(400)
    const mine = await page<AgentRow>(admin, '/api/agentes', { filters: [['UsuarioEmail', 'agente@portal']] })
    expect(mine.TotalCount).toBe(1)
    expect((await admin.get('/api/agentes', listQuery({ sortColumn: 'Password' }))).status).toBe(400)
  })

  it('exports the agents as XLSX', async () => {
    const res = await admin.get('/api/agentes/export', listQuery({ pageSize: -1, filters: [['Nivel', '2']] }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('agentes-2026-11-21.xlsx')
    const { headers, rows } = await readXlsx(res.bytes)
    expect(headers.slice(0, 3)).toEqual(['Código', 'Nombre', 'NIF/CIF'])
    expect(rows).toHaveLength(12)
  })
})

describe('GET /api/agentes/{id}', () => {
  it('answers the agent with its parent, user and children', async () => {
    const [sub] = (await page<AgentRow>(admin, '/api/agentes', { pageSize: 1, filters: [['UsuarioEmail', 'agente@portal.test']] })).Items
    const res = await admin.get<Record<string, any>>(`/api/agentes/${sub!.Id}`)
    expect(res.status).toBe(200)
    expect(res.body.Codigo).toBe(sub!.Codigo)
    expect(res.body.Padre.Nivel).toBe(1)
    expect(res.body.Usuario.Email).toBe('agente@portal.test')
    expect(res.body.Hijos.length).toBeGreaterThan(0)
    expect(res.body.Hijos.every((h: { Nivel: number }) => h.Nivel === 3)).toBe(true)
    expect(res.body.TipoComisionDatos?.Nombre ?? null).toBe(res.body.TipoComision)
  })

  it('answers 404 for an agent of another brand and 400 for a bad id', async () => {
    const [other] = (await page<AgentRow>(admin.forBrand(BRAND_DOMAINS.grupo), '/api/agentes', { pageSize: 1 })).Items
    const res = await admin.get(`/api/agentes/${other!.Id}`)
    expect(res.status).toBe(404)
    expect(res.text).toContain('No existe el agente')
    expect((await admin.get('/api/agentes/abc')).status).toBe(400)
    expect((await admin.get('/api/agentes/0')).status).toBe(400)
  })
})

describe('hierarchy', () => {
  it('GET /api/agentes/jerarquia/{id} answers the subtree of an agency: three levels', async () => {
    const [agency] = (await page<AgentRow>(admin, '/api/agentes', { pageSize: 1, filters: [['Nivel', '1']] })).Items
    const res = await admin.get<AgentNode>(`/api/agentes/jerarquia/${agency!.Id}`)
    expect(res.status).toBe(200)
    expect(res.body.Id).toBe(agency!.Id)
    expect(depth(res.body)).toBe(3)
    const nodes = flatten([res.body])
    expect(nodes).toHaveLength(10)
    const check = (n: AgentNode) => n.Hijos.forEach((h) => (expect(h.Nivel).toBe(n.Nivel + 1), check(h)))
    check(res.body)
    expect((await admin.get('/api/agentes/jerarquia/999999')).status).toBe(404)
  })

  it('loggedUser: an agent user gets its own subtree', async () => {
    const res = await agente.get<AgentNode[]>('/api/agentes/jerarquia/loggedUser')
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(1)
    const root = res.body[0]!
    expect(root.UsuarioId).toBe(userId('agente@portal.test'))
    expect(root.Nivel).toBe(2)
    expect(root.Hijos.length).toBeGreaterThan(0)
    expect(flatten(res.body).every((n) => n.Nivel >= 2)).toBe(true)
  })

  it('loggedUser: a caller without agent gets the whole forest, or the branches leading to the users of the groups', async () => {
    const all = await admin.get<AgentNode[]>('/api/agentes/jerarquia/loggedUser')
    expect(all.body).toHaveLength(4)
    expect(flatten(all.body)).toHaveLength(40)

    const comerciales = groupId('Comerciales')
    const res = await admin.get<AgentNode[]>('/api/agentes/jerarquia/loggedUser', { grupos: `${comerciales}` })
    expect(res.status).toBe(200)
    const nodes = flatten(res.body)
    expect(nodes.length).toBeGreaterThan(0)
    expect(nodes.length).toBeLessThan(40)
    const members = new Set(
      (api.db.prepare('SELECT usuario_id AS id FROM usuario_grupos WHERE grupo_id = ?').all(comerciales) as { id: number }[]).map((r) => r.id),
    )
    // Every leaf is an agent whose user is in the group; the agent user's agent is there.
    const leaves = nodes.filter((n) => n.Hijos.length === 0)
    expect(leaves.every((n) => n.UsuarioId !== null && members.has(n.UsuarioId))).toBe(true)
    expect(nodes.some((n) => n.UsuarioId === userId('agente@portal.test'))).toBe(true)

    const none = await admin.get<AgentNode[]>('/api/agentes/jerarquia/loggedUser', { grupos: `${groupId('Administradores')}` })
    expect(none.body).toEqual([])
    expect((await admin.get('/api/agentes/jerarquia/loggedUser', { grupos: 'uno,dos' })).status).toBe(400)
    const unknown = await admin.get('/api/agentes/jerarquia/loggedUser', { grupos: '9999' })
    expect(unknown.status).toBe(400)
    expect(unknown.text).toBe('El grupo 9999 no existe.')
  })
})

describe('linking users', () => {
  it('asociables: active users not linked to another agent of this brand', async () => {
    const [sub] = (await page<AgentRow>(admin, '/api/agentes', { pageSize: 1, filters: [['UsuarioEmail', 'agente@portal.test']] })).Items
    const res = await admin.get<{ Id: number; Email: string; AsociadoAEsteAgente: boolean }[]>(`/api/agentes/${sub!.Id}/usuarios/asociables`)
    expect(res.status).toBe(200)
    const linkedElsewhere = new Set(
      (
        api.db
          .prepare("SELECT usuario_id AS id FROM agentes WHERE marca_id = (SELECT id FROM marcas WHERE dominio = 'energiaverde.es') AND usuario_id IS NOT NULL AND id <> ?")
          .all(sub!.Id) as { id: number }[]
      ).map((r) => r.id),
    )
    const inactive = new Set((api.db.prepare('SELECT id FROM usuarios WHERE activo = 0').all() as { id: number }[]).map((r) => r.id))
    expect(res.body.length).toBeGreaterThan(0)
    expect(res.body.some((u) => linkedElsewhere.has(u.Id) || inactive.has(u.Id))).toBe(false)
    const own = res.body.find((u) => u.Email === 'agente@portal.test')!
    expect(own.AsociadoAEsteAgente).toBe(true)
    expect(res.body.filter((u) => u.AsociadoAEsteAgente)).toHaveLength(1)
    expect((await admin.get('/api/agentes/999999/usuarios/asociables')).status).toBe(404)
  })

  it('asociar and remove need GESTORACCESS', async () => {
    const [free] = (await page<AgentRow>(admin, '/api/agentes', { pageSize: 1 })).Items
    expect((await agente.post('/api/agentes/usuarios/asociar', { IdAgente: free!.Id, IdUser: userId('admin@portal.test') })).status).toBe(403)
    expect((await agente.post('/api/agentes/usuarios/asociar/remove', { IdAgente: free!.Id })).status).toBe(403)
  })

  it('links a free user to a free agent, unlinks it, and refuses conflicts with Spanish messages', async () => {
    const rows = await allRows<AgentRow>(admin, '/api/agentes')
    const freeAgent = rows.find((r) => r.UsuarioId === null && r.Nivel === 3)!
    const linkedAgent = rows.find((r) => r.UsuarioEmail === 'agente@portal.test')!
    const adminId = userId('admin@portal.test')

    let res = await admin.post<Record<string, any>>('/api/agentes/usuarios/asociar', { IdAgente: freeAgent.Id, IdUser: adminId })
    expect(res.status).toBe(200)
    expect(res.body.Usuario.Email).toBe('admin@portal.test')
    expect(res.body.UsuarioId).toBe(adminId)
    // The same link again is fine.
    expect((await admin.post('/api/agentes/usuarios/asociar', { IdAgente: freeAgent.Id, IdUser: String(adminId) })).status).toBe(200)

    // The user is already linked to an agent of this brand.
    const other = rows.find((r) => r.UsuarioId === null && r.Id !== freeAgent.Id)!
    res = await admin.post('/api/agentes/usuarios/asociar', { IdAgente: other.Id, IdUser: adminId })
    expect(res.status).toBe(409)
    expect(res.text).toContain(`ya está asociado al agente ${freeAgent.Codigo}`)
    // The agent already has another user.
    res = await admin.post('/api/agentes/usuarios/asociar', { IdAgente: linkedAgent.Id, IdUser: adminId })
    expect(res.status).toBe(409)
    expect(res.text).toContain('desasócialo antes')
    // An inactive user.
    const inactive = api.db.prepare('SELECT id FROM usuarios WHERE activo = 0 LIMIT 1').get() as { id: number } | undefined
    if (inactive) {
      res = await admin.post('/api/agentes/usuarios/asociar', { IdAgente: other.Id, IdUser: inactive.id })
      expect(res.status).toBe(409)
      expect(res.text).toContain('desactivado')
    }
    // Unknown or foreign agent, unknown user, bad body.
    const [foreign] = (await page<AgentRow>(admin.forBrand(BRAND_DOMAINS.limpia), '/api/agentes', { pageSize: 1 })).Items
    expect((await admin.post('/api/agentes/usuarios/asociar', { IdAgente: foreign!.Id, IdUser: adminId })).status).toBe(404)
    expect((await admin.post('/api/agentes/usuarios/asociar', { IdAgente: other.Id, IdUser: 999999 })).status).toBe(404)
    res = await admin.post('/api/agentes/usuarios/asociar', { IdAgente: 'x', IdUser: adminId })
    expect(res.status).toBe(400)
    expect(res.text).toContain('IdAgente')
    expect((await admin.post('/api/agentes/usuarios/asociar', { IdAgente: other.Id })).status).toBe(400)
    expect((await admin.post('/api/agentes/usuarios/asociar', [1, 2])).status).toBe(400)

    // The link shows in the caller's session of this brand only, and the admin now sees its agent's subtree as its hierarchy.
    const session = await admin.get<{ Agente: { Id: number } | null }>('/api/auth/session')
    expect(session.body.Agente?.Id).toBe(freeAgent.Id)
    const mine = await admin.get<AgentNode[]>('/api/agentes/jerarquia/loggedUser')
    expect(mine.body.map((n) => n.Id)).toEqual([freeAgent.Id])

    res = await admin.post<Record<string, any>>('/api/agentes/usuarios/asociar/remove', { IdAgente: freeAgent.Id })
    expect(res.status).toBe(200)
    expect(res.body.Usuario).toBeNull()
    res = await admin.post('/api/agentes/usuarios/asociar/remove', { IdAgente: freeAgent.Id })
    expect(res.status).toBe(409)
    expect(res.text).toContain('no tiene ningún usuario asociado')
    expect((await admin.post('/api/agentes/usuarios/asociar/remove', { IdAgente: 999999 })).status).toBe(404)
    expect((await admin.post('/api/agentes/usuarios/asociar/remove', {})).status).toBe(400)
  })
})
