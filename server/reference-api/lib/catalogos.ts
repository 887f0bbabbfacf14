import cnaes from '../data/cnaes.json' with { type: 'json' }
import estados from '../data/estados-contrato.json' with { type: 'json' }
import provincias from '../data/provincias.json' with { type: 'json' }
import tarifas from '../data/tarifas.json' with { type: 'json' }
import tipos from '../data/tipos.json' with { type: 'json' }

/**
 * The reference catalogs (`data/*.json`) as lookups, and as SQL `CASE` expressions so lists
 * can show, sort and filter by a catalog name without a catalog table (the JSON files stay
 * the single source the utility calls also serve).
 */

export interface EstadoContrato {
  Id: number
  Codigo: string
  Nombre: string
  Color: string
}

export interface Tarifa {
  Id: number
  Codigo: string
  CodigoAtr: string
  Nombre: string
  PeriodosPotencia: number
  PeriodosEnergia: number
}

export interface Tipo {
  Id: number
  Codigo: string
  Nombre: string
}

export const ESTADOS: readonly EstadoContrato[] = estados
export const TARIFAS: readonly Tarifa[] = tarifas
export const PROVINCIAS: readonly { Id: number; Codigo: string; Nombre: string }[] = provincias
export const CNAES: readonly { Codigo: string; Nombre: string }[] = cnaes
export const TIPOS_ALTA: readonly Tipo[] = tipos.tipoaltasolicitud
export const TIPOS_IMPRESION: readonly Tipo[] = tipos.tipoimpresionfacturas
export const TIPOS_COMISION: readonly Tipo[] = tipos.tipocomision
export const COLECTIVOS: readonly Tipo[] = tipos.colectivos

export type EstadoCodigo =
  | 'borrador'
  | 'pendiente_firma'
  | 'firmado'
  | 'enviado_distribuidora'
  | 'aceptado'
  | 'rechazado'
  | 'activo'
  | 'baja'
  | 'desistido'
  | 'anulado'
  | 'modificacion_en_curso'

/** States of a contract being signed and switched (not yet supplying). */
export const ESTADOS_EN_TRAMITE: readonly EstadoCodigo[] = ['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado']
/** States of a contract currently supplying energy. */
export const ESTADOS_EN_SUMINISTRO: readonly EstadoCodigo[] = ['activo', 'modificacion_en_curso']

export const estadoByCodigo = new Map(ESTADOS.map((e) => [e.Codigo, e]))
export const tarifaById = new Map(TARIFAS.map((t) => [t.Id, t]))
export const provinciaById = new Map(PROVINCIAS.map((p) => [p.Id, p]))
export const cnaeByCodigo = new Map(CNAES.map((c) => [c.Codigo, c]))

/** `{ Id, Codigo, Nombre }` of a catalog entry, or null. */
export function tipoRef(list: readonly Tipo[], id: number | null | undefined): Tipo | null {
  if (id === null || id === undefined) return null
  const t = list.find((x) => x.Id === id)
  return t ? { Id: t.Id, Codigo: t.Codigo, Nombre: t.Nombre } : null
}

function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`
}

/** `CASE <column> WHEN k1 THEN v1 … END` from trusted static data (never from input). */
export function sqlCase(column: string, entries: readonly (readonly [string | number, string])[], otherwise = 'NULL'): string {
  const whens = entries.map(([k, v]) => `WHEN ${typeof k === 'number' ? k : sqlString(k)} THEN ${sqlString(v)}`).join(' ')
  return `(CASE ${column} ${whens} ELSE ${otherwise} END)`
}

/** `[key, name]` of the catalogs lists show by name: a list sorts and filters by the name through the key (lib/paging.ts `Catalog`). */
export const ESTADO_NOMBRES = ESTADOS.map((e) => [e.Codigo, e.Nombre] as const)
export const TARIFA_CODIGOS = TARIFAS.map((t) => [t.Id, t.Codigo] as const)
export const PROVINCIA_NOMBRES = PROVINCIAS.map((p) => [p.Id, p.Nombre] as const)

export const sqlEstadoNombre = (column: string) => sqlCase(column, ESTADOS.map((e) => [e.Codigo, e.Nombre]))
export const sqlEstadoColor = (column: string) => sqlCase(column, ESTADOS.map((e) => [e.Codigo, e.Color]))
export const sqlTarifaCodigo = (column: string) => sqlCase(column, TARIFAS.map((t) => [t.Id, t.Codigo]))
export const sqlProvinciaNombre = (column: string) => sqlCase(column, PROVINCIAS.map((p) => [p.Id, p.Nombre]))
export const sqlTipoComisionNombre = (column: string) => sqlCase(column, TIPOS_COMISION.map((t) => [t.Id, t.Nombre]))

/** ISO date (UTC) of an epoch-milliseconds instant. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** ISO timestamp without milliseconds (`2026-11-21T10:00:00Z`). */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The same calendar day `years` later (29 February → 28 February). */
export function addYears(isoDay: string, years: number): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(y + years, m - 1, d))
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0)
  return date.toISOString().slice(0, 10)
}
