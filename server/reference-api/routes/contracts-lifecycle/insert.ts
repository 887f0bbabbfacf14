import type { FastifyInstance } from 'fastify'
import { PERIODOS, emailValido, normalizarTelefono, problemaCodigoPostal, problemasPotencias, type PorPeriodo } from '../../domain/contract-rules'
import { distribuidoraDeCups } from '../../domain/distribuidoras'
import { validateCups, validateIban, validateNif } from '../../domain/identifiers'
import { ofertaPrecioFijo } from '../../domain/precios'
import { COLECTIVOS, TIPOS_ALTA, TIPOS_COMISION, TIPOS_IMPRESION, cnaeByCodigo, isoDate, isoTimestamp, provinciaById, tarifaById, type Tipo } from '../../lib/catalogos'
import { brandPrefix, contractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { callerScope } from '../../lib/visibility'
import { bodyObject } from '../business/shared'
import { TIPO_ALTA_M1, addHistory, agentVisible, contractInForce } from './shared'

type Obj = Record<string, unknown>

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** A 400 naming the field: `Cliente.Nif: La letra del DNI no es correcta (debería ser Z).` */
function bad(field: string, message: string): never {
  fail(400, `${field}: ${cap(message)}`)
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')

function object(o: Obj, key: string, field: string, label: string): Obj {
  const v = o[key]
  if (isBlank(v)) bad(field, `faltan ${label}.`)
  if (typeof v !== 'object' || Array.isArray(v)) bad(field, `${label} deben ser un objeto JSON.`)
  return v as Obj
}

function text(o: Obj, key: string, field: string, label: string, opts: { required?: boolean; max?: number } = {}): string | null {
  const v = o[key]
  if (isBlank(v)) {
    if (opts.required) bad(field, `falta ${label}.`)
    return null
  }
  if (typeof v !== 'string') bad(field, `${label} debe ser un texto.`)
  const t = v.trim().replace(/\s+/g, ' ')
  const max = opts.max ?? 200
  if (t.length > max) bad(field, `${label} no puede tener más de ${max} caracteres.`)
  return t
}

function required<T>(value: T | null): T {
  return value as T
}

function integer(o: Obj, key: string, field: string, label: string, opts: { required?: boolean } = {}): number | null {
  const v = o[key]
  if (isBlank(v)) {
    if (opts.required) bad(field, `falta ${label}.`)
    return null
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN
  if (!Number.isSafeInteger(n) || n < 1) bad(field, `${label} debe ser un número entero positivo.`)
  return n
}

function decimal(o: Obj, key: string, field: string, label: string): number | null {
  const v = o[key]
  if (isBlank(v)) return null
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+([.,]\d+)?\s*$/.test(v) ? Number(v.trim().replace(',', '.')) : NaN
  if (!Number.isFinite(n)) bad(field, `${label} debe ser un número.`)
  return n
}

function catalogId(o: Obj, key: string, list: readonly Tipo[], label: string, opts: { required?: boolean } = {}): number | null {
  const id = integer(o, key, key, label, opts)
  if (id !== null && !list.some((t) => t.Id === id)) bad(key, `${label} ${id} no existe (valores: ${list.map((t) => `${t.Id} ${t.Codigo}`).join(', ')}).`)
  return id
}

interface Address {
  Direccion: string
  CodigoPostal: string
  Municipio: string
  ProvinciaId: number
}

function address(o: Obj, prefix: string, whose: string): Address {
  const Direccion = required(text(o, 'Direccion', `${prefix}.Direccion`, `la dirección ${whose}`, { required: true, max: 200 }))
  const ProvinciaId = required(integer(o, 'ProvinciaId', `${prefix}.ProvinciaId`, `la provincia ${whose}`, { required: true }))
  const provincia = provinciaById.get(ProvinciaId)
  if (!provincia) bad(`${prefix}.ProvinciaId`, `la provincia ${ProvinciaId} no existe (1 a 52).`)
  const CodigoPostal = required(text(o, 'CodigoPostal', `${prefix}.CodigoPostal`, `el código postal ${whose}`, { required: true, max: 10 })).replace(/\s/g, '')
  const cpProblem = problemaCodigoPostal(CodigoPostal, ProvinciaId, provincia.Nombre)
  if (cpProblem) bad(`${prefix}.CodigoPostal`, cpProblem)
  const Municipio = required(text(o, 'Municipio', `${prefix}.Municipio`, `el municipio ${whose}`, { required: true, max: 100 }))
  return { Direccion, CodigoPostal, Municipio, ProvinciaId }
}

/** The validated body of `POST /api/contract/insert`. */
export interface ContractInsert {
  cliente: {
    Tipo: 'fisica' | 'juridica'
    Nif: string
    Nombre: string | null
    Apellido1: string | null
    Apellido2: string | null
    RazonSocial: string | null
    FormaJuridica: string | null
    Email: string | null
    Telefono: string | null
  } & Address
  punto: { Cups: string; DistribuidoraCodigo: string; Distribuidora: string } & Address
  tarifaId: number
  potencias: PorPeriodo
  modalidad: 'fijo' | 'indexado'
  feeMwh: number | null
  consumoAnual: number
  cnae: string
  tipoAltaId: number
  tipoImpresionId: number
  tipoComisionId: number | null
  colectivoId: number | null
  agenteId: number | null
  iban: string
  observaciones: string | null
}

/** The holder of a contract (`Cliente` of the insert and of the edit): a 400 naming the first bad field. */
export function parseHolder(c: Obj): ContractInsert['cliente'] {
  const tipoRaw = c.Tipo
  if (isBlank(tipoRaw)) bad('Cliente.Tipo', 'falta el tipo de titular («fisica» o «juridica»).')
  const Tipo = typeof tipoRaw === 'string' ? tipoRaw.trim().toLowerCase() : ''
  if (Tipo !== 'fisica' && Tipo !== 'juridica') bad('Cliente.Tipo', 'el tipo de titular debe ser «fisica» o «juridica».')
  const nifRaw = required(text(c, 'Nif', 'Cliente.Nif', 'el NIF del titular', { required: true, max: 64 }))
  const nif = validateNif(nifRaw)
  if (!nif.valid) bad('Cliente.Nif', nif.reason ?? 'El NIF no es válido.')
  if (Tipo === 'fisica' && nif.kind === 'CIF') bad('Cliente.Nif', `una persona física se identifica con DNI o NIE; ${nif.normalized} es un CIF.`)
  if (Tipo === 'juridica' && nif.kind !== 'CIF') bad('Cliente.Nif', `una persona jurídica se identifica con un CIF; ${nif.normalized} es un ${nif.kind}.`)
  let Nombre: string | null = null
  let Apellido1: string | null = null
  let Apellido2: string | null = null
  let RazonSocial: string | null = null
  let FormaJuridica: string | null = null
  if (Tipo === 'fisica') {
    Nombre = text(c, 'Nombre', 'Cliente.Nombre', 'el nombre del titular', { required: true, max: 60 })
    Apellido1 = text(c, 'Apellido1', 'Cliente.Apellido1', 'el primer apellido del titular', { required: true, max: 60 })
    Apellido2 = text(c, 'Apellido2', 'Cliente.Apellido2', 'el segundo apellido del titular', { max: 60 })
  } else {
    RazonSocial = text(c, 'RazonSocial', 'Cliente.RazonSocial', 'la razón social', { required: true, max: 150 })
    FormaJuridica = text(c, 'FormaJuridica', 'Cliente.FormaJuridica', 'la forma jurídica', { max: 30 })
  }
  const emailRaw = text(c, 'Email', 'Cliente.Email', 'el correo electrónico', { max: 254 })
  if (emailRaw !== null && !emailValido(emailRaw)) bad('Cliente.Email', `el correo electrónico «${emailRaw}» no es válido.`)
  const telefonoRaw = text(c, 'Telefono', 'Cliente.Telefono', 'el teléfono', { max: 20 })
  const Telefono = telefonoRaw === null ? null : normalizarTelefono(telefonoRaw)
  if (telefonoRaw !== null && Telefono === null) bad('Cliente.Telefono', `el teléfono «${telefonoRaw}» no es un número español de 9 dígitos (empezando por 6, 7, 8 o 9).`)
  const clienteDir = address(c, 'Cliente', 'del titular')
  return { Tipo, Nif: nif.normalized, Nombre, Apellido1, Apellido2, RazonSocial, FormaJuridica, Email: emailRaw?.toLowerCase() ?? null, Telefono, ...clienteDir }
}

/** A Spanish IBAN, required, normalised (no spaces, upper case). */
export function parseIban(o: Obj, key: string, field: string): { normalized: string } {
  const ibanRaw = required(text(o, key, field, 'el IBAN de domiciliación', { required: true, max: 64 }))
  const iban = validateIban(ibanRaw)
  if (!iban.valid) bad(field, iban.reason ?? 'El IBAN no es válido.')
  return iban
}

/** Reads and checks the insert body field by field: the first problem is a 400 naming the field. */
export function parseContractInsert(raw: unknown): ContractInsert {
  const body = bodyObject(raw)
  // ── holder ──
  const cliente = parseHolder(object(body, 'Cliente', 'Cliente', 'los datos del titular'))

  // ── supply point ──
  const p = object(body, 'PuntoSuministro', 'PuntoSuministro', 'los datos del punto de suministro')
  const cupsRaw = required(text(p, 'Cups', 'PuntoSuministro.Cups', 'el CUPS', { required: true, max: 64 }))
  const cups = validateCups(cupsRaw)
  if (!cups.valid) bad('PuntoSuministro.Cups', cups.reason ?? 'El CUPS no es válido.')
  const distribuidora = distribuidoraDeCups(cups.normalized)
  if (!distribuidora) bad('PuntoSuministro.Cups', `el código de distribuidora ${cups.normalized.slice(2, 6)} del CUPS no corresponde a ninguna distribuidora conocida.`)
  const puntoDir = address(p, 'PuntoSuministro', 'del punto de suministro')

  // ── tariff, powers, prices, consumption ──
  const tarifaId = required(integer(body, 'TarifaId', 'TarifaId', 'la tarifa de acceso', { required: true }))
  const tarifa = tarifaById.get(tarifaId)
  if (!tarifa) bad('TarifaId', `la tarifa ${tarifaId} no existe (GET /api/utility/tarifas).`)
  const pot = object(body, 'Potencias', 'Potencias', 'las potencias contratadas (P1…P6)')
  const values = PERIODOS.map((period) => {
    const v = decimal(pot, period, `Potencias.${period}`, `la potencia de ${period}`)
    return v === null ? null : Math.round(v * 1000) / 1000
  })
  const potencias: PorPeriodo = { P1: values[0]!, P2: values[1]!, P3: values[2]!, P4: values[3]!, P5: values[4]!, P6: values[5]! }
  const powerProblem = problemasPotencias(tarifa, potencias)[0]
  if (powerProblem) bad(powerProblem.campo, powerProblem.mensaje)
  const modalidadRaw = body.Modalidad
  if (isBlank(modalidadRaw)) bad('Modalidad', 'falta la modalidad de precio («fijo» o «indexado»).')
  const modalidad = typeof modalidadRaw === 'string' ? modalidadRaw.trim().toLowerCase() : ''
  if (modalidad !== 'fijo' && modalidad !== 'indexado') bad('Modalidad', 'la modalidad de precio debe ser «fijo» o «indexado».')
  let feeMwh: number | null = null
  if (modalidad === 'indexado') {
    feeMwh = decimal(body, 'FeeMwh', 'FeeMwh', 'el fee')
    if (feeMwh === null) bad('FeeMwh', 'falta el fee (€/MWh) de la modalidad indexada.')
    if (feeMwh < 0 || feeMwh > 50) bad('FeeMwh', `el fee debe estar entre 0 y 50 €/MWh (es ${String(feeMwh).replace('.', ',')}).`)
    feeMwh = Math.round(feeMwh * 100) / 100
  }
  const consumo = decimal(body, 'ConsumoAnual', 'ConsumoAnual', 'el consumo anual')
  if (consumo === null) bad('ConsumoAnual', 'falta el consumo anual estimado (kWh).')
  if (consumo < 1 || consumo > 100_000_000) bad('ConsumoAnual', 'el consumo anual debe estar entre 1 y 100.000.000 kWh.')
  const cnaeRaw = body.Cnae
  if (isBlank(cnaeRaw)) bad('Cnae', 'falta el CNAE de la actividad del suministro.')
  if (typeof cnaeRaw !== 'string' && typeof cnaeRaw !== 'number') bad('Cnae', 'el CNAE debe ser un código de 4 dígitos.')
  const cnaeText = String(cnaeRaw).trim()
  const cnae = /^\d{1,4}$/.test(cnaeText) ? cnaeText.padStart(4, '0') : cnaeText
  if (!cnaeByCodigo.has(cnae)) bad('Cnae', `el CNAE ${cnaeText.slice(0, 10)} no existe (GET /api/utility/cnaes).`)

  // ── request, billing, commission, agent, payment ──
  const tipoAltaId = required(catalogId(body, 'TipoAltaSolicitudId', TIPOS_ALTA, 'el tipo de solicitud', { required: true }))
  const tipoImpresionId = required(catalogId(body, 'TipoImpresionFacturaId', TIPOS_IMPRESION, 'el tipo de envío de factura', { required: true }))
  const tipoComisionId = catalogId(body, 'TipoComisionId', TIPOS_COMISION, 'el tipo de comisión')
  const colectivoId = catalogId(body, 'ColectivoId', COLECTIVOS, 'el colectivo')
  const agenteId = integer(body, 'AgenteId', 'AgenteId', 'el agente')
  const iban = parseIban(body, 'Iban', 'Iban')
  const observaciones = text(body, 'Observaciones', 'Observaciones', 'las observaciones', { max: 2000 })

  return {
    cliente,
    punto: { Cups: cups.normalized, DistribuidoraCodigo: distribuidora.Codigo, Distribuidora: distribuidora.Nombre, ...puntoDir },
    tarifaId,
    potencias,
    modalidad,
    feeMwh,
    consumoAnual: Math.round(consumo),
    cnae,
    tipoAltaId,
    tipoImpresionId,
    tipoComisionId,
    colectivoId,
    agenteId,
    iban: iban.normalized,
    observaciones,
  }
}

/** `POST /api/contract/insert` (spec §7): a new contract in `borrador`. */
export async function insertRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  const agentOf = db.prepare('SELECT id, codigo, nombre, activo, tipo_comision_id FROM agentes WHERE id = ? AND marca_id = ?')
  const clientByNif = db.prepare('SELECT id, iban FROM clientes WHERE marca_id = ? AND nif = ?')
  const pointByCups = db.prepare('SELECT id, marca_id FROM puntos_suministro WHERE cups = ?')

  app.post('/api/contract/insert', async (request, reply) => {
    const input = parseContractInsert(request.body)
    const scope = callerScope(db, request)
    const marcaId = request.marca.id
    const userId = request.caller!.userId

    // ── the agent: of this brand, active, and within a sales channel's subtree ──
    const agenteId = input.agenteId ?? scope.agenteId
    if (agenteId === null) fail(400, 'AgenteId: Falta el agente comercial del contrato.')
    const agent = agentOf.get(agenteId, marcaId) as { id: number; codigo: string; nombre: string; activo: number; tipo_comision_id: number | null } | undefined
    if (!agent) fail(400, `AgenteId: El agente ${agenteId} no existe en esta marca.`)
    if (!agentVisible(scope, agent.id)) fail(400, `AgenteId: El agente ${agent.codigo} no pertenece a tu red comercial.`)
    if (agent.activo !== 1) fail(400, `AgenteId: El agente ${agent.codigo} (${agent.nombre}) está dado de baja.`)

    // ── the CUPS: not another brand's, not in force (except for an M1 modification) ──
    const point = pointByCups.get(input.punto.Cups) as { id: number; marca_id: number } | undefined
    if (point && point.marca_id !== marcaId) fail(409, `El CUPS ${input.punto.Cups} está registrado en otra marca: no se puede contratar en esta.`)
    if (input.tipoAltaId !== TIPO_ALTA_M1) {
      const inForce = contractInForce(db, marcaId, input.punto.Cups)
      if (inForce) {
        fail(
          409,
          agentVisible(scope, inForce.agente_id)
            ? `El CUPS ${input.punto.Cups} ya tiene un contrato en vigor (${inForce.codigo}).`
            : `El CUPS ${input.punto.Cups} ya tiene un contrato en vigor.`,
        )
      }
    }

    const tarifa = tarifaById.get(input.tarifaId)!
    const today = isoDate(now())
    const stamp = isoTimestamp(now())
    const oferta = ofertaPrecioFijo(tarifa, request.marca.dominio, today)
    const energia = PERIODOS.map((p) => (input.modalidad === 'fijo' ? oferta.PreciosEnergia[p] : null))
    const potencia = PERIODOS.map((p) => oferta.PreciosPotencia[p])
    const cl = input.cliente
    const ps = input.punto

    const result = db.transaction(() => {
      // ── the holder: this brand's client with the same NIF (contact data updated), or a new one ──
      const existing = clientByNif.get(marcaId, cl.Nif) as { id: number; iban: string | null } | undefined
      let clienteId: number
      if (existing) {
        clienteId = existing.id
        db.prepare(
          `UPDATE clientes SET email = coalesce(?, email), telefono = coalesce(?, telefono), direccion = ?, codigo_postal = ?, municipio = ?,
             provincia_id = ?, iban = coalesce(iban, ?) WHERE id = ?`,
        ).run(cl.Email, cl.Telefono, cl.Direccion, cl.CodigoPostal, cl.Municipio, cl.ProvinciaId, input.iban, clienteId)
      } else {
        clienteId = db
          .prepare(
            `INSERT INTO clientes (marca_id, tipo, nif, nombre, apellido1, apellido2, razon_social, forma_juridica, email, telefono,
               direccion, codigo_postal, municipio, provincia_id, iban, fecha_alta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(marcaId, cl.Tipo, cl.Nif, cl.Nombre, cl.Apellido1, cl.Apellido2, cl.RazonSocial, cl.FormaJuridica, cl.Email, cl.Telefono, cl.Direccion, cl.CodigoPostal, cl.Municipio, cl.ProvinciaId, input.iban, today)
          .lastInsertRowid as number
      }
      // ── the supply point: the brand's one with this CUPS (now this holder's), or a new one ──
      let puntoId: number
      if (point) {
        puntoId = point.id
        db.prepare(
          `UPDATE puntos_suministro SET cliente_id = ?, direccion = ?, codigo_postal = ?, municipio = ?, provincia_id = ?, distribuidora_codigo = ?,
             distribuidora_nombre = ?, tarifa_id = ?, cnae = ? WHERE id = ?`,
        ).run(clienteId, ps.Direccion, ps.CodigoPostal, ps.Municipio, ps.ProvinciaId, ps.DistribuidoraCodigo, ps.Distribuidora, input.tarifaId, input.cnae, puntoId)
      } else {
        puntoId = db
          .prepare(
            `INSERT INTO puntos_suministro (marca_id, cliente_id, cups, direccion, codigo_postal, municipio, provincia_id, distribuidora_codigo,
               distribuidora_nombre, tarifa_id, cnae) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(marcaId, clienteId, ps.Cups, ps.Direccion, ps.CodigoPostal, ps.Municipio, ps.ProvinciaId, ps.DistribuidoraCodigo, ps.Distribuidora, input.tarifaId, input.cnae)
          .lastInsertRowid as number
      }
      // ── the next code of the brand and year ──
      const year = Number(today.slice(0, 4))
      const prefix = brandPrefix(request.marca.dominio)
      const last = db.prepare('SELECT MAX(CAST(substr(codigo, 9) AS INTEGER)) AS n FROM contratos WHERE marca_id = ? AND codigo LIKE ?').get(marcaId, `${prefix}-${year}-%`) as {
        n: number | null
      }
      const codigo = contractCode(prefix, year, (last.n ?? 0) + 1)
      const id = db
        .prepare(
          `INSERT INTO contratos (marca_id, codigo, cliente_id, punto_suministro_id, tarifa_id, estado, motivo_rechazo, agente_id,
             potencia_p1, potencia_p2, potencia_p3, potencia_p4, potencia_p5, potencia_p6, modalidad,
             precio_energia_p1, precio_energia_p2, precio_energia_p3, precio_energia_p4, precio_energia_p5, precio_energia_p6, fee_mwh,
             precio_potencia_p1, precio_potencia_p2, precio_potencia_p3, precio_potencia_p4, precio_potencia_p5, precio_potencia_p6,
             cnae, tipo_alta_solicitud_id, tipo_impresion_factura_id, tipo_comision_id, colectivo_id, iban, consumo_anual_kwh,
             fecha_alta, creado_en, creado_por, actualizado_en, actualizado_por, observaciones)
           VALUES (?, ?, ?, ?, ?, 'borrador', NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          marcaId,
          codigo,
          clienteId,
          puntoId,
          input.tarifaId,
          agent.id,
          ...PERIODOS.map((p) => input.potencias[p]),
          input.modalidad,
          ...energia,
          input.feeMwh,
          ...potencia,
          input.cnae,
          input.tipoAltaId,
          input.tipoImpresionId,
          input.tipoComisionId ?? agent.tipo_comision_id,
          input.colectivoId ?? (cl.Tipo === 'fisica' ? 1 : 2),
          input.iban,
          input.consumoAnual,
          today,
          stamp,
          userId,
          stamp,
          userId,
          input.observaciones,
        ).lastInsertRowid as number
      addHistory(db, { contratoId: id, fecha: stamp, usuarioId: userId, accion: 'alta', desde: null, hasta: 'borrador', detalle: 'Contrato dado de alta en borrador.' })
      return { id, codigo, clienteId, puntoId, clienteCreado: !existing, puntoCreado: !point }
    })()

    return reply.code(201).send({
      Id: result.id,
      CodigoContrato: result.codigo,
      Estado: 'borrador',
      ClienteId: result.clienteId,
      ClienteCreado: result.clienteCreado,
      PuntoSuministroId: result.puntoId,
      PuntoSuministroCreado: result.puntoCreado,
    })
  })
}
