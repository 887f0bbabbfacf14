import { messageIn } from '../../i18n/i18n'
import type { Language } from '../../../schemas/i18n'
import { messages } from './messages'
import { PERIODS, type Period } from '../../../schemas/business/periods'
import type { PorPeriodo } from '../../../schemas/business/common'
import type { ComparisonAnswer, ComparisonBody, Cost } from '../../../schemas/business/comparator'
import type { Tariff } from '../../../schemas/business/utility'

/**
 * Pure helpers of the comparison tool (no React): the form's values per period, which periods a
 * tariff uses, the request body and the reading of a saved comparison. Texts are in the current
 * language (./messages.ts).
 */

export { PERIODS }

/** The tariff fields the comparator needs (`GET api/utility/tarifas` answers more). */
export type Tarifa = Pick<Tariff, 'Id' | 'Codigo' | 'Nombre' | 'PeriodosEnergia' | 'PeriodosPotencia' | 'PotenciaMaximaKw'>

/** The tool's name as the title of its toasts. */
export const area = (lang?: Language) => messageIn(messages, 'area', undefined, lang)

export interface FormValues {
  Nombre: string
  Cliente: string
  TarifaId: number | null
  PotenciasKw: PorPeriodo
  ConsumoAnualKwh: PorPeriodo
  EnergiaKwh: PorPeriodo
  PotenciaKwDia: PorPeriodo
}

export const emptyPeriods = (): PorPeriodo => ({ P1: null, P2: null, P3: null, P4: null, P5: null, P6: null })

export function emptyForm(): FormValues {
  return { Nombre: '', Cliente: '', TarifaId: 1, PotenciasKw: emptyPeriods(), ConsumoAnualKwh: emptyPeriods(), EnergiaKwh: emptyPeriods(), PotenciaKwDia: emptyPeriods() }
}

/** The periods a tariff bills: energy (2.0TD: P1–P3) and power (2.0TD: P1–P2). */
export function periodsFor(tarifa: Pick<Tarifa, 'PeriodosEnergia' | 'PeriodosPotencia'> | undefined): { energia: Period[]; potencia: Period[] } {
  const e = tarifa?.PeriodosEnergia ?? 3
  const p = tarifa?.PeriodosPotencia ?? 2
  return { energia: PERIODS.slice(0, e) as Period[], potencia: PERIODS.slice(0, p) as Period[] }
}

/** Only the periods given are kept; the others travel as null. */
export function restrict(values: PorPeriodo, keep: readonly Period[]): PorPeriodo {
  const out = emptyPeriods()
  for (const p of keep) out[p] = typeof values[p] === 'number' ? values[p] : null
  return out
}

/** Field → message in the current language, for what must be fixed before asking. Empty when fine. */
export function validate(values: FormValues, tarifa: Tarifa | undefined): Record<string, string> {
  const errors: Record<string, string> = {}
  const m = (key: keyof typeof messages.es, vars?: Record<string, string | number>) => messageIn(messages, key, vars)
  if (!values.TarifaId) errors.TarifaId = m('error.tariff')
  const { energia, potencia } = periodsFor(tarifa)
  for (const p of potencia) {
    const v = values.PotenciasKw[p]
    if (v === null) errors[`PotenciasKw.${p}`] = m('error.power.required', { p })
    else if (v <= 0) errors[`PotenciasKw.${p}`] = m('error.positive')
    else if (tarifa?.PotenciaMaximaKw && v > tarifa.PotenciaMaximaKw) errors[`PotenciasKw.${p}`] = m('error.power.max', { max: tarifa.PotenciaMaximaKw, tariff: tarifa.Codigo })
    const v2 = values.PotenciaKwDia[p]
    if (v2 === null) errors[`PotenciaKwDia.${p}`] = m('error.powerPrice.required', { p })
    else if (v2 < 0) errors[`PotenciaKwDia.${p}`] = m('error.negative')
  }
  let consumo = 0
  for (const p of energia) {
    const c = values.ConsumoAnualKwh[p]
    if (c === null) errors[`ConsumoAnualKwh.${p}`] = m('error.consumption.required', { p })
    else if (c < 0) errors[`ConsumoAnualKwh.${p}`] = m('error.negative')
    else consumo += c
    const e = values.EnergiaKwh[p]
    if (e === null) errors[`EnergiaKwh.${p}`] = m('error.energyPrice.required', { p })
    else if (e < 0) errors[`EnergiaKwh.${p}`] = m('error.negative')
  }
  if (!errors[`ConsumoAnualKwh.P1`] && consumo === 0 && energia.every((p) => values.ConsumoAnualKwh[p] !== null)) errors['ConsumoAnualKwh.P1'] = m('error.consumption.zero')
  return errors
}

export function buildBody(values: FormValues, tarifa: Tarifa | undefined, guardar = false): ComparisonBody {
  const { energia, potencia } = periodsFor(tarifa)
  const body: ComparisonBody = {
    TarifaId: values.TarifaId ?? 1,
    PotenciasKw: restrict(values.PotenciasKw, potencia),
    ConsumoAnualKwh: restrict(values.ConsumoAnualKwh, energia),
    PreciosActuales: { EnergiaKwh: restrict(values.EnergiaKwh, energia), PotenciaKwDia: restrict(values.PotenciaKwDia, potencia) },
  }
  if (values.Nombre.trim()) body.Nombre = values.Nombre.trim()
  if (values.Cliente.trim()) body.Cliente = values.Cliente.trim()
  if (guardar) body.Guardar = true
  return body
}

const asPeriods = (v: unknown): PorPeriodo => {
  const out = emptyPeriods()
  if (v && typeof v === 'object') for (const p of PERIODS) {
    const n = (v as Record<string, unknown>)[p]
    out[p] = typeof n === 'number' ? n : null
  }
  return out
}

/** The form's values from a stored input (the body that was sent). */
export function formFromInput(input: unknown): FormValues {
  const i = (input ?? {}) as Record<string, unknown>
  const precios = (i.PreciosActuales ?? {}) as Record<string, unknown>
  return {
    Nombre: typeof i.Nombre === 'string' ? i.Nombre : '',
    Cliente: typeof i.Cliente === 'string' ? i.Cliente : '',
    TarifaId: typeof i.TarifaId === 'number' ? i.TarifaId : 1,
    PotenciasKw: asPeriods(i.PotenciasKw),
    ConsumoAnualKwh: asPeriods(i.ConsumoAnualKwh),
    EnergiaKwh: asPeriods(precios.EnergiaKwh),
    PotenciaKwDia: asPeriods(precios.PotenciaKwDia),
  }
}

/**
 * A saved comparison as `GET /api/comparador/comparativas/{id}` answers it: the stored input and
 * result, under whichever names the API uses (`Entrada`/`Resultado`, or the input's fields at the
 * top level next to the result's).
 */
export function readSaved(saved: unknown): { values: FormValues; result: ComparisonAnswer | null; id: number | null } {
  const s = (saved ?? {}) as Record<string, unknown>
  const input = s.Entrada ?? s.Input ?? s.Datos ?? s
  const resultRaw = (s.Resultado ?? s.Result ?? (s.Actual && s.Ofertas ? s : null)) as Record<string, unknown> | null
  const values = formFromInput(input)
  if (!values.Nombre && typeof s.Nombre === 'string') values.Nombre = s.Nombre
  if (!values.Cliente && typeof s.Cliente === 'string') values.Cliente = s.Cliente
  const id = typeof s.Id === 'number' ? s.Id : null
  const result = resultRaw && resultRaw.Actual && Array.isArray(resultRaw.Ofertas) ? ({ ...(resultRaw as unknown as ComparisonAnswer), Id: id ?? (resultRaw.Id as number | null) ?? null } as ComparisonAnswer) : null
  return { values, result, id }
}

/** The cost split for the chart: energy, power, and taxes plus the rest (meter rental…). */
export function costParts(i: Cost): { energia: number; potencia: number; impuestos: number; otros: number } {
  const otros = Math.max(0, Math.round((i.ImporteAnualEur - i.EnergiaEur - i.PotenciaEur - i.ImpuestosEur) * 100) / 100)
  return { energia: i.EnergiaEur, potencia: i.PotenciaEur, impuestos: i.ImpuestosEur, otros }
}

/** A household 2.0TD example (or a small business for six-period tariffs), to try the tool. */
export function exampleValues(tarifa: Tarifa | undefined): Pick<FormValues, 'PotenciasKw' | 'ConsumoAnualKwh' | 'EnergiaKwh' | 'PotenciaKwDia'> {
  const { energia, potencia } = periodsFor(tarifa)
  const six = energia.length === 6
  const fill = (vals: number[], keep: readonly Period[]) => {
    const out = emptyPeriods()
    keep.forEach((p, i) => (out[p] = vals[i] ?? null))
    return out
  }
  return six
    ? {
        PotenciasKw: fill([20, 20, 20, 20, 20, 25], potencia),
        ConsumoAnualKwh: fill([4200, 5100, 3900, 4800, 3600, 12400], energia),
        EnergiaKwh: fill([0.215, 0.198, 0.179, 0.168, 0.158, 0.139], energia),
        PotenciaKwDia: fill([0.0521, 0.0298, 0.014, 0.0121, 0.0085, 0.005], potencia),
      }
    : {
        PotenciasKw: fill([4.6, 4.6], potencia),
        ConsumoAnualKwh: fill([950, 850, 1500], energia),
        EnergiaKwh: fill([0.219, 0.171, 0.138], energia),
        PotenciaKwDia: fill([0.1095, 0.0466], potencia),
      }
}
