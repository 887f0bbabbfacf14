import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ESTADOS, estadoByCodigo, sqlCase, sqlEstadoNombre, sqlTarifaCodigo } from '../../lib/catalogos'
import { brandPrefix, parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { pagedList, parsePageRequest, type ColumnMap, type Filter } from '../../lib/paging'
import { agentSubtreeIds, scopeConditions, type Scope } from '../../lib/visibility'
import { ESTADOS_PAGO } from '../business/invoices'
import { isoDayParam, selectList, visibleContract } from '../business/shared'
import { OMIE_DESDE, omiePrices, slotsPerDay, ultimaFechaOmie } from '../../domain/omie'
import { madridToday } from '../../domain/calendar'
import { validateCups } from '../../domain/identifiers'
import { sipsInfo } from '../../domain/sips'

/**
 * The public integration API (`/api/public/v1/…`) behind the portal's API Test console. The
 * access hook authenticates `X-Api-Key` on every `/api/public/*` path (401 otherwise), records
 * the key's last use and sets `request.apiCaller`; each call here checks its permission (403)
 * and limits business data to the agent linked to the API user in this brand (its subtree),
 * or the whole brand when there is none. `GET /api/public/v1/me` lives in
 * routes/admin/public-api.ts.
 */

export interface ParametroApi {
  Nombre: string
  En: 'query' | 'path'
  Tipo: 'string' | 'integer' | 'date'
  Requerido: boolean
  Descripcion: string
  Ejemplo: string | number
}

export interface LlamadaApi {
  Id: string
  Metodo: 'GET'
  Ruta: string
  Descripcion: string
  Permiso: string | null
  Parametros: ParametroApi[]
}

/** Examples the console can use as they are: taken from the brand's data the key may see. */
interface Ejemplos {
  codigo: string
  cups: string
  codigoConFacturas: string
  fecha: string
}

function catalogo(e: Ejemplos): LlamadaApi[] {
  return [
    {
      Id: 'catalogo',
      Metodo: 'GET',
      Ruta: '/api/public/v1',
      Descripcion: 'Este catálogo: las llamadas de la API pública, sus parámetros y el permiso que necesita cada una.',
      Permiso: null,
      Parametros: [],
    },
    {
      Id: 'me',
      Metodo: 'GET',
      Ruta: '/api/public/v1/me',
      Descripcion: 'El usuario de API de la clave, la clave usada, sus permisos, la marca y el agente asociado en ella.',
      Permiso: null,
      Parametros: [],
    },
    {
      Id: 'contratos',
      Metodo: 'GET',
      Ruta: '/api/public/v1/contratos',
      Descripcion: 'Contratos de la marca (o de la red del agente asociado al usuario de API), paginados y del alta más reciente a la más antigua.',
      Permiso: 'APICONTRATOSLECTURA',
      Parametros: [
        { Nombre: 'pageIndex', En: 'query', Tipo: 'integer', Requerido: false, Descripcion: 'Página, desde 0 (por defecto 0).', Ejemplo: 0 },
        { Nombre: 'pageSize', En: 'query', Tipo: 'integer', Requerido: false, Descripcion: 'Contratos por página, de 1 a 500 (por defecto 10).', Ejemplo: 10 },
        { Nombre: 'estado', En: 'query', Tipo: 'string', Requerido: false, Descripcion: `Estado o lista de estados separados por comas (${ESTADOS.map((s) => s.Codigo).join(', ')}).`, Ejemplo: 'activo' },
      ],
    },
    {
      Id: 'contrato',
      Metodo: 'GET',
      Ruta: '/api/public/v1/contratos/{codigo}',
      Descripcion: 'Un contrato: titular, CUPS, tarifa, potencias, estado y fechas.',
      Permiso: 'APICONTRATOSLECTURA',
      Parametros: [{ Nombre: 'codigo', En: 'path', Tipo: 'string', Requerido: true, Descripcion: 'Código del contrato (PP-AAAA-NNNNNN).', Ejemplo: e.codigo }],
    },
    {
      Id: 'sips',
      Metodo: 'GET',
      Ruta: '/api/public/v1/sips',
      Descripcion: 'Información del punto de suministro en el SIPS: distribuidora, tarifa de acceso, potencias, equipo de medida y consumos.',
      Permiso: 'APISIPS',
      Parametros: [{ Nombre: 'cups', En: 'query', Tipo: 'string', Requerido: true, Descripcion: 'CUPS de 20 o 22 caracteres.', Ejemplo: e.cups }],
    },
    {
      Id: 'facturas',
      Metodo: 'GET',
      Ruta: '/api/public/v1/facturas',
      Descripcion: 'Facturas de un contrato, de la más reciente a la más antigua: número, periodo, importe y estado de pago.',
      Permiso: 'APIFACTURAS',
      Parametros: [{ Nombre: 'codigoContrato', En: 'query', Tipo: 'string', Requerido: true, Descripcion: 'Código del contrato (PP-AAAA-NNNNNN).', Ejemplo: e.codigoConFacturas }],
    },
    {
      Id: 'precios-omie',
      Metodo: 'GET',
      Ruta: '/api/public/v1/precios/omie',
      Descripcion: 'Precios del mercado diario de OMIE (España) de un día, en €/MWh: horarios hasta el 30/09/2025 y cuartohorarios desde el 01/10/2025.',
      Permiso: null,
      Parametros: [{ Nombre: 'fecha', En: 'query', Tipo: 'date', Requerido: true, Descripcion: 'Día, AAAA-MM-DD (desde 2023-01-01 hasta el último publicado).', Ejemplo: e.fecha }],
    },
  ]
}

/** The business data an API user sees in this brand: its linked agent's subtree, or the whole brand. */
export function apiScope(db: ApiContext['db'], request: FastifyRequest): Scope {
  const marcaId = request.marca.id
  const link = db.prepare('SELECT agente_id FROM api_usuario_agentes WHERE api_usuario_id = ? AND marca_id = ?').get(request.apiCaller!.apiUserId, marcaId) as
    | { agente_id: number }
    | undefined
  if (!link) return { marcaId, agenteId: null, agentIds: null }
  return { marcaId, agenteId: link.agente_id, agentIds: agentSubtreeIds(db, link.agente_id, marcaId) }
}

/** 403 unless the key's API user holds the permission. */
function requireApiPermission(request: FastifyRequest, permiso: string): void {
  if (!request.apiCaller?.permissions.some((p) => p.NombreNormalizado === permiso)) fail(403, `La clave no tiene el permiso ${permiso}.`)
}

const CONTRACT_FROM = `FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id`

const CONTRACT_COLUMNS: ColumnMap = {
  CodigoContrato: { sql: 'c.codigo', type: 'text' },
  Estado: { sql: 'c.estado', type: 'enum' },
  Cups: { sql: 'ps.cups', type: 'text' },
  Tarifa: { sql: sqlTarifaCodigo('c.tarifa_id'), type: 'enum' },
  FechaAlta: { sql: 'c.fecha_alta', type: 'date' },
  FechaActivacion: { sql: 'c.fecha_activacion', type: 'date' },
}

function single(value: unknown, name: string): string | undefined {
  if (Array.isArray(value)) fail(400, `El parámetro ${name} debe indicarse una sola vez.`)
  if (value === undefined || value === null) return undefined
  const v = String(value).trim()
  return v === '' ? undefined : v
}

function required(value: unknown, name: string): string {
  const v = single(value, name)
  if (v === undefined) fail(400, `Falta el parámetro ${name}.`)
  return v
}

export async function publicApiV1Routes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  const ejemplos = (request: FastifyRequest): Ejemplos => {
    const { where, params } = scopeConditions(apiScope(db, request))
    const latest = db.prepare(`SELECT c.codigo, ps.cups ${CONTRACT_FROM} WHERE ${where.join(' AND ')} ORDER BY c.fecha_alta DESC, c.codigo DESC LIMIT 1`).get(...params) as
      | { codigo: string; cups: string }
      | undefined
    const invoiced = db
      .prepare(`SELECT c.codigo FROM contratos c WHERE ${where.join(' AND ')} AND EXISTS (SELECT 1 FROM facturas f WHERE f.contrato_id = c.id) ORDER BY c.fecha_alta DESC, c.codigo DESC LIMIT 1`)
      .get(...params) as { codigo: string } | undefined
    const fallback = `${brandPrefix(request.marca.dominio)}-${new Date(now()).getUTCFullYear()}-000001`
    return {
      codigo: latest?.codigo ?? fallback,
      cups: latest?.cups ?? 'ES0021000000000001RK',
      codigoConFacturas: invoiced?.codigo ?? latest?.codigo ?? fallback,
      fecha: madridToday(now()),
    }
  }

  app.get('/api/public/v1', async (request) => catalogo(ejemplos(request)))

  app.get('/api/public/v1/contratos', async (request) => {
    requireApiPermission(request, 'APICONTRATOSLECTURA')
    const query = request.query as Record<string, unknown>
    const page = parsePageRequest(query, CONTRACT_COLUMNS)
    const estado = single(query.estado, 'estado')
    const filters: Filter[] = [...page.filters]
    if (estado !== undefined) {
      const codes = estado.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)
      const unknown = codes.filter((c) => !estadoByCodigo.has(c))
      if (unknown.length) fail(400, `Estado desconocido: «${unknown[0]!.slice(0, 40)}» (${ESTADOS.map((s) => s.Codigo).join(', ')}).`)
      filters.push({ column: 'Estado', query: codes.join(',') })
    }
    const { where, params } = scopeConditions(apiScope(db, request))
    return pagedList(
      db,
      {
        select: `${selectList(CONTRACT_COLUMNS)} ${CONTRACT_FROM}`,
        from: CONTRACT_FROM,
        where,
        whereParams: params,
        columns: CONTRACT_COLUMNS,
        defaultOrder: 'c.fecha_alta DESC, c.codigo DESC',
      },
      { ...page, filters },
    )
  })

  app.get('/api/public/v1/contratos/:codigo', async (request) => {
    requireApiPermission(request, 'APICONTRATOSLECTURA')
    const code = parseContractCode((request.params as Record<string, unknown>).codigo, 'codigo')
    const ref = visibleContract(db, apiScope(db, request), code)
    const row = db
      .prepare(
        `SELECT c.codigo AS CodigoContrato, c.estado AS Estado, ${sqlEstadoNombre('c.estado')} AS EstadoNombre,
           cl.titular AS Titular, cl.nif AS Nif, cl.tipo AS TipoTitular, ps.cups AS Cups, ${sqlTarifaCodigo('c.tarifa_id')} AS Tarifa, c.modalidad AS Modalidad,
           c.potencia_p1 AS P1, c.potencia_p2 AS P2, c.potencia_p3 AS P3, c.potencia_p4 AS P4, c.potencia_p5 AS P5, c.potencia_p6 AS P6,
           c.consumo_anual_kwh AS ConsumoAnual, ps.distribuidora_codigo AS DistribuidoraCodigo, ps.distribuidora_nombre AS DistribuidoraNombre,
           c.fecha_alta AS FechaAlta, c.fecha_firma AS FechaFirma, c.fecha_activacion AS FechaActivacion, c.fecha_baja AS FechaBaja,
           c.fecha_proxima_renovacion AS FechaProximaRenovacion, a.codigo AS AgenteCodigo, a.nombre AS AgenteNombre
         FROM contratos c JOIN clientes cl ON cl.id = c.cliente_id JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
           LEFT JOIN agentes a ON a.id = c.agente_id
         WHERE c.id = ?`,
      )
      .get(ref.id) as Record<string, string | number | null>
    return {
      CodigoContrato: row.CodigoContrato,
      Estado: row.Estado,
      EstadoNombre: row.EstadoNombre,
      Titular: row.Titular,
      Nif: row.Nif,
      TipoTitular: row.TipoTitular,
      Cups: row.Cups,
      Distribuidora: { Codigo: row.DistribuidoraCodigo, Nombre: row.DistribuidoraNombre },
      Tarifa: row.Tarifa,
      Modalidad: row.Modalidad,
      Potencias: { P1: row.P1, P2: row.P2, P3: row.P3, P4: row.P4, P5: row.P5, P6: row.P6 },
      ConsumoAnual: row.ConsumoAnual,
      FechaAlta: row.FechaAlta,
      FechaFirma: row.FechaFirma,
      FechaActivacion: row.FechaActivacion,
      FechaBaja: row.FechaBaja,
      FechaProximaRenovacion: row.FechaProximaRenovacion,
      Agente: row.AgenteCodigo === null ? null : { Codigo: row.AgenteCodigo, Nombre: row.AgenteNombre },
    }
  })

  app.get('/api/public/v1/facturas', async (request) => {
    requireApiPermission(request, 'APIFACTURAS')
    const query = request.query as Record<string, unknown>
    const code = parseContractCode(single(query.codigoContrato, 'codigoContrato'), 'codigoContrato')
    const ref = visibleContract(db, apiScope(db, request), code)
    return db
      .prepare(
        `SELECT f.numero AS Numero, f.periodo_desde AS PeriodoDesde, f.periodo_hasta AS PeriodoHasta, f.fecha_emision AS FechaEmision,
           f.fecha_vencimiento AS FechaVencimiento, f.consumo_kwh AS ConsumoKwh, f.base_imponible AS BaseImponible, f.iva AS Iva,
           f.total AS ImporteTotal, f.estado_pago AS EstadoPago, ${sqlCase('f.estado_pago', ESTADOS_PAGO)} AS EstadoPagoNombre, f.fecha_cobro AS FechaCobro
         FROM facturas f WHERE f.contrato_id = ? ORDER BY f.fecha_emision DESC, f.numero DESC`,
      )
      .all(ref.id)
  })

  app.get('/api/public/v1/precios/omie', async (request) => {
    const fecha = isoDayParam(required((request.query as Record<string, unknown>).fecha, 'fecha'), 'fecha')
    const ultima = ultimaFechaOmie(now())
    if (fecha < OMIE_DESDE || fecha > ultima) fail(404, `No hay precios de OMIE del ${fecha}: hay desde el ${OMIE_DESDE} hasta el ${ultima}.`)
    const precios = omiePrices(fecha, fecha)
    const values = precios.map((p) => p.PrecioMwh)
    const round2 = (v: number) => Math.round(v * 100) / 100
    return {
      Fecha: fecha,
      Unidad: '€/MWh',
      Resolucion: slotsPerDay(fecha) === 96 ? 'cuartohoraria' : 'horaria',
      Media: round2(values.reduce((s, v) => s + v, 0) / values.length),
      Minimo: Math.min(...values),
      Maximo: Math.max(...values),
      Precios: precios,
    }
  })

  app.get('/api/public/v1/sips', async (request) => {
    requireApiPermission(request, 'APISIPS')
    const raw = required((request.query as Record<string, unknown>).cups, 'cups')
    if (raw.length > 64) fail(400, 'El parámetro cups no puede tener más de 64 caracteres.')
    const v = validateCups(raw)
    if (!v.valid) fail(400, `El CUPS ${v.normalized} no es válido: ${v.reason}`)
    // SIPS is the national registry: any valid CUPS of a known distributor, whatever its brand.
    const info = sipsInfo(db, v.normalized, now())
    // (the same message as GET /api/sips/info)
    if (!info) fail(404, `No hay datos del SIPS para el CUPS ${v.normalized}: la distribuidora ${v.normalized.slice(2, 6)} no es conocida.`)
    return info
  })
}
