import type { FastifyInstance } from 'fastify'
import { sqlCase, sqlTarifaCodigo } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { iterateList, pagedList, parsePageRequest, type ColumnMap, type ListQuery } from '../../lib/paging'
import { summableOf } from '../../lib/summable-of-call'
import { callerScope, scopeConditions, type Scope } from '../../lib/visibility'
import { XLSX_FORMATS, exportFileName, sendXlsx, type XlsxColumn } from '../../lib/xlsx'
import { invoiceDetail } from './invoice-detail'
import { positiveInt, selectList, visibleContract } from './shared'

export const ESTADOS_PAGO = [
  ['pagada', 'Pagada'],
  ['pendiente', 'Pendiente'],
  ['devuelta', 'Devuelta'],
  ['impagada', 'Impagada'],
] as const

const INVOICE_FROM = `FROM facturas f
  JOIN contratos c ON c.id = f.contrato_id
  JOIN clientes cl ON cl.id = c.cliente_id
  JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
  LEFT JOIN agentes a ON a.id = c.agente_id`

export const INVOICE_COLUMNS: ColumnMap = {
  Id: { sql: 'f.id', type: 'number' },
  Numero: { sql: 'f.numero', type: 'text' },
  CodigoContrato: { sql: 'c.codigo', type: 'text' },
  Titular: { sql: 'cl.titular', type: 'text' },
  Nif: { sql: 'cl.nif', type: 'text' },
  Cups: { sql: 'ps.cups', type: 'text' },
  Tarifa: { sql: sqlTarifaCodigo('c.tarifa_id'), type: 'enum' },
  PeriodoDesde: { sql: 'f.periodo_desde', type: 'date' },
  PeriodoHasta: { sql: 'f.periodo_hasta', type: 'date' },
  FechaEmision: { sql: 'f.fecha_emision', type: 'date' },
  FechaVencimiento: { sql: 'f.fecha_vencimiento', type: 'date' },
  FechaCobro: { sql: 'f.fecha_cobro', type: 'date' },
  ConsumoKwh: { sql: 'f.consumo_kwh', type: 'number' },
  TerminoEnergia: { sql: 'f.termino_energia', type: 'number' },
  TerminoPotencia: { sql: 'f.termino_potencia', type: 'number' },
  ImpuestoElectrico: { sql: 'f.impuesto_electrico', type: 'number' },
  AlquilerContador: { sql: 'f.alquiler_contador', type: 'number' },
  BaseImponible: { sql: 'f.base_imponible', type: 'number' },
  Iva: { sql: 'f.iva', type: 'number' },
  ImporteTotal: { sql: 'f.total', type: 'number' },
  EstadoPago: { sql: 'f.estado_pago', type: 'enum' },
  EstadoPagoNombre: { sql: sqlCase('f.estado_pago', ESTADOS_PAGO), type: 'text' },
  AgenteId: { sql: 'c.agente_id', type: 'enum' },
  Agente: { sql: 'a.nombre', type: 'text' },
}

function invoiceList(scope: Scope, extraWhere: string[] = [], extraParams: unknown[] = []): ListQuery {
  const { where, params } = scopeConditions(scope, 'f.marca_id')
  return {
    select: `${selectList(INVOICE_COLUMNS)} ${INVOICE_FROM}`,
    from: INVOICE_FROM,
    where: [...where, ...extraWhere],
    whereParams: [...params, ...extraParams],
    columns: INVOICE_COLUMNS,
    defaultOrder: 'f.fecha_emision DESC, f.numero DESC',
  }
}

type InvoiceRow = Record<keyof typeof INVOICE_COLUMNS, unknown>

const EXPORT_COLUMNS: XlsxColumn<InvoiceRow>[] = [
  { header: 'Número', value: 'Numero', width: 17 },
  { header: 'Fecha de emisión', value: 'FechaEmision', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Fecha de vencimiento', value: 'FechaVencimiento', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Código de contrato', value: 'CodigoContrato', width: 18 },
  { header: 'Titular', value: 'Titular', width: 36 },
  { header: 'NIF/CIF', value: 'Nif', width: 12 },
  { header: 'CUPS', value: 'Cups', width: 24 },
  { header: 'Tarifa', value: 'Tarifa', width: 9 },
  { header: 'Periodo desde', value: 'PeriodoDesde', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Periodo hasta', value: 'PeriodoHasta', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Consumo', value: 'ConsumoKwh', format: XLSX_FORMATS.energy, width: 13 },
  { header: 'Término de energía', value: 'TerminoEnergia', format: XLSX_FORMATS.money, width: 14 },
  { header: 'Término de potencia', value: 'TerminoPotencia', format: XLSX_FORMATS.money, width: 14 },
  { header: 'Impuesto eléctrico', value: 'ImpuestoElectrico', format: XLSX_FORMATS.money, width: 14 },
  { header: 'Alquiler de contador', value: 'AlquilerContador', format: XLSX_FORMATS.money, width: 14 },
  { header: 'Base imponible', value: 'BaseImponible', format: XLSX_FORMATS.money, width: 14 },
  { header: 'IVA', value: 'Iva', format: XLSX_FORMATS.money, width: 12 },
  { header: 'Importe total', value: 'ImporteTotal', format: XLSX_FORMATS.money, width: 14 },
  { header: 'Estado de pago', value: 'EstadoPagoNombre', width: 12 },
  { header: 'Fecha de cobro', value: 'FechaCobro', format: XLSX_FORMATS.date, width: 13 },
  { header: 'Agente', value: 'Agente', width: 30 },
]

const INVOICE_SUMMABLE = summableOf('invoice.list')

/** Invoices: list, export and a contract's invoices (spec §7). */
export async function invoiceRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/facturas', async (request) => {
    const page = parsePageRequest(request.query as Record<string, unknown>, INVOICE_COLUMNS)
    return pagedList(db, { ...invoiceList(callerScope(db, request)), summable: INVOICE_SUMMABLE }, page)
  })

  app.get('/api/facturas/export', async (request, reply) => {
    const page = parsePageRequest(request.query as Record<string, unknown>, INVOICE_COLUMNS, { allowAll: true })
    return sendXlsx(reply, {
      fileName: exportFileName('facturas', new Date(now())),
      sheetName: 'Facturas',
      columns: EXPORT_COLUMNS,
      rows: iterateList<InvoiceRow>(db, invoiceList(callerScope(db, request)), page),
    })
  })

  app.get('/api/facturas/:id', async (request) => {
    const id = positiveInt((request.params as { id?: string }).id, 'El identificador de factura')
    const list = invoiceList(callerScope(db, request), ['f.id = ?'], [id])
    const [row] = pagedList(db, list, { pageIndex: 0, pageSize: 1, sortColumn: undefined, sortOrder: 'desc', filters: [] }).Items as Parameters<typeof invoiceDetail>[1][]
    return invoiceDetail(db, row, id)
  })

  app.get('/api/facturas/facturas-contrato', async (request) => {
    const code = parseContractCode((request.query as Record<string, unknown>).codigo, 'codigo')
    const scope = callerScope(db, request)
    const contract = visibleContract(db, scope, code)
    // Every invoice of the contract, newest first (not paged: at most a few dozen).
    const list = invoiceList(scope, ['f.contrato_id = ?'], [contract.id])
    return pagedList(db, list, { pageIndex: 0, pageSize: -1, sortColumn: undefined, sortOrder: 'desc', filters: [] }).Items
  })
}
