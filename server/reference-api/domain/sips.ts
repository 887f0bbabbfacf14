import type Database from 'better-sqlite3'
import { MUNICIPIOS_LISTA, distribuidoraDeCodigoPostal } from '../data/municipios'
import { PROVINCIAS, tarifaById, type Tarifa } from '../lib/catalogos'
import { Random, hashSeed } from '../lib/random'
import { addDays, addMonths, dayMs, daysInMonth, esDiaNoLaborable, isoOf, madridToday, periodoEnergia } from './calendar'
import { PERIODOS, porPeriodo } from './contract-rules'
import { distribuidoraDeCups, type Distribuidora } from './distribuidoras'
import { validateCups } from './identifiers'
import type { SipsInfo, SipsRaw, SipsReading } from '../../../schemas/business/sips'

/**
 * SIPS, the national supply-point information system (domain notes), as the reference API
 * serves it: a record per CUPS with the supply point's technical and contractual data and 36
 * monthly readings.
 *
 * - A CUPS of a seeded (or inserted) supply point agrees with it: distributor, postcode,
 *   municipality, province, tariff, contracted powers and CNAE of the point and of its latest
 *   contract; its consumption adds up to about the contract's annual consumption.
 * - Any other valid CUPS of a known distributor gets a deterministic record seeded by the CUPS
 *   (its first 20 characters: the border-point suffix does not change the point): a postcode
 *   that distributor serves (with its municipality and province), a plausible tariff (mostly 2.0TD), powers and consumption.
 * - A CUPS of an unknown distributor has no SIPS data (null).
 *
 * Readings: one per calendar month, the 36 months ending with the last complete month (Madrid
 * time); each month's energy is the annual consumption × the month's seasonal weight × a
 * little noise seeded by the CUPS and the month (a month reads the same whenever asked), split
 * into the tariff's periods by counting the month's hours of each period (weekends and national
 * holidays included) weighted by an hourly load profile (household or business).
 */

export interface SipsRecord {
  info: SipsInfo
  raw: SipsRaw
  lecturas: SipsReading[]
}

/** How many monthly readings a record has. */
export const SIPS_MESES = 36

/** Monthly consumption shapes (January first), normalised to a mean of 1 (as the seeded invoices). */
const SEASON_HOME = normalise([1.28, 1.12, 1.0, 0.86, 0.8, 0.88, 1.12, 1.15, 0.95, 0.86, 0.95, 1.22])
const SEASON_BUSINESS = normalise([1.05, 1.02, 1.0, 0.95, 0.97, 1.03, 1.1, 0.85, 1.0, 1.0, 1.0, 1.03])
/** Hourly load (local hour 0–23) on a working day. */
const LOAD_HOME = [0.45, 0.38, 0.35, 0.33, 0.33, 0.36, 0.5, 0.75, 0.85, 0.8, 0.75, 0.75, 0.8, 0.9, 0.9, 0.75, 0.7, 0.8, 1.0, 1.2, 1.35, 1.35, 1.1, 0.75]
const LOAD_BUSINESS = [0.25, 0.22, 0.22, 0.22, 0.22, 0.25, 0.35, 0.7, 1.1, 1.3, 1.35, 1.35, 1.3, 1.2, 1.25, 1.3, 1.3, 1.2, 1.0, 0.8, 0.6, 0.45, 0.35, 0.3]

const SMALL_BUSINESS_CNAES = ['9602', '4721', '6920', '4520', '5630', '4724', '8623', '4771'] as const
const MEDIUM_BUSINESS_CNAES = ['5610', '5510', '4711', '1071', '2511', '8510', '9311', '4941', '6820'] as const
const LARGE_BUSINESS_CNAES = ['1013', '2223', '2562', '1043', '5210', '8610', '3600'] as const
/** Standard low-voltage powers (kW) for BIE/APM. */
const BIE_20TD = [3.464, 4.6, 5.75, 6.928, 8.05, 9.2, 10.392, 11.5, 13.856, 14.49, 15]

function normalise(values: number[]): number[] {
  const mean = values.reduce((s, v) => s + v, 0) / values.length
  return values.map((v) => v / mean)
}

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals

/** Everything the record is built from. */
interface Base {
  cups: string
  base20: string
  distribuidora: Distribuidora
  provinciaId: number
  municipio: string
  codigoPostal: string
  tarifa: Tarifa
  potencias: (number | null)[]
  cnae: string
  household: boolean
  consumoAnual: number
  tipoIdTitular: 'NIF' | 'CIF'
  fechaAlta: string
  fechaUltimoCambio: string
  fechaUltimoMovimiento: string
}

interface SeededRow {
  cups: string
  codigo_postal: string
  municipio: string
  provincia_id: number
  distribuidora_codigo: string
  distribuidora_nombre: string
  tarifa_id: number
  cnae: string | null
  cliente_tipo: 'fisica' | 'juridica'
  c_tarifa_id: number | null
  potencia_p1: number | null
  potencia_p2: number | null
  potencia_p3: number | null
  potencia_p4: number | null
  potencia_p5: number | null
  potencia_p6: number | null
  consumo_anual_kwh: number | null
  estado: string | null
  fecha_alta: string | null
  fecha_activacion: string | null
  fecha_baja: string | null
}

const statements = new WeakMap<Database.Database, Database.Statement<[{ cups: string }], SeededRow>>()

function seededPoint(db: Database.Database, base20: string): SeededRow | undefined {
  let stmt = statements.get(db)
  if (!stmt) {
    stmt = db.prepare(`
      SELECT ps.cups, ps.codigo_postal, ps.municipio, ps.provincia_id, ps.distribuidora_codigo, ps.distribuidora_nombre, ps.tarifa_id, ps.cnae,
        cl.tipo AS cliente_tipo, c.tarifa_id AS c_tarifa_id, c.potencia_p1, c.potencia_p2, c.potencia_p3, c.potencia_p4, c.potencia_p5, c.potencia_p6,
        c.consumo_anual_kwh, c.estado, c.fecha_alta, c.fecha_activacion, c.fecha_baja
      FROM puntos_suministro ps
      JOIN clientes cl ON cl.id = ps.cliente_id
      LEFT JOIN contratos c ON c.id = (SELECT x.id FROM contratos x WHERE x.punto_suministro_id = ps.id ORDER BY x.fecha_alta DESC, x.id DESC LIMIT 1)
      WHERE ps.cups BETWEEN @cups AND @cups || 'ZZ' AND substr(ps.cups, 1, 20) = @cups
      ORDER BY ps.id LIMIT 1`) as Database.Statement<[{ cups: string }], SeededRow>
    statements.set(db, stmt)
  }
  return stmt.get({ cups: base20 })
}

/** A day between `from` and `from + span` days (absolute dates: a record does not move with today). */
function dayIn(r: Random, from: string, span: number): string {
  return addDays(from, r.int(0, span))
}

function generatedPowers(r: Random, tarifaId: number, household: boolean): (number | null)[] {
  const powers: (number | null)[] = [null, null, null, null, null, null]
  if (tarifaId === 1) {
    const p1 = household
      ? r.weighted([[3.3, 10], [3.45, 18], [4.4, 12], [4.6, 22], [5.5, 10], [5.75, 12], [6.6, 5], [6.9, 6], [8.05, 2], [9.2, 2], [9.9, 1]] as const)
      : r.pick([4.6, 5.75, 6.9, 8.05, 9.2, 9.9, 13.856] as const)
    powers[0] = p1
    powers[1] = r.chance(0.8) ? p1 : r.pick([3.45, 4.6, 5.75, 6.9, 8.05, 9.9].filter((v) => v !== p1))
  } else if (tarifaId === 2) {
    let p: number = r.pick([15.001, 17.32, 20, 25, 30, 34.64, 40, 45, 50, 60, 69.28, 80] as const)
    for (let i = 0; i < 6; i++) {
      if (i > 0 && r.chance(i === 5 ? 0.45 : 0.15)) p = Math.min(100, round(p + r.pick([2.5, 5, 10] as const), 3))
      powers[i] = p
    }
  } else {
    let p = r.int(20, 90) * 5
    for (let i = 0; i < 6; i++) {
      if (i > 0 && r.chance(i === 5 ? 0.5 : 0.2)) p = Math.min(450, p + r.int(1, 6) * 5)
      powers[i] = p
    }
    powers[0] = Math.max(100, powers[0]!)
    for (let i = 1; i < 6; i++) powers[i] = Math.max(powers[i - 1]!, powers[i]!)
  }
  return powers
}

function generatedConsumption(r: Random, tarifaId: number, household: boolean, powers: (number | null)[]): number {
  const maxPower = Math.max(...powers.filter((p): p is number => p !== null))
  const between = (a: number, b: number) => a + (b - a) * r.next()
  let consumo: number
  if (household) consumo = Math.min(5500, Math.max(1500, 1800 + ((powers[0]! - 3.3) / 6.6) * 2600 + between(-500, 900)))
  else if (tarifaId === 1) consumo = between(2500, 14000)
  else if (tarifaId === 2) consumo = maxPower * between(900, 2600)
  else consumo = maxPower * between(2500, 5000)
  return Math.round(consumo / 10) * 10
}

/** The main distributor code of a group (e-distribución, UFD…), the one the postcode map uses. */
function grupoDistribuidora(codigo: string): string {
  if (['0022', '0390', '0397'].includes(codigo)) return '0022'
  if (['0023', '0024', '0029', '0031', '0288', '0363', '0396'].includes(codigo)) return '0031'
  return codigo
}

function buildBase(db: Database.Database, cups: string): Base | null {
  const base20 = cups.slice(0, 20)
  const distribuidora = distribuidoraDeCups(cups)
  const r = new Random(hashSeed(`sips:${base20}`))
  const seeded = seededPoint(db, base20)
  if (seeded) {
    const tarifa = tarifaById.get(seeded.tarifa_id) ?? tarifaById.get(1)!
    const cnae = seeded.cnae ?? '9820'
    const household = cnae === '9820'
    const contractPowers = [seeded.potencia_p1, seeded.potencia_p2, seeded.potencia_p3, seeded.potencia_p4, seeded.potencia_p5, seeded.potencia_p6]
    const powers = seeded.c_tarifa_id === seeded.tarifa_id && seeded.potencia_p1 !== null ? contractPowers : generatedPowers(r, tarifa.Id, household)
    const consumo = seeded.consumo_anual_kwh ?? generatedConsumption(r, tarifa.Id, household, powers)
    // The supply point existed long before this retailer: registered 1992–2021, at least a month before the contract.
    let fechaAlta = dayIn(r, '1992-01-01', 10950)
    if (seeded.fecha_alta && fechaAlta > addDays(seeded.fecha_alta, -30)) fechaAlta = addDays(seeded.fecha_alta, -30 - r.int(0, 3000))
    // The last change of retailer: to this one (activation), away from it (end of supply), or an earlier one.
    let cambio = seeded.estado === 'baja' && seeded.fecha_baja ? seeded.fecha_baja : seeded.fecha_activacion
    if (!cambio) cambio = dayIn(r, fechaAlta, Math.max(0, Math.min(3000, Math.round((dayMs(seeded.fecha_alta ?? fechaAlta) - dayMs(fechaAlta)) / 86_400_000) - 1)))
    if (cambio < fechaAlta) cambio = fechaAlta
    return {
      cups,
      base20,
      distribuidora: { Codigo: seeded.distribuidora_codigo, Nombre: seeded.distribuidora_nombre },
      provinciaId: seeded.provincia_id,
      municipio: seeded.municipio,
      codigoPostal: seeded.codigo_postal,
      tarifa,
      potencias: tarifaPowers(tarifa, powers),
      cnae,
      household,
      consumoAnual: consumo,
      tipoIdTitular: seeded.cliente_tipo === 'juridica' ? 'CIF' : 'NIF',
      fechaAlta,
      fechaUltimoCambio: cambio,
      fechaUltimoMovimiento: seeded.estado === 'modificacion_en_curso' && seeded.fecha_activacion ? addDays(cambio, r.int(60, 300)) : cambio,
    }
  }
  if (!distribuidora) return null
  const group = grupoDistribuidora(distribuidora.Codigo)
  // A postcode that distributor serves (postcode, municipality and province agree).
  const places = MUNICIPIOS_LISTA.flatMap((muni) => {
    const out: { muni: typeof muni; cp: string }[] = []
    for (let n = Number(muni.codigosPostales[0]); n <= Number(muni.codigosPostales[1]); n++) {
      const cp = String(n).padStart(5, '0')
      if (distribuidoraDeCodigoPostal(cp) === group) out.push({ muni, cp })
    }
    return out
  })
  const place = places.length ? r.pick(places) : { muni: MUNICIPIOS_LISTA.find((x) => x.nombre === 'Madrid')!, cp: '28001' }
  const provinciaId = place.muni.provinciaId
  const municipio = place.muni.nombre
  const tarifaId = r.weighted([[1, 86], [2, 11], [3, 3]] as const)
  const tarifa = tarifaById.get(tarifaId)!
  const household = tarifaId === 1 && r.chance(0.82)
  const cnae = household ? '9820' : r.pick(tarifaId === 1 ? SMALL_BUSINESS_CNAES : tarifaId === 2 ? MEDIUM_BUSINESS_CNAES : LARGE_BUSINESS_CNAES)
  const powers = generatedPowers(r, tarifaId, household)
  const consumo = generatedConsumption(r, tarifaId, household, powers)
  const fechaAlta = dayIn(r, '1992-01-01', 10950)
  let cambio = dayIn(r, '2019-01-01', 2100)
  if (cambio < fechaAlta) cambio = fechaAlta
  const movimiento = r.chance(0.3) ? addDays(cambio, r.int(30, 400)) : cambio
  return {
    cups,
    base20,
    distribuidora,
    provinciaId,
    municipio,
    codigoPostal: place.cp,
    tarifa,
    potencias: tarifaPowers(tarifa, powers),
    cnae,
    household,
    consumoAnual: consumo,
    tipoIdTitular: household || (tarifaId === 1 && r.chance(0.5)) ? 'NIF' : 'CIF',
    fechaAlta,
    fechaUltimoCambio: cambio,
    fechaUltimoMovimiento: movimiento,
  }
}

/** Powers for the tariff's power periods only (null for the rest). */
function tarifaPowers(tarifa: Tarifa, powers: readonly (number | null)[]): (number | null)[] {
  return PERIODOS.map((_, i) => (i < tarifa.PeriodosPotencia ? (powers[i] ?? powers[i - 1] ?? null) : null))
}

// ── period shares of a month's energy ────────────────────────────────────────

const sharesCache = new Map<string, number[]>()

/** Share of a month's energy in each period for a tariff and load profile (sums to 1). */
export function periodShares(tarifaId: number, household: boolean, ym: string): number[] {
  const key = `${tarifaId}|${household ? 'h' : 'b'}|${ym}`
  const cached = sharesCache.get(key)
  if (cached) return cached
  const [y, m] = ym.split('-').map(Number) as [number, number]
  const shares = new Array<number>(6).fill(0)
  const load = household ? LOAD_HOME : LOAD_BUSINESS
  for (let d = 1; d <= daysInMonth(y, m); d++) {
    const day = `${ym}-${String(d).padStart(2, '0')}`
    const dayWeight = esDiaNoLaborable(day) ? (household ? 1.05 : 0.45) : 1
    for (let h = 0; h < 24; h++) shares[PERIODOS.indexOf(periodoEnergia(tarifaId, day, h))]! += load[h]! * dayWeight
  }
  const total = shares.reduce((s, v) => s + v, 0)
  const out = shares.map((v) => v / total)
  sharesCache.set(key, out)
  return out
}

// ── the record ───────────────────────────────────────────────────────────────

function readings(b: Base, lastMonth: string, telegestionado: boolean): SipsReading[] {
  const season = b.household ? SEASON_HOME : SEASON_BUSINESS
  const r = new Random(hashSeed(`sips-reactiva:${b.base20}`))
  const tanPhi = b.household ? 0.08 + 0.07 * r.next() : 0.2 + 0.15 * r.next()
  const out: SipsReading[] = []
  for (let k = SIPS_MESES - 1; k >= 0; k--) {
    const ym = addMonths(lastMonth, -k)
    const [y, m] = ym.split('-').map(Number) as [number, number]
    const mr = new Random(hashSeed(`sips:${b.base20}:${ym}`))
    const total = (b.consumoAnual / 12) * season[m - 1]! * (0.94 + 0.12 * mr.next())
    const shares = periodShares(b.tarifa.Id, b.household, ym)
    const activa = PERIODOS.map((_, i) => (i < b.tarifa.PeriodosEnergia ? Math.round(total * shares[i]!) : null))
    const reactiva = activa.map((v) => (v === null ? null : Math.round(v * tanPhi * (0.9 + 0.2 * mr.next()))))
    const demandada = PERIODOS.map((_, i) => {
      const contracted = b.potencias[i]
      if (i >= b.tarifa.PeriodosPotencia || contracted === null || contracted === undefined) return null
      // 6-period tariffs: a period without hours that month (another season) has no demand.
      if (b.tarifa.PeriodosPotencia === 6 && activa[i] === 0) return 0
      return round(contracted * (0.45 + 0.5 * mr.next()), 3)
    })
    out.push({
      FechaInicio: `${ym}-01`,
      FechaFin: `${ym}-${String(daysInMonth(y, m)).padStart(2, '0')}`,
      Tarifa: b.tarifa.Codigo,
      ActivaKwh: porPeriodo(activa),
      ReactivaKvarh: porPeriodo(reactiva),
      PotenciaDemandadaKw: porPeriodo(demandada),
      TipoLectura: mr.chance(telegestionado ? 0.03 : 0.3) ? 'estimada' : 'real',
    })
  }
  return out
}

function tensionOf(tarifa: Tarifa, trifasico: boolean, r: Random): { tension: 'BT' | 'MT' | 'AT'; volts: number } {
  switch (tarifa.Id) {
    case 1:
      return { tension: 'BT', volts: trifasico ? 400 : 230 }
    case 2:
      return { tension: 'BT', volts: 400 }
    case 3:
      return { tension: 'MT', volts: r.pick([11000, 13200, 15000, 20000, 25000] as const) }
    case 4:
      return { tension: 'AT', volts: r.pick([45000, 66000] as const) }
    case 5:
      return { tension: 'AT', volts: 132000 }
    default:
      return { tension: 'AT', volts: r.pick([220000, 400000] as const) }
  }
}

function buildRecord(b: Base, nowMs: number): SipsRecord {
  const r = new Random(hashSeed(`sips-tecnico:${b.base20}`))
  const powers = b.potencias.filter((p): p is number => p !== null)
  const maxPower = Math.max(...powers)
  const es20 = b.tarifa.Id === 1
  const trifasico = !es20 || maxPower > 9.9 || r.chance(0.08)
  const { tension, volts } = tensionOf(b.tarifa, trifasico, r)
  const bie = es20 ? (BIE_20TD.find((v) => v >= maxPower) ?? 15) : b.tarifa.Id === 2 ? Math.ceil((maxPower * 1.1) / 5) * 5 : Math.ceil((maxPower * 1.2) / 10) * 10
  const apm = es20 ? Math.max(maxPower, r.chance(0.7) ? bie : maxPower) : bie
  const telegestionado = es20 ? r.chance(0.985) : true
  const propiedad: 'distribuidora' | 'titular' = b.tarifa.Id >= 3 || r.chance(0.06) ? 'titular' : 'distribuidora'
  const autoconsumo = b.tarifa.Id <= 2 && r.chance(b.household ? 0.1 : 0.06) ? '31' : null
  const impagos = r.chance(0.03)
  const deposito = impagos ? round(maxPower * r.int(10, 25), 2) : 0
  const bonoSocial = b.household && r.chance(0.06)
  const vivienda = b.household && r.chance(0.92)
  const perfil: SipsInfo['PerfilConsumo'] = es20 ? (b.household ? 'Pa' : 'Pb') : b.tarifa.Id === 2 ? 'Pc' : 'Pd'
  const dh = es20 ? '3 periodos de energía y 2 de potencia (2.0TD)' : `6 periodos de energía y 6 de potencia (${b.tarifa.Codigo})`

  const today = madridToday(nowMs)
  const lastMonth = addMonths(today.slice(0, 7), -1)
  const lecturas = readings(b, lastMonth, telegestionado)
  const last12 = lecturas.slice(-12)
  const anual = PERIODOS.map((p, i) => (i < b.tarifa.PeriodosEnergia ? last12.reduce((s, l) => s + (l.ActivaKwh[p] ?? 0), 0) : null))
  const total = anual.reduce<number>((s, v) => s + (v ?? 0), 0)
  const fechaUltimaLectura = lecturas[lecturas.length - 1]!.FechaFin
  // A retailer change or contract movement cannot be later than the last reading's month end.
  const cap = (d: string) => (d > today ? today : d)
  const provincia = PROVINCIAS.find((p) => p.Id === b.provinciaId)

  const info: SipsInfo = {
    Cups: b.cups,
    Distribuidora: b.distribuidora,
    CodigoPostal: b.codigoPostal,
    Municipio: b.municipio,
    ProvinciaCodigo: String(b.provinciaId).padStart(2, '0'),
    Provincia: provincia?.Nombre ?? '',
    Tarifa: { CodigoAtr: b.tarifa.CodigoAtr, Codigo: b.tarifa.Codigo },
    Tension: tension,
    TensionV: volts,
    PotenciaMaximaBieKw: bie,
    PotenciaMaximaApmKw: apm,
    PotenciasContratadasKw: porPeriodo(b.potencias),
    FechaAltaSuministro: b.fechaAlta,
    FechaUltimoMovimientoContrato: cap(b.fechaUltimoMovimiento),
    FechaUltimoCambioComercializador: cap(b.fechaUltimoCambio),
    FechaUltimaLectura: fechaUltimaLectura,
    Telegestionado: telegestionado,
    Fases: trifasico ? 'trifasico' : 'monofasico',
    PropiedadContador: propiedad,
    DiscriminacionHoraria: dh,
    PerfilConsumo: perfil,
    CodigoAutoconsumo: autoconsumo,
    Cnae: b.cnae,
    ViviendaHabitual: vivienda,
    Impagos: impagos,
    DepositoGarantiaEur: deposito,
    Contratable: !impagos,
    BonoSocial: bonoSocial,
    ConsumoAnualKwh: { ...porPeriodo(anual), Total: total },
  }
  const w = (kw: number | null) => (kw === null ? null : Math.round(kw * 1000))
  const raw: SipsRaw = {
    cups: b.cups,
    codigoEmpresaDistribuidora: b.distribuidora.Codigo,
    nombreEmpresaDistribuidora: b.distribuidora.Nombre,
    codigoPostalPS: b.codigoPostal,
    municipioPS: b.municipio,
    codigoProvinciaPS: info.ProvinciaCodigo,
    nombreProvinciaPS: info.Provincia,
    codigoTarifaATREnVigor: b.tarifa.CodigoAtr,
    codigoTensionV: String(volts),
    potenciaMaximaBIEW: Math.round(bie * 1000),
    potenciaMaximaAPMW: Math.round(apm * 1000),
    potenciasContratadasEnWP1: w(b.potencias[0] ?? null),
    potenciasContratadasEnWP2: w(b.potencias[1] ?? null),
    potenciasContratadasEnWP3: w(b.potencias[2] ?? null),
    potenciasContratadasEnWP4: w(b.potencias[3] ?? null),
    potenciasContratadasEnWP5: w(b.potencias[4] ?? null),
    potenciasContratadasEnWP6: w(b.potencias[5] ?? null),
    fechaAltaSuministro: info.FechaAltaSuministro,
    fechaUltimoMovimientoContrato: info.FechaUltimoMovimientoContrato,
    fechaUltimoCambioComercializador: info.FechaUltimoCambioComercializador,
    fechaUltimaLectura: info.FechaUltimaLectura,
    valorDerechosAccesoW: Math.round(Math.max(maxPower, apm) * 1000),
    codigoTelegestion: telegestionado ? '01' : '00',
    codigoFasesEquipoMedida: trifasico ? 'T' : 'M',
    codigoPropiedadEquipoMedida: propiedad === 'distribuidora' ? 'D' : 'T',
    codigoDisponibilidadICP: es20 ? '1' : '0',
    codigoDHEquipoDeMedida: es20 ? '3P' : '6P',
    codigoPerfilConsumo: perfil,
    codigoAutoconsumo: autoconsumo ?? '00',
    CNAE: b.cnae,
    esViviendaHabitual: vivienda,
    informacionImpagos: impagos,
    importeDepositoGarantiaEuros: deposito,
    tipoIdTitular: b.tipoIdTitular,
    esContratable: !impagos,
    aplicacionBonoSocial: bonoSocial,
    consumoAnualWh: total * 1000,
  }
  return { info, raw, lecturas }
}

/**
 * The whole SIPS record of a CUPS (any case, spaces or dashes): the friendly shape, the raw
 * record and the 36 readings ending with the last complete month before `nowMs` (Madrid).
 * Null when the CUPS is not valid or its distributor is unknown (no SIPS data).
 */
export function sipsRecord(db: Database.Database, cups: string, nowMs: number = Date.now()): SipsRecord | null {
  const v = validateCups(cups)
  if (!v.valid) return null
  const base = buildBase(db, v.normalized)
  return base ? buildRecord(base, nowMs) : null
}

/** The SIPS information of a CUPS (`GET /api/sips/info` shape), or null when there is none. */
export function sipsInfo(db: Database.Database, cups: string, nowMs: number = Date.now()): SipsInfo | null {
  return sipsRecord(db, cups, nowMs)?.info ?? null
}

/** `YYYY-MM-DD` of the last day of the last complete month (Madrid) before an instant. */
export function ultimaLectura(nowMs: number): string {
  const first = `${madridToday(nowMs).slice(0, 7)}-01`
  return isoOf(dayMs(first) - 86_400_000)
}
