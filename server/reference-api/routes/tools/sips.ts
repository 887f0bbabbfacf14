import type { FastifyInstance } from 'fastify'
import { PERIODOS } from '../../domain/contract-rules'
import { validateCups } from '../../domain/identifiers'
import { sipsRecord, type SipsRecord } from '../../domain/sips'
import { madridToday } from '../../domain/calendar'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { fechaEs } from '../../lib/pdf'
import { XLSX_FORMATS, XLSX_TOOL_FORMATS, sendXlsxBook, type XlsxColumn } from '../../lib/xlsx'
import { bodyObject } from '../business/shared'
import { identifierParam } from '../contracts-lifecycle/validators'
import type { SipsInfo, SipsListItem, SipsReading } from '../../../../schemas/business/sips'

/** At most this many CUPS per list call. */
export const SIPS_LISTA_MAX = 200

const sinDatos = (cups: string) => `No hay datos del SIPS para el CUPS ${cups}: la distribuidora ${cups.slice(2, 6)} no es conocida.`

/** The record of the `cups` query parameter: 400 when missing or invalid, 404 when there are no SIPS data. */
function recordOf(ctx: ApiContext, query: unknown): SipsRecord {
  const raw = identifierParam(query, 'cups')
  const v = validateCups(raw)
  if (!v.valid) fail(400, `El CUPS ${v.normalized} no es válido: ${v.reason}`)
  const record = sipsRecord(ctx.db, v.normalized, ctx.now())
  if (!record) fail(404, sinDatos(v.normalized))
  return record
}

/** The `Cups` list of a list call's body: 1–200 items; duplicates (after normalising) collapsed, input order kept. */
function listItems(ctx: ApiContext, body: unknown): SipsListItem[] {
  const obj = bodyObject(body)
  const list = obj.Cups ?? obj.cups
  if (!Array.isArray(list)) fail(400, 'Cups: debe ser una lista de CUPS (["ES…", …]).')
  if (list.length === 0) fail(400, 'Cups: la lista está vacía.')
  if (list.length > SIPS_LISTA_MAX) fail(400, `Cups: como máximo ${SIPS_LISTA_MAX} CUPS por consulta (hay ${list.length}).`)
  const seen = new Set<string>()
  const out: SipsListItem[] = []
  for (const item of list) {
    const given = typeof item === 'string' ? item : item === null || item === undefined ? '' : String(item)
    const v = validateCups(given.slice(0, 64))
    if (seen.has(v.normalized)) continue
    seen.add(v.normalized)
    if (typeof item !== 'string') {
      out.push({ Cups: given, Normalizado: v.normalized, Estado: 'invalido', Motivo: 'El CUPS debe ser un texto.', Info: null })
    } else if (given.length > 64) {
      out.push({ Cups: given, Normalizado: v.normalized, Estado: 'invalido', Motivo: 'El CUPS no puede tener más de 64 caracteres.', Info: null })
    } else if (!v.valid) {
      out.push({ Cups: given, Normalizado: v.normalized, Estado: 'invalido', Motivo: v.reason ?? 'No es válido.', Info: null })
    } else {
      const record = sipsRecord(ctx.db, v.normalized, ctx.now())
      out.push(
        record
          ? { Cups: given, Normalizado: v.normalized, Estado: 'ok', Motivo: null, Info: record.info }
          : { Cups: given, Normalizado: v.normalized, Estado: 'sin_datos', Motivo: sinDatos(v.normalized), Info: null },
      )
    }
  }
  return out
}

const si = (b: boolean) => (b ? 'Sí' : 'No')

/** The supply point sheet: one row per field. */
function infoRows(info: SipsInfo): [string, unknown, string?][] {
  const rows: [string, unknown, string?][] = [
    ['CUPS', info.Cups],
    ['Distribuidora', `${info.Distribuidora.Codigo} — ${info.Distribuidora.Nombre}`],
    ['Código postal', info.CodigoPostal],
    ['Municipio', info.Municipio],
    ['Provincia', `${info.ProvinciaCodigo} — ${info.Provincia}`],
    ['Tarifa de acceso', `${info.Tarifa.Codigo} (ATR ${info.Tarifa.CodigoAtr})`],
    ['Tensión', `${info.Tension} · ${info.TensionV.toLocaleString('es-ES')} V`],
    ['Potencia máxima BIE (kW)', info.PotenciaMaximaBieKw, XLSX_FORMATS.power],
    ['Potencia máxima APM (kW)', info.PotenciaMaximaApmKw, XLSX_FORMATS.power],
  ]
  for (const p of PERIODOS) if (info.PotenciasContratadasKw[p] !== null) rows.push([`Potencia contratada ${p} (kW)`, info.PotenciasContratadasKw[p], XLSX_FORMATS.power])
  rows.push(
    ['Fecha de alta del suministro', info.FechaAltaSuministro, XLSX_FORMATS.date],
    ['Último movimiento de contrato', info.FechaUltimoMovimientoContrato, XLSX_FORMATS.date],
    ['Último cambio de comercializador', info.FechaUltimoCambioComercializador, XLSX_FORMATS.date],
    ['Última lectura', info.FechaUltimaLectura, XLSX_FORMATS.date],
    ['Telegestionado', si(info.Telegestionado)],
    ['Fases', info.Fases === 'trifasico' ? 'Trifásico' : 'Monofásico'],
    ['Propiedad del contador', info.PropiedadContador === 'titular' ? 'Titular' : 'Distribuidora'],
    ['Discriminación horaria', info.DiscriminacionHoraria],
    ['Perfil de consumo', info.PerfilConsumo],
    ['Autoconsumo', info.CodigoAutoconsumo ?? 'Sin autoconsumo'],
    ['CNAE', info.Cnae],
    ['Vivienda habitual', si(info.ViviendaHabitual)],
    ['Impagos', si(info.Impagos)],
    ['Depósito de garantía (€)', info.DepositoGarantiaEur, XLSX_FORMATS.money],
    ['Contratable', si(info.Contratable)],
    ['Bono social', si(info.BonoSocial)],
  )
  for (const p of PERIODOS) if (info.ConsumoAnualKwh[p] !== null) rows.push([`Consumo anual ${p} (kWh)`, info.ConsumoAnualKwh[p], XLSX_FORMATS.energy])
  rows.push(['Consumo anual total (kWh)', info.ConsumoAnualKwh.Total, XLSX_FORMATS.energy])
  return rows
}

function readingColumns(): XlsxColumn<SipsReading>[] {
  const cols: XlsxColumn<SipsReading>[] = [
    { header: 'Fecha inicio', value: 'FechaInicio', format: XLSX_FORMATS.date, width: 13 },
    { header: 'Fecha fin', value: 'FechaFin', format: XLSX_FORMATS.date, width: 13 },
    { header: 'Tarifa', value: 'Tarifa', width: 9 },
  ]
  for (const p of PERIODOS) cols.push({ header: `Activa ${p} (kWh)`, value: (l) => l.ActivaKwh[p], format: XLSX_FORMATS.energy, width: 14 })
  for (const p of PERIODOS) cols.push({ header: `Reactiva ${p} (kvarh)`, value: (l) => l.ReactivaKvarh[p], format: XLSX_TOOL_FORMATS.kvarh, width: 15 })
  for (const p of PERIODOS) cols.push({ header: `Potencia demandada ${p} (kW)`, value: (l) => l.PotenciaDemandadaKw[p], format: XLSX_FORMATS.power, width: 16 })
  cols.push({ header: 'Tipo de lectura', value: (l) => (l.TipoLectura === 'real' ? 'Real' : 'Estimada'), width: 13 })
  return cols
}

const LIST_COLUMNS: XlsxColumn<SipsListItem>[] = [
  { header: 'CUPS', value: 'Cups', width: 26 },
  { header: 'CUPS normalizado', value: 'Normalizado', width: 26 },
  { header: 'Estado', value: (r) => (r.Estado === 'ok' ? 'Correcto' : r.Estado === 'invalido' ? 'No válido' : 'Sin datos'), width: 11 },
  { header: 'Motivo', value: 'Motivo', width: 40 },
  { header: 'Distribuidora', value: (r) => r.Info?.Distribuidora.Nombre, width: 30 },
  { header: 'Provincia', value: (r) => r.Info?.Provincia, width: 18 },
  { header: 'Municipio', value: (r) => r.Info?.Municipio, width: 22 },
  { header: 'Código postal', value: (r) => r.Info?.CodigoPostal, width: 10 },
  { header: 'Tarifa', value: (r) => r.Info?.Tarifa.Codigo, width: 9 },
  { header: 'Tensión', value: (r) => r.Info?.Tension, width: 9 },
  ...PERIODOS.map((p): XlsxColumn<SipsListItem> => ({ header: `Potencia ${p}`, value: (r) => r.Info?.PotenciasContratadasKw[p] ?? null, format: XLSX_FORMATS.power, width: 13 })),
  { header: 'Consumo anual', value: (r) => r.Info?.ConsumoAnualKwh.Total, format: XLSX_FORMATS.energy, width: 15 },
  { header: 'CNAE', value: (r) => r.Info?.Cnae, width: 8 },
  { header: 'Vivienda habitual', value: (r) => (r.Info ? si(r.Info.ViviendaHabitual) : null), width: 10 },
  { header: 'Último cambio de comercializador', value: (r) => r.Info?.FechaUltimoCambioComercializador, format: XLSX_FORMATS.date, width: 16 },
  { header: 'Última lectura', value: (r) => r.Info?.FechaUltimaLectura, format: XLSX_FORMATS.date, width: 13 },
]

/** Sips (spec §7): supply point information, raw record, readings, lists and exports. Any signed-in user. */
export async function sipsRoutes(app: FastifyInstance, ctx: ApiContext) {
  app.get('/api/sips/info', async (request) => recordOf(ctx, request.query).info)

  app.get('/api/sips/info/raw', async (request) => recordOf(ctx, request.query).raw)

  app.get('/api/sips/info/consumo', async (request) => {
    const record = recordOf(ctx, request.query)
    return { Cups: record.info.Cups, Lecturas: record.lecturas }
  })

  app.get('/api/sips/export', async (request, reply) => {
    const record = recordOf(ctx, request.query)
    return sendXlsxBook(reply, `sips-${record.info.Cups}.xlsx`, [
      {
        name: 'Punto de suministro',
        columns: [
          { header: 'Campo', value: (r: [string, unknown, string?]) => r[0], width: 34 },
          // Dates as Spanish text: the column mixes texts, numbers and dates.
          { header: 'Valor', value: (r: [string, unknown, string?]) => (r[2] === XLSX_FORMATS.date && typeof r[1] === 'string' ? fechaEs(r[1]) : r[1]), width: 48 },
        ],
        rows: infoRows(record.info),
      },
      { name: 'Consumos', columns: readingColumns(), rows: record.lecturas },
    ])
  })

  app.post('/api/sips/info/list', async (request) => listItems(ctx, request.body))

  app.post('/api/sips/export/list', async (request, reply) => {
    const items = listItems(ctx, request.body)
    return sendXlsxBook(reply, `sips-lista-${madridToday(ctx.now())}.xlsx`, [{ name: 'SIPS', columns: LIST_COLUMNS, rows: items }])
  })
}
