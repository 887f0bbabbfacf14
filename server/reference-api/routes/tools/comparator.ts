import type { FastifyInstance } from 'fastify'
import { madridToday } from '../../domain/calendar'
import { compararOfertas, guardarComparativa } from '../../domain/comparator'
import { PERIODOS } from '../../domain/contract-rules'
import { isoTimestamp, sqlTarifaCodigo, tarifaById } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { pagedList, parsePageRequest, type ColumnMap } from '../../lib/paging'
import { summableOf } from '../../lib/summable-of-call'
import { bodyObject, positiveInt } from '../business/shared'
import { tarifaParam } from '../contracts-lifecycle/supply'
import { booleanField, objectField, periodsField, textField } from './shared'
import type { ComparisonInput } from '../../../../schemas/business/comparator'

/** Largest contracted power (kW) and annual consumption per period (kWh) accepted. */
const MAX_KW = 100_000
const MAX_KWH = 100_000_000
/** Largest price accepted (€/kWh and €/kW·day). */
const MAX_PRECIO = 2

/** The saved comparisons' list (README paging conventions). */
export const COMPARATIVA_COLUMNS: ColumnMap = {
  Id: { sql: 'c.id', type: 'number' },
  Nombre: { sql: 'c.nombre', type: 'text' },
  Cliente: { sql: 'c.cliente', type: 'text' },
  Tarifa: { sql: sqlTarifaCodigo('c.tarifa_id'), type: 'enum' },
  ImporteActualEur: { sql: 'c.importe_actual_eur', type: 'number' },
  MejorOferta: { sql: 'c.mejor_oferta', type: 'enum' },
  AhorroAnualEur: { sql: 'c.ahorro_anual_eur', type: 'number' },
  AhorroPct: { sql: 'c.ahorro_pct', type: 'number' },
  Fecha: { sql: 'c.fecha', type: 'date' },
}

/** The comparison's body: every problem a 400 naming the field. */
export function parseComparativa(value: unknown): { entrada: ComparisonInput; guardar: boolean } {
  const body = bodyObject(value)
  const nombre = textField(body.Nombre, 'Nombre', 100)
  const cliente = textField(body.Cliente, 'Cliente', 150)
  const tarifa = tarifaParam(body.TarifaId, 'TarifaId')
  const potencias = periodsField(body.PotenciasKw, 'PotenciasKw', tarifa.PeriodosPotencia, { min: 0, max: MAX_KW })
  const consumo = periodsField(body.ConsumoAnualKwh, 'ConsumoAnualKwh', tarifa.PeriodosEnergia, { min: 0, max: MAX_KWH })
  if (PERIODOS.every((p) => (consumo[p] ?? 0) === 0)) fail(400, 'ConsumoAnualKwh: el consumo anual no puede ser 0 en todos los periodos.')
  const precios = objectField(body.PreciosActuales, 'PreciosActuales')
  const energia = periodsField(precios.EnergiaKwh, 'PreciosActuales.EnergiaKwh', tarifa.PeriodosEnergia, { min: 0, max: MAX_PRECIO })
  const potencia = periodsField(precios.PotenciaKwDia, 'PreciosActuales.PotenciaKwDia', tarifa.PeriodosPotencia, { min: 0, max: MAX_PRECIO })
  return {
    entrada: { Nombre: nombre, Cliente: cliente, TarifaId: tarifa.Id, PotenciasKw: potencias, ConsumoAnualKwh: consumo, PreciosActuales: { EnergiaKwh: energia, PotenciaKwDia: potencia } },
    guardar: booleanField(body.Guardar, 'Guardar', false),
  }
}

interface StoredRow {
  id: number
  nombre: string
  cliente: string | null
  tarifa_id: number
  entrada: string
  resultado: string
  fecha: string
}

/** Comparison stand-in (development only; production links to the external comparison site). Any signed-in user. */
export async function comparatorRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx

  app.post('/api/comparador/comparativa', async (request) => {
    const { entrada, guardar } = parseComparativa(request.body)
    const tarifa = tarifaById.get(entrada.TarifaId)!
    const resultado = compararOfertas(entrada, tarifa, request.marca, madridToday(ctx.now()))
    const id = guardar
      ? guardarComparativa(db, { marcaId: request.marca.id, usuarioId: request.caller!.userId, entrada, resultado, tarifa, fecha: isoTimestamp(ctx.now()) })
      : null
    return { Id: id, Entrada: { ...entrada, Tarifa: tarifa.Codigo }, ...resultado }
  })

  app.get('/api/comparador/comparativas', async (request) => {
    const page = parsePageRequest(request.query as Record<string, unknown>, COMPARATIVA_COLUMNS)
    const select = `SELECT ${Object.entries(COMPARATIVA_COLUMNS).map(([name, spec]) => `${spec.sql} AS ${name}`).join(', ')} FROM comparativas c`
    return pagedList(db, {
      select,
      from: 'FROM comparativas c',
      where: ['c.marca_id = ?', 'c.usuario_id = ?'],
      whereParams: [request.marca.id, request.caller!.userId],
      columns: COMPARATIVA_COLUMNS,
      defaultOrder: 'c.fecha DESC, c.id DESC',
      summable: summableOf('comparator.list'),
    }, page)
  })

  app.get('/api/comparador/comparativas/:id', async (request) => {
    const id = positiveInt((request.params as Record<string, unknown>).id, 'el id de la comparativa')
    const row = db
      .prepare('SELECT id, nombre, cliente, tarifa_id, entrada, resultado, fecha FROM comparativas WHERE id = ? AND marca_id = ? AND usuario_id = ?')
      .get(id, request.marca.id, request.caller!.userId) as StoredRow | undefined
    if (!row) fail(404, `No se ha encontrado la comparativa ${id}.`)
    return {
      Id: row.id,
      Nombre: row.nombre,
      Cliente: row.cliente,
      TarifaId: row.tarifa_id,
      Tarifa: tarifaById.get(row.tarifa_id)?.Codigo ?? null,
      Fecha: row.fecha,
      Entrada: JSON.parse(row.entrada) as unknown,
      Resultado: JSON.parse(row.resultado) as unknown,
    }
  })
}
