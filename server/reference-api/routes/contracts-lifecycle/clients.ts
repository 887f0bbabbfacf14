import type Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { validateNif } from '../../domain/identifiers'
import { provinciaById, sqlEstadoNombre, sqlTarifaCodigo } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { callerScope, scopeConditions, type Scope } from '../../lib/visibility'
import { positiveInt } from '../business/shared'
import { identifierParam } from './validators'

interface ClientRow {
  id: number
  tipo: 'fisica' | 'juridica'
  nif: string
  nombre: string | null
  apellido1: string | null
  apellido2: string | null
  razon_social: string | null
  forma_juridica: string | null
  titular: string
  email: string | null
  telefono: string | null
  direccion: string
  codigo_postal: string
  municipio: string
  provincia_id: number
  iban: string | null
  fecha_alta: string
}

/**
 * A client of the brand as the client calls answer it, with its supply points and contracts.
 * A sales channel sees a client only through the contracts of its subtree (and only those,
 * and the supply points they are on); null when the caller may not see it.
 */
export function clientAnswer(db: Database.Database, scope: Scope, client: ClientRow): Record<string, unknown> | null {
  const { where, params } = scopeConditions(scope)
  const contratos = db
    .prepare(
      `SELECT c.id AS Id, c.codigo AS CodigoContrato, c.estado AS Estado, ${sqlEstadoNombre('c.estado')} AS EstadoNombre, ps.cups AS Cups,
         ${sqlTarifaCodigo('c.tarifa_id')} AS Tarifa, c.fecha_alta AS FechaAlta, c.fecha_activacion AS FechaActivacion, c.fecha_baja AS FechaBaja,
         c.punto_suministro_id AS punto
       FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
       WHERE c.cliente_id = ? AND ${where.join(' AND ')}
       ORDER BY c.fecha_alta DESC, c.codigo DESC`,
    )
    .all(client.id, ...params) as ({ punto: number } & Record<string, unknown>)[]
  if (scope.agentIds !== null && contratos.length === 0) return null
  const visiblePoints = new Set(contratos.map((c) => c.punto))
  const puntos = (
    db
      .prepare(
        `SELECT ps.id AS Id, ps.cups AS Cups, ps.direccion AS Direccion, ps.codigo_postal AS CodigoPostal, ps.municipio AS Municipio,
           ps.provincia_id AS ProvinciaId, ps.distribuidora_codigo AS DistribuidoraCodigo, ps.distribuidora_nombre AS Distribuidora,
           ps.tarifa_id AS TarifaId, ${sqlTarifaCodigo('ps.tarifa_id')} AS Tarifa, ps.cnae AS Cnae
         FROM puntos_suministro ps WHERE ps.cliente_id = ? AND ps.marca_id = ? ORDER BY ps.cups`,
      )
      .all(client.id, scope.marcaId) as ({ Id: number; ProvinciaId: number } & Record<string, unknown>)[]
  )
    .filter((p) => scope.agentIds === null || visiblePoints.has(p.Id))
    .map((p) => ({ ...p, Provincia: provinciaById.get(p.ProvinciaId)?.Nombre ?? null }))
  return {
    Id: client.id,
    Tipo: client.tipo,
    Nif: client.nif,
    Nombre: client.nombre,
    Apellido1: client.apellido1,
    Apellido2: client.apellido2,
    RazonSocial: client.razon_social,
    FormaJuridica: client.forma_juridica,
    NombreCompleto: client.titular,
    Email: client.email,
    Telefono: client.telefono,
    Direccion: client.direccion,
    CodigoPostal: client.codigo_postal,
    Municipio: client.municipio,
    ProvinciaId: client.provincia_id,
    Provincia: provinciaById.get(client.provincia_id)?.Nombre ?? null,
    Iban: client.iban,
    FechaAlta: client.fecha_alta,
    PuntosSuministro: puntos,
    Contratos: contratos.map(({ punto: _punto, ...c }) => c),
  }
}

const CLIENT_COLUMNS = `id, tipo, nif, nombre, apellido1, apellido2, razon_social, forma_juridica, titular, email, telefono, direccion,
  codigo_postal, municipio, provincia_id, iban, fecha_alta`

/** `GET /api/client?identificador=` and `GET /api/client-id?id=` (spec §7, Clients). */
export async function clientRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db } = opts
  const byNif = db.prepare(`SELECT ${CLIENT_COLUMNS} FROM clientes WHERE marca_id = ? AND nif = ?`)
  const byId = db.prepare(`SELECT ${CLIENT_COLUMNS} FROM clientes WHERE marca_id = ? AND id = ?`)

  app.get('/api/client', async (request) => {
    const raw = identifierParam(request.query, 'identificador')
    const v = validateNif(raw)
    if (!v.valid) fail(400, `El identificador ${v.normalized || raw.trim()} no es válido: ${v.reason}`)
    const scope = callerScope(db, request)
    const row = byNif.get(scope.marcaId, v.normalized) as ClientRow | undefined
    const answer = row ? clientAnswer(db, scope, row) : null
    if (!answer) fail(404, `No existe ningún cliente con el identificador ${v.normalized}.`)
    return answer
  })

  app.get('/api/client-id', async (request) => {
    const id = positiveInt((request.query as Record<string, unknown>).id, 'id')
    const scope = callerScope(db, request)
    const row = byId.get(scope.marcaId, id) as ClientRow | undefined
    const answer = row ? clientAnswer(db, scope, row) : null
    if (!answer) fail(404, `No existe ningún cliente con el id ${id}.`)
    return answer
  })
}
