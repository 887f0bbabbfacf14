import type Database from 'better-sqlite3'
import { DISTRIBUIDORAS, MUNICIPIOS, PREFIJO_TELEFONICO, distribuidoraDeCodigoPostal } from '../../data/municipios'
import { APELLIDOS, CALLES, CALLES_LOCALES, EMPRESA_ADJETIVOS, EMPRESA_NUCLEOS, NOMBRES, POLIGONOS } from '../../data/personas'
import { dniLetter, makeCif, makeCups, makeDni, makeIban } from '../../domain/identifiers'
import { addYears, type EstadoCodigo } from '../../lib/catalogos'
import { brandPrefix, contractCode, invoiceNumber } from '../../lib/codigos'
import type { Random } from '../../lib/random'
import { calcularFactura, type ContratoFacturable, type DetalleFactura } from '../../domain/invoicing'
import { slug } from './seed-access'

/**
 * Clients, supply points, contracts with their history, invoices and renewals, per brand.
 *
 * Everything is drawn from the given seeded `rnd` and dated relative to `today`, so the demo
 * data is the same on every machine for the same seed date. Per brand: 650 contracts over
 * the last three years (recent years busier), the monthly invoices of every contract that
 * supplies or supplied energy, and the renewals of the contracts whose anniversary falls
 * between 60 days ago and 90 days ahead.
 */

/** Contracts per brand of the demo data (`SEED_CONTRACTS` tops it up: seed-scale.ts). */
export const CONTRACTS_PER_BRAND = 650
const MAX_AGE_DAYS = 3 * 365
const DAY_MS = 86_400_000
const RENEWAL_WINDOW = { before: 60, after: 90 } as const

/** Real Spanish bank codes: CaixaBank, Santander, BBVA, Sabadell, Ibercaja, Bankinter, ING, Abanca, Cajamar. */
const BANKS = ['2100', '0049', '0182', '0081', '2085', '0128', '1465', '2080', '3058'] as const
const MAIL_DOMAINS = ['gmail.com', 'hotmail.com', 'yahoo.es', 'outlook.es', 'telefonica.net', 'icloud.com'] as const

/** Rough population weights, so Madrid and Barcelona hold more clients than Soria. */
const PROVINCE_WEIGHTS: readonly (readonly [number, number])[] = [
  [28, 68], [8, 57], [46, 27], [41, 19], [3, 19], [29, 17], [30, 15], [11, 12], [48, 11], [7, 12], [35, 11], [15, 11],
  [33, 10], [50, 10], [36, 9], [38, 10], [18, 9], [43, 8], [14, 8], [17, 8], [4, 7], [45, 7], [6, 7], [12, 6], [20, 7],
  [21, 5], [47, 5], [2, 4], [10, 4], [13, 5], [23, 6], [24, 4], [25, 4], [26, 3], [27, 3], [31, 7], [32, 3], [9, 4],
  [1, 3], [16, 2], [19, 3], [22, 2], [34, 2], [37, 3], [39, 6], [40, 2], [42, 1], [44, 1], [5, 2], [49, 2],
]

export type Size = 'S' | 'M' | 'L'
/** Business kind → CNAE and size class (S small shop, M medium, L large consumer). */
const NEGOCIOS: Record<(typeof EMPRESA_NUCLEOS)[number], readonly [string, Size]> = {
  Hermanos: ['4711', 'S'],
  Talleres: ['4520', 'M'],
  Construcciones: ['4121', 'M'],
  Panadería: ['1071', 'S'],
  Bodegas: ['1102', 'L'],
  Transportes: ['4941', 'M'],
  Hostelería: ['5630', 'S'],
  Clínica: ['8690', 'M'],
  Farmacia: ['4773', 'S'],
  Instalaciones: ['4321', 'S'],
  Frutas: ['4721', 'S'],
  Carpintería: ['1610', 'M'],
  Gestoría: ['6920', 'S'],
  Asesores: ['6920', 'S'],
  Hotel: ['5510', 'L'],
  Restaurante: ['5610', 'M'],
  Gimnasio: ['9313', 'M'],
  Residencia: ['8731', 'L'],
  'Comunidad de Propietarios': ['6820', 'S'],
  'Cooperativa Agrícola': ['0111', 'M'],
  Almacenes: ['5210', 'M'],
  Inmobiliaria: ['6810', 'S'],
  'Estructuras Metálicas': ['2511', 'L'],
  Conservas: ['1013', 'L'],
  Aceites: ['1043', 'L'],
  Ingeniería: ['7112', 'S'],
  Logística: ['5210', 'L'],
  Peluquería: ['9602', 'S'],
  Academia: ['8510', 'S'],
  Imprenta: ['2562', 'M'],
}
/** Self-employed people supplying a small business in their own name. */
const AUTONOMO_CNAES = ['9602', '4721', '6920', '4520', '5630', '4724', '8623', '4771'] as const

export const REJECTION_REASONS = [
  'El NIF del titular no coincide con el del contrato en vigor en la distribuidora.',
  'Existe otra solicitud en curso para este CUPS.',
  'CUPS inexistente o dado de baja en la distribuidora.',
  'La potencia solicitada supera la máxima admisible (BIE/APM) del suministro.',
  'La tarifa de acceso solicitada no corresponde a la tensión del suministro.',
  'Dirección del suministro incompleta o no coincidente con el SIPS.',
] as const
const ANNULMENT_REASONS = [
  'Datos del titular duplicados; se rehace el contrato.',
  'El cliente no ha firmado en el plazo indicado.',
  'El cliente decide no continuar con la contratación.',
  'CUPS incorrecto en el alta.',
] as const
const CANCELLATION_REASONS = [
  ['Baja por cambio de comercializadora (C1 de otra comercializadora).', 55],
  ['Baja a petición del titular por cierre del local o vivienda.', 20],
  ['Baja a petición del titular sin cambio de comercializadora.', 12],
  ['Baja por traspaso del suministro a un nuevo titular.', 13],
] as const

/** Renewal offer prices as written in the history (one formatter each: a seed at scale formats thousands). */
const PRICE_KWH = new Intl.NumberFormat('es-ES', { minimumFractionDigits: 4, maximumFractionDigits: 4 })
const FEE_MWH = new Intl.NumberFormat('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: 2 })


const round = (v: number, decimals: number) => {
  const f = 10 ** decimals
  return Math.round(v * f) / f
}

// ── dates as day numbers (days since 1970-01-01, UTC) ─────────────────────────

// Memoised: a seed at scale formats the same few thousand days millions of times.
const isoDays = new Map<number, string>()
const iso = (day: number) => {
  let text = isoDays.get(day)
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10)
    isoDays.set(day, text)
  }
  return text
}
const dayOf = (isoDay: string) => Math.round(Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS)
export { iso as isoOfDay, dayOf as dayOfIso }
const ymd = (day: number) => {
  const d = new Date(day * DAY_MS)
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() }
}
const monthStart = (y: number, m: number) => Math.round(Date.UTC(y, m, 1) / DAY_MS)

interface HistoryEntry {
  day: number
  minute: number
  user: number | null
  accion: string
  from: EstadoCodigo | null
  to: EstadoCodigo | null
  detalle: string
}

export interface ClientDraft {
  id?: number
  tipo: 'fisica' | 'juridica'
  nif: string
  nombre: string | null
  apellido1: string | null
  apellido2: string | null
  razonSocial: string | null
  formaJuridica: string | null
  email: string | null
  telefono: string
  direccion: string
  codigoPostal: string
  municipio: string
  provinciaId: number
  iban: string
  fechaAlta?: string
  household: boolean
}

export interface PointDraft {
  id?: number
  client: ClientDraft
  cups: string
  direccion: string
  codigoPostal: string
  municipio: string
  provinciaId: number
  distribuidora: string
  tarifaId: number
  cnae: string
}

interface ContractDraft {
  id?: number
  code?: string
  client: ClientDraft
  point: PointDraft
  estado: EstadoCodigo
  motivoRechazo: string | null
  agenteId: number
  powers: (number | null)[]
  modalidad: 'fijo' | 'indexado'
  energy: (number | null)[]
  fee: number | null
  powerPrices: (number | null)[]
  colectivoId: number
  tipoAltaId: number
  tipoImpresionId: number
  tipoComisionId: number | null
  iban: string
  consumoAnual: number
  alta: number
  firma: number | null
  activacion: number | null
  baja: number | null
  proximaRenovacion: number | null
  creator: number | null
  history: HistoryEntry[]
  renewal: RenewalDraft | null
  moroso: boolean
  household: boolean
  /** Prices before a renewal with new conditions, and the day they changed (invoices before it use them). */
  previous: { energy: (number | null)[]; fee: number | null; until: number } | null
}

interface RenewalDraft {
  fecha: number
  subestado: number
  actual: number
  propuesto: number
  changedDay: number
  changedBy: number | null
}

interface Agent {
  id: number
  nivel: number
  usuario_id: number | null
  tipo_comision_id: number | null
  fecha_alta: string
}

/**
 * Days since sign-up: any day of the last three years, recent ones likelier (a growing
 * business): a density falling linearly from twice as many today to one share three years ago,
 * so every year has its sign-ups (inverse of the CDF of f(x) ∝ 2 − x over x = age / 3 years).
 */
export function drawSignUpAge(rnd: Random): number {
  const x = 2 - Math.sqrt(4 - 3 * rnd.next())
  return Math.min(MAX_AGE_DAYS - 1, Math.floor(MAX_AGE_DAYS * x))
}

/** The streets of a municipality: the generic ones, and its own if it has any. */
function streetsOf(municipio: string): readonly string[] {
  const local = CALLES_LOCALES[municipio]
  return local ? [...CALLES, ...local] : CALLES
}

/** A landline of a province: its prefix, then the subscriber's digits (9 in all). */
export function landline(rnd: Random, provinciaId: number): string {
  const prefix = PREFIJO_TELEFONICO[provinciaId] ?? '91'
  return prefix + rnd.digits(9 - prefix.length)
}

/** The draws of places, addresses, IBANs and CUPS (CUPS unique in `usedCups`). */
export function drawingKit(rnd: Random, usedCups: Set<string>) {
  const newIban = () => makeIban(rnd.pick(BANKS), rnd.digits(4), rnd.digits(10))
  /** A CUPS of the distributor that serves a postcode. */
  const newCups = (codigoPostal: string) => {
    const distribuidora = distribuidoraDeCodigoPostal(codigoPostal) ?? '0021'
    for (;;) {
      const cups = makeCups(distribuidora, rnd.digits(12), rnd.chance(0.6) ? '0F' : '')
      if (!usedCups.has(cups)) {
        usedCups.add(cups)
        return { cups, distribuidora }
      }
    }
  }
  /** A municipality of the province (by population otherwise) and one of its postcodes. */
  const place = (provinciaId?: number) => {
    const prov = provinciaId ?? rnd.weighted(PROVINCE_WEIGHTS)
    const muni = rnd.pick(MUNICIPIOS[prov]!)
    const [from, to] = muni.codigosPostales
    const codigoPostal = String(rnd.int(Number(from), Number(to))).padStart(5, '0')
    return { provinciaId: prov, municipio: muni.nombre, codigoPostal }
  }
  const homeAddress = (municipio: string) => {
    const calle = rnd.pick(streetsOf(municipio))
    return rnd.chance(0.7)
      ? `${calle}, ${rnd.int(1, 140)}, ${rnd.int(1, 9)}º ${rnd.pick(['A', 'B', 'C', 'D', 'Izda.', 'Dcha.'])}`
      : `${calle}, ${rnd.int(1, 140)}`
  }
  const businessAddress = (size: Size, municipio: string) =>
    size === 'L' && rnd.chance(0.6) ? `${rnd.pick(POLIGONOS)}, nave ${rnd.int(1, 60)}` : `${rnd.pick(streetsOf(municipio))}, ${rnd.int(1, 140)}${rnd.chance(0.5) ? ', bajo' : ''}`
  return { newIban, newCups, place, homeAddress, businessAddress }
}

export type DrawingKit = ReturnType<typeof drawingKit>

/** A client drawn as the demo data draws them, with what its supply points depend on. */
export interface ClientPick {
  client: ClientDraft
  person: boolean
  size: Size
  /** CNAE of its supply points. */
  cnae: string
  colectivo: number
}

/** A client: 70 % people (DNI, some NIE; a few self-employed), the rest companies, town councils and owners' associations. */
export function drawClient(rnd: Random, kit: DrawingKit, uniqueNif: (make: () => string) => string): ClientPick {
  const { place, homeAddress, businessAddress, newIban } = kit
  const person = rnd.chance(0.7)
  const where = place()
  let client: ClientDraft
  let size: Size = 'S'
  let cnae = '9820'
  let colectivo = 1
  if (person) {
    const nombre = rnd.pick(NOMBRES)
    const apellido1 = rnd.pick(APELLIDOS)
    const apellido2 = rnd.pick(APELLIDOS)
    const nif = uniqueNif(() => {
      if (rnd.chance(0.9)) return makeDni(rnd.int(5_000_000, 79_999_999))
      const first = rnd.weighted([['X', 5], ['Y', 4], ['Z', 1]] as const)
      const digits = rnd.digits(7)
      return `${first}${digits}${dniLetter(Number(String('XYZ'.indexOf(first)) + digits))}`
    })
    const autonomo = rnd.chance(0.08)
    if (autonomo) {
      cnae = rnd.pick(AUTONOMO_CNAES)
      colectivo = 2
    } else if (rnd.chance(0.05)) colectivo = 6
    client = {
      tipo: 'fisica',
      nif,
      nombre,
      apellido1,
      apellido2,
      razonSocial: null,
      formaJuridica: null,
      email: rnd.chance(0.88) ? `${slug(nombre)}.${slug(apellido1)}${rnd.int(1, 99)}@${rnd.pick(MAIL_DOMAINS)}` : null,
      telefono: rnd.chance(0.85) ? `6${rnd.digits(8)}` : landline(rnd, where.provinciaId),
      direccion: homeAddress(where.municipio),
      ...where,
      iban: newIban(),
      household: !autonomo,
    }
  } else {
    let razonSocial: string
    let letter: string
    let forma: string | null
    if (rnd.chance(0.03)) {
      razonSocial = `Ayuntamiento de ${where.municipio}`
      letter = 'P'
      forma = null
      cnae = '8411'
      size = 'M'
      colectivo = 4
    } else {
      const nucleo = rnd.pick(EMPRESA_NUCLEOS)
      const negocio = NEGOCIOS[nucleo]
      cnae = negocio[0]
      size = negocio[1]
      colectivo = 2
      if (nucleo === 'Comunidad de Propietarios') {
        letter = 'H'
        forma = null
        razonSocial = `Comunidad de Propietarios ${rnd.pick(streetsOf(where.municipio))}, ${rnd.int(1, 120)}`
        colectivo = 5
      } else if (nucleo === 'Cooperativa Agrícola') {
        letter = 'F'
        forma = 'S.Coop.'
        razonSocial = `${nucleo} ${rnd.pick(EMPRESA_ADJETIVOS)} ${forma}`
      } else {
        ;[letter, forma] = rnd.weighted([[['B', 'S.L.'], 78], [['A', 'S.A.'], 12], [['E', 'C.B.'], 5], [['J', 'S.C.'], 5]] as const)
        const name = nucleo === 'Hermanos' ? `Hermanos ${rnd.pick(APELLIDOS)}` : `${nucleo} ${rnd.chance(0.5) ? rnd.pick(APELLIDOS) : rnd.pick(EMPRESA_ADJETIVOS)}`
        razonSocial = `${name} ${forma}`
      }
    }
    const nif = uniqueNif(() => makeCif(letter, (letter === 'P' ? String(where.provinciaId).padStart(2, '0') + rnd.digits(5) : rnd.digits(7))))
    const mailName = slug(razonSocial.replace(/\b(S\.L\.|S\.A\.|C\.B\.|S\.C\.|S\.Coop\.)/g, '')).slice(0, 24)
    client = {
      tipo: 'juridica',
      nif,
      nombre: null,
      apellido1: null,
      apellido2: null,
      razonSocial,
      formaJuridica: forma,
      email: `${rnd.pick(['info', 'administracion', 'contabilidad', 'facturas'])}@${mailName}.es`,
      telefono: landline(rnd, where.provinciaId),
      direccion: businessAddress(size, where.municipio),
      ...where,
      iban: newIban(),
      household: false,
    }
  }
  return { client, person, size, cnae, colectivo }
}

/** The `p`-th supply point of a client (the first at its address): CUPS of the province's distributor, tariff by the client's size. */
export function drawPoint(rnd: Random, kit: DrawingKit, pick: ClientPick, p: number): PointDraft {
  const { client, size, cnae } = pick
  const { place, newCups, homeAddress, businessAddress } = kit
  const samePlace = p === 0 || rnd.chance(0.5)
  const loc = samePlace ? { provinciaId: client.provinciaId, municipio: client.municipio, codigoPostal: client.codigoPostal } : place(rnd.chance(0.6) ? client.provinciaId : undefined)
  const { cups, distribuidora } = newCups(loc.codigoPostal)
  const tarifaId = client.household || cnae === '9820'
    ? 1
    : size === 'S'
      ? rnd.weighted([[1, 75], [2, 25]] as const)
      : size === 'M'
        ? rnd.weighted([[1, 35], [2, 59], [3, 6]] as const)
        : rnd.weighted([[2, 72], [3, 28]] as const)
  const point: PointDraft = {
    client,
    cups,
    direccion: p === 0 ? client.direccion : client.household ? homeAddress(loc.municipio) : businessAddress(size, loc.municipio),
    ...loc,
    distribuidora,
    tarifaId,
    cnae,
  }
  return point
}

/** Contracted powers, prices and annual consumption of a supply point. */
export function drawSupplyTerms(rnd: Random, point: PointDraft, household: boolean) {
  const between = (min: number, max: number) => min + rnd.next() * (max - min)
  const tarifaId = point.tarifaId
  // ── powers (kW) ──
  const powers: (number | null)[] = [null, null, null, null, null, null]
  if (tarifaId === 1) {
    const p1 = household
      ? rnd.weighted([[3.3, 10], [3.45, 18], [4.4, 12], [4.6, 22], [5.5, 10], [5.75, 12], [6.6, 5], [6.9, 6], [8.05, 2], [9.2, 2], [9.9, 1]] as const)
      : rnd.pick([4.6, 5.75, 6.9, 8.05, 9.2, 9.9] as const)
    powers[0] = p1
    powers[1] = rnd.chance(0.8) ? p1 : rnd.pick([3.45, 4.6, 5.75, 6.9, 8.05, 9.9].filter((v) => v !== p1))
  } else if (tarifaId === 2) {
    let p: number = rnd.pick([15, 17.32, 20, 25, 30, 34.64, 40, 45, 50, 60, 69.28, 80] as const)
    for (let i = 0; i < 6; i++) {
      if (i > 0 && rnd.chance(i === 5 ? 0.45 : 0.15)) p = Math.min(100, round(p + rnd.pick([2.5, 5, 10] as const), 2))
      powers[i] = p
    }
  } else {
    let p = rnd.int(20, 90) * 5
    for (let i = 0; i < 6; i++) {
      if (i > 0 && rnd.chance(i === 5 ? 0.5 : 0.2)) p = Math.min(450, p + rnd.int(1, 6) * 5)
      powers[i] = p
    }
    powers[0] = Math.max(100, powers[0]!)
  }
  const maxPower = Math.max(...powers.filter((p): p is number => p !== null))

  // ── prices ──
  const modalidad: 'fijo' | 'indexado' = rnd.chance(tarifaId === 3 ? 0.6 : household ? 0.15 : 0.35) ? 'indexado' : 'fijo'
  const energy: (number | null)[] = [null, null, null, null, null, null]
  let fee: number | null = null
  if (modalidad === 'indexado') {
    fee = round(tarifaId === 1 ? between(6, 15) : tarifaId === 2 ? between(4, 10) : between(2, 6), 2)
  } else if (tarifaId === 1) {
    if (rnd.chance(0.3)) {
      const single = round(between(0.125, 0.155), 6)
      energy[0] = energy[1] = energy[2] = single
    } else {
      energy[0] = round(between(0.165, 0.19), 6)
      energy[1] = round(between(0.135, 0.155), 6)
      energy[2] = round(between(0.11, 0.125), 6)
    }
  } else {
    let e = tarifaId === 2 ? between(0.17, 0.19) : between(0.15, 0.17)
    for (let i = 0; i < 6; i++) {
      energy[i] = round(Math.max(0.11, e), 6)
      e -= i === 4 ? between(0.01, 0.02) : between(0.005, 0.015)
    }
  }
  const powerPrices: (number | null)[] = [null, null, null, null, null, null]
  if (tarifaId === 1) {
    powerPrices[0] = round(between(0.088, 0.108), 6)
    powerPrices[1] = round(between(0.0035, 0.009), 6)
  } else {
    const base = tarifaId === 2 ? [0.0423, 0.0241, 0.0113, 0.0098, 0.0069, 0.004] : [0.072, 0.061, 0.034, 0.026, 0.006, 0.0035]
    const k = between(1, 1.12)
    base.forEach((v, i) => (powerPrices[i] = round(v * k, 6)))
  }

  // ── annual consumption (kWh) ──
  let consumo: number
  if (point.cnae === '9820') consumo = Math.min(5500, Math.max(1800, 1800 + ((powers[0]! - 3.3) / 6.6) * 2600 + between(-500, 900)))
  else if (tarifaId === 1) consumo = between(2500, 14000)
  else if (tarifaId === 2) consumo = maxPower * between(900, 2600)
  else consumo = maxPower * between(2500, 5000)
  consumo = Math.round(consumo / 10) * 10
  return { powers, modalidad, energy, fee, powerPrices, consumo }
}

/** Active administrators and back-office staff: who creates, validates and edits seeded contracts. */
export function backofficeStaffIds(db: Database.Database): number[] {
  return (
    db
      .prepare(
        `SELECT DISTINCT u.id FROM usuarios u JOIN usuario_grupos ug ON ug.usuario_id = u.id JOIN grupos g ON g.id = ug.grupo_id
         WHERE g.nombre IN ('Administradores', 'Backoffice') AND u.activo = 1 ORDER BY u.id`,
      )
      .all() as { id: number }[]
  ).map((u) => u.id)
}

export function seedBusiness(db: Database.Database, rnd: Random, today: Date): void {
  const T = Math.floor(today.getTime() / DAY_MS)
  const marcas = db.prepare('SELECT id, dominio FROM marcas ORDER BY id').all() as { id: number; dominio: string }[]
  const backoffice = backofficeStaffIds(db)
  const agentsOf = db.prepare('SELECT id, nivel, usuario_id, tipo_comision_id, fecha_alta FROM agentes WHERE marca_id = ? ORDER BY id')

  const insertClient = db.prepare(
    `INSERT INTO clientes (marca_id, tipo, nif, nombre, apellido1, apellido2, razon_social, forma_juridica, email, telefono,
       direccion, codigo_postal, municipio, provincia_id, iban, fecha_alta)
     VALUES (@marca, @tipo, @nif, @nombre, @apellido1, @apellido2, @razonSocial, @formaJuridica, @email, @telefono,
       @direccion, @codigoPostal, @municipio, @provinciaId, @iban, @fechaAlta)`,
  )
  const insertPoint = db.prepare(
    `INSERT INTO puntos_suministro (marca_id, cliente_id, cups, direccion, codigo_postal, municipio, provincia_id,
       distribuidora_codigo, distribuidora_nombre, tarifa_id, cnae)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertContract = db.prepare(
    `INSERT INTO contratos (marca_id, codigo, cliente_id, punto_suministro_id, tarifa_id, estado, motivo_rechazo, agente_id,
       potencia_p1, potencia_p2, potencia_p3, potencia_p4, potencia_p5, potencia_p6, modalidad,
       precio_energia_p1, precio_energia_p2, precio_energia_p3, precio_energia_p4, precio_energia_p5, precio_energia_p6, fee_mwh,
       precio_potencia_p1, precio_potencia_p2, precio_potencia_p3, precio_potencia_p4, precio_potencia_p5, precio_potencia_p6,
       cnae, tipo_alta_solicitud_id, tipo_impresion_factura_id, tipo_comision_id, colectivo_id, iban, consumo_anual_kwh,
       fecha_alta, fecha_firma, fecha_activacion, fecha_baja, fecha_proxima_renovacion, creado_en, creado_por, actualizado_en, actualizado_por)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertHistory = db.prepare(
    'INSERT INTO contrato_historial (contrato_id, fecha, usuario_id, accion, estado_anterior, estado_nuevo, detalle) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  const insertInvoice = db.prepare(
    `INSERT INTO facturas (marca_id, numero, contrato_id, periodo_desde, periodo_hasta, fecha_emision, fecha_vencimiento, consumo_kwh,
       termino_energia, termino_potencia, impuesto_electrico, alquiler_contador, base_imponible, iva, total, estado_pago, fecha_cobro, detalle)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertRenewal = db.prepare(
    `INSERT INTO renovaciones (marca_id, contrato_id, fecha_renovacion, subestado_id, precio_actual, precio_propuesto, actualizado_en, actualizado_por)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )

  const between = (min: number, max: number) => min + rnd.next() * (max - min)
  const stamp = (day: number, minute: number) => {
    const hh = String(Math.floor(minute / 60)).padStart(2, '0')
    const mm = String(minute % 60).padStart(2, '0')
    return `${iso(day)}T${hh}:${mm}:${String(rnd.int(0, 59)).padStart(2, '0')}Z`
  }
  const officeMinute = () => rnd.int(8 * 60, 19 * 60 + 30)
  const batchMinute = () => rnd.int(5 * 60, 7 * 60 + 30)
  const staff = () => rnd.pick(backoffice)
  const usedCups = new Set<string>()

  const kit = drawingKit(rnd, usedCups)

  for (const marca of marcas) {
    const prefix = brandPrefix(marca.dominio)
    const agents = agentsOf.all(marca.id) as Agent[]
    // Sales spread unevenly: level-3 agents sell most, a few level-2 sub-agencies sell directly.
    const sellers = agents
      .filter((a) => a.nivel >= 2)
      .map((a) => [a, (a.nivel === 3 ? 0.85 / 24 : 0.15 / 12) * between(0.4, 1.6)] as const)
    const sellerSince = new Map(sellers.map(([a]) => [a, dayOf(a.fecha_alta)]))
    const pickAgent = (alta: number) => {
      const eligible = sellers.filter(([a]) => sellerSince.get(a)! <= alta)
      return rnd.weighted(eligible.length ? eligible : sellers)
    }
    const signUpAge = () => drawSignUpAge(rnd)
    const nifs = new Set<string>()
    const uniqueNif = (make: () => string) => {
      for (;;) {
        const nif = make()
        if (!nifs.has(nif)) {
          nifs.add(nif)
          return nif
        }
      }
    }

    const clients: ClientDraft[] = []
    const points: PointDraft[] = []
    const contracts: ContractDraft[] = []

    while (contracts.length < CONTRACTS_PER_BRAND) {
      // ── the client ──
      const pick = drawClient(rnd, kit, uniqueNif)
      const { client, person, colectivo } = pick
      clients.push(client)

      // ── its supply points and one contract on each ──
      const nPoints = Math.min(
        CONTRACTS_PER_BRAND - contracts.length,
        person ? rnd.weighted([[1, 92], [2, 6], [3, 2]] as const) : rnd.weighted([[1, 78], [2, 15], [3, 7]] as const),
      )
      for (let p = 0; p < nPoints; p++) {
        const point = drawPoint(rnd, kit, pick, p)
        points.push(point)
        contracts.push(makeContract(point, client.household, colectivo))
      }
    }

    function makeContract(point: PointDraft, household: boolean, colectivoBase: number): ContractDraft {
      const tarifaId = point.tarifaId
      const { powers, modalidad, energy, fee, powerPrices, consumo } = drawSupplyTerms(rnd, point, household)

      // ── life cycle: the sign-up day first (a growing business), then where its path stands today ──
      const alta = T - signUpAge()
      const age = T - alta
      // Some contracts wait: an unfinished draft, a client slow to sign, papers checked before
      // sending, a distributor slow to answer.
      const stallDraft = rnd.chance(0.3) ? rnd.int(3, 50) : 0
      const stallSign = rnd.chance(0.35) ? rnd.int(4, 40) : 0
      const stallCheck = rnd.chance(0.5) ? rnd.int(2, 20) : 0
      const slowAnswer = rnd.chance(0.5) ? rnd.int(5, 30) : 0
      const tPend = rnd.int(0, 1) + stallDraft
      const tFirma = tPend + rnd.int(1, 6) + stallSign
      const tEnvio = tFirma + rnd.int(0, 3) + stallCheck
      const tResp = tEnvio + rnd.int(3, 12) + slowAnswer
      const tActiv = tResp + rnd.int(15, 30)
      const fate = rnd.weighted([['suministro', 91.5], ['anulado', 3], ['desistido', 2], ['rechazado', 3.5]] as const)
      // Cancelled before signing: a stalled draft or an unsigned contract.
      const anulFrom: EstadoCodigo = stallSign > 0 || rnd.chance(0.4) ? 'pendiente_firma' : 'borrador'
      const tAnul = anulFrom === 'borrador' ? rnd.int(1, Math.max(2, tPend + 10)) : tPend + rnd.int(2, 30 + stallSign)
      // Within 14 days of signing, before the distributor answers.
      const tDesist = Math.min(tFirma + rnd.int(1, 13), tResp - 1)
      // Churn after at least two months of supply; about one in six within a year.
      const churnAfter = 60 + Math.floor(-Math.log(1 - rnd.next()) * 1500)
      const modification = rnd.chance(0.035)
      const modAgo = rnd.int(1, 20)

      const path: EstadoCodigo[] = ['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'activo']
      const reachedAt = [0, tPend, tFirma, tEnvio, tResp, tActiv]
      let step = 0
      for (let i = 0; i < path.length; i++) if (age >= reachedAt[i]!) step = i
      let estado: EstadoCodigo = path[step]!
      if (fate === 'anulado') {
        // Stuck where it was until cancelled.
        step = Math.min(step, path.indexOf(anulFrom))
        estado = age >= tAnul ? 'anulado' : path[step]!
      } else if (fate === 'desistido' && age >= tDesist) {
        estado = 'desistido'
        step = tDesist >= tEnvio ? 3 : 2
      } else if (fate === 'rechazado' && age >= tResp) {
        estado = 'rechazado'
        step = 3
      }
      let supplyDays = 0
      if (estado === 'activo') {
        supplyDays = age - tActiv
        if (churnAfter < supplyDays) estado = 'baja'
        else if (modification && supplyDays > 90) estado = 'modificacion_en_curso'
      }

      const agent = pickAgent(alta)
      const creator = agent.usuario_id !== null && rnd.chance(0.7) ? agent.usuario_id : staff()
      const history: HistoryEntry[] = []
      const push = (day: number, user: number | null, accion: string, from: EstadoCodigo | null, to: EstadoCodigo | null, detalle: string, system = false) =>
        history.push({ day, minute: system ? batchMinute() : officeMinute(), user, accion, from, to, detalle })
      const distribuidoraNombre = DISTRIBUIDORAS[point.distribuidora] ?? point.distribuidora
      const tipoAltaId = rnd.weighted([[1, 70], [2, 18], [3, 12]] as const)
      const tipoAltaCodigo = ['C1', 'C2', 'A3'][tipoAltaId - 1]!

      push(alta, creator, 'alta', null, 'borrador', 'Contrato dado de alta en borrador.')
      let motivoRechazo: string | null = null
      let firma: number | null = null
      let activacion: number | null = null
      let baja: number | null = null
      if (step >= 1) {
        push(alta + tPend, creator, 'envio_firma', 'borrador', 'pendiente_firma', `Enviado a firma electrónica${point.client.email ? ` a ${point.client.email}` : ' por SMS'}.`)
      }
      if (step >= 2) {
        firma = alta + tFirma
        push(firma, null, 'firma', 'pendiente_firma', 'firmado', 'Firmado electrónicamente por el titular; evidencias custodiadas.', true)
      }
      if (step >= 3) {
        push(alta + tEnvio, staff(), 'envio_distribuidora', 'firmado', 'enviado_distribuidora', `Solicitud ${tipoAltaCodigo} enviada a ${distribuidoraNombre} (paso 01).`)
      }
      if (estado === 'rechazado') {
        motivoRechazo = rnd.pick(REJECTION_REASONS)
        push(alta + tResp, null, 'rechazo', 'enviado_distribuidora', 'rechazado', `Solicitud rechazada por la distribuidora: ${motivoRechazo}`, true)
      }
      if (step >= 4) push(alta + tResp, null, 'aceptacion', 'enviado_distribuidora', 'aceptado', 'Solicitud aceptada por la distribuidora (paso 02).', true)
      if (step >= 5) {
        activacion = alta + tActiv
        push(activacion, null, 'activacion', 'aceptado', 'activo', 'Activación del suministro comunicada por la distribuidora (paso 05).', true)
      }
      if (estado === 'desistido') {
        push(alta + tDesist, staff(), 'desistimiento', path[step]!, 'desistido', 'El titular ejerce su derecho de desistimiento dentro del plazo de 14 días.')
      }
      if (estado === 'anulado') push(alta + tAnul, staff(), 'anulacion', anulFrom, 'anulado', `Contrato anulado: ${rnd.pick(ANNULMENT_REASONS)}`)
      if (estado === 'baja') supplyDays = churnAfter

      const contract: ContractDraft = {
        client: point.client,
        point,
        estado,
        motivoRechazo,
        agenteId: agent.id,
        powers,
        modalidad,
        energy,
        fee,
        powerPrices,
        colectivoId: tarifaId === 3 && colectivoBase === 2 ? 3 : colectivoBase,
        tipoAltaId,
        tipoImpresionId: rnd.weighted([[1, household ? 65 : 80], [2, household ? 17 : 5], [3, household ? 18 : 15]] as const),
        tipoComisionId: agent.tipo_comision_id,
        iban: rnd.chance(0.95) ? point.client.iban : kit.newIban(),
        consumoAnual: consumo,
        alta,
        firma,
        activacion,
        baja: null,
        proximaRenovacion: null,
        creator,
        history,
        renewal: null,
        moroso: rnd.chance(0.05),
        household,
        previous: null,
      }

      // ── anniversaries: tacit renewals, the one being worked on, the next date ──
      if (activacion !== null) {
        const end = estado === 'baja' ? activacion + supplyDays : T
        if (estado === 'baja') {
          baja = end
          contract.baja = baja
        }
        let n = 1
        for (;;) {
          const anniversary = dayOf(addYears(iso(activacion), n))
          if (estado === 'baja') {
            if (anniversary >= end) break
            push(anniversary, null, 'renovacion', null, null, `Renovación tácita por un año, hasta el ${iso(dayOf(addYears(iso(activacion), n + 1)))}.`, true)
            n++
            continue
          }
          if (anniversary < T - RENEWAL_WINDOW.before) {
            push(anniversary, null, 'renovacion', null, null, `Renovación tácita por un año, hasta el ${iso(dayOf(addYears(iso(activacion), n + 1)))}.`, true)
            n++
            continue
          }
          if (anniversary <= T + RENEWAL_WINDOW.after) {
            contract.renewal = makeRenewal(contract, anniversary, push)
            contract.proximaRenovacion = contract.renewal.subestado === 4 ? dayOf(addYears(iso(anniversary), 1)) : anniversary
          } else contract.proximaRenovacion = anniversary
          break
        }
        if (estado === 'modificacion_en_curso') {
          push(T - modAgo, staff(), 'modificacion', 'activo', 'modificacion_en_curso', 'Solicitud de modificación de potencia (M1) enviada a la distribuidora.')
        }
        if (estado === 'baja') {
          push(baja!, null, 'baja', 'activo', 'baja', rnd.weighted(CANCELLATION_REASONS), true)
        }
      }
      // Chronological: by day, and within a day in the order the events happened (their minutes re-dealt in order).
      const order = new Map(history.map((h, i) => [h, i]))
      history.sort((a, b) => a.day - b.day || order.get(a)! - order.get(b)!)
      for (let i = 0; i < history.length; ) {
        let j = i
        while (j < history.length && history[j]!.day === history[i]!.day) j++
        const minutes = history.slice(i, j).map((h) => h.minute).sort((a, b) => a - b)
        for (let k = i; k < j; k++) history[k]!.minute = Math.max(minutes[k - i]!, k > i ? history[k - 1]!.minute + 1 : 0)
        i = j
      }
      return contract
    }

    function makeRenewal(contract: ContractDraft, fecha: number, push: (day: number, user: number | null, accion: string, from: EstadoCodigo | null, to: EstadoCodigo | null, detalle: string, system?: boolean) => void): RenewalDraft {
      const offset = fecha - T
      // An anniversary already past has been renewed (with new conditions or tacitly): never shown as upcoming.
      const subestado =
        offset < 0
          ? 4
          : offset <= 30
            ? rnd.weighted([[1, 18], [2, 40], [3, 17], [4, 10], [5, 5], [6, 10]] as const)
            : rnd.weighted([[1, 65], [2, 30], [3, 5]] as const)
      const fixed = contract.modalidad === 'fijo'
      const energyPrices = contract.energy.filter((p): p is number => p !== null)
      const actual = fixed ? round(energyPrices.reduce((s, v) => s + v, 0) / energyPrices.length, 6) : contract.fee!
      const propuesto = fixed ? round(actual * (1 + between(-0.08, 0.06)), 6) : round(Math.max(2, actual + between(-2, 3)), 2)
      const unit = fixed ? '€/kWh' : '€/MWh'
      const fmt = (v: number) => (fixed ? PRICE_KWH : FEE_MWH).format(v)
      // The window opens 90 days ahead; the offer goes out 20–45 days before the date.
      const opened = fecha - RENEWAL_WINDOW.after
      let changedDay = Math.min(T, opened)
      let changedBy: number | null = null
      const offerDay = Math.min(T - 1, fecha - rnd.int(20, 45))
      if (subestado !== 1) {
        const by = staff()
        push(Math.max(opened, offerDay), by, 'oferta_renovacion', null, null, `Oferta de renovación enviada al titular: ${fmt(actual)} → ${fmt(propuesto)} ${unit}.`)
        changedDay = Math.max(opened, offerDay)
        changedBy = by
      }
      if (subestado >= 3) {
        const answer = Math.min(T, changedDay + rnd.int(2, 20))
        const by = staff()
        const detail =
          subestado === 4
            ? `Renovado con nuevas condiciones hasta el ${addYears(iso(fecha), 1)} (${fmt(actual)} → ${fmt(propuesto)} ${unit}).`
            : subestado === 3
              ? 'El titular acepta la oferta de renovación.'
              : subestado === 5
                ? 'El titular rechaza la oferta: el contrato no se renovará.'
                : 'El titular solicita la baja al vencimiento del contrato.'
        push(answer, by, subestado === 4 ? 'renovacion' : 'cambio_subestado_renovacion', null, null, detail)
        changedDay = answer
        changedBy = by
      }
      if (subestado === 4) {
        // The renewed prices are now the contract's.
        const ratio = propuesto / actual
        contract.previous = { energy: contract.energy, fee: contract.fee, until: fecha }
        if (fixed) contract.energy = contract.energy.map((p) => (p === null ? null : round(p * ratio, 6)))
        else contract.fee = propuesto
      }
      return { fecha, subestado, actual, propuesto, changedDay, changedBy }
    }

    // ── insert clients and points, then contracts in sign-up order (codes follow the calendar) ──
    const firstAlta = new Map<ClientDraft, number>()
    for (const c of contracts) firstAlta.set(c.client, Math.min(firstAlta.get(c.client) ?? Infinity, c.alta))
    for (const client of clients) {
      const day = firstAlta.get(client) ?? T
      client.id = insertClient.run({
        marca: marca.id,
        tipo: client.tipo,
        nif: client.nif,
        nombre: client.nombre,
        apellido1: client.apellido1,
        apellido2: client.apellido2,
        razonSocial: client.razonSocial,
        formaJuridica: client.formaJuridica,
        email: client.email,
        telefono: client.telefono,
        direccion: client.direccion,
        codigoPostal: client.codigoPostal,
        municipio: client.municipio,
        provinciaId: client.provinciaId,
        iban: client.iban,
        fechaAlta: iso(day),
      }).lastInsertRowid as number
    }
    for (const p of points) {
      p.id = insertPoint.run(marca.id, p.client.id, p.cups, p.direccion, p.codigoPostal, p.municipio, p.provinciaId, p.distribuidora, DISTRIBUIDORAS[p.distribuidora] ?? p.distribuidora, p.tarifaId, p.cnae)
        .lastInsertRowid as number
    }
    contracts.sort((a, b) => a.alta - b.alta || (a.history[0]?.minute ?? 0) - (b.history[0]?.minute ?? 0))
    const seqByYear = new Map<number, number>()
    for (const c of contracts) {
      const year = ymd(c.alta).y
      const seq = (seqByYear.get(year) ?? 0) + 1
      seqByYear.set(year, seq)
      c.code = contractCode(prefix, year, seq)
      const stamps = c.history.map((h) => stamp(h.day, h.minute))
      const last = c.history[c.history.length - 1]!
      c.id = insertContract.run(
        marca.id, c.code, c.client.id, c.point.id, c.point.tarifaId, c.estado, c.motivoRechazo, c.agenteId,
        ...c.powers, c.modalidad, ...c.energy, c.fee, ...c.powerPrices,
        c.point.cnae, c.tipoAltaId, c.tipoImpresionId, c.tipoComisionId, c.colectivoId, c.iban, c.consumoAnual,
        iso(c.alta), c.firma === null ? null : iso(c.firma), c.activacion === null ? null : iso(c.activacion), c.baja === null ? null : iso(c.baja),
        c.proximaRenovacion === null ? null : iso(c.proximaRenovacion),
        stamps[0]!, c.creator, stamps[stamps.length - 1]!, last.user ?? null,
      ).lastInsertRowid as number
      c.history.forEach((h, i) => insertHistory.run(c.id, stamps[i]!, h.user, h.accion, h.from, h.to, h.detalle))
      if (c.renewal) {
        const r = c.renewal
        insertRenewal.run(marca.id, c.id, iso(r.fecha), r.subestado, r.actual, r.propuesto, stamp(r.changedDay, r.changedBy === null ? batchMinute() : officeMinute()), r.changedBy)
      }
    }

    // ── invoices: one per calendar month of supply, computed from the hourly consumption, numbered in issue order ──
    interface InvoiceDraft {
      contract: ContractDraft
      from: number
      to: number
      issue: number
      detalle: DetalleFactura
    }
    const invoices: InvoiceDraft[] = []
    for (const c of contracts) {
      if (c.activacion === null) continue
      const end = c.baja ?? T - 1
      const facturable: ContratoFacturable = {
        codigo: c.code!,
        cnae: c.point.cnae,
        tarifaId: c.point.tarifaId,
        consumoAnualKwh: c.consumoAnual,
        potencias: c.powers,
        modalidad: c.modalidad,
        preciosEnergia: c.energy,
        preciosPotencia: c.powerPrices,
        feeMwh: c.fee,
      }
      const before: ContratoFacturable = c.previous ? { ...facturable, preciosEnergia: c.previous.energy, feeMwh: c.previous.fee } : facturable
      let { y, m } = ymd(Math.max(c.activacion, T - MAX_AGE_DAYS - 31))
      for (;;) {
        const first = monthStart(y, m)
        const next = monthStart(m === 11 ? y + 1 : y, (m + 1) % 12)
        if (first > end) break
        const from = Math.max(first, c.activacion)
        const lastOfMonth = next - 1
        const to = Math.min(lastOfMonth, end)
        const closes = c.baja !== null && to === c.baja
        if (to === lastOfMonth || closes) {
          const issue = to + rnd.int(1, 10)
          // Before a renewal with new conditions the old prices applied (a month is billed at the prices of its first day).
          const terms = c.previous && from < c.previous.until ? before : facturable
          if (issue <= T) invoices.push({ contract: c, from, to, issue, detalle: calcularFactura(terms, iso(from), iso(to), c.point.cnae) })
        }
        if (closes) break
        y = m === 11 ? y + 1 : y
        m = (m + 1) % 12
      }
    }
    invoices.sort((a, b) => a.issue - b.issue || (a.contract.id ?? 0) - (b.contract.id ?? 0))
    const invoiceSeq = new Map<number, number>()
    for (const inv of invoices) {
      const year = ymd(inv.issue).y
      const seq = (invoiceSeq.get(year) ?? 0) + 1
      invoiceSeq.set(year, seq)
      const due = inv.issue + 30
      let estado: 'pagada' | 'pendiente' | 'devuelta' | 'impagada' = 'pagada'
      let cobro: number | null = due - rnd.int(0, 3)
      if (due >= T) {
        estado = 'pendiente'
        cobro = null
      } else if (inv.contract.moroso && due >= T - 240 && rnd.chance(0.45)) {
        estado = T - due > 60 ? 'impagada' : 'devuelta'
        cobro = null
      } else if (T - due <= 60 && rnd.chance(0.015)) {
        estado = 'devuelta'
        cobro = null
      } else if (cobro > T) cobro = T
      const d = inv.detalle
      insertInvoice.run(
        marca.id, invoiceNumber(prefix, year, seq), inv.contract.id, iso(inv.from), iso(inv.to), iso(inv.issue), iso(due),
        d.ConsumoKwh, d.TerminoEnergia, d.TerminoPotencia, d.ImpuestoElectrico.Importe, d.AlquilerContador.Importe, d.BaseImponible, d.Iva.Importe, d.ImporteTotal,
        estado, cobro === null ? null : iso(cobro), JSON.stringify(d),
      )
    }
  }
}
