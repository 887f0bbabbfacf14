import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { pagedList, parsePageRequest, type ColumnMap } from '../../lib/paging'
import { listKeys } from './api-keys'
import { bodyId, checkEmail, objectBody, optionalBoolean, optionalText, queryId, requiredText } from './input'
import { permissionLinkRoutes } from './permissions'
import { audit, bool, isoNow, permisosOfApiUser, requireIds, today } from './shared'
import { nextId } from '../../lib/next-id'

interface ApiUserRow {
  id: number
  nombre: string
  email: string
  descripcion: string
  activo: number
  fecha_alta: string
  creado_por: number | null
}

function apiUserColumns(marcaId: number): ColumnMap {
  if (!Number.isSafeInteger(marcaId)) throw new Error('marca id')
  const agente = (field: string) =>
    `(SELECT a.${field} FROM api_usuario_agentes l JOIN agentes a ON a.id = l.agente_id WHERE l.api_usuario_id = u.id AND l.marca_id = ${marcaId})`
  return {
    Id: { sql: 'u.id', type: 'number' },
    Nombre: { sql: 'u.nombre', type: 'text' },
    Email: { sql: 'u.email', type: 'text' },
    Descripcion: { sql: 'u.descripcion', type: 'text' },
    Activo: { sql: 'u.activo', type: 'boolean' },
    FechaAlta: { sql: 'u.fecha_alta', type: 'date' },
    NumClaves: { sql: '(SELECT COUNT(*) FROM api_keys k WHERE k.api_usuario_id = u.id)', type: 'number' },
    NumClavesActivas: { sql: '(SELECT COUNT(*) FROM api_keys k WHERE k.api_usuario_id = u.id AND k.activa = 1)', type: 'number' },
    UltimoUso: { sql: '(SELECT MAX(k.ultimo_uso) FROM api_keys k WHERE k.api_usuario_id = u.id)', type: 'date' },
    NumPermisos: { sql: '(SELECT COUNT(*) FROM api_usuario_permisos ap WHERE ap.api_usuario_id = u.id)', type: 'number' },
    AgenteId: { sql: agente('id'), type: 'number' },
    AgenteCodigo: { sql: agente('codigo'), type: 'text' },
    AgenteNombre: { sql: agente('nombre'), type: 'text' },
  }
}

/** `GET api/apiusers/api-user?id`: the API user with permissions, keys, agents and recent activity. */
export function apiUserDetail(db: Database.Database, id: number, marcaId: number, nowMs: number) {
  const row = db.prepare('SELECT * FROM api_usuarios WHERE id = ?').get(id) as ApiUserRow | undefined
  if (!row) fail(404, `El usuario de API ${id} no existe.`)
  const agentes = db
    .prepare(
      `SELECT a.id AS Id, a.codigo AS Codigo, a.nombre AS Nombre, m.id AS MarcaId, m.dominio AS MarcaDominio, m.nombre AS MarcaNombre
       FROM api_usuario_agentes l JOIN agentes a ON a.id = l.agente_id JOIN marcas m ON m.id = l.marca_id
       WHERE l.api_usuario_id = ? ORDER BY m.id`,
    )
    .all(id) as { Id: number; Codigo: string; Nombre: string; MarcaId: number; MarcaDominio: string; MarcaNombre: string }[]
  const here = agentes.find((a) => a.MarcaId === marcaId)
  const creador = row.creado_por === null ? null : ((db.prepare('SELECT email FROM usuarios WHERE id = ?').get(row.creado_por) as { email: string } | undefined)?.email ?? null)
  const actividad = (
    db
      .prepare(
        `SELECT fecha AS Fecha, usuario_email AS Usuario, accion AS Accion, detalle AS Detalle FROM auditoria_admin
         WHERE entidad = 'api_usuario' AND entidad_id = ? ORDER BY id DESC LIMIT 20`,
      )
      .all(String(id)) as { Fecha: string; Usuario: string | null; Accion: string; Detalle: string | null }[]
  ).map((a) => ({ ...a, Detalle: a.Detalle === null ? null : (JSON.parse(a.Detalle) as unknown) }))
  return {
    Id: row.id,
    Nombre: row.nombre,
    Email: row.email,
    Descripcion: row.descripcion,
    Activo: bool(row.activo),
    FechaAlta: row.fecha_alta,
    CreadoPor: creador,
    Permisos: permisosOfApiUser(db, id),
    Claves: listKeys(db, nowMs, id),
    Agente: here ? { Id: here.Id, Codigo: here.Codigo, Nombre: here.Nombre } : null,
    Agentes: agentes,
    Actividad: actividad,
  }
}

const apiUserIdParam = (request: FastifyRequest) => queryId(request.query, ['id', 'Id', 'apiUserId', 'ApiUserId'], 'usuario de API')

/** API users (spec §7 "API users"): list, detail, register, update, delete, permissions and agent link. */
export async function apiUserRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/apiusers/listado-api-user', async (request) => {
    const columns = apiUserColumns(request.marca.id)
    const page = parsePageRequest(request.query as Record<string, unknown>, columns)
    const cols = Object.entries(columns)
      .map(([name, spec]) => `${spec.sql} AS ${name}`)
      .join(', ')
    const result = pagedList<{ Activo: number }>(
      db,
      { select: `SELECT ${cols} FROM api_usuarios u`, from: 'FROM api_usuarios u', columns, defaultOrder: 'u.nombre COLLATE NOCASE, u.id' },
      page,
    )
    return { ...result, Items: result.Items.map((r) => ({ ...r, Activo: bool(r.Activo) })) }
  })

  app.get('/api/apiusers/api-user', async (request) => apiUserDetail(db, apiUserIdParam(request), request.marca.id, now()))

  app.post('/api/apiusers/register-api-user', async (request, reply) => {
    const body = objectBody(request.body)
    const nombre = requiredText(body, 'Nombre', 'el nombre (Nombre)', 100)
    const email = checkEmail(requiredText(body, 'Email', 'el correo electrónico de contacto (Email)', 254))
    const descripcion = optionalText(body, 'Descripcion', 'la descripción (Descripcion)', 500) ?? ''
    const activo = optionalBoolean(body, 'Activo', 'Activo') ?? true
    const id = db.transaction(() => {
      if (db.prepare('SELECT 1 FROM api_usuarios WHERE nombre = ?').get(nombre)) fail(409, `Ya existe un usuario de API llamado «${nombre}».`)
      const apiUserId = Number(
        db
          .prepare('INSERT INTO api_usuarios (id, nombre, email, descripcion, activo, fecha_alta, creado_por) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(nextId(db, 'api_usuarios'), nombre, email, descripcion, activo ? 1 : 0, today(now), request.caller!.userId).lastInsertRowid,
      )
      audit(db, request, now(), { accion: 'api_usuario.alta', entidad: 'api_usuario', entidadId: apiUserId, detalle: { Nombre: nombre, Email: email } })
      return apiUserId
    })()
    return reply.code(201).send(apiUserDetail(db, id, request.marca.id, now()))
  })

  app.put('/api/apiusers/update', async (request) => {
    const id = apiUserIdParam(request)
    const body = objectBody(request.body)
    const nombre = optionalText(body, 'Nombre', 'el nombre (Nombre)', 100)
    const emailText = optionalText(body, 'Email', 'el correo electrónico de contacto (Email)', 254)
    const descripcion = optionalText(body, 'Descripcion', 'la descripción (Descripcion)', 500)
    const activo = optionalBoolean(body, 'Activo', 'Activo')
    if (nombre === null || nombre === '') fail(400, 'El nombre (Nombre) no puede quedar vacío.')
    if (emailText === null || emailText === '') fail(400, 'El correo electrónico de contacto (Email) no puede quedar vacío.')
    const email = emailText === undefined ? undefined : checkEmail(emailText)
    const row = db.prepare('SELECT * FROM api_usuarios WHERE id = ?').get(id) as ApiUserRow | undefined
    if (!row) fail(404, `El usuario de API ${id} no existe.`)
    db.transaction(() => {
      if (nombre !== undefined && db.prepare('SELECT 1 FROM api_usuarios WHERE nombre = ? AND id <> ?').get(nombre, id)) {
        fail(409, `Ya existe un usuario de API llamado «${nombre}».`)
      }
      const next = {
        nombre: nombre ?? row.nombre,
        email: email ?? row.email,
        descripcion: descripcion === undefined ? row.descripcion : (descripcion ?? ''),
        activo: activo === undefined ? row.activo : activo ? 1 : 0,
      }
      db.prepare('UPDATE api_usuarios SET nombre = @nombre, email = @email, descripcion = @descripcion, activo = @activo WHERE id = @id').run({ ...next, id })
      const changed = Object.fromEntries(Object.entries(next).filter(([k, v]) => v !== (row as unknown as Record<string, unknown>)[k]))
      audit(db, request, now(), { accion: 'api_usuario.modificado', entidad: 'api_usuario', entidadId: id, detalle: changed })
    })()
    return apiUserDetail(db, id, request.marca.id, now())
  })

  app.post('/api/apiusers/delete', async (request) => {
    const id = apiUserIdParam(request)
    requireIds(db, 'api_usuarios', [id])
    return db.transaction(() => {
      const nombre = (db.prepare('SELECT nombre FROM api_usuarios WHERE id = ?').get(id) as { nombre: string }).nombre
      const claves = (db.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE api_usuario_id = ?').get(id) as { n: number }).n
      // Keys, permission links and agent links go with it (ON DELETE CASCADE).
      db.prepare('DELETE FROM api_usuarios WHERE id = ?').run(id)
      audit(db, request, now(), { accion: 'api_usuario.baja', entidad: 'api_usuario', entidadId: id, detalle: { Nombre: nombre, ClavesEliminadas: claves } })
      return { Id: id, ClavesEliminadas: claves }
    })()
  })

  app.get('/api/apiusers/permisos', async (request) => {
    const id = apiUserIdParam(request)
    requireIds(db, 'api_usuarios', [id])
    return permisosOfApiUser(db, id)
  })

  permissionLinkRoutes(app, opts, {
    base: '/api/apiusers',
    table: 'api_usuario_permisos',
    column: 'api_usuario_id',
    entity: 'api_usuarios',
    auditEntity: 'api_usuario',
    label: 'usuario de API',
    labelMany: 'usuarios de API',
    answer: (id) => ({ ApiUsuarioId: id, Permisos: permisosOfApiUser(db, id) }),
  })

  const agentOfBrand = (request: FastifyRequest, agentId: number) => {
    const agent = db.prepare('SELECT id AS Id, codigo AS Codigo, nombre AS Nombre FROM agentes WHERE id = ? AND marca_id = ?').get(agentId, request.marca.id) as
      | { Id: number; Codigo: string; Nombre: string }
      | undefined
    if (!agent) fail(404, `El agente ${agentId} no existe en ${request.marca.nombre}.`)
    return agent
  }

  app.post('/api/apiusers/asociar-agente', async (request) => {
    const body = objectBody(request.body)
    const agentId = bodyId(body, 'IdAgente', 'el agente (IdAgente)')
    const apiUserId = bodyId(body, 'ApiUserId', 'el usuario de API (ApiUserId)')
    const agent = agentOfBrand(request, agentId)
    requireIds(db, 'api_usuarios', [apiUserId])
    const marcaId = request.marca.id
    db.transaction(() => {
      const ofAgent = db
        .prepare('SELECT l.api_usuario_id AS id, u.nombre FROM api_usuario_agentes l JOIN api_usuarios u ON u.id = l.api_usuario_id WHERE l.agente_id = ?')
        .get(agentId) as { id: number; nombre: string } | undefined
      if (ofAgent && ofAgent.id === apiUserId) return
      if (ofAgent) fail(409, `El agente ${agent.Codigo} ya está asociado al usuario de API «${ofAgent.nombre}». Desasócialo antes.`)
      const ofUser = db
        .prepare('SELECT a.codigo FROM api_usuario_agentes l JOIN agentes a ON a.id = l.agente_id WHERE l.api_usuario_id = ? AND l.marca_id = ?')
        .get(apiUserId, marcaId) as { codigo: string } | undefined
      if (ofUser) fail(409, `El usuario de API ya está asociado al agente ${ofUser.codigo} en ${request.marca.nombre}. Desasócialo antes.`)
      db.prepare('INSERT INTO api_usuario_agentes (marca_id, api_usuario_id, agente_id, fecha_alta) VALUES (?, ?, ?, ?)').run(marcaId, apiUserId, agentId, isoNow(now))
      audit(db, request, now(), { accion: 'api_usuario.agente_asociado', entidad: 'api_usuario', entidadId: apiUserId, detalle: { IdAgente: agentId, Codigo: agent.Codigo, Marca: request.marca.dominio } })
    })()
    return { ApiUsuarioId: apiUserId, Agente: agent }
  })

  app.post('/api/apiusers/remove-agente', async (request) => {
    const body = objectBody(request.body)
    const agentId = bodyId(body, 'IdAgente', 'el agente (IdAgente)')
    const agent = agentOfBrand(request, agentId)
    const previous = db.transaction(() => {
      const link = db.prepare('SELECT api_usuario_id AS id FROM api_usuario_agentes WHERE agente_id = ?').get(agentId) as { id: number } | undefined
      if (!link) return null
      db.prepare('DELETE FROM api_usuario_agentes WHERE agente_id = ?').run(agentId)
      audit(db, request, now(), { accion: 'api_usuario.agente_desasociado', entidad: 'api_usuario', entidadId: link.id, detalle: { IdAgente: agentId, Codigo: agent.Codigo, Marca: request.marca.dominio } })
      return link.id
    })()
    return { IdAgente: agentId, ApiUsuarioId: previous }
  })
}
