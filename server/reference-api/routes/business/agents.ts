import type { FastifyInstance } from 'fastify'
import { requirePermission } from '../../auth/access-hooks'
import { TIPOS_COMISION, provinciaById, sqlProvinciaNombre, sqlTipoComisionNombre, tipoRef } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { iterateList, pagedList, parsePageRequest, type ColumnMap, type ListQuery } from '../../lib/paging'
import { XLSX_FORMATS, exportFileName, sendXlsx, type XlsxColumn } from '../../lib/xlsx'
import { bodyObject, positiveInt, selectList } from './shared'
import { checkEmail, checkPhone } from '../admin/input'
import { validateNif } from '../../domain/identifiers'
import { assertCurrentVersion, sendVersioned } from '../../lib/record-version'

/** The editable data of an agent from a body shaped as its GET: a Spanish 400 on the first bad field. */
function parseAgentEdit(body: Record<string, unknown>) {
  const text = (key: string, label: string, max: number, required: boolean): string | null => {
    const v = body[key]
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (required) fail(400, `${key}: Falta ${label}.`)
      return null
    }
    if (typeof v !== 'string') fail(400, `${key}: ${label.charAt(0).toUpperCase()}${label.slice(1)} debe ser un texto.`)
    const t = v.trim().replace(/\s+/g, ' ')
    if (t.length > max) fail(400, `${key}: ${label.charAt(0).toUpperCase()}${label.slice(1)} no puede tener más de ${max} caracteres.`)
    return t
  }
  const optionalId = (key: string, label: string): number | null => {
    const v = body[key]
    return v === undefined || v === null || v === '' ? null : positiveInt(v, `${key} (${label})`)
  }
  const nombre = text('Nombre', 'el nombre del agente', 150, true)!
  const nif = validateNif(text('Nif', 'el NIF del agente', 64, true)!)
  if (!nif.valid) fail(400, `Nif: ${nif.reason ?? 'El NIF no es válido.'}`)
  const email = checkEmail(text('Email', 'el correo electrónico del agente', 254, true)!)
  const telefono = checkPhone(text('Telefono', 'el teléfono del agente', 30, true))!
  const provincia_id = optionalId('ProvinciaId', 'la provincia')
  if (provincia_id !== null && !provinciaById.has(provincia_id)) fail(400, `ProvinciaId: La provincia ${provincia_id} no existe (1 a 52).`)
  const tipo_comision_id = optionalId('TipoComisionId', 'el tipo de comisión')
  if (tipo_comision_id !== null && !TIPOS_COMISION.some((t) => t.Id === tipo_comision_id)) fail(400, `TipoComisionId: El tipo de comisión ${tipo_comision_id} no existe.`)
  return { nombre, nif: nif.normalized, email, telefono, provincia_id, tipo_comision_id }
}

const AGENT_FROM = `FROM agentes a
  LEFT JOIN agentes p ON p.id = a.padre_id
  LEFT JOIN usuarios u ON u.id = a.usuario_id`

export const AGENT_COLUMNS: ColumnMap = {
  Id: { sql: 'a.id', type: 'number' },
  Codigo: { sql: 'a.codigo', type: 'text' },
  Nombre: { sql: 'a.nombre', type: 'text' },
  Nif: { sql: 'a.nif', type: 'text' },
  Email: { sql: 'a.email', type: 'text' },
  Telefono: { sql: 'a.telefono', type: 'text' },
  Nivel: { sql: 'a.nivel', type: 'enum' },
  AgentePadreId: { sql: 'a.padre_id', type: 'enum' },
  AgentePadre: { sql: 'p.nombre', type: 'text' },
  ProvinciaId: { sql: 'a.provincia_id', type: 'enum' },
  Provincia: { sql: sqlProvinciaNombre('a.provincia_id'), type: 'text' },
  UsuarioId: { sql: 'a.usuario_id', type: 'enum' },
  UsuarioEmail: { sql: 'u.email', type: 'text' },
  TipoComisionId: { sql: 'a.tipo_comision_id', type: 'enum' },
  TipoComision: { sql: sqlTipoComisionNombre('a.tipo_comision_id'), type: 'text' },
  Activo: { sql: 'a.activo', type: 'boolean' },
  FechaAlta: { sql: 'a.fecha_alta', type: 'date' },
  NumContratos: { sql: '(SELECT COUNT(*) FROM contratos c WHERE c.agente_id = a.id)', type: 'number' },
  NumContratosActivos: { sql: "(SELECT COUNT(*) FROM contratos c WHERE c.agente_id = a.id AND c.estado IN ('activo', 'modificacion_en_curso'))", type: 'number' },
}

function agentList(marcaId: number, extraWhere: string[] = [], extraParams: unknown[] = []): ListQuery {
  return {
    select: `${selectList(AGENT_COLUMNS)} ${AGENT_FROM}`,
    from: AGENT_FROM,
    where: ['a.marca_id = ?', ...extraWhere],
    whereParams: [marcaId, ...extraParams],
    columns: AGENT_COLUMNS,
    defaultOrder: 'a.codigo ASC',
  }
}

type AgentRow = Record<keyof typeof AGENT_COLUMNS, unknown>

const EXPORT_COLUMNS: XlsxColumn<AgentRow>[] = [
  { header: 'Código', value: 'Codigo', width: 11 },
  { header: 'Nombre', value: 'Nombre', width: 36 },
  { header: 'NIF/CIF', value: 'Nif', width: 12 },
  { header: 'Email', value: 'Email', width: 36 },
  { header: 'Teléfono', value: 'Telefono', width: 12 },
  { header: 'Nivel', value: 'Nivel', format: XLSX_FORMATS.integer, width: 7 },
  { header: 'Agente padre', value: 'AgentePadre', width: 36 },
  { header: 'Provincia', value: 'Provincia', width: 18 },
  { header: 'Usuario asociado', value: 'UsuarioEmail', width: 32 },
  { header: 'Tipo de comisión', value: 'TipoComision', width: 26 },
  { header: 'Activo', value: (r) => (r.Activo ? 'Sí' : 'No'), width: 8 },
  { header: 'Fecha de alta', value: 'FechaAlta', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Contratos', value: 'NumContratos', format: XLSX_FORMATS.integer, width: 11 },
  { header: 'Contratos activos', value: 'NumContratosActivos', format: XLSX_FORMATS.integer, width: 11 },
]

export interface AgentNode {
  Id: number
  Codigo: string
  Nombre: string
  Nivel: number
  Activo: boolean
  UsuarioId: number | null
  UsuarioEmail: string | null
  NumContratos: number
  Hijos: AgentNode[]
}

interface FlatAgent {
  id: number
  codigo: string
  nombre: string
  nivel: number
  activo: number
  padre_id: number | null
  usuario_id: number | null
  usuario_email: string | null
  num_contratos: number
}

const asBool = (row: AgentRow) => ({ ...row, Activo: row.Activo === 1 })

/** Agents, their hierarchy and their link to a portal user (spec §7). */
export async function agentRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  const flat = db.prepare(`
    SELECT a.id, a.codigo, a.nombre, a.nivel, a.activo, a.padre_id, a.usuario_id, u.email AS usuario_email,
      (SELECT COUNT(*) FROM contratos c WHERE c.agente_id = a.id) AS num_contratos
    FROM agentes a LEFT JOIN usuarios u ON u.id = a.usuario_id WHERE a.marca_id = ? ORDER BY a.codigo`)
  const linkedAgent = db.prepare('SELECT id FROM agentes WHERE usuario_id = ? AND marca_id = ?')

  /** The brand's agents as trees (roots: agents without a parent in the brand). */
  const forest = (marcaId: number) => {
    const rows = flat.all(marcaId) as FlatAgent[]
    const nodes = new Map<number, AgentNode>()
    for (const r of rows) {
      nodes.set(r.id, {
        Id: r.id,
        Codigo: r.codigo,
        Nombre: r.nombre,
        Nivel: r.nivel,
        Activo: r.activo === 1,
        UsuarioId: r.usuario_id,
        UsuarioEmail: r.usuario_email,
        NumContratos: r.num_contratos,
        Hijos: [],
      })
    }
    const roots: AgentNode[] = []
    for (const r of rows) {
      const node = nodes.get(r.id)!
      const parent = r.padre_id === null ? undefined : nodes.get(r.padre_id)
      if (parent) parent.Hijos.push(node)
      else roots.push(node)
    }
    return { roots, nodes }
  }

  /** Keeps the nodes that match, or have a matching descendant (`keep` always kept). */
  const prune = (node: AgentNode, matches: (n: AgentNode) => boolean, keep?: AgentNode): AgentNode | null => {
    const children = node.Hijos.map((h) => prune(h, matches)).filter((h): h is AgentNode => h !== null)
    if (node === keep || matches(node) || children.length > 0) return { ...node, Hijos: children }
    return null
  }

  const agentDetail = (marcaId: number, id: number) => {
    const list = agentList(marcaId, ['a.id = ?'], [id])
    const row = db.prepare(`${list.select} WHERE ${list.where!.join(' AND ')}`).get(...list.whereParams!) as AgentRow | undefined
    if (!row) fail(404, `No existe el agente ${id} en esta marca.`)
    const parent = row.AgentePadreId === null ? null : (db.prepare('SELECT id AS Id, codigo AS Codigo, nombre AS Nombre, nivel AS Nivel FROM agentes WHERE id = ?').get(row.AgentePadreId) ?? null)
    const user =
      row.UsuarioId === null
        ? null
        : (db.prepare('SELECT id AS Id, email AS Email, nombre AS Nombre, apellidos AS Apellidos, activo AS Activo FROM usuarios WHERE id = ?').get(row.UsuarioId) as
            | { Id: number; Email: string; Nombre: string; Apellidos: string; Activo: number }
            | undefined)
    const children = db.prepare('SELECT id AS Id, codigo AS Codigo, nombre AS Nombre, nivel AS Nivel, activo AS Activo FROM agentes WHERE padre_id = ? ORDER BY codigo').all(id) as {
      Activo: number
    }[]
    return {
      ...asBool(row),
      TipoComisionDatos: tipoRef(TIPOS_COMISION, row.TipoComisionId as number | null),
      Padre: parent,
      Usuario: user ? { ...user, Activo: user.Activo === 1 } : null,
      Hijos: children.map((c) => ({ ...c, Activo: c.Activo === 1 })),
    }
  }

  app.get('/api/agentes', async (request) => {
    const page = pagedList<AgentRow>(db, agentList(request.marca.id), parsePageRequest(request.query as Record<string, unknown>, AGENT_COLUMNS))
    return { ...page, Items: page.Items.map(asBool) }
  })

  app.get('/api/agentes/export', async (request, reply) => {
    const page = parsePageRequest(request.query as Record<string, unknown>, AGENT_COLUMNS, { allowAll: true })
    return sendXlsx(reply, {
      fileName: exportFileName('agentes', new Date(now())),
      sheetName: 'Agentes',
      columns: EXPORT_COLUMNS,
      rows: iterateList<AgentRow>(db, agentList(request.marca.id), page),
    })
  })

  app.get('/api/agentes/jerarquia/loggedUser', async (request) => {
    const raw = String((request.query as Record<string, unknown>).grupos ?? '').trim()
    const grupos = raw === '' ? [] : raw.split(',').map((g) => positiveInt(g.trim(), 'grupos'))
    for (const g of grupos) {
      if (!db.prepare('SELECT 1 FROM grupos WHERE id = ?').get(g)) fail(400, `El grupo ${g} no existe.`)
    }
    const { roots, nodes } = forest(request.marca.id)
    let matches: ((n: AgentNode) => boolean) | null = null
    if (grupos.length) {
      const inGroups = new Set(
        (
          db.prepare(`SELECT DISTINCT usuario_id AS id FROM usuario_grupos WHERE grupo_id IN (${grupos.map(() => '?').join(', ')})`).all(...grupos) as { id: number }[]
        ).map((r) => r.id),
      )
      matches = (n) => n.UsuarioId !== null && inGroups.has(n.UsuarioId)
    }
    const linked = linkedAgent.get(request.caller!.userId, request.marca.id) as { id: number } | undefined
    const tops = linked ? [nodes.get(linked.id)!] : roots
    if (!matches) return tops
    return tops.map((t) => prune(t, matches, linked ? t : undefined)).filter((t): t is AgentNode => t !== null)
  })

  app.get('/api/agentes/jerarquia/:id', async (request) => {
    const id = positiveInt((request.params as { id: string }).id, 'El identificador de agente')
    const node = forest(request.marca.id).nodes.get(id)
    if (!node) fail(404, `No existe el agente ${id} en esta marca.`)
    return node
  })

  app.get('/api/agentes/:id', async (request, reply) => {
    const id = positiveInt((request.params as { id: string }).id, 'El identificador de agente')
    return sendVersioned(reply, agentDetail(request.marca.id, id))
  })

  app.get('/api/agentes/:id/usuarios/asociables', async (request) => {
    const id = positiveInt((request.params as { id: string }).id, 'El identificador de agente')
    const marcaId = request.marca.id
    if (!db.prepare('SELECT 1 FROM agentes WHERE id = ? AND marca_id = ?').get(id, marcaId)) fail(404, `No existe el agente ${id} en esta marca.`)
    const rows = db
      .prepare(
        `SELECT u.id AS Id, u.email AS Email, u.nombre AS Nombre, u.apellidos AS Apellidos, trim(u.nombre || ' ' || u.apellidos) AS NombreCompleto,
           EXISTS (SELECT 1 FROM agentes a WHERE a.id = ? AND a.usuario_id = u.id) AS AsociadoAEsteAgente
         FROM usuarios u
         WHERE u.activo = 1 AND NOT EXISTS (SELECT 1 FROM agentes a WHERE a.marca_id = ? AND a.usuario_id = u.id AND a.id <> ?)
         ORDER BY u.nombre, u.apellidos, u.id`,
      )
      .all(id, marcaId, id) as { AsociadoAEsteAgente: number }[]
    return rows.map((r) => ({ ...r, AsociadoAEsteAgente: r.AsociadoAEsteAgente === 1 }))
  })

  const gestor = { preHandler: requirePermission('GESTORACCESS') }

  // The agent's own data, the body being the agent as its GET returned it (other fields ignored).
  app.put('/api/agentes/update', gestor, async (request, reply) => {
    const id = positiveInt((request.query as Record<string, unknown>).id, 'El parámetro id (el identificador de agente)')
    const marcaId = request.marca.id
    const next = parseAgentEdit(bodyObject(request.body))
    // Synchronous from the version check to the write: no other save can land in between.
    db.transaction(() => {
      const current = agentDetail(marcaId, id)
      assertCurrentVersion(request, current, `El agente ${String((current as Record<string, unknown>).Codigo)}`)
      db.prepare('UPDATE agentes SET nombre = @nombre, nif = @nif, email = @email, telefono = @telefono, provincia_id = @provincia_id, tipo_comision_id = @tipo_comision_id WHERE id = @id').run({
        ...next,
        id,
      })
    })()
    return sendVersioned(reply, agentDetail(marcaId, id))
  })

  app.post('/api/agentes/usuarios/asociar', gestor, async (request) => {
    const body = bodyObject(request.body)
    const agentId = positiveInt(body.IdAgente, 'IdAgente')
    const userId = positiveInt(body.IdUser, 'IdUser')
    const marcaId = request.marca.id
    const agent = db.prepare('SELECT a.id, a.codigo, a.nombre, a.usuario_id, u.email AS usuario_email FROM agentes a LEFT JOIN usuarios u ON u.id = a.usuario_id WHERE a.id = ? AND a.marca_id = ?').get(agentId, marcaId) as
      | { id: number; codigo: string; nombre: string; usuario_id: number | null; usuario_email: string | null }
      | undefined
    if (!agent) fail(404, `No existe el agente ${agentId} en esta marca.`)
    const user = db.prepare('SELECT id, email, activo FROM usuarios WHERE id = ?').get(userId) as { id: number; email: string; activo: number } | undefined
    if (!user) fail(404, `No existe el usuario ${userId}.`)
    if (agent.usuario_id === user.id) return agentDetail(marcaId, agentId)
    if (!user.activo) fail(409, `El usuario ${user.email} está desactivado: no se puede asociar a un agente.`)
    if (agent.usuario_id !== null) fail(409, `El agente ${agent.codigo} ya está asociado al usuario ${agent.usuario_email}; desasócialo antes.`)
    const other = db.prepare('SELECT codigo, nombre FROM agentes WHERE usuario_id = ? AND marca_id = ?').get(user.id, marcaId) as { codigo: string; nombre: string } | undefined
    if (other) fail(409, `El usuario ${user.email} ya está asociado al agente ${other.codigo} (${other.nombre}) en esta marca.`)
    db.prepare('UPDATE agentes SET usuario_id = ? WHERE id = ?').run(user.id, agent.id)
    return agentDetail(marcaId, agentId)
  })

  app.post('/api/agentes/usuarios/asociar/remove', gestor, async (request) => {
    const body = bodyObject(request.body)
    const agentId = positiveInt(body.IdAgente, 'IdAgente')
    const marcaId = request.marca.id
    const agent = db.prepare('SELECT id, codigo, usuario_id FROM agentes WHERE id = ? AND marca_id = ?').get(agentId, marcaId) as { id: number; codigo: string; usuario_id: number | null } | undefined
    if (!agent) fail(404, `No existe el agente ${agentId} en esta marca.`)
    if (agent.usuario_id === null) fail(409, `El agente ${agent.codigo} no tiene ningún usuario asociado.`)
    db.prepare('UPDATE agentes SET usuario_id = NULL WHERE id = ?').run(agent.id)
    return agentDetail(marcaId, agentId)
  })
}
