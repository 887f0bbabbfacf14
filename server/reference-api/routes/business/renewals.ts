import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requirePermission } from '../../auth/access-hooks'
import { ESTADOS_EN_SUMINISTRO, addYears, estadoByCodigo, isoTimestamp, provinciaById, sqlProvinciaNombre, sqlTarifaCodigo, tarifaById } from '../../lib/catalogos'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { iterateList, pagedList, parsePageRequest, type ColumnMap, type ListQuery } from '../../lib/paging'
import { BrandPdf, brandIdentity, euros, fechaEs, numeroEs, sendPdf } from '../../lib/pdf'
import { summableOf } from '../../lib/summable-of-call'
import { callerScope, scopeConditions, type Scope } from '../../lib/visibility'
import { XLSX_FORMATS, exportFileName, sendXlsx, type XlsxColumn } from '../../lib/xlsx'
import { bodyObject, booleanFlag, positiveInt, selectList, visibleContract } from './shared'

export const SUBESTADO = { proxima_renovacion: 1, ofertada: 2, aceptada: 3, renovado: 4, no_renovado: 5, baja_solicitada: 6 } as const

const RENEWAL_FROM = `FROM renovaciones r
  JOIN contratos c ON c.id = r.contrato_id
  JOIN clientes cl ON cl.id = c.cliente_id
  JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
  JOIN subestados_renovacion s ON s.id = r.subestado_id
  LEFT JOIN agentes a ON a.id = c.agente_id`

export const RENEWAL_COLUMNS: ColumnMap = {
  Id: { sql: 'r.id', type: 'number' },
  CodigoContrato: { sql: 'c.codigo', type: 'text' },
  Titular: { sql: 'cl.titular', type: 'text' },
  Nif: { sql: 'cl.nif', type: 'text' },
  Cups: { sql: 'ps.cups', type: 'text' },
  Tarifa: { sql: sqlTarifaCodigo('c.tarifa_id'), type: 'enum' },
  Modalidad: { sql: 'c.modalidad', type: 'enum' },
  EstadoContrato: { sql: 'c.estado', type: 'enum' },
  FechaRenovacion: { sql: 'r.fecha_renovacion', type: 'date' },
  SubestadoId: { sql: 'r.subestado_id', type: 'enum' },
  SubestadoCodigo: { sql: 's.codigo', type: 'enum' },
  Subestado: { sql: 's.nombre', type: 'text' },
  // Average energy prices, €/kWh for every contract (lib/renewal-prices.ts); the indexed terms are the fees.
  PrecioActual: { sql: 'r.precio_medio_actual_kwh', type: 'number' },
  PrecioPropuesto: { sql: 'r.precio_medio_propuesto_kwh', type: 'number' },
  Unidad: { sql: "'€/kWh'", type: 'text', sortable: false, filterable: false },
  FeeActualMwh: { sql: "(CASE c.modalidad WHEN 'indexado' THEN r.precio_actual END)", type: 'number', sortable: false, filterable: false },
  FeePropuestoMwh: { sql: "(CASE c.modalidad WHEN 'indexado' THEN r.precio_propuesto END)", type: 'number', sortable: false, filterable: false },
  VariacionPct: { sql: 'round((r.precio_medio_propuesto_kwh - r.precio_medio_actual_kwh) * 100.0 / r.precio_medio_actual_kwh, 2)', type: 'number' },
  ConsumoAnual: { sql: 'c.consumo_anual_kwh', type: 'number' },
  FechaProximaRenovacion: { sql: 'c.fecha_proxima_renovacion', type: 'date' },
  FechaUltimoCambio: { sql: 'r.actualizado_en', type: 'date' },
  AgenteId: { sql: 'c.agente_id', type: 'enum' },
  Agente: { sql: 'a.nombre', type: 'text' },
  Provincia: { sql: sqlProvinciaNombre('ps.provincia_id'), type: 'text' },
}

function renewalList(scope: Scope): ListQuery {
  const { where, params } = scopeConditions(scope, 'r.marca_id')
  return {
    select: `${selectList(RENEWAL_COLUMNS)} ${RENEWAL_FROM}`,
    from: RENEWAL_FROM,
    where,
    whereParams: params,
    columns: RENEWAL_COLUMNS,
    defaultOrder: 'r.fecha_renovacion ASC, c.codigo ASC',
  }
}

type RenewalRow = Record<keyof typeof RENEWAL_COLUMNS, unknown>

const EXPORT_COLUMNS: XlsxColumn<RenewalRow>[] = [
  { header: 'Código de contrato', value: 'CodigoContrato', width: 18 },
  { header: 'Fecha de renovación', value: 'FechaRenovacion', format: XLSX_FORMATS.date, width: 14 },
  { header: 'Subestado', value: 'Subestado', width: 20 },
  { header: 'Titular', value: 'Titular', width: 36 },
  { header: 'NIF/CIF', value: 'Nif', width: 12 },
  { header: 'CUPS', value: 'Cups', width: 24 },
  { header: 'Tarifa', value: 'Tarifa', width: 9 },
  { header: 'Modalidad', value: (r) => (r.Modalidad === 'indexado' ? 'Indexado' : 'Fijo'), width: 11 },
  { header: 'Precio actual', value: 'PrecioActual', format: '#,##0.000000', width: 14 },
  { header: 'Precio propuesto', value: 'PrecioPropuesto', format: '#,##0.000000', width: 14 },
  { header: 'Unidad', value: 'Unidad', width: 9 },
  { header: 'Fee actual (€/MWh)', value: 'FeeActualMwh', format: '0.00', width: 12 },
  { header: 'Fee propuesto (€/MWh)', value: 'FeePropuestoMwh', format: '0.00', width: 12 },
  { header: 'Variación (%)', value: 'VariacionPct', format: '0.00', width: 12 },
  { header: 'Consumo anual', value: 'ConsumoAnual', format: XLSX_FORMATS.energy, width: 15 },
  { header: 'Próxima renovación', value: 'FechaProximaRenovacion', format: XLSX_FORMATS.date, width: 14 },
  { header: 'Agente', value: 'Agente', width: 30 },
  { header: 'Provincia', value: 'Provincia', width: 18 },
]

interface RenewalRef {
  id: number
  fecha_renovacion: string
  subestado_id: number
  subestado_codigo: string
  subestado_nombre: string
  precio_actual: number
  precio_propuesto: number
}

const ENERGY_PERIODS = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'] as const

const RENEWAL_SUMMABLE = summableOf('renewal.list')

/** Renewals (spec §7). Every call needs VERRENOVACIONES. */
export async function renewalRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now, brandsDir } = opts
  app.addHook('preHandler', requirePermission('VERRENOVACIONES'))

  const subestados = db.prepare('SELECT id AS Id, codigo AS Codigo, nombre AS Nombre, final AS Final FROM subestados_renovacion ORDER BY id')
  const catalog = () => (subestados.all() as { Id: number; Codigo: string; Nombre: string; Final: number }[]).map((s) => ({ ...s, Final: s.Final === 1 }))
  const latestRenewal = db.prepare(`
    SELECT r.id, r.fecha_renovacion, r.subestado_id, s.codigo AS subestado_codigo, s.nombre AS subestado_nombre, r.precio_actual, r.precio_propuesto
    FROM renovaciones r JOIN subestados_renovacion s ON s.id = r.subestado_id
    WHERE r.contrato_id = ? ORDER BY r.fecha_renovacion DESC LIMIT 1`)
  const setSubestado = db.prepare('UPDATE renovaciones SET subestado_id = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?')
  const addHistory = db.prepare(
    'INSERT INTO contrato_historial (contrato_id, fecha, usuario_id, accion, estado_anterior, estado_nuevo, detalle) VALUES (?, ?, ?, ?, NULL, NULL, ?)',
  )
  const oneItem = (scope: Scope, renewalId: number) => {
    const list = renewalList(scope)
    return db.prepare(`${list.select} WHERE ${[...list.where!, 'r.id = ?'].join(' AND ')}`).get(...list.whereParams!, renewalId) as RenewalRow
  }

  /** The contract (visible to the caller) and its latest renewal, from a `{ CodigoContrato }` body. */
  const target = (request: FastifyRequest) => {
    const body = bodyObject(request.body)
    const code = parseContractCode(body.CodigoContrato, 'CodigoContrato')
    const scope = callerScope(db, request)
    const contract = visibleContract(db, scope, code)
    const renewal = latestRenewal.get(contract.id) as RenewalRef | undefined
    if (!renewal) fail(404, `El contrato ${code} no tiene ninguna renovación en curso.`)
    return { body, code, scope, contract, renewal }
  }

  app.get('/api/renovaciones', async (request) => {
    const query = request.query as Record<string, unknown>
    const include = booleanFlag(query.includeSubEstadoFilter, 'includeSubEstadoFilter')
    const scope = callerScope(db, request)
    const page = pagedList(db, { ...renewalList(scope), summable: RENEWAL_SUMMABLE }, parsePageRequest(query, RENEWAL_COLUMNS))
    if (!include) return page
    const { where, params } = scopeConditions(scope, 'r.marca_id')
    const counts = new Map(
      (db.prepare(`SELECT r.subestado_id AS id, COUNT(*) AS n FROM renovaciones r JOIN contratos c ON c.id = r.contrato_id WHERE ${where.join(' AND ')} GROUP BY r.subestado_id`).all(...params) as { id: number; n: number }[]).map(
        (r) => [r.id, r.n],
      ),
    )
    return { ...page, SubEstados: catalog().map((s) => ({ ...s, Cantidad: counts.get(s.Id) ?? 0 })) }
  })

  app.get('/api/renovaciones/subestados', async () => catalog())

  app.get('/api/renovaciones/export', async (request, reply) => {
    const page = parsePageRequest(request.query as Record<string, unknown>, RENEWAL_COLUMNS, { allowAll: true })
    return sendXlsx(reply, {
      fileName: exportFileName('renovaciones', new Date(now())),
      sheetName: 'Renovaciones',
      columns: EXPORT_COLUMNS,
      rows: iterateList<RenewalRow>(db, renewalList(callerScope(db, request)), page),
    })
  })

  app.post('/api/renovaciones/renovar', async (request) => {
    const { code, scope, contract, renewal } = target(request)
    if (renewal.subestado_id === SUBESTADO.renovado) fail(409, `La renovación del contrato ${code} del ${fechaEs(renewal.fecha_renovacion)} ya está hecha.`)
    if (renewal.subestado_id === SUBESTADO.no_renovado || renewal.subestado_id === SUBESTADO.baja_solicitada) {
      fail(409, `La renovación del contrato ${code} está en «${renewal.subestado_nombre}»: cambia antes su subestado para poder renovarlo.`)
    }
    if (!(ESTADOS_EN_SUMINISTRO as readonly string[]).includes(contract.estado)) {
      fail(409, `El contrato ${code} no está activo (estado: ${estadoByCodigo.get(contract.estado)?.Nombre ?? contract.estado}): no se puede renovar.`)
    }
    const stamp = isoTimestamp(now())
    const userId = request.caller!.userId
    const hasta = addYears(renewal.fecha_renovacion, 1)
    const c = db.prepare('SELECT modalidad FROM contratos WHERE id = ?').get(contract.id) as { modalidad: string }
    const fixed = c.modalidad === 'fijo'
    const ratio = renewal.precio_propuesto / renewal.precio_actual
    db.transaction(() => {
      setSubestado.run(SUBESTADO.renovado, stamp, userId, renewal.id)
      if (fixed) {
        db.prepare(
          `UPDATE contratos SET ${ENERGY_PERIODS.map((p) => `precio_energia_${p} = round(precio_energia_${p} * ?, 6)`).join(', ')},
             fecha_proxima_renovacion = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?`,
        ).run(...ENERGY_PERIODS.map(() => ratio), hasta, stamp, userId, contract.id)
      } else {
        db.prepare('UPDATE contratos SET fee_mwh = ?, fecha_proxima_renovacion = ?, actualizado_en = ?, actualizado_por = ? WHERE id = ?').run(
          renewal.precio_propuesto,
          hasta,
          stamp,
          userId,
          contract.id,
        )
      }
      const unit = fixed ? '€/kWh' : '€/MWh'
      const d = fixed ? 4 : 2
      addHistory.run(
        contract.id,
        stamp,
        userId,
        'renovacion',
        `Renovado con nuevas condiciones hasta el ${hasta} (${numeroEs(renewal.precio_actual, d)} → ${numeroEs(renewal.precio_propuesto, d)} ${unit}).`,
      )
    })()
    return oneItem(scope, renewal.id)
  })

  app.put('/api/renovaciones/change-subestado', async (request) => {
    const body = bodyObject(request.body)
    const subestadoId = positiveInt(body.SubestadoId, 'SubestadoId')
    const wanted = catalog().find((s) => s.Id === subestadoId)
    if (!wanted) fail(400, `El subestado ${subestadoId} no existe.`)
    const { code, scope, renewal } = target(request)
    if (renewal.subestado_id === SUBESTADO.renovado) fail(409, `La renovación del contrato ${code} ya está hecha: no admite cambios de subestado.`)
    if (subestadoId === SUBESTADO.renovado) fail(409, 'Para marcar una renovación como «Renovado» usa la acción Renovar: aplica las nuevas condiciones al contrato.')
    if (subestadoId !== renewal.subestado_id) {
      const stamp = isoTimestamp(now())
      const userId = request.caller!.userId
      const contractId = (db.prepare('SELECT contrato_id FROM renovaciones WHERE id = ?').get(renewal.id) as { contrato_id: number }).contrato_id
      db.transaction(() => {
        setSubestado.run(subestadoId, stamp, userId, renewal.id)
        addHistory.run(contractId, stamp, userId, 'cambio_subestado_renovacion', `Renovación del ${fechaEs(renewal.fecha_renovacion)}: ${renewal.subestado_nombre} → ${wanted.Nombre}.`)
      })()
    }
    return oneItem(scope, renewal.id)
  })

  const pdfData = db.prepare(`
    SELECT c.*, cl.titular, cl.nif, cl.direccion AS cl_direccion, cl.codigo_postal AS cl_cp, cl.municipio AS cl_municipio, cl.provincia_id AS cl_provincia,
      ps.cups, ps.direccion AS ps_direccion, ps.codigo_postal AS ps_cp, ps.municipio AS ps_municipio, ps.provincia_id AS ps_provincia,
      ps.distribuidora_nombre, a.nombre AS agente_nombre, a.email AS agente_email, a.telefono AS agente_telefono
    FROM contratos c JOIN clientes cl ON cl.id = c.cliente_id JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
    LEFT JOIN agentes a ON a.id = c.agente_id WHERE c.id = ?`)

  app.post('/api/renovaciones/renovacion-descargar', async (request, reply) => {
    const { code, contract, renewal } = target(request)
    const c = pdfData.get(contract.id) as Record<string, unknown> & { tarifa_id: number; modalidad: string; consumo_anual_kwh: number | null }
    const tarifa = tarifaById.get(c.tarifa_id)
    const fixed = c.modalidad === 'fijo'
    // After a renewal the contract already holds the new prices; the proposal shows the change.
    const renewed = renewal.subestado_id === SUBESTADO.renovado
    const ratio = renewal.precio_propuesto / renewal.precio_actual
    const brand = brandIdentity(brandsDir, request.marca)
    const pdf = new BrandPdf(brand, {
      title: 'Propuesta de renovación',
      subtitle: `Contrato ${code} · Fecha de renovación ${fechaEs(renewal.fecha_renovacion)}`,
      subject: `Propuesta de renovación del contrato ${code}`,
    })
    pdf.paragraph(
      `Estimado/a cliente: su contrato de suministro eléctrico con ${brand.nombre} cumple su periodo anual el ${fechaEs(renewal.fecha_renovacion)}. ` +
        'Le presentamos las condiciones económicas que proponemos para el próximo año de suministro.',
    )
    const powers = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6']
      .map((p, i) => (c[`potencia_${p}`] === null ? null : `P${i + 1}: ${numeroEs(c[`potencia_${p}`] as number, 3, 2)} kW`))
      .filter(Boolean)
      .join(' · ')
    const place = (dir: unknown, cp: unknown, mun: unknown, prov: unknown) => `${dir}, ${cp} ${mun} (${provinciaById.get(prov as number)?.Nombre ?? '—'})`
    pdf.section('Datos del contrato').keyValues([
      ['Código de contrato', code],
      ['Titular', c.titular as string],
      ['NIF/CIF', c.nif as string],
      ['Dirección del titular', place(c.cl_direccion, c.cl_cp, c.cl_municipio, c.cl_provincia)],
      ['CUPS', c.cups as string],
      ['Dirección de suministro', place(c.ps_direccion, c.ps_cp, c.ps_municipio, c.ps_provincia)],
      ['Distribuidora', c.distribuidora_nombre as string],
      ['Tarifa de acceso', tarifa?.Nombre ?? String(c.tarifa_id)],
      ['Modalidad de precio', fixed ? 'Precio fijo' : 'Indexado al mercado (OMIE + fee de gestión)'],
      ['Potencias contratadas', powers],
      ['Consumo anual estimado', c.consumo_anual_kwh === null ? null : `${numeroEs(c.consumo_anual_kwh, 0)} kWh`],
      ['Fecha de activación', fechaEs(c.fecha_activacion as string | null)],
      ['Agente comercial', c.agente_nombre ? `${c.agente_nombre}${c.agente_email ? ` · ${c.agente_email}` : ''}` : null],
    ])

    pdf.section('Condiciones económicas')
    const variation = (a: number, b: number) => `${b >= a ? '+' : ''}${numeroEs(((b - a) / a) * 100, 2)} %`
    if (fixed) {
      const periods = tarifa?.PeriodosEnergia ?? 6
      const rows: string[][] = []
      for (let i = 0; i < periods; i++) {
        const current = c[`precio_energia_p${i + 1}`] as number | null
        if (current === null) continue
        const before = renewed ? current / ratio : current
        const after = renewed ? current : current * ratio
        rows.push([`Energía P${i + 1}`, `${numeroEs(before, 6)} €/kWh`, `${numeroEs(after, 6)} €/kWh`, variation(before, after)])
      }
      pdf.table(
        [
          { header: 'Término', width: 0.28 },
          { header: 'Precio actual', width: 0.26, align: 'right' },
          { header: 'Precio propuesto', width: 0.26, align: 'right' },
          { header: 'Variación', width: 0.2, align: 'right' },
        ],
        rows,
      )
    } else {
      pdf.table(
        [
          { header: 'Término', width: 0.28 },
          { header: 'Actual', width: 0.26, align: 'right' },
          { header: 'Propuesto', width: 0.26, align: 'right' },
          { header: 'Variación', width: 0.2, align: 'right' },
        ],
        [['Fee de gestión', `${numeroEs(renewal.precio_actual, 2)} €/MWh`, `${numeroEs(renewal.precio_propuesto, 2)} €/MWh`, variation(renewal.precio_actual, renewal.precio_propuesto)]],
      )
    }
    const powerRows: string[][] = []
    for (let i = 0; i < 6; i++) {
      const price = c[`precio_potencia_p${i + 1}`] as number | null
      if (price !== null && c[`potencia_p${i + 1}`] !== null) powerRows.push([`Potencia P${i + 1}`, `${numeroEs(price, 6)} €/kW y día`])
    }
    if (powerRows.length) {
      pdf.paragraph('Los precios del término de potencia no cambian:', { muted: true, size: 9 })
      pdf.table([{ header: 'Término', width: 0.5 }, { header: 'Precio', width: 0.5, align: 'right' }], powerRows)
    }
    if (c.consumo_anual_kwh) {
      const kwh = c.consumo_anual_kwh
      const current = fixed ? kwh * renewal.precio_actual : (kwh * renewal.precio_actual) / 1000
      const proposed = fixed ? kwh * renewal.precio_propuesto : (kwh * renewal.precio_propuesto) / 1000
      pdf.section('Estimación anual').keyValues([
        [fixed ? 'Energía con el precio actual' : 'Fee con las condiciones actuales', euros(current)],
        [fixed ? 'Energía con el precio propuesto' : 'Fee con las condiciones propuestas', euros(proposed)],
        ['Diferencia estimada', `${proposed >= current ? '+' : ''}${euros(proposed - current)}`],
      ])
      pdf.paragraph(
        (fixed
          ? `Estimación con el consumo anual de ${numeroEs(kwh, 0)} kWh y el precio medio de los periodos; `
          : `Estimación del fee de gestión con el consumo anual de ${numeroEs(kwh, 0)} kWh; el precio de la energía sigue al mercado (OMIE) y no se incluye; `) +
          'sin impuesto especial sobre la electricidad (5,11269632 %), alquiler de equipos ni IVA (21 %).',
        { muted: true, size: 8.5 },
      )
    }
    pdf.section('Condiciones de la renovación')
    pdf.paragraph(
      'Si no nos comunica lo contrario con al menos 15 días de antelación a la fecha de renovación, el contrato se renovará por un año ' +
        'con las condiciones propuestas. En los años de renovación no se aplica penalización por resolución anticipada. ' +
        'El resto de condiciones generales y particulares del contrato se mantienen sin cambios.',
    )
    pdf.paragraph(`Documento generado el ${fechaEs(new Date(now()).toISOString())} · Situación de la renovación: ${renewal.subestado_nombre}.`, { muted: true, size: 8.5 })
    return sendPdf(reply, await pdf.toBuffer(), `propuesta-renovacion-${code}.pdf`)
  })
}
