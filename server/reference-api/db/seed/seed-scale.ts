import type Database from 'better-sqlite3'
import { DISTRIBUIDORAS } from '../../data/municipios'
import { addYears, type EstadoCodigo } from '../../lib/catalogos'
import { brandPrefix, contractCode } from '../../lib/codigos'
import { Random } from '../../lib/random'
import { REJECTION_REASONS, backofficeStaffIds, dayOfIso, drawClient, drawPoint, drawSignUpAge, drawSupplyTerms, drawingKit, isoOfDay as iso, type ClientDraft, type PointDraft } from './seed-business'

/**
 * Data at scale (`SEED_CONTRACTS`): tops every brand up to `perBrand` contracts after the demo
 * data, so lists and exports can be measured over realistic volumes.
 *
 * Clients, supply points, powers, prices and consumption are drawn exactly as the demo data
 * draws them (seed-business.ts), so every NIF/NIE/CIF, CUPS and IBAN is valid and unique where
 * it must be. Each contract gets a state and coherent dates: signed up over the last three
 * years (recent ones likelier), signed, sent, accepted and activated in that order, some
 * rejected, cancelled, withdrawn or ended, validated once sent to the distributor. Unlike the
 * demo's, these contracts carry no history, invoices, renewals, signature requests or
 * documents: the demo shows a contract's life, this shows volume. Deterministic: the same
 * rows for the same count and day. Rows go in by sign-up day with the big tables' secondary
 * indexes dropped and built once at the end, instead of updated row by row.
 */

/** Its own stream, so topping up never changes the demo data. */
const SCALE_SEED = 1_000_003
const DAY_MS = 86_400_000
const SUPPLYING: ReadonlySet<EstadoCodigo> = new Set(['activo', 'modificacion_en_curso'])
/** States reached after the Kleen validation that precedes the switching request. */
const VALIDATED: ReadonlySet<EstadoCodigo> = new Set(['enviado_distribuidora', 'aceptado', 'rechazado', 'activo', 'baja', 'modificacion_en_curso'])
/** The path every contract follows until something stops it. */
const PATH: readonly EstadoCodigo[] = ['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'activo']
const BULK_TABLES = ['clientes', 'puntos_suministro', 'contratos'] as const
const CREATED_HOURS = [8, 11] as const
const VALIDATED_HOURS = [12, 14] as const
const UPDATED_HOURS = [15, 19] as const

interface ScaleContract {
  client: ClientDraft
  point: PointDraft
  terms: ReturnType<typeof drawSupplyTerms>
  colectivoId: number
  estado: EstadoCodigo
  motivoRechazo: string | null
  agent: Seller
  alta: number
  firma: number | null
  envio: number | null
  activacion: number | null
  baja: number | null
  /** Day of the last change (sign-up when nothing happened since). */
  ultimo: number
  tipoAltaId: number
  tipoImpresionId: number
  iban: string
  creator: number | null
  editor: number | null
  validator: number | null
}

interface Seller {
  id: number
  usuario_id: number | null
  tipo_comision_id: number | null
  since: number
  weight: number
}

/** Adds contracts until every brand has `perBrand`; answers how many were added. */
export function seedScale(db: Database.Database, today: Date, perBrand: number): number {
  const rnd = new Random(SCALE_SEED)
  const T = Math.floor(today.getTime() / DAY_MS)
  const marcas = db.prepare('SELECT id, dominio FROM marcas ORDER BY id').all() as { id: number; dominio: string }[]
  const staff = backofficeStaffIds(db)
  const usedCups = new Set((db.prepare('SELECT cups FROM puntos_suministro').pluck().all() as string[]))
  const kit = drawingKit(rnd, usedCups)
  // Office hours, split so that one day's events keep their order: created, validated, updated.
  const stamp = (day: number, hours: readonly [number, number]) => `${iso(day)}T${pad(rnd.int(hours[0], hours[1]))}:${pad(rnd.int(0, 59))}:${pad(rnd.int(0, 59))}Z`

  const insertClient = db.prepare(
    `INSERT INTO clientes (marca_id, tipo, nif, nombre, apellido1, apellido2, razon_social, forma_juridica, email, telefono,
       direccion, codigo_postal, municipio, provincia_id, iban, fecha_alta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertPoint = db.prepare(
    `INSERT INTO puntos_suministro (marca_id, cliente_id, cups, direccion, codigo_postal, municipio, provincia_id,
       distribuidora_codigo, distribuidora_nombre, tarifa_id, cnae) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertContract = db.prepare(
    `INSERT INTO contratos (marca_id, codigo, cliente_id, punto_suministro_id, tarifa_id, estado, motivo_rechazo, agente_id,
       potencia_p1, potencia_p2, potencia_p3, potencia_p4, potencia_p5, potencia_p6, modalidad,
       precio_energia_p1, precio_energia_p2, precio_energia_p3, precio_energia_p4, precio_energia_p5, precio_energia_p6, fee_mwh,
       precio_potencia_p1, precio_potencia_p2, precio_potencia_p3, precio_potencia_p4, precio_potencia_p5, precio_potencia_p6,
       cnae, tipo_alta_solicitud_id, tipo_impresion_factura_id, tipo_comision_id, colectivo_id, iban, consumo_anual_kwh,
       fecha_alta, fecha_firma, fecha_activacion, fecha_baja, fecha_proxima_renovacion, creado_en, creado_por, actualizado_en, actualizado_por,
       validado, validado_en, validado_por)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )

  let added = 0
  withIndexesRebuilt(db, BULK_TABLES, () => {
    for (const marca of marcas) {
      const missing = perBrand - (db.prepare('SELECT COUNT(*) FROM contratos WHERE marca_id = ?').pluck().get(marca.id) as number)
      if (missing <= 0) continue
      const nifs = new Set(db.prepare('SELECT nif FROM clientes WHERE marca_id = ?').pluck().all(marca.id) as string[])
      const uniqueNif = (make: () => string) => {
        for (;;) {
          const nif = make()
          if (!nifs.has(nif)) {
            nifs.add(nif)
            return nif
          }
        }
      }
      const pickSeller = brandSellers(db, rnd, marca.id)
      const contracts: ScaleContract[] = []
      while (contracts.length < missing) {
        const pick = drawClient(rnd, kit, uniqueNif)
        const points = Math.min(missing - contracts.length, pick.person ? rnd.weighted([[1, 92], [2, 6], [3, 2]] as const) : rnd.weighted([[1, 78], [2, 15], [3, 7]] as const))
        for (let p = 0; p < points; p++) {
          const point = drawPoint(rnd, kit, pick, p)
          contracts.push(drawContract(rnd, T, point, pick.client.household, pick.colectivo, pickSeller, staff, kit.newIban))
        }
      }

      // Codes follow the calendar: by sign-up day, after the year's last demo code.
      contracts.sort((a, b) => a.alta - b.alta)
      const prefix = brandPrefix(marca.dominio)
      const seqByYear = new Map(
        (db.prepare('SELECT substr(codigo, 4, 4) AS y, MAX(CAST(substr(codigo, 9) AS INTEGER)) AS n FROM contratos WHERE marca_id = ? GROUP BY y').all(marca.id) as { y: string; n: number }[]).map(
          (r) => [Number(r.y), r.n],
        ),
      )
      const clientIds = new Map<ClientDraft, number>()
      for (const c of contracts) {
        let clientId = clientIds.get(c.client)
        if (clientId === undefined) {
          const k = c.client
          clientId = insertClient.run(marca.id, k.tipo, k.nif, k.nombre, k.apellido1, k.apellido2, k.razonSocial, k.formaJuridica, k.email, k.telefono,
            k.direccion, k.codigoPostal, k.municipio, k.provinciaId, k.iban, iso(c.alta)).lastInsertRowid as number
          clientIds.set(k, clientId)
        }
        const p = c.point
        const pointId = insertPoint.run(marca.id, clientId, p.cups, p.direccion, p.codigoPostal, p.municipio, p.provinciaId, p.distribuidora,
          DISTRIBUIDORAS[p.distribuidora] ?? p.distribuidora, p.tarifaId, p.cnae).lastInsertRowid as number
        const year = new Date(c.alta * DAY_MS).getUTCFullYear()
        const seq = (seqByYear.get(year) ?? 0) + 1
        seqByYear.set(year, seq)
        const t = c.terms
        const creado = stamp(c.alta, CREATED_HOURS)
        insertContract.run(
          marca.id, contractCode(prefix, year, seq), clientId, pointId, p.tarifaId, c.estado, c.motivoRechazo, c.agent.id,
          ...t.powers, t.modalidad, ...t.energy, t.fee, ...t.powerPrices,
          p.cnae, c.tipoAltaId, c.tipoImpresionId, c.agent.tipo_comision_id, c.colectivoId, c.iban, t.consumo,
          iso(c.alta), day(c.firma), day(c.activacion), day(c.baja), nextAnniversary(c, T),
          creado, c.creator, c.ultimo === c.alta ? creado : stamp(c.ultimo, UPDATED_HOURS), c.editor,
          c.validator === null ? 0 : 1, c.validator === null ? null : stamp(c.envio!, VALIDATED_HOURS), c.validator,
        )
      }
      added += contracts.length
    }
  })
  return added
}

/** One contract's state and dates: the demo's path and odds, without its history. */
function drawContract(
  rnd: Random,
  T: number,
  point: PointDraft,
  household: boolean,
  colectivo: number,
  pickSeller: (alta: number) => Seller,
  staff: number[],
  newIban: () => string,
): ScaleContract {
  const terms = drawSupplyTerms(rnd, point, household)
  const alta = T - drawSignUpAge(rnd)
  const age = T - alta
  const tPend = rnd.int(0, 1) + (rnd.chance(0.3) ? rnd.int(3, 50) : 0)
  const tFirma = tPend + rnd.int(1, 6) + (rnd.chance(0.35) ? rnd.int(4, 40) : 0)
  const tEnvio = tFirma + rnd.int(0, 3) + (rnd.chance(0.5) ? rnd.int(2, 20) : 0)
  const tResp = tEnvio + rnd.int(3, 12) + (rnd.chance(0.5) ? rnd.int(5, 30) : 0)
  const tActiv = tResp + rnd.int(15, 30)
  const reachedAt = [0, tPend, tFirma, tEnvio, tResp, tActiv]
  let step = 0
  for (let i = 0; i < PATH.length; i++) if (age >= reachedAt[i]!) step = i
  let estado = PATH[step]!
  let ultimo = alta + reachedAt[step]!
  let motivoRechazo: string | null = null
  let baja: number | null = null
  const fate = rnd.weighted([['suministro', 91.5], ['anulado', 3], ['desistido', 2], ['rechazado', 3.5]] as const)
  if (fate === 'anulado') {
    // Cancelled before signing.
    const tAnul = tPend + rnd.int(2, 30)
    step = Math.min(step, 1)
    estado = age >= tAnul ? 'anulado' : PATH[step]!
    ultimo = alta + (age >= tAnul ? tAnul : reachedAt[step]!)
  } else if (fate === 'desistido') {
    // Within 14 days of signing, before the distributor answers.
    const tDesist = Math.min(tFirma + rnd.int(1, 13), tResp - 1)
    if (age >= tDesist) {
      estado = 'desistido'
      step = tDesist >= tEnvio ? 3 : 2
      ultimo = alta + tDesist
    }
  } else if (fate === 'rechazado' && age >= tResp) {
    estado = 'rechazado'
    step = 3
    motivoRechazo = rnd.pick(REJECTION_REASONS)
    ultimo = alta + tResp
  } else if (estado === 'activo') {
    // Churn after at least two months of supply; a few modify their power.
    const churnAfter = 60 + Math.floor(-Math.log(1 - rnd.next()) * 1500)
    if (churnAfter < age - tActiv) {
      estado = 'baja'
      baja = alta + tActiv + churnAfter
      ultimo = baja
    } else if (rnd.chance(0.035) && age - tActiv > 90) {
      estado = 'modificacion_en_curso'
      ultimo = T - rnd.int(1, 20)
    }
  }
  const agent = pickSeller(alta)
  const creator = agent.usuario_id !== null && rnd.chance(0.7) ? agent.usuario_id : rnd.pick(staff)
  const validated = VALIDATED.has(estado) || (estado === 'desistido' && step >= 3)
  return {
    client: point.client,
    point,
    terms,
    colectivoId: point.tarifaId === 3 && colectivo === 2 ? 3 : colectivo,
    estado,
    motivoRechazo,
    agent,
    alta,
    firma: step >= 2 ? alta + tFirma : null,
    envio: step >= 3 ? alta + tEnvio : null,
    activacion: step >= 5 ? alta + tActiv : null,
    baja,
    ultimo,
    tipoAltaId: rnd.weighted([[1, 70], [2, 18], [3, 12]] as const),
    tipoImpresionId: rnd.weighted([[1, household ? 65 : 80], [2, household ? 17 : 5], [3, household ? 18 : 15]] as const),
    iban: rnd.chance(0.95) ? point.client.iban : newIban(),
    creator,
    editor: ultimo === alta ? creator : rnd.chance(0.5) ? rnd.pick(staff) : null,
    validator: validated ? rnd.pick(staff) : null,
  }
}

/** The brand's selling agents (levels 2 and 3) with their share of sales, as in the demo data; picks one working on a day. */
function brandSellers(db: Database.Database, rnd: Random, marcaId: number): (alta: number) => Seller {
  const agents = db.prepare('SELECT id, nivel, usuario_id, tipo_comision_id, fecha_alta FROM agentes WHERE marca_id = ? AND nivel >= 2 ORDER BY id').all(marcaId) as {
    id: number
    nivel: number
    usuario_id: number | null
    tipo_comision_id: number | null
    fecha_alta: string
  }[]
  const sellers = agents.map((a) => ({
    id: a.id,
    usuario_id: a.usuario_id,
    tipo_comision_id: a.tipo_comision_id,
    since: dayOfIso(a.fecha_alta),
    weight: (a.nivel === 3 ? 0.85 / 24 : 0.15 / 12) * (0.4 + rnd.next() * 1.2),
  }))
  // Weighted choices by how many agents were working: the sets nest (joined by a day), so the count names the set.
  const choices = new Map<number, (readonly [Seller, number])[]>()
  return (alta) => {
    const working = sellers.filter((s) => s.since <= alta)
    let entries = choices.get(working.length)
    if (!entries) {
      entries = (working.length ? working : sellers).map((s) => [s, s.weight] as const)
      choices.set(working.length, entries)
    }
    return rnd.weighted(entries)
  }
}

/** The first anniversary of the activation from today on, for contracts still supplying. */
function nextAnniversary(c: ScaleContract, T: number): string | null {
  if (!SUPPLYING.has(c.estado) || c.activacion === null) return null
  const today = iso(T)
  const start = iso(c.activacion)
  for (let n = 1; ; n++) {
    const next = addYears(start, n)
    if (next >= today) return next
  }
}

/**
 * Runs `fill` with the secondary indexes of `tables` dropped, then builds them again (same
 * SQL, from sqlite_master): one sort per index instead of a B-tree update per row.
 */
function withIndexesRebuilt(db: Database.Database, tables: readonly string[], fill: () => void): void {
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')})`)
    .all(...tables) as { name: string; sql: string }[]
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`)
  fill()
  for (const index of indexes) db.exec(index.sql)
}

const day = (n: number | null) => (n === null ? null : iso(n))
const pad = (n: number) => String(n).padStart(2, '0')
