import type Database from 'better-sqlite3'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requirePermission } from '../../auth/access-hooks'
import { madridToday } from '../../domain/calendar'
import { emailValido } from '../../domain/contract-rules'
import { FACTOR_IMPUESTOS } from '../../domain/energy-prices'
import {
  fechasAhorro,
  proyeccion10Anios,
  rankBaterias,
  resultadoBateria,
  type EntradaModelo,
} from '../../domain/battery'
import { validateNif } from '../../domain/identifiers'
import { isoTimestamp } from '../../lib/catalogos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { BrandPdf, brandIdentity, euros, fechaEs, numeroEs, sendPdf } from '../../lib/pdf'
import { bodyObject } from '../business/shared'
import { booleanField, numberField, objectField, requiredNumber, textField, toNumber } from './shared'
import type { Battery, BatteryResult, SavingsPeriod } from '../../../../schemas/business/battery'

/** Largest consumption or production accepted (kWh a year): a large self-consumption plant. */
const MAX_KWH = 10_000_000
/** Largest price accepted, €/kWh. */
const MAX_PRECIO = 2
/** Largest stored `Resultado` of a saved calculation (characters of JSON). */
const MAX_RESULTADO = 200_000

export interface Calculo {
  entrada: EntradaModelo
  fechas: SavingsPeriod | null
  /** Which prices were taken from the savings period. */
  preciosDelPeriodo: ('PrecioImportacionKwh' | 'PrecioExcedenteKwh')[]
  bateriaIds: number[] | null
}

function baterias(db: Database.Database): Battery[] {
  return db
    .prepare(
      `SELECT id AS Id, modelo AS Modelo, fabricante AS Fabricante, capacidad_util_kwh AS CapacidadUtilKwh, eficiencia AS Eficiencia,
         llenado_medio AS LlenadoMedio, precio_eur AS PrecioEur, garantia_anios AS GarantiaAnios
       FROM baterias WHERE activa = 1 ORDER BY capacidad_util_kwh, id`,
    )
    .all() as Battery[]
}

function idList(value: unknown, name: string): number[] | null {
  if (value === undefined || value === null) return null
  if (!Array.isArray(value)) fail(400, `${name}: debe ser una lista de ids de batería.`)
  if (value.length === 0) fail(400, `${name}: la lista está vacía (omítela para comparar todas las baterías).`)
  const ids = value.map((v) => {
    const n = toNumber(v)
    if (!Number.isSafeInteger(n) || n < 1) fail(400, `${name}: ${JSON.stringify(v)} no es un id de batería.`)
    return n
  })
  return [...new Set(ids)]
}

/**
 * The calculator's body (or the `Calculo` of the offer, contract and save calls, `prefix`
 * `Calculo.`): every problem a 400 naming the field. When `FechasAhorroId` is given, an
 * omitted price takes that period's average (converted to taxes included when
 * `PreciosConImpuestos` is true).
 */
export function parseCalculo(value: unknown, today: string, prefix = ''): Calculo {
  const body = prefix ? objectField(value, prefix.replace(/\.$/, '')) : bodyObject(value)
  const f = (name: string) => `${prefix}${name}`
  const consumo = requiredNumber(body.ConsumoAnualKwh, f('ConsumoAnualKwh'), { min: 0, minExclusive: true, max: MAX_KWH })
  const produccion = requiredNumber(body.ProduccionFvAnualKwh, f('ProduccionFvAnualKwh'), { min: 0, max: MAX_KWH })
  const autoconsumo = requiredNumber(body.AutoconsumoDirectoKwh, f('AutoconsumoDirectoKwh'), { min: 0, max: MAX_KWH })
  if (autoconsumo > produccion) fail(400, `${f('AutoconsumoDirectoKwh')}: el autoconsumo directo (${numeroEs(autoconsumo, 0)} kWh) no puede superar la producción fotovoltaica (${numeroEs(produccion, 0)} kWh).`)
  if (autoconsumo > consumo) fail(400, `${f('AutoconsumoDirectoKwh')}: el autoconsumo directo (${numeroEs(autoconsumo, 0)} kWh) no puede superar el consumo anual (${numeroEs(consumo, 0)} kWh).`)
  const conImpuestos = booleanField(body.PreciosConImpuestos, f('PreciosConImpuestos'))
  let fechas: SavingsPeriod | null = null
  if (body.FechasAhorroId !== undefined && body.FechasAhorroId !== null && body.FechasAhorroId !== '') {
    const id = toNumber(body.FechasAhorroId)
    if (!Number.isSafeInteger(id) || id < 1) fail(400, `${f('FechasAhorroId')}: debe ser un id de GET /api/bateria/FechasAhorro.`)
    fechas = fechasAhorro(today).find((p) => p.Id === id) ?? fail(400, `${f('FechasAhorroId')}: el periodo ${id} no existe (GET /api/bateria/FechasAhorro).`)
  }
  const preciosDelPeriodo: Calculo['preciosDelPeriodo'] = []
  const price = (name: 'PrecioImportacionKwh' | 'PrecioExcedenteKwh', periodValue: number | undefined) => {
    const given = numberField(body[name], f(name), { min: 0, max: MAX_PRECIO, required: periodValue === undefined })
    if (given !== null) return given
    preciosDelPeriodo.push(name)
    const k = conImpuestos ? FACTOR_IMPUESTOS : 1
    return Math.round(periodValue! * k * 1e6) / 1e6
  }
  const precioImportacion = price('PrecioImportacionKwh', fechas?.PrecioImportacionMedioKwh)
  const precioExcedente = price('PrecioExcedenteKwh', fechas?.PrecioExcedenteMedioKwh)
  return {
    entrada: { consumoKwh: consumo, produccionKwh: produccion, autoconsumoKwh: autoconsumo, precioImportacionKwh: precioImportacion, precioExcedenteKwh: precioExcedente, preciosConImpuestos: conImpuestos },
    fechas,
    preciosDelPeriodo,
    bateriaIds: idList(body.BateriaIds, f('BateriaIds')),
  }
}

/** The `Entrada` echo: the inputs used (prices filled from the period) and the situation without battery. */
function entradaAnswer(c: Calculo) {
  const e = c.entrada
  const r1 = (v: number) => Math.round(v * 10) / 10
  return {
    ConsumoAnualKwh: e.consumoKwh,
    ProduccionFvAnualKwh: e.produccionKwh,
    AutoconsumoDirectoKwh: e.autoconsumoKwh,
    PrecioImportacionKwh: e.precioImportacionKwh,
    PrecioExcedenteKwh: e.precioExcedenteKwh,
    PreciosConImpuestos: e.preciosConImpuestos,
    FechasAhorroId: c.fechas?.Id ?? null,
    FechasAhorro: c.fechas ? { Id: c.fechas.Id, Nombre: c.fechas.Nombre, Desde: c.fechas.Desde, Hasta: c.fechas.Hasta } : null,
    PreciosDelPeriodo: c.preciosDelPeriodo,
    FactorImpuestos: e.preciosConImpuestos ? 1 : Math.round(FACTOR_IMPUESTOS * 1e8) / 1e8,
    ExcedenteAntesKwh: Math.round(e.produccionKwh - e.autoconsumoKwh),
    ImportacionAntesKwh: Math.round(e.consumoKwh - e.autoconsumoKwh),
    AutoconsumoAntesPct: e.produccionKwh > 0 ? r1((e.autoconsumoKwh / e.produccionKwh) * 100) : 0,
    AutarquiaAntesPct: r1((e.autoconsumoKwh / e.consumoKwh) * 100),
  }
}

function selectBaterias(all: Battery[], ids: number[] | null, name: string): Battery[] {
  if (!ids) return all
  const byId = new Map(all.map((b) => [b.Id, b]))
  const unknown = ids.filter((id) => !byId.has(id))
  if (unknown.length) fail(400, `${name}: ${unknown.length === 1 ? `la batería ${unknown[0]} no existe` : `las baterías ${unknown.join(', ')} no existen`}.`)
  return ids.map((id) => byId.get(id)!)
}

interface DocumentoBody {
  calculo: Calculo
  bateria: Battery
  resultado: BatteryResult
  cliente: { Nombre: string; Nif: string | null; Email: string | null; Direccion: string | null; Telefono: string | null }
}

/** The offer and contract calls' body: `{ Calculo, BateriaId, Cliente: { Nombre, Nif?, Email?, Direccion? } }`. */
function parseDocumento(db: Database.Database, value: unknown, today: string): DocumentoBody {
  const body = bodyObject(value)
  const calculo = parseCalculo(body.Calculo, today, 'Calculo.')
  const id = toNumber(body.BateriaId)
  if (body.BateriaId === undefined || body.BateriaId === null || body.BateriaId === '') fail(400, 'BateriaId: es obligatorio.')
  if (!Number.isSafeInteger(id) || id < 1) fail(400, 'BateriaId: debe ser un id de batería.')
  const [bateria] = selectBaterias(baterias(db), [id], 'BateriaId')
  const c = objectField(body.Cliente, 'Cliente')
  const nombre = textField(c.Nombre, 'Cliente.Nombre', 150, true)!
  let nif = textField(c.Nif, 'Cliente.Nif', 20)
  if (nif !== null) {
    const v = validateNif(nif)
    if (!v.valid) fail(400, `Cliente.Nif: ${v.reason}`)
    nif = v.normalized
  }
  const email = textField(c.Email, 'Cliente.Email', 254)
  if (email !== null && !emailValido(email)) fail(400, `Cliente.Email: «${email}» no es un correo electrónico válido.`)
  const direccion = textField(c.Direccion, 'Cliente.Direccion', 250)
  const telefono = textField(c.Telefono, 'Cliente.Telefono', 30)
  return { calculo, bateria: bateria!, resultado: resultadoBateria(calculo.entrada, bateria!), cliente: { Nombre: nombre, Nif: nif, Email: email?.toLowerCase() ?? null, Direccion: direccion, Telefono: telefono } }
}

const kwh = (v: number) => `${numeroEs(v, 0)} kWh`
const pct = (v: number) => `${numeroEs(v, 1)} %`
const eurKwh = (v: number) => `${numeroEs(v, 4)} €/kWh`
const anios = (v: number | null) => (v === null ? 'No se recupera' : `${numeroEs(v, 1)} años`)

function datosDePartida(pdf: BrandPdf, d: DocumentoBody) {
  const e = d.calculo.entrada
  const periodo = d.calculo.fechas ? `${d.calculo.fechas.Nombre} (${fechaEs(d.calculo.fechas.Desde)}–${fechaEs(d.calculo.fechas.Hasta)})` : null
  pdf.section('Datos de partida').keyValues([
    ['Consumo anual', kwh(e.consumoKwh)],
    ['Producción fotovoltaica anual', kwh(e.produccionKwh)],
    ['Autoconsumo directo', kwh(e.autoconsumoKwh)],
    ['Excedentes sin batería', kwh(e.produccionKwh - e.autoconsumoKwh)],
    ['Energía importada sin batería', kwh(e.consumoKwh - e.autoconsumoKwh)],
    ['Precio de la energía importada', eurKwh(e.precioImportacionKwh)],
    ['Precio de compensación de excedentes', eurKwh(e.precioExcedenteKwh)],
    ['Precios', e.preciosConImpuestos ? 'Con impuestos incluidos' : 'Sin impuestos (el ahorro los añade: impuesto eléctrico 5,11269632 % e IVA 21 %)'],
    ...(periodo ? ([['Periodo de precios', periodo]] as [string, string][]) : []),
  ])
}

function datosBateria(pdf: BrandPdf, b: Battery) {
  pdf.section('Batería').keyValues([
    ['Fabricante', b.Fabricante],
    ['Modelo', b.Modelo],
    ['Capacidad útil', `${numeroEs(b.CapacidadUtilKwh, 2)} kWh`],
    ['Eficiencia (ida y vuelta)', pct(b.Eficiencia * 100)],
    ['Llenado medio diario', pct(b.LlenadoMedio * 100)],
    ['Precio instalada (IVA incluido)', euros(b.PrecioEur)],
    ['Garantía del fabricante', `${b.GarantiaAnios} años`],
  ])
}

async function ofertaPdf(ctx: ApiContext, request: FastifyRequest, d: DocumentoBody, today: string): Promise<Buffer> {
  const brand = brandIdentity(ctx.brandsDir, request.marca)
  const r = d.resultado
  const e = d.calculo.entrada
  // Text in the standard fonts is WinAnsi: no «−» (U+2212) or other symbols outside it.
  const pdf = new BrandPdf(brand, { title: 'Oferta de batería', subtitle: `${d.cliente.Nombre} · ${fechaEs(today)} · Oferta válida durante 30 días`, subject: `Oferta de batería ${d.bateria.Fabricante} ${d.bateria.Modelo}` })
  pdf.highlight('Batería propuesta', `${d.bateria.Fabricante} ${d.bateria.Modelo} · ${numeroEs(d.bateria.CapacidadUtilKwh, 2)} kWh`)
  pdf.section('Cliente').keyValues([
    ['Nombre', d.cliente.Nombre],
    ['NIF/CIF', d.cliente.Nif],
    ['Correo electrónico', d.cliente.Email],
    ['Teléfono', d.cliente.Telefono],
    ['Dirección', d.cliente.Direccion],
  ])
  datosDePartida(pdf, d)
  datosBateria(pdf, d.bateria)
  pdf.section('Resultados anuales').table(
    [
      { header: 'Concepto', width: 0.46 },
      { header: 'Sin batería', width: 0.27, align: 'right' },
      { header: 'Con batería', width: 0.27, align: 'right' },
    ],
    [
      ['Energía autoconsumida', kwh(e.autoconsumoKwh), kwh(e.autoconsumoKwh + r.EntregadaKwh)],
      ['Excedentes vertidos a la red', kwh(e.produccionKwh - e.autoconsumoKwh), kwh(r.ExcedenteDespuesKwh)],
      ['Energía importada de la red', kwh(e.consumoKwh - e.autoconsumoKwh), kwh(r.ImportacionDespuesKwh)],
      ['Autoconsumo (autoconsumida / producida)', pct(r.AutoconsumoAntesPct), pct(r.AutoconsumoDespuesPct)],
      ['Autarquía (autoconsumida / consumida)', pct(r.AutarquiaAntesPct), pct(r.AutarquiaDespuesPct)],
    ],
  )
  pdf.keyValues([
    ['Energía cargada en la batería', kwh(r.CargaKwh)],
    ['Energía entregada por la batería', kwh(r.EntregadaKwh)],
    ['Ahorro anual estimado', euros(r.AhorroAnualEur)],
    ['Retorno de la inversión', anios(r.RetornoAnios)],
    ['Ahorro neto a 10 años', euros(r.AhorroNeto10AniosEur)],
  ])
  pdf.section('Proyección a 10 años').table(
    [
      { header: 'Año', width: 0.16, align: 'center' },
      { header: 'Ahorro del año', width: 0.28, align: 'right' },
      { header: 'Ahorro acumulado', width: 0.28, align: 'right' },
      { header: 'Saldo (acumulado - precio)', width: 0.28, align: 'right' },
    ],
    proyeccion10Anios(r).map((y) => [y.Anio, euros(y.AhorroEur), euros(y.AcumuladoEur), euros(y.SaldoEur)]),
  )
  pdf.section('Cómo se calcula').paragraph(
    'Carga anual = mín(excedentes, capacidad útil × llenado medio × 365, importación / eficiencia); energía entregada = eficiencia × carga. ' +
      'Ahorro = energía entregada × precio de importación - energía cargada × precio de compensación de excedentes' +
      (e.preciosConImpuestos ? '.' : ', con el impuesto eléctrico (5,11269632 %) y el IVA (21 %).') +
      ' Retorno = precio de la batería / ahorro anual. Estimación con precios constantes y sin degradación de la batería; no es una garantía de ahorro.',
    { muted: true, size: 9 },
  )
  pdf.section('Condiciones').paragraph(
    `Precio llave en mano con IVA incluido: suministro, instalación por instalador habilitado, puesta en marcha y legalización. Oferta válida durante 30 días desde el ${fechaEs(today)}. ` +
      `Garantía del fabricante de ${d.bateria.GarantiaAnios} años sobre la batería y garantía legal de tres años sobre la instalación.`,
    { size: 9.5 },
  )
  return pdf.toBuffer()
}

async function contratoPdf(ctx: ApiContext, request: FastifyRequest, d: DocumentoBody, today: string): Promise<Buffer> {
  const brand = brandIdentity(ctx.brandsDir, request.marca)
  const b = d.bateria
  const base = Math.round((b.PrecioEur / 1.21) * 100) / 100
  const pdf = new BrandPdf(brand, { title: 'Contrato de suministro e instalación de batería', subtitle: `${fechaEs(today)} · ${d.cliente.Nombre}`, subject: `Contrato de batería ${b.Fabricante} ${b.Modelo}` })
  pdf.highlight('Batería contratada', `${b.Fabricante} ${b.Modelo} · ${euros(b.PrecioEur)}`)
  pdf.section('Reunidos').keyValues([
    ['El vendedor', `${brand.nombre} (${brand.dominio}), en adelante «la empresa»`],
    ['El cliente', d.cliente.Nombre],
    ['NIF/CIF del cliente', d.cliente.Nif],
    ['Domicilio de la instalación', d.cliente.Direccion],
    ['Correo electrónico', d.cliente.Email],
    ['Teléfono', d.cliente.Telefono],
  ])
  pdf.section('1. Objeto').paragraph(
    'La empresa suministra e instala en el domicilio del cliente la batería descrita, conectada a su instalación fotovoltaica de autoconsumo, y la deja en funcionamiento.',
  )
  datosBateria(pdf, b)
  pdf.section('2. Precio y forma de pago').keyValues([
    ['Precio total (IVA incluido)', euros(b.PrecioEur)],
    ['Base imponible', euros(base)],
    ['IVA (21 %)', euros(Math.round((b.PrecioEur - base) * 100) / 100)],
    ['Forma de pago', '30 % a la firma y 70 % a la puesta en marcha, por transferencia o domiciliación'],
  ])
  pdf.section('3. Instalación').paragraph(
    'La instalación la realiza un instalador habilitado en un plazo máximo de 30 días desde la firma (o desde que termine el plazo de desistimiento, si el cliente no pide empezar antes), ' +
      'previa comprobación de la compatibilidad del inversor. Incluye el material, la mano de obra, la configuración, la puesta en marcha y, cuando proceda, la comunicación de la modificación de la instalación de autoconsumo.',
  )
  pdf.section('4. Garantía').paragraph(
    `La batería tiene la garantía del fabricante (${b.Fabricante}) de ${b.GarantiaAnios} años. La empresa responde de la falta de conformidad de los bienes y de la instalación durante tres años desde la entrega (garantía legal), ` +
      'y gestiona ante el fabricante cualquier reclamación de garantía.',
  )
  pdf.section('5. Derecho de desistimiento').paragraph(
    'El cliente puede desistir de este contrato, sin indicar el motivo y sin penalización, en el plazo de 14 días naturales desde su firma, comunicándolo a la empresa por cualquier medio que deje constancia. ' +
      'Si ha pedido que la instalación empiece durante ese plazo, abonará la parte proporcional de lo ya prestado.',
  )
  pdf.section('6. Ahorro estimado').paragraph(
    `Con los datos facilitados se estima un ahorro de ${euros(d.resultado.AhorroAnualEur)} al año (retorno: ${anios(d.resultado.RetornoAnios).toLowerCase()}). Es una estimación, no un compromiso de ahorro.`,
  )
  pdf.section('7. Protección de datos').paragraph(
    `${brand.nombre} trata los datos del cliente para ejecutar este contrato. El cliente puede ejercer sus derechos de acceso, rectificación, supresión, oposición, limitación y portabilidad escribiendo a la empresa.`,
    { size: 9.5 },
  )
  pdf.signatureBoxes([
    { caption: `Por ${brand.nombre}`, lines: [`Fecha: ${fechaEs(today)}`] },
    { caption: 'El cliente', lines: [d.cliente.Nombre, d.cliente.Nif ?? ''].filter(Boolean) },
  ])
  return pdf.toBuffer()
}

/** Batteries (spec §7 Battery): every call needs MENUPRODUCTOSBATERIAS. */
export async function batteryRoutes(app: FastifyInstance, ctx: ApiContext) {
  const { db } = ctx
  // Checked before the body is read.
  app.addHook('onRequest', requirePermission('MENUPRODUCTOSBATERIAS'))
  const today = () => madridToday(ctx.now())

  app.get('/api/bateria/FechasAhorro', async () => fechasAhorro(today()))

  app.post('/api/bateria/calculadora', async (request) => {
    const calculo = parseCalculo(request.body, today())
    const ranked = rankBaterias(calculo.entrada, selectBaterias(baterias(db), calculo.bateriaIds, 'BateriaIds'))
    return { Entrada: entradaAnswer(calculo), Mejor: ranked[0]!, Alternativas: ranked.slice(1) }
  })

  app.post('/api/bateria/oferta', async (request, reply) => {
    const d = parseDocumento(db, request.body, today())
    return sendPdf(reply, await ofertaPdf(ctx, request, d, today()), `oferta-bateria-${today()}.pdf`)
  })

  app.post('/api/bateria/contrato', async (request, reply) => {
    const d = parseDocumento(db, request.body, today())
    return sendPdf(reply, await contratoPdf(ctx, request, d, today()), `contrato-bateria-${today()}.pdf`)
  })

  app.post('/api/bateria/savedata', async (request, reply) => {
    const body = bodyObject(request.body)
    const nombre = textField(body.Nombre, 'Nombre', 100, true)!
    const calculo = parseCalculo(body.Calculo, today(), 'Calculo.')
    let resultado: string | null = null
    if (body.Resultado !== undefined && body.Resultado !== null) {
      if (typeof body.Resultado !== 'object') fail(400, 'Resultado: debe ser un objeto JSON.')
      resultado = JSON.stringify(body.Resultado)
      if (resultado.length > MAX_RESULTADO) fail(400, `Resultado: es demasiado grande (más de ${MAX_RESULTADO.toLocaleString('es-ES')} caracteres).`)
    }
    const fecha = isoTimestamp(ctx.now())
    const stored = { ...(body.Calculo as Record<string, unknown>), Entrada: entradaAnswer(calculo) }
    const info = db
      .prepare('INSERT INTO bateria_calculos (marca_id, usuario_id, nombre, calculo, resultado, fecha) VALUES (?, ?, ?, ?, ?, ?)')
      .run(request.marca.id, request.caller!.userId, nombre, JSON.stringify(stored), resultado, fecha)
    return reply.code(201).send({ Id: Number(info.lastInsertRowid), Nombre: nombre, Fecha: fecha })
  })
}
