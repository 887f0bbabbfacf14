import type Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { accionesPermitidas } from '../../domain/contract-rules'
import {
  COLECTIVOS,
  ESTADOS,
  ESTADO_NOMBRES,
  PROVINCIA_NOMBRES,
  TARIFA_CODIGOS,
  TIPOS_ALTA,
  TIPOS_COMISION,
  TIPOS_IMPRESION,
  cnaeByCodigo,
  estadoByCodigo,
  isoDate,
  provinciaById,
  sqlEstadoColor,
  sqlEstadoNombre,
  sqlProvinciaNombre,
  sqlTarifaCodigo,
  tarifaById,
  tipoRef,
} from '../../lib/catalogos'
import { CATALOG_INDEXES } from '../../db/catalog-indexes'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { sendVersioned } from '../../lib/record-version'
import type { KeyedJoin } from '../../lib/keyed-page'
import { iterateList, pagedList, parsePageRequest, type ColumnMap, type ListQuery, type PageRequest } from '../../lib/paging'
import { summableOf } from '../../lib/summable-of-call'
import { callerScope, scopeConditions, type Scope } from '../../lib/visibility'
import { XLSX_FORMATS, exportFileName, sendXlsx, type XlsxColumn } from '../../lib/xlsx'
import { situacionPorProvincia } from '../tools/map'
import { isoDayParam, selectList, visibleContract } from './shared'

/** The tables of a contract row: its client and supply point (required), its agent (if any). */
const CONTRACT_JOINS: Record<'cl' | 'ps' | 'a', Omit<KeyedJoin, 'scope'>> = {
  cl: { table: 'clientes', on: 'cl.id = c.cliente_id', required: true },
  ps: { table: 'puntos_suministro', on: 'ps.id = c.punto_suministro_id', required: true },
  a: { table: 'agentes', on: 'a.id = c.agente_id', required: false },
}

export const CONTRACT_FROM = `FROM contratos c ${Object.entries(CONTRACT_JOINS)
  .map(([alias, j]) => `${j.required ? 'JOIN' : 'LEFT JOIN'} ${j.table} ${alias} ON ${j.on}`)
  .join(' ')}`

/** The contract list's columns: JSON field → SQL, type (filter syntax) and whether sortable/filterable. */
export const CONTRACT_COLUMNS: ColumnMap = {
  Id: { sql: 'c.id', type: 'number' },
  // Two letters and a dash only start a code (PP-AAAA-NNNNNN); ES and two digits only start a CUPS.
  CodigoContrato: { sql: 'c.codigo', type: 'text', code: true, anchored: /^[A-Z]{2}-/ },
  Cups: { sql: 'ps.cups', type: 'text', code: true, anchored: /^ES\d{2}/ },
  Titular: { sql: 'cl.titular', type: 'text' },
  Nif: { sql: 'cl.nif', type: 'text', code: true },
  TipoTitular: { sql: 'cl.tipo', type: 'enum' },
  TarifaId: { sql: 'c.tarifa_id', type: 'enum' },
  Tarifa: { sql: sqlTarifaCodigo('c.tarifa_id'), type: 'enum', catalog: { key: 'c.tarifa_id', entries: TARIFA_CODIGOS } },
  Estado: { sql: 'c.estado', type: 'enum' },
  EstadoNombre: { sql: sqlEstadoNombre('c.estado'), type: 'text', catalog: { key: 'c.estado', entries: ESTADO_NOMBRES } },
  EstadoColor: { sql: sqlEstadoColor('c.estado'), type: 'text', sortable: false, filterable: false },
  MotivoRechazo: { sql: 'c.motivo_rechazo', type: 'text' },
  Modalidad: { sql: 'c.modalidad', type: 'enum' },
  FechaAlta: { sql: 'c.fecha_alta', type: 'date' },
  FechaFirma: { sql: 'c.fecha_firma', type: 'date' },
  FechaActivacion: { sql: 'c.fecha_activacion', type: 'date' },
  FechaBaja: { sql: 'c.fecha_baja', type: 'date' },
  FechaProximaRenovacion: { sql: 'c.fecha_proxima_renovacion', type: 'date' },
  AgenteId: { sql: 'c.agente_id', type: 'enum' },
  Agente: { sql: 'a.nombre', type: 'text' },
  AgenteCodigo: { sql: 'a.codigo', type: 'text', code: true },
  ProvinciaId: { sql: 'ps.provincia_id', type: 'enum' },
  Provincia: { sql: sqlProvinciaNombre('ps.provincia_id'), type: 'text', catalog: { key: 'ps.provincia_id', entries: PROVINCIA_NOMBRES, index: CATALOG_INDEXES.puntosProvincia.name } },
  Municipio: { sql: 'ps.municipio', type: 'text' },
  CodigoPostal: { sql: 'ps.codigo_postal', type: 'text', code: true },
  Distribuidora: { sql: 'ps.distribuidora_nombre', type: 'text' },
  Cnae: { sql: 'c.cnae', type: 'text', code: true },
  PotenciaP1: { sql: 'c.potencia_p1', type: 'number' },
  PotenciaP2: { sql: 'c.potencia_p2', type: 'number' },
  ConsumoAnual: { sql: 'c.consumo_anual_kwh', type: 'number' },
}

/**
 * The contract list of a scope. A sort or filter by the agent's name or code looks the agents
 * of the brand up first (a few dozen), so it needs no join per contract.
 */
function contractList(db: Database.Database, scope: Scope, page: PageRequest): ListQuery {
  const { where, params } = scopeConditions(scope)
  let columns = CONTRACT_COLUMNS
  const agentColumns = (['Agente', 'AgenteCodigo'] as const).filter((c) => page.sortColumn === c || page.filters.some((f) => f.column === c))
  if (agentColumns.length) {
    const agents = db.prepare('SELECT id, nombre, codigo FROM agentes WHERE marca_id = ?').all(scope.marcaId) as { id: number; nombre: string; codigo: string }[]
    columns = { ...columns }
    for (const column of agentColumns) {
      const field = column === 'Agente' ? 'nombre' : 'codigo'
      columns[column] = { ...columns[column]!, catalog: { key: 'c.agente_id', entries: agents.map((a) => [a.id, a[field]]) } }
    }
  }
  const brand = (alias: string) => ({ condition: `${alias}.marca_id = ?`, params: [scope.marcaId] })
  return {
    select: `${selectList(CONTRACT_COLUMNS)} ${CONTRACT_FROM}`,
    from: CONTRACT_FROM,
    where,
    whereParams: params,
    columns,
    defaultOrder: 'c.fecha_alta DESC, c.codigo DESC',
    keyed: {
      base: { table: 'contratos', alias: 'c', key: 'c.id', keyField: 'Id' },
      joins: { cl: { ...CONTRACT_JOINS.cl, scope: brand('cl') }, ps: { ...CONTRACT_JOINS.ps, scope: brand('ps') }, a: CONTRACT_JOINS.a },
    },
  }
}

type ContractListRow = Record<keyof typeof CONTRACT_COLUMNS, unknown>

const EXPORT_COLUMNS: XlsxColumn<ContractListRow>[] = [
  { header: 'Código de contrato', value: 'CodigoContrato', width: 18 },
  { header: 'Estado', value: 'EstadoNombre', width: 22 },
  { header: 'Fecha de alta', value: 'FechaAlta', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Fecha de activación', value: 'FechaActivacion', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Fecha de baja', value: 'FechaBaja', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Próxima renovación', value: 'FechaProximaRenovacion', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Titular', value: 'Titular', width: 36 },
  { header: 'NIF/CIF', value: 'Nif', width: 12 },
  { header: 'CUPS', value: 'Cups', width: 24 },
  { header: 'Tarifa', value: 'Tarifa', width: 9 },
  { header: 'Modalidad', value: (r) => (r.Modalidad === 'indexado' ? 'Indexado' : 'Fijo'), width: 11 },
  { header: 'Potencia P1', value: 'PotenciaP1', format: XLSX_FORMATS.power, width: 13 },
  { header: 'Potencia P2', value: 'PotenciaP2', format: XLSX_FORMATS.power, width: 13 },
  { header: 'Consumo anual', value: 'ConsumoAnual', format: XLSX_FORMATS.energy, width: 15 },
  { header: 'Provincia', value: 'Provincia', width: 18 },
  { header: 'Municipio', value: 'Municipio', width: 22 },
  { header: 'Distribuidora', value: 'Distribuidora', width: 30 },
  { header: 'Agente', value: 'Agente', width: 30 },
  { header: 'Código de agente', value: 'AgenteCodigo', width: 12 },
  { header: 'Motivo de rechazo', value: 'MotivoRechazo', width: 40 },
]

interface ContractDetailRow {
  [key: string]: unknown
  id: number
  codigo: string
  estado: string
  tarifa_id: number
  modalidad: string
  cnae: string | null
  tipo_alta_solicitud_id: number | null
  tipo_impresion_factura_id: number | null
  tipo_comision_id: number | null
  colectivo_id: number | null
  cl_provincia_id: number
  ps_provincia_id: number
}

const periods = (row: Record<string, unknown>, prefix: string) => ({
  P1: row[`${prefix}_p1`] ?? null,
  P2: row[`${prefix}_p2`] ?? null,
  P3: row[`${prefix}_p3`] ?? null,
  P4: row[`${prefix}_p4`] ?? null,
  P5: row[`${prefix}_p5`] ?? null,
  P6: row[`${prefix}_p6`] ?? null,
})

/** The first day of the month `months` months before the month of `isoDay`. */
function monthStartBefore(isoDay: string, months: number): string {
  const [y, m] = isoDay.split('-').map(Number) as [number, number]
  const d = new Date(Date.UTC(y, m - 1 - months, 1))
  return d.toISOString().slice(0, 10)
}

const CONTRACT_SUMMABLE = summableOf('contract.list')

/** Contracts: list, export, lookup by code, and aggregates (spec §7). */
export async function contractRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/contract', async (request) => {
    const scope = callerScope(db, request)
    const page = parsePageRequest(request.query as Record<string, unknown>, CONTRACT_COLUMNS)
    return pagedList(db, { ...contractList(db, scope, page), summable: CONTRACT_SUMMABLE }, page)
  })

  app.get('/api/contract/export', async (request, reply) => {
    const scope = callerScope(db, request)
    const page = parsePageRequest(request.query as Record<string, unknown>, CONTRACT_COLUMNS, { allowAll: true })
    return sendXlsx(reply, {
      fileName: exportFileName('contratos', new Date(now())),
      sheetName: 'Contratos',
      columns: EXPORT_COLUMNS,
      rows: iterateList<ContractListRow>(db, contractList(db, scope, page), page),
    })
  })

  const contractDetail = contractDetailLoader(db)

  app.get('/api/contract/id', async (request, reply) => {
    const code = parseContractCode((request.query as Record<string, unknown>).codigo, 'codigo')
    const ref = visibleContract(db, callerScope(db, request), code)
    return sendVersioned(reply, contractDetail(ref.id))
  })

  app.get('/api/contract/situacion-contratos', async (request) => {
    // `?agrupar=provincia`: the per-province aggregate of the maps (routes/tools/map.ts).
    const agrupar = (request.query as Record<string, unknown>).agrupar
    if (agrupar !== undefined && agrupar !== '') return situacionPorProvincia(db, callerScope(db, request), agrupar)
    const { where, params } = scopeConditions(callerScope(db, request))
    const counts = new Map(
      (db.prepare(`SELECT c.estado AS estado, COUNT(*) AS n FROM contratos c WHERE ${where.join(' AND ')} GROUP BY c.estado`).all(...params) as { estado: string; n: number }[]).map(
        (r) => [r.estado, r.n],
      ),
    )
    return ESTADOS.map((e) => ({ Estado: e.Codigo, Nombre: e.Nombre, Color: e.Color, Cantidad: counts.get(e.Codigo) ?? 0 }))
  })

  app.get('/api/contract/cantidad-por-mes', async (request) => {
    const query = request.query as Record<string, unknown>
    const today = isoDate(now())
    const hasta = query.hasta === undefined || query.hasta === '' ? today : isoDayParam(query.hasta, 'hasta')
    // Without desde: the twelve months ending with hasta's.
    const desde = query.desde === undefined || query.desde === '' ? monthStartBefore(hasta, 11) : isoDayParam(query.desde, 'desde')
    if (desde > hasta) fail(400, `La fecha desde (${desde}) es posterior a hasta (${hasta}).`)
    const months: string[] = []
    let [y, m] = desde.split('-').map(Number) as [number, number]
    const last = hasta.slice(0, 7)
    for (;;) {
      const key = `${y}-${String(m).padStart(2, '0')}`
      if (key > last) break
      months.push(key)
      if (months.length > 120) fail(400, 'El intervalo no puede superar los 10 años.')
      m = m === 12 ? 1 : m + 1
      if (m === 1) y++
    }
    const { where, params } = scopeConditions(callerScope(db, request))
    const counts = new Map(
      (
        db
          .prepare(`SELECT substr(c.fecha_alta, 1, 7) AS mes, COUNT(*) AS n FROM contratos c WHERE ${where.join(' AND ')} AND c.fecha_alta BETWEEN ? AND ? GROUP BY mes`)
          .all(...params, desde, hasta) as { mes: string; n: number }[]
      ).map((r) => [r.mes, r.n]),
    )
    return months.map((Mes) => ({ Mes, Cantidad: counts.get(Mes) ?? 0 }))
  })
}

/**
 * The contract detail of `GET /api/contract/id` (also the answer of the life-cycle calls that
 * change a contract). The caller must have checked visibility.
 */
export function contractDetailLoader(db: Database.Database): (id: number) => Record<string, unknown> {
  const detail = db.prepare(`
    SELECT c.*, ${sqlEstadoNombre('c.estado')} AS estado_nombre, ${sqlEstadoColor('c.estado')} AS estado_color,
      cl.id AS cl_id, cl.tipo AS cl_tipo, cl.nif AS cl_nif, cl.nombre AS cl_nombre, cl.apellido1 AS cl_apellido1, cl.apellido2 AS cl_apellido2,
      cl.razon_social AS cl_razon_social, cl.forma_juridica AS cl_forma_juridica, cl.titular AS cl_titular, cl.email AS cl_email,
      cl.telefono AS cl_telefono, cl.direccion AS cl_direccion, cl.codigo_postal AS cl_codigo_postal, cl.municipio AS cl_municipio,
      cl.provincia_id AS cl_provincia_id, cl.iban AS cl_iban, cl.fecha_alta AS cl_fecha_alta,
      ps.id AS ps_id, ps.cups AS ps_cups, ps.direccion AS ps_direccion, ps.codigo_postal AS ps_codigo_postal, ps.municipio AS ps_municipio,
      ps.provincia_id AS ps_provincia_id, ps.distribuidora_codigo AS ps_distribuidora_codigo, ps.distribuidora_nombre AS ps_distribuidora_nombre,
      ps.tarifa_id AS ps_tarifa_id, ps.cnae AS ps_cnae,
      a.codigo AS a_codigo, a.nombre AS a_nombre, a.nivel AS a_nivel, a.email AS a_email, a.telefono AS a_telefono,
      trim(uc.nombre || ' ' || uc.apellidos) AS creado_por_nombre, trim(uu.nombre || ' ' || uu.apellidos) AS actualizado_por_nombre,
      trim(uv.nombre || ' ' || uv.apellidos) AS validado_por_nombre,
      (SELECT COUNT(*) FROM facturas f WHERE f.contrato_id = c.id) AS num_facturas
    ${CONTRACT_FROM}
    LEFT JOIN usuarios uc ON uc.id = c.creado_por
    LEFT JOIN usuarios uu ON uu.id = c.actualizado_por
    LEFT JOIN usuarios uv ON uv.id = c.validado_por
    WHERE c.id = ?`)
  const history = db.prepare(`
    SELECT h.fecha AS Fecha, h.usuario_id AS UsuarioId, CASE WHEN u.id IS NULL THEN 'Sistema' ELSE trim(u.nombre || ' ' || u.apellidos) END AS Usuario,
      h.accion AS Accion, h.estado_anterior AS EstadoAnterior, h.estado_nuevo AS EstadoNuevo, h.detalle AS Detalle
    FROM contrato_historial h LEFT JOIN usuarios u ON u.id = h.usuario_id
    WHERE h.contrato_id = ? ORDER BY h.fecha, h.id`)
  const renewal = db.prepare(`
    SELECT r.id AS Id, r.fecha_renovacion AS FechaRenovacion, r.subestado_id AS SubestadoId, s.codigo AS SubestadoCodigo, s.nombre AS Subestado,
      r.precio_medio_actual_kwh AS PrecioActual, r.precio_medio_propuesto_kwh AS PrecioPropuesto
    FROM renovaciones r JOIN subestados_renovacion s ON s.id = r.subestado_id
    WHERE r.contrato_id = ? ORDER BY r.fecha_renovacion DESC LIMIT 1`)
  const signature = db.prepare(`
    SELECT id AS Id, proveedor AS Proveedor, solicitud_id AS SolicitudId, estado AS Estado, enlace AS Enlace, destinatario AS Destinatario,
      enviada_en AS EnviadaEn, firmada_en AS FirmadaEn
    FROM contrato_firmas WHERE contrato_id = ? ORDER BY enviada_en DESC, id DESC LIMIT 1`)
  const documentCount = db.prepare('SELECT COUNT(*) AS n FROM contrato_documentos WHERE contrato_id = ?')

  return (id: number) => {
    const r = detail.get(id) as ContractDetailRow | undefined
    if (!r) fail(404, `No se ha encontrado el contrato ${id}.`)
    const tarifa = tarifaById.get(r.tarifa_id)
    const estado = estadoByCodigo.get(r.estado)
    const provincia = (id: number) => ({ Id: id, Nombre: provinciaById.get(id)?.Nombre ?? null })
    return {
      Id: r.id,
      CodigoContrato: r.codigo,
      Estado: r.estado,
      EstadoNombre: estado?.Nombre ?? r.estado,
      EstadoColor: estado?.Color ?? null,
      MotivoRechazo: r.motivo_rechazo,
      Cups: r.ps_cups,
      Titular: r.cl_titular,
      Nif: r.cl_nif,
      TarifaId: r.tarifa_id,
      Tarifa: tarifa?.Codigo ?? null,
      TarifaNombre: tarifa?.Nombre ?? null,
      Modalidad: r.modalidad,
      Potencias: periods(r, 'potencia'),
      PreciosEnergia: periods(r, 'precio_energia'),
      PreciosPotencia: periods(r, 'precio_potencia'),
      FeeMwh: r.fee_mwh,
      ConsumoAnual: r.consumo_anual_kwh,
      Cnae: r.cnae ? { Codigo: r.cnae, Nombre: cnaeByCodigo.get(r.cnae)?.Nombre ?? null } : null,
      TipoAltaSolicitud: tipoRef(TIPOS_ALTA, r.tipo_alta_solicitud_id),
      TipoImpresionFactura: tipoRef(TIPOS_IMPRESION, r.tipo_impresion_factura_id),
      TipoComision: tipoRef(TIPOS_COMISION, r.tipo_comision_id),
      Colectivo: tipoRef(COLECTIVOS, r.colectivo_id),
      Iban: r.iban,
      FechaAlta: r.fecha_alta,
      FechaFirma: r.fecha_firma,
      FechaActivacion: r.fecha_activacion,
      FechaBaja: r.fecha_baja,
      FechaProximaRenovacion: r.fecha_proxima_renovacion,
      AgenteId: r.agente_id,
      Agente: r.a_nombre ?? null,
      AgenteCodigo: r.a_codigo ?? null,
      AgenteDatos: r.agente_id === null ? null : { Id: r.agente_id, Codigo: r.a_codigo, Nombre: r.a_nombre, Nivel: r.a_nivel, Email: r.a_email, Telefono: r.a_telefono },
      Cliente: {
        Id: r.cl_id,
        Tipo: r.cl_tipo,
        Nif: r.cl_nif,
        Nombre: r.cl_nombre,
        Apellido1: r.cl_apellido1,
        Apellido2: r.cl_apellido2,
        RazonSocial: r.cl_razon_social,
        FormaJuridica: r.cl_forma_juridica,
        NombreCompleto: r.cl_titular,
        Email: r.cl_email,
        Telefono: r.cl_telefono,
        Direccion: r.cl_direccion,
        CodigoPostal: r.cl_codigo_postal,
        Municipio: r.cl_municipio,
        Provincia: provincia(r.cl_provincia_id),
        Iban: r.cl_iban,
        FechaAlta: r.cl_fecha_alta,
      },
      PuntoSuministro: {
        Id: r.ps_id,
        Cups: r.ps_cups,
        Direccion: r.ps_direccion,
        CodigoPostal: r.ps_codigo_postal,
        Municipio: r.ps_municipio,
        Provincia: provincia(r.ps_provincia_id),
        Distribuidora: { Codigo: r.ps_distribuidora_codigo, Nombre: r.ps_distribuidora_nombre },
        TarifaId: r.ps_tarifa_id,
        Cnae: r.ps_cnae,
      },
      Renovacion: renewal.get(r.id) ?? null,
      NumFacturas: r.num_facturas,
      CreadoEn: r.creado_en,
      CreadoPor: r.creado_por === null ? null : { Id: r.creado_por, Nombre: r.creado_por_nombre },
      ActualizadoEn: r.actualizado_en,
      ActualizadoPor: r.actualizado_por === null ? null : { Id: r.actualizado_por, Nombre: r.actualizado_por_nombre },
      Historial: history.all(r.id),
      Observaciones: r.observaciones ?? null,
      Validado: r.validado === 1,
      ValidadoEn: r.validado_en ?? null,
      ValidadoPor: r.validado_por === null || r.validado_por === undefined ? null : { Id: r.validado_por, Nombre: r.validado_por_nombre ?? null },
      Firma: signature.get(r.id) ?? null,
      NumDocumentos: (documentCount.get(r.id) as { n: number }).n,
      AccionesPermitidas: accionesPermitidas(r.estado, r.validado === 1),
    }
  }
}
