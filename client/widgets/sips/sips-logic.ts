/**
 * Pure helpers of the Sips tool (no React): reading a pasted or uploaded list of CUPS and
 * the monthly per-period series drawn from `Lecturas` (the answers are schemas/business/sips.ts).
 */
import { messageIn } from '../../i18n/i18n'
import { messages } from './messages'
import { PERIODS, type Period } from '../../../schemas/business/periods'
import type { PorPeriodo } from '../../../schemas/business/common'
import type { SipsListItem, SipsReading } from '../../../schemas/business/sips'

export { PERIODS }

/** Toast title (the tool's name, the same in every language); its spec §8 messages are in ./messages.ts. */
export const SIPS_AREA = 'Sips'

/** Most CUPS one list call accepts (reference API: 1–200 items). */
export const MAX_LIST = 200

/** Upper case, without spaces, dots or dashes (as the validators normalise). */
export function normalizeCups(value: string): string {
  return value.replace(/[\s.-]+/g, '').toUpperCase()
}

/**
 * The CUPS of a pasted text: one per line, or separated by commas, semicolons, tabs, pipes or
 * spaces. A CUPS written in groups (`ES 0021 0000 0000 0001 RK`) stays one: a piece that does
 * not start with `ES` continues the CUPS before it while that one is still short (or is its
 * border-point suffix). Blanks go,
 * a `CUPS` header goes, and duplicates (after normalising) are kept once, in first-seen order.
 */
export function parseCupsList(text: string): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const push = (raw: string) => {
    const n = normalizeCups(raw)
    if (!n || n === 'CUPS' || seen.has(n)) return
    seen.add(n)
    out.push(n)
  }
  for (const segment of text.split(/[\r\n,;\t|]+/)) {
    let current = ''
    for (const piece of segment.trim().split(/\s+/)) {
      const p = piece.replace(/^["']+|["']+$/g, '')
      if (!p) continue
      const startsNew = /^es/i.test(p)
      const len = normalizeCups(current).length
      // …and a border-point suffix (`0F`) completes a 20-character CUPS.
      if (!startsNew && current && (len < 20 || (len === 20 && /^\d[FPRCXYZ]$/i.test(p)))) {
        current += p
        continue
      }
      if (current) push(current)
      current = p
    }
    if (current) push(current)
  }
  return out
}

/**
 * The CUPS of an uploaded file: a CSV whose header names a `CUPS` column gives that column;
 * anything else is read as a pasted list.
 */
export function cupsFromFile(text: string, fileName: string): string[] {
  const clean = text.replace(/^\uFEFF/, '')
  if (/\.csv$/i.test(fileName)) {
    const lines = clean.split(/\r?\n/).filter((l) => l.trim())
    const first = lines[0] ?? ''
    const sep = [';', ',', '\t'].find((s) => first.includes(s))
    if (sep) {
      const header = first.split(sep).map((h) => h.trim().replace(/^["']+|["']+$/g, '').toUpperCase())
      const col = header.indexOf('CUPS')
      if (col >= 0) return parseCupsList(lines.slice(1).map((l) => l.split(sep)[col] ?? '').join('\n'))
    }
  }
  return parseCupsList(clean)
}

/** The periods with a value in some reading (2.0TD: P1–P3), in order. */
export function periodsOf(lecturas: readonly SipsReading[], field: 'ActivaKwh' | 'ReactivaKvarh' | 'PotenciaDemandadaKw' = 'ActivaKwh'): Period[] {
  return PERIODS.filter((p) => lecturas.some((l) => typeof l[field]?.[p] === 'number'))
}

export interface MonthlySeries {
  /** `YYYY-MM` of each billing period (its start month). */
  months: string[]
  /** Readable label of each month: `ene 2024` (current language). */
  labels: string[]
  periods: Period[]
  /** kWh per period and month (0 where the reading lacks the period). */
  data: Record<Period, number[]>
  totals: number[]
}

/** `ene 2024` (`Jan 2024` in English): the short month names of ./messages.ts, in the current language. */
export function monthLabel(yyyyMm: string): string {
  const [y, m] = yyyyMm.split('-')
  return `${messageIn(messages, 'months.short').split(' ')[Number(m) - 1] ?? m} ${y}`
}

/** The stacked monthly series per period of the consumption history, oldest first. */
export function monthlySeries(lecturas: readonly SipsReading[]): MonthlySeries {
  const sorted = [...lecturas].sort((a, b) => a.FechaInicio.localeCompare(b.FechaInicio))
  const periods = periodsOf(sorted)
  const months = sorted.map((l) => l.FechaInicio.slice(0, 7))
  const data = Object.fromEntries(PERIODS.map((p) => [p, sorted.map((l) => l.ActivaKwh?.[p] ?? 0)])) as Record<Period, number[]>
  const totals = sorted.map((l) => periods.reduce((s, p) => s + (l.ActivaKwh?.[p] ?? 0), 0))
  return { months, labels: months.map(monthLabel), periods, data, totals }
}

/** Sum of the last `n` readings per period (annual consumption = the last 12 months). */
export function lastMonthsTotal(lecturas: readonly SipsReading[], n = 12): Record<Period, number> & { Total: number } {
  const sorted = [...lecturas].sort((a, b) => a.FechaInicio.localeCompare(b.FechaInicio)).slice(-n)
  const out = { P1: 0, P2: 0, P3: 0, P4: 0, P5: 0, P6: 0, Total: 0 }
  for (const l of sorted) {
    for (const p of PERIODS) {
      const v = l.ActivaKwh?.[p] ?? 0
      out[p] += v
      out.Total += v
    }
  }
  return out
}

/** Highest value of a per-period record (maximum demanded power of a reading). */
export function maxOf(values: PorPeriodo | undefined): number | null {
  if (!values) return null
  const nums = PERIODS.map((p) => values[p]).filter((v): v is number => typeof v === 'number')
  return nums.length ? Math.max(...nums) : null
}

export function sumOf(values: PorPeriodo | undefined): number {
  if (!values) return 0
  return PERIODS.reduce((s, p) => s + (values[p] ?? 0), 0)
}

/** URL state of the tool: the CUPS shown, the list looked up and which view is open. */
export interface SipsUrlState {
  cups: string
  list: string[]
  view: 'uno' | 'lista'
}

export function readSipsUrl(search: URLSearchParams): SipsUrlState {
  const cups = normalizeCups(search.get('cups') ?? '')
  const list = parseCupsList(search.get('lista') ?? '')
  const view = search.get('vista') === 'lista' || (!cups && list.length > 0) ? 'lista' : 'uno'
  return { cups, list, view }
}

export function writeSipsUrl(state: SipsUrlState): URLSearchParams {
  const next = new URLSearchParams()
  if (state.cups) next.set('cups', state.cups)
  if (state.list.length) next.set('lista', state.list.join(','))
  if (state.view === 'lista') next.set('vista', 'lista')
  return next
}

/** Counts of a list answer by state. */
export function listSummary(rows: readonly SipsListItem[]): { ok: number; invalido: number; sin_datos: number } {
  const out = { ok: 0, invalido: 0, sin_datos: 0 }
  for (const r of rows) out[r.Estado] = (out[r.Estado] ?? 0) + 1
  return out
}
