import { getLanguage, messageIn } from '../../i18n/i18n'
import { formatKwh as kwh, formatMoney, formatNumber, formatValue } from '../../ui/format'
import { messages } from './messages'
import type { BatteryResult, CalculationAnswer, CalculationBody, SavingsPeriod } from '../../../schemas/business/battery'

/**
 * The battery calculator's rules, apart from the screen: what the user typed, the validation
 * before calling (messages in the current language), the request body of `POST /api/bateria/calculadora`, the energy
 * balance of domain.md (for the "without battery" bars of the chart) and the result formats.
 */

/** What the user types (null: empty). */
export interface BatteryInputs {
  ConsumoAnualKwh: number | null
  ProduccionFvAnualKwh: number | null
  AutoconsumoDirectoKwh: number | null
  PrecioImportacionKwh: number | null
  PrecioExcedenteKwh: number | null
  PreciosConImpuestos: boolean
  FechasAhorroId: number | null
}

export type InputField = keyof BatteryInputs
export type InputErrors = Partial<Record<InputField, string>>

export const EMPTY_INPUTS: BatteryInputs = {
  ConsumoAnualKwh: null,
  ProduccionFvAnualKwh: null,
  AutoconsumoDirectoKwh: null,
  PrecioImportacionKwh: null,
  PrecioExcedenteKwh: null,
  PreciosConImpuestos: false,
  FechasAhorroId: null,
}

/** Electricity tax (5,11269632 %) and VAT (21 %), as the API applies them to prices without taxes. */
export const TAX_FACTOR = (1 + 0.0511269632) * 1.21

/**
 * The prices a savings period puts in the form. The API's averages exclude taxes; with
 * "prices include taxes" ticked they get the tax factor, as the API does for omitted prices.
 */
export function periodPrices(p: SavingsPeriod, withTaxes: boolean): { PrecioImportacionKwh: number; PrecioExcedenteKwh: number } {
  const k = withTaxes ? TAX_FACTOR : 1
  const r4 = (v: number) => Math.round(v * k * 10_000) / 10_000
  return { PrecioImportacionKwh: r4(p.PrecioImportacionMedioKwh), PrecioExcedenteKwh: r4(p.PrecioExcedenteMedioKwh) }
}

/** Above this a price is surely not in €/kWh (someone typed cents or €/MWh). */
export const MAX_PRICE_EUR_KWH = 2

const isNum = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)

/** Messages per field, in the current language; empty when the inputs can be sent. */
export function validateInputs(v: BatteryInputs): InputErrors {
  const e: InputErrors = {}
  const m = (key: keyof typeof messages.es) => messageIn(messages, key)
  const C = v.ConsumoAnualKwh
  const G = v.ProduccionFvAnualKwh
  const S0 = v.AutoconsumoDirectoKwh
  if (!isNum(C)) e.ConsumoAnualKwh = m('error.consumption.required')
  else if (C < 0) e.ConsumoAnualKwh = m('error.consumption.negative')
  else if (C === 0) e.ConsumoAnualKwh = m('error.consumption.zero')
  if (!isNum(G)) e.ProduccionFvAnualKwh = m('error.production.required')
  else if (G < 0) e.ProduccionFvAnualKwh = m('error.production.negative')
  if (!isNum(S0)) e.AutoconsumoDirectoKwh = m('error.selfConsumption.required')
  else if (S0 < 0) e.AutoconsumoDirectoKwh = m('error.selfConsumption.negative')
  else if (isNum(G) && G >= 0 && S0 > G) e.AutoconsumoDirectoKwh = m('error.selfConsumption.overProduction')
  else if (isNum(C) && C > 0 && S0 > C) e.AutoconsumoDirectoKwh = m('error.selfConsumption.overConsumption')
  const withPeriod = isNum(v.FechasAhorroId)
  const price = (value: number | null, field: 'PrecioImportacionKwh' | 'PrecioExcedenteKwh', what: 'importPrice' | 'surplusPrice') => {
    if (!isNum(value)) {
      if (!withPeriod) e[field] = m(`error.${what}.required`)
    } else if (value < 0) e[field] = m(`error.${what}.negative`)
    else if (value > MAX_PRICE_EUR_KWH) e[field] = m(`error.${what}.unit`)
  }
  price(v.PrecioImportacionKwh, 'PrecioImportacionKwh', 'importPrice')
  price(v.PrecioExcedenteKwh, 'PrecioExcedenteKwh', 'surplusPrice')
  return e
}

/** The request body from valid inputs: a price left empty with a period chosen is the period's average (the API fills it). */
export function buildCalculationBody(v: BatteryInputs, bateriaIds?: number[]): CalculationBody {
  const body: CalculationBody = {
    ConsumoAnualKwh: v.ConsumoAnualKwh ?? 0,
    ProduccionFvAnualKwh: v.ProduccionFvAnualKwh ?? 0,
    AutoconsumoDirectoKwh: v.AutoconsumoDirectoKwh ?? 0,
    PreciosConImpuestos: v.PreciosConImpuestos,
  }
  if (isNum(v.PrecioImportacionKwh)) body.PrecioImportacionKwh = v.PrecioImportacionKwh
  if (isNum(v.PrecioExcedenteKwh)) body.PrecioExcedenteKwh = v.PrecioExcedenteKwh
  if (isNum(v.FechasAhorroId)) body.FechasAhorroId = v.FechasAhorroId
  if (bateriaIds && bateriaIds.length) body.BateriaIds = bateriaIds
  return body
}

/** True when the body the results came from differs from what the form now holds. */
export function inputsChanged(current: BatteryInputs, calculated: CalculationBody | null): boolean {
  if (!calculated) return false
  const now = buildCalculationBody(current, calculated.BateriaIds)
  return JSON.stringify(now) !== JSON.stringify(calculated)
}

/** Energy without a battery (domain.md): surplus E0 = G − S0, imports I0 = C − S0. */
export function balanceWithout(C: number, G: number, S0: number) {
  return { autoconsumo: S0, excedente: Math.max(0, G - S0), importacion: Math.max(0, C - S0) }
}

/**
 * The battery model of domain.md, for a check of the API's figures:
 * charge = min(E0, B·f·365, I0/η); delivered = η·charge; S1 = S0 + delivered; E1 = E0 − charge; I1 = I0 − delivered.
 */
export function simulate(input: { C: number; G: number; S0: number; B: number; eta: number; f: number; pImp: number; pExc: number; capex?: number; pricesIncludeTaxes?: boolean }) {
  const { C, G, S0, B, eta, f, pImp, pExc } = input
  const E0 = G - S0
  const I0 = C - S0
  const charge = Math.max(0, Math.min(E0, B * f * 365, I0 / eta))
  const delivered = eta * charge
  const S1 = S0 + delivered
  const taxes = input.pricesIncludeTaxes === false ? TAX_FACTOR : 1
  const saving = (delivered * pImp - charge * pExc) * taxes
  return {
    charge,
    delivered,
    selfConsumptionBefore: G > 0 ? S0 / G : 0,
    selfConsumptionAfter: G > 0 ? S1 / G : 0,
    autarkyBefore: C > 0 ? S0 / C : 0,
    autarkyAfter: C > 0 ? S1 / C : 0,
    surplusAfter: E0 - charge,
    importsAfter: I0 - delivered,
    saving,
    payback: input.capex !== undefined && saving > 0 ? input.capex / saving : null,
  }
}

/** Percentages of the API (`…Pct`) are on a 0–100 scale; shown without decimals, as domain.md does ("32 % → 57 %"; "32% → 57%" in English). */
export function formatPct(value: number | null | undefined): string {
  if (!isNum(value)) return '—'
  return `${formatNumber(value, 0)}${getLanguage() === 'en' ? '%' : ' %'}`
}

export function formatBeforeAfter(before: number | null | undefined, after: number | null | undefined): string {
  return `${formatPct(before)} → ${formatPct(after)}`
}

export const formatKwh = (v: number | null | undefined) => (isNum(v) ? kwh(Math.round(v)) : '—')
/** A battery's usable capacity keeps its decimals (7,68 kWh). */
export const formatCapacity = (v: number | null | undefined) => (isNum(v) ? kwh(v, 2) : '—')
export const formatEur = (v: number | null | undefined) => (isNum(v) ? formatMoney(v) : '—')
/** A whole-euro amount (prices of the catalogue, yearly savings). */
export const formatEurRounded = (v: number | null | undefined) => (isNum(v) ? formatMoney(v, 0) : '—')

/** Payback in years; none when the battery never pays itself back (no saving). */
export function formatPayback(years: number | null | undefined, saving?: number): string {
  if (!isNum(years) || years <= 0 || (saving !== undefined && saving <= 0)) return messageIn(messages, 'payback.none')
  const rounded = years < 10 ? Math.round(years * 10) / 10 : Math.round(years)
  return messageIn(messages, rounded === 1 ? 'payback.one' : 'payback.many', { n: formatNumber(rounded, 1) })
}

/** Efficiency of the catalogue: a ratio (0.9 → "90 %"). */
export const formatEfficiency = (v: number | null | undefined) => (isNum(v) ? formatPct(v * 100) : '—')

/** Every result of an answer, the best first, without repeating it. */
export function allResults(answer: Pick<CalculationAnswer, 'Mejor' | 'Alternativas'> | null | undefined): BatteryResult[] {
  if (!answer) return []
  const best = answer.Mejor
  const rest = (answer.Alternativas ?? []).filter((r) => !best || r.Bateria.Id !== best.Bateria.Id)
  return best ? [best, ...rest] : rest
}

/** The 10-year table of the offer: cumulative saving minus the price, year by year. */
export function tenYearRows(result: BatteryResult): { year: number; cumulative: number; net: number }[] {
  return Array.from({ length: 10 }, (_, i) => {
    const cumulative = result.AhorroAnualEur * (i + 1)
    return { year: i + 1, cumulative, net: cumulative - result.Bateria.PrecioEur }
  })
}

/** A readable label of a period with its dates (dd/mm/yyyy; mm/dd/yyyy in English). */
export function periodLabel(p: SavingsPeriod): string {
  return `${p.Nombre} (${formatValue(p.Desde, 'date')} – ${formatValue(p.Hasta, 'date')})`
}

/** Prices of a period, in €/kWh with 4 decimals (as the API gives averages). */
export function formatPrice(v: number | null | undefined): string {
  return isNum(v) ? `${formatNumber(v, 4, 2)} €/kWh` : '—'
}

/** A client e-mail, optional; null when valid or empty. */
export function emailError(email: string): string | null {
  if (!email.trim()) return null
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? null : messageIn(messages, 'error.email')
}
