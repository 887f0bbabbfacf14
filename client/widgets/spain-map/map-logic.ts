import { messageIn } from '../../i18n/i18n'
import type { Language } from '../../../schemas/i18n'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'
import type { ProvinceRow } from '../../../schemas/business/map'

/**
 * Pure helpers of the province map (no React, no geometry): matching the atlas's provinces to
 * the API's rows, the measures, and the colour scale with its legend. Texts are in the current
 * language (./messages.ts).
 */

export type Measure = 'Contratos' | 'ContratosActivos' | 'PuntosSuministro' | 'ConsumoAnualKwh'

/** The measures; their names are `measureText` (label, one/many for counts, top for the ranking's heading). */
export const MEASURES: Record<Measure, { digits: number; unit?: string }> = {
  Contratos: { digits: 0 },
  ContratosActivos: { digits: 0 },
  PuntosSuministro: { digits: 0 },
  ConsumoAnualKwh: { digits: 0, unit: 'kWh' },
}

export function measureText(measure: Measure, what: 'label' | 'one' | 'many' | 'top', lang?: Language): string {
  return messageIn(messages, `${measure}.${what}`, undefined, lang)
}

/** A number in the current language's format (the default of the labels below). */
const localNumber = (n: number) => n.toLocaleString(intlLocale())

export function isMeasure(v: unknown): v is Measure {
  return typeof v === 'string' && v in MEASURES
}

/** A province name as compared: no accents, lower case, only letters and digits, single spaces. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9/]+/g, ' ')
    .trim()
}

/** Other names a province goes by (Spanish, co-official language, old spellings). */
const ALIASES: Record<string, string[]> = {
  '01': ['alava', 'araba'],
  '03': ['alicante', 'alacant'],
  '07': ['illes balears', 'islas baleares', 'baleares', 'balears'],
  '12': ['castellon', 'castello'],
  '15': ['a coruna', 'la coruna', 'coruna'],
  '17': ['girona', 'gerona'],
  '20': ['gipuzkoa', 'guipuzcoa'],
  '25': ['lleida', 'lerida'],
  '26': ['la rioja', 'rioja'],
  '31': ['navarra', 'nafarroa'],
  '32': ['ourense', 'orense'],
  '33': ['asturias'],
  '35': ['las palmas', 'palmas'],
  '38': ['santa cruz de tenerife', 'tenerife'],
  '46': ['valencia'],
  '48': ['bizkaia', 'vizcaya'],
}

/** Every name variant of a province: its parts split on `/` plus known aliases. */
export function nameKeys(name: string): string[] {
  const n = normalizeName(name)
  const parts = n.split('/').map((p) => p.trim()).filter(Boolean)
  return [...new Set([n.replace(/\//g, ' '), ...parts])]
}

function aliasCode(name: string): string | null {
  const keys = nameKeys(name)
  for (const [code, names] of Object.entries(ALIASES)) if (keys.some((k) => names.includes(k))) return code
  return null
}

/**
 * Each atlas province with its API row: by INE code when the atlas id is one (`01`…`52`) and the
 * API has that `ProvinciaId`, else by name (accents, case, bilingual `A/B` forms and aliases
 * ignored). Returns atlas id → row; unmatched atlas provinces are absent.
 */
export function matchProvinces(atlas: readonly { id: string; name: string }[], rows: readonly ProvinceRow[]): Map<string, ProvinceRow> {
  const out = new Map<string, ProvinceRow>()
  const byId = new Map(rows.map((r) => [r.ProvinciaId, r]))
  const byName = new Map<string, ProvinceRow>()
  for (const r of rows) {
    for (const k of nameKeys(r.Provincia)) if (!byName.has(k)) byName.set(k, r)
    const alias = aliasCode(r.Provincia)
    if (alias) for (const k of ALIASES[alias]!) if (!byName.has(k)) byName.set(k, r)
  }
  const used = new Set<ProvinceRow>()
  // 1) by code
  for (const a of atlas) {
    if (!/^\d{1,2}$/.test(a.id)) continue
    const row = byId.get(Number(a.id))
    if (row && !used.has(row)) {
      out.set(a.id, row)
      used.add(row)
    }
  }
  // 2) by name, for whatever the code did not settle
  for (const a of atlas) {
    if (out.has(a.id)) continue
    const keys = [...nameKeys(a.name)]
    const alias = aliasCode(a.name)
    if (alias) keys.push(...ALIASES[alias]!)
    const row = keys.map((k) => byName.get(k)).find((r) => r && !used.has(r))
    if (row) {
      out.set(a.id, row)
      used.add(row)
    }
  }
  return out
}

export interface ColorScale {
  /** Lower bounds of classes 2…n (class 1 starts at the smallest positive value). */
  thresholds: number[]
  /** 0 for no value (zero), 1…classes otherwise. */
  classOf: (value: number) => number
  classes: number
  /** One entry per class, zero first: its range as text. */
  legend: { cls: number; label: string }[]
}

/** Rounds to two significant digits (legend bounds of large numbers read better). */
export function nice(v: number): number {
  if (v < 100) return Math.round(v)
  const p = 10 ** (Math.floor(Math.log10(v)) - 1)
  return Math.round(v / p) * p
}

/**
 * A sequential scale of up to `classes` classes over the positive values, split at their
 * quantiles (the figures are skewed: Madrid and Barcelona dwarf the rest), zero as its own
 * class. Integer measures get integer ranges (`1–4`, `5–12`…).
 */
export function buildScale(values: readonly number[], classes = 5, format: (n: number) => string = localNumber): ColorScale {
  const positives = values.filter((v) => Number.isFinite(v) && v > 0).sort((a, b) => a - b)
  const thresholds: number[] = []
  if (positives.length) {
    const min = positives[0]!
    for (let k = 1; k < classes; k++) {
      const q = nice(positives[Math.floor((k * positives.length) / classes)] ?? min)
      const last = thresholds[thresholds.length - 1] ?? min
      if (q > last && q > min) thresholds.push(q)
    }
  }
  const classOf = (v: number) => {
    if (!Number.isFinite(v) || v <= 0) return 0
    let c = 1
    for (const t of thresholds) if (v >= t) c++
    return c
  }
  const n = positives.length ? thresholds.length + 1 : 0
  const integers = positives.every((v) => Number.isInteger(v))
  const legend: { cls: number; label: string }[] = [{ cls: 0, label: '0' }]
  for (let c = 1; c <= n; c++) {
    const lo = c === 1 ? positives[0]! : thresholds[c - 2]!
    const hi = c <= thresholds.length ? thresholds[c - 1]! : positives[positives.length - 1]!
    const hiShown = c <= thresholds.length ? (integers ? hi - 1 : hi) : hi
    const label = c === n ? (lo === hi ? format(lo) : `${format(lo)}–${format(hi)}`) : hiShown <= lo ? format(lo) : `${format(lo)}–${format(hiShown)}`
    legend.push({ cls: c, label })
  }
  return { thresholds, classOf, classes: n, legend }
}

/** Fill of a class: a mix of the brand's primary colour with the card surface (light and dark themes alike). */
export function classFill(cls: number, classes: number): string {
  if (cls <= 0) return 'var(--surface-ground)'
  const share = classes <= 1 ? 100 : Math.round(20 + (80 * (cls - 1)) / (classes - 1))
  return `color-mix(in srgb, var(--primary-color) ${share}%, var(--surface-card))`
}

/** "Madrid: 48 contratos" — the province's accessible name for a measure. */
export function provinceLabel(name: string, row: ProvinceRow | undefined, measure: Measure, format: (n: number) => string = localNumber): string {
  const v = row ? row[measure] : 0
  if (MEASURES[measure].unit) return `${name}: ${format(v)} ${measureText(measure, 'one')}`
  return `${name}: ${format(v)} ${measureText(measure, v === 1 ? 'one' : 'many')}`
}

/**
 * The contracts list at `listPath` (the manifest's, see screen-path.ts) filtered by a province:
 * its URL state is the text filter on `Provincia`.
 */
export function contractsListUrl(listPath: string, provincia: string): string {
  return `${listPath}?${new URLSearchParams({ 'f.Provincia': provincia }).toString()}`
}
