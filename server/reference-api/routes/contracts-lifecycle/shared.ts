import type Database from 'better-sqlite3'
import {
  ESTADOS_FIRMADOS,
  ESTADOS_SIN_VIGOR,
  PERIODOS,
  emailValido,
  porPeriodo,
  problemaCodigoPostal,
  problemasPotencias,
  type PorPeriodo,
} from '../../domain/contract-rules'
import { distribuidoraDeCups } from '../../domain/distribuidoras'
import { validateCups, validateIban, validateNif } from '../../domain/identifiers'
import { TIPOS_ALTA, TIPOS_IMPRESION, cnaeByCodigo, estadoByCodigo, provinciaById, tarifaById } from '../../lib/catalogos'
import type { Scope } from '../../lib/visibility'

/** Everything the life-cycle calls need of a contract: its row with holder, supply point and agent. */
export interface ContractFacts {
  id: number
  marca_id: number
  codigo: string
  estado: string
  motivo_rechazo: string | null
  cliente_id: number
  punto_suministro_id: number
  tarifa_id: number
  modalidad: 'fijo' | 'indexado'
  fee_mwh: number | null
  cnae: string | null
  tipo_alta_solicitud_id: number | null
  tipo_impresion_factura_id: number | null
  tipo_comision_id: number | null
  colectivo_id: number | null
  iban: string | null
  consumo_anual_kwh: number | null
  fecha_alta: string
  fecha_firma: string | null
  fecha_activacion: string | null
  fecha_baja: string | null
  fecha_proxima_renovacion: string | null
  validado: number
  validado_en: string | null
  validado_por: number | null
  observaciones: string | null
  actualizado_en: string
  actualizado_por: number | null
  agente_id: number | null
  potencias: PorPeriodo
  preciosEnergia: PorPeriodo
  preciosPotencia: PorPeriodo
  cl_tipo: 'fisica' | 'juridica'
  cl_nif: string
  cl_nombre: string | null
  cl_apellido1: string | null
  cl_apellido2: string | null
  cl_razon_social: string | null
  cl_forma_juridica: string | null
  cl_titular: string
  cl_email: string | null
  cl_telefono: string | null
  cl_direccion: string
  cl_codigo_postal: string
  cl_municipio: string
  cl_provincia_id: number
  cl_iban: string | null
  ps_cups: string
  ps_direccion: string
  ps_codigo_postal: string
  ps_municipio: string
  ps_provincia_id: number
  ps_distribuidora_codigo: string
  ps_distribuidora_nombre: string
  a_codigo: string | null
  a_nombre: string | null
  a_activo: number | null
  a_email: string | null
  a_telefono: string | null
}

const statements = new WeakMap<Database.Database, Database.Statement>()

/** The facts of a contract by id (the caller checked visibility); undefined when unknown. */
export function contractFacts(db: Database.Database, id: number): ContractFacts | undefined {
  let stmt = statements.get(db)
  if (!stmt) {
    stmt = db.prepare(`
      SELECT c.*, cl.tipo AS cl_tipo, cl.nif AS cl_nif, cl.nombre AS cl_nombre, cl.apellido1 AS cl_apellido1, cl.apellido2 AS cl_apellido2,
        cl.razon_social AS cl_razon_social, cl.forma_juridica AS cl_forma_juridica, cl.titular AS cl_titular, cl.email AS cl_email,
        cl.telefono AS cl_telefono, cl.direccion AS cl_direccion, cl.codigo_postal AS cl_codigo_postal, cl.municipio AS cl_municipio,
        cl.provincia_id AS cl_provincia_id, cl.iban AS cl_iban,
        ps.cups AS ps_cups, ps.direccion AS ps_direccion, ps.codigo_postal AS ps_codigo_postal, ps.municipio AS ps_municipio,
        ps.provincia_id AS ps_provincia_id, ps.distribuidora_codigo AS ps_distribuidora_codigo, ps.distribuidora_nombre AS ps_distribuidora_nombre,
        a.codigo AS a_codigo, a.nombre AS a_nombre, a.activo AS a_activo, a.email AS a_email, a.telefono AS a_telefono
      FROM contratos c JOIN clientes cl ON cl.id = c.cliente_id JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
      LEFT JOIN agentes a ON a.id = c.agente_id
      WHERE c.id = ?`)
    statements.set(db, stmt)
  }
  const r = stmt.get(id) as Record<string, unknown> | undefined
  if (!r) return undefined
  const periods = (prefix: string) => porPeriodo(PERIODOS.map((p) => r[`${prefix}_${p.toLowerCase()}`] as number | null))
  return { ...(r as unknown as ContractFacts), potencias: periods('potencia'), preciosEnergia: periods('precio_energia'), preciosPotencia: periods('precio_potencia') }
}

export const estadoNombre = (estado: string) => estadoByCodigo.get(estado)?.Nombre ?? estado

/** The M1 request type (contractual modification): a CUPS in force may take it. */
export const TIPO_ALTA_M1 = TIPOS_ALTA.find((t) => t.Codigo === 'M1')?.Id ?? 4

/** The contract in force on a CUPS in this brand (latest first), other than `exceptId`. */
export function contractInForce(db: Database.Database, marcaId: number, cups: string, exceptId = 0): { id: number; codigo: string; estado: string; agente_id: number | null } | undefined {
  return db
    .prepare(
      `SELECT c.id, c.codigo, c.estado, c.agente_id FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id
       WHERE c.marca_id = ? AND ps.cups = ? AND c.id <> ? AND c.estado NOT IN (${ESTADOS_SIN_VIGOR.map(() => '?').join(', ')})
       ORDER BY c.fecha_alta DESC, c.id DESC LIMIT 1`,
    )
    .get(marcaId, cups, exceptId, ...ESTADOS_SIN_VIGOR) as { id: number; codigo: string; estado: string; agente_id: number | null } | undefined
}

/** Whether a contract's agent is within the caller's scope (sales channel) or the caller sees the whole brand. */
export function agentVisible(scope: Scope, agenteId: number | null): boolean {
  return scope.agentIds === null || (agenteId !== null && scope.agentIds.includes(agenteId))
}

export interface KleenResult {
  Valido: boolean
  Errores: string[]
  Avisos: string[]
}

/**
 * The Kleen validation of a contract: its data (identifiers, powers for the tariff, prices,
 * IBAN, e-mail, CNAE, agent…) and, with `withDocs`, its documents (the holder's identity
 * document; the signed contract once signed).
 */
export function kleenCheck(db: Database.Database, f: ContractFacts, withDocs: boolean): KleenResult {
  const errors: string[] = []
  const warnings: string[] = []
  const tarifa = tarifaById.get(f.tarifa_id)

  // ── holder ──
  const nif = validateNif(f.cl_nif)
  if (!nif.valid) errors.push(`NIF del titular ${f.cl_nif}: ${nif.reason}`)
  else if (f.cl_tipo === 'fisica' && nif.kind === 'CIF') errors.push(`NIF del titular ${f.cl_nif}: una persona física se identifica con DNI o NIE, no con un CIF.`)
  else if (f.cl_tipo === 'juridica' && nif.kind !== 'CIF') errors.push(`NIF del titular ${f.cl_nif}: una persona jurídica se identifica con un CIF.`)
  if (f.cl_tipo === 'fisica' && (!f.cl_nombre || !f.cl_apellido1)) errors.push('Faltan el nombre o el primer apellido del titular.')
  if (f.cl_tipo === 'juridica' && !f.cl_razon_social) errors.push('Falta la razón social del titular.')
  if (!f.cl_email) errors.push('Falta el correo electrónico del titular.')
  else if (!emailValido(f.cl_email)) errors.push(`El correo electrónico del titular (${f.cl_email}) no es válido.`)
  if (!f.cl_telefono) warnings.push('El titular no tiene teléfono de contacto.')
  const cpTitular = problemaCodigoPostal(f.cl_codigo_postal, f.cl_provincia_id, provinciaById.get(f.cl_provincia_id)?.Nombre)
  if (cpTitular) errors.push(`Dirección del titular: ${cpTitular}`)

  // ── supply point ──
  const cups = validateCups(f.ps_cups)
  if (!cups.valid) errors.push(`CUPS ${f.ps_cups}: ${cups.reason}`)
  else if (!distribuidoraDeCups(cups.normalized)) errors.push(`CUPS ${f.ps_cups}: la distribuidora ${cups.normalized.slice(2, 6)} no es conocida.`)
  const cpSuministro = problemaCodigoPostal(f.ps_codigo_postal, f.ps_provincia_id, provinciaById.get(f.ps_provincia_id)?.Nombre)
  if (cpSuministro) errors.push(`Dirección de suministro: ${cpSuministro}`)
  if (f.tipo_alta_solicitud_id !== TIPO_ALTA_M1) {
    const other = contractInForce(db, f.marca_id, f.ps_cups, f.id)
    if (other) errors.push(`El CUPS ${f.ps_cups} ya tiene otro contrato en vigor (${other.codigo}, ${estadoNombre(other.estado)}).`)
  }

  // ── tariff, powers and prices ──
  if (!tarifa) errors.push(`La tarifa ${f.tarifa_id} no existe.`)
  else {
    for (const p of problemasPotencias(tarifa, f.potencias)) errors.push(`${p.campo}: ${p.mensaje}`)
    if (f.modalidad === 'fijo') {
      const missing = PERIODOS.slice(0, tarifa.PeriodosEnergia).filter((p) => f.preciosEnergia[p] === null)
      if (missing.length) errors.push(`Faltan los precios de energía de ${missing.join(', ')} (modalidad de precio fijo).`)
    } else if (f.fee_mwh === null || f.fee_mwh < 0 || f.fee_mwh > 50) {
      errors.push('El fee de un contrato indexado debe estar entre 0 y 50 €/MWh.')
    }
    const missingPower = PERIODOS.slice(0, tarifa.PeriodosPotencia).filter((p) => f.preciosPotencia[p] === null)
    if (missingPower.length) errors.push(`Faltan los precios de potencia de ${missingPower.join(', ')}.`)
  }
  if (f.consumo_anual_kwh === null || f.consumo_anual_kwh < 1 || f.consumo_anual_kwh > 100_000_000) errors.push('El consumo anual estimado debe estar entre 1 y 100.000.000 kWh.')
  else {
    const max = Math.max(...PERIODOS.map((p) => f.potencias[p] ?? 0))
    if (max > 0 && f.consumo_anual_kwh > max * 8760 * 0.8) warnings.push(`El consumo anual (${f.consumo_anual_kwh.toLocaleString('es-ES')} kWh) es muy alto para la potencia contratada.`)
  }

  // ── payment, activity, request, agent ──
  if (!f.iban) errors.push('Falta el IBAN de domiciliación.')
  else {
    const iban = validateIban(f.iban)
    if (!iban.valid) errors.push(`IBAN: ${iban.reason}`)
    else if (f.cl_iban && validateIban(f.cl_iban).normalized !== iban.normalized) warnings.push('El IBAN del contrato es distinto del IBAN del titular.')
  }
  if (!f.cnae) errors.push('Falta el CNAE del suministro.')
  else if (!cnaeByCodigo.has(f.cnae)) errors.push(`El CNAE ${f.cnae} no existe.`)
  if (!TIPOS_ALTA.some((t) => t.Id === f.tipo_alta_solicitud_id)) errors.push('Falta el tipo de solicitud de alta.')
  if (!TIPOS_IMPRESION.some((t) => t.Id === f.tipo_impresion_factura_id)) errors.push('Falta el tipo de envío de la factura.')
  if (f.agente_id === null) errors.push('El contrato no tiene agente comercial.')
  else if (f.a_activo !== 1) errors.push(`El agente ${f.a_codigo} (${f.a_nombre}) está dado de baja.`)

  // ── documents ──
  if (withDocs) {
    const types = new Set((db.prepare('SELECT DISTINCT tipo FROM contrato_documentos WHERE contrato_id = ?').all(f.id) as { tipo: string }[]).map((d) => d.tipo))
    if (f.cl_tipo === 'fisica' && !types.has('dni')) errors.push('Falta el documento de identidad del titular (documento de tipo dni).')
    if (f.cl_tipo === 'juridica' && !types.has('cif_escrituras')) errors.push('Faltan el CIF y las escrituras de la sociedad (documento de tipo cif_escrituras).')
    if ((ESTADOS_FIRMADOS as readonly string[]).includes(f.estado) && !types.has('contrato_firmado')) errors.push('Falta el contrato firmado (documento de tipo contrato_firmado).')
    const tipoAlta = TIPOS_ALTA.find((t) => t.Id === f.tipo_alta_solicitud_id)?.Codigo
    if ((tipoAlta === 'C1' || tipoAlta === 'C2') && !types.has('factura_anterior')) {
      warnings.push('Se recomienda adjuntar una factura de la comercializadora anterior en los cambios de comercializador (documento de tipo factura_anterior).')
    }
  }
  return { Valido: errors.length === 0, Errores: errors, Avisos: warnings }
}

/** Writes a history entry. */
export function addHistory(
  db: Database.Database,
  e: { contratoId: number; fecha: string; usuarioId: number | null; accion: string; desde: string | null; hasta: string | null; detalle: string },
): void {
  db.prepare('INSERT INTO contrato_historial (contrato_id, fecha, usuario_id, accion, estado_anterior, estado_nuevo, detalle) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    e.contratoId,
    e.fecha,
    e.usuarioId,
    e.accion,
    e.desde,
    e.hasta,
    e.detalle,
  )
}
