import { validateCups, validateIban, validateNif, type Verdict } from '../../schemas/business/identifiers'
import { conditionHolds, fieldRuleBreak, formBody, RULE_MESSAGES, type RuleBreak } from '../../schemas/form-rules'
import { checkJsonBody } from '../catalogue/call-check'
import type { ImportColumnSpec, ResolvedImport } from './import-definitions'

/**
 * One row of an import checked as the form checks what a user types, then as the proxy checks
 * the body it would forward: the form's rules (required when shown, lengths, patterns, bounds,
 * P1 ≤ … ≤ P6), the identifier checks of its validators (NIF/NIE/CIF, IBAN, CUPS: the same code
 * the reference API's validators run), the options of its selects (tariffs, provinces…), the
 * bounds an option carries (a tariff's maximum power), and the catalogue's body check last.
 * Pure and synchronous: the options and any upstream verdicts are fetched before.
 */

export interface OptionItem {
  value: string | number | boolean
  item: Record<string, unknown>
}

export interface CheckContext {
  /** Per select column: its options by value and by label (lower case). */
  options: ReadonlyMap<string, ReadonlyMap<string, OptionItem>>
  /** Verdicts of validators asked of the upstream, by `column\u0000value`. */
  remote?: ReadonlyMap<string, Verdict>
}

export interface Problem {
  /** The column's name; empty for the row as a whole. */
  column: string
  message: string
}

export interface RowCheck {
  /** The body to send, when the row has no problem. */
  body: Record<string, unknown> | null
  problems: Problem[]
  /** The row's value of the definition's unique column, normalised. */
  unique?: string
}

const LOCAL_CHECKS: Record<'nif' | 'iban' | 'cups', (v: string) => Verdict> = { nif: validateNif, iban: validateIban, cups: validateCups }

const INTEGER = /^-?\d{1,15}$/
const DECIMAL = /^-?\d{1,15}(?:[.,]\d{1,15})?$/

export const optionKey = (text: string) => text.trim().toLowerCase()

function ruleMessage(broken: RuleBreak): string {
  const es = RULE_MESSAGES.es
  switch (broken.rule) {
    case 'required':
    case 'mustCheck':
    case 'email':
      return es[`rule.${broken.rule}`]
    case 'minLength':
    case 'maxLength':
      return es[`rule.${broken.rule}`].replace('{n}', String(broken.n))
    case 'min':
    case 'max':
      return es[`rule.${broken.rule}`].replace('{n}', broken.n.toLocaleString('es-ES'))
    case 'pattern':
    case 'sameAs':
    case 'notBelow':
      return typeof broken.message === 'string' ? broken.message : broken.message.es
    case 'fileTooBig':
      return es['rule.fileTooBig'].replace('{n}', String(broken.n)).replace('{name}', broken.name)
  }
}

/** A cell's text as the column's value: undefined when blank, a problem when it cannot be one. */
function valueOf(col: ImportColumnSpec, text: string, ctx: CheckContext): { value?: unknown; problem?: string } {
  const raw = text.trim()
  if (raw === '') return { value: col.defaultValue }
  const options = ctx.options.get(col.name)
  if (options) {
    const found = options.get(optionKey(raw))
    if (!found) return { problem: `«${raw.slice(0, 60)}» no es una de las opciones admitidas.` }
    return { value: found.value }
  }
  switch (col.kind) {
    case 'integer':
      return INTEGER.test(raw) ? { value: Number(raw) } : { problem: 'Debe ser un número entero.' }
    case 'number':
      return DECIMAL.test(raw) ? { value: Number(raw.replace(',', '.')) } : { problem: 'Debe ser un número (por ejemplo 4,6).' }
    case 'boolean': {
      const v = raw.toLowerCase()
      if (['sí', 'si', 'true', '1', 'yes'].includes(v)) return { value: true }
      if (['no', 'false', '0'].includes(v)) return { value: false }
      return { problem: 'Debe ser «sí» o «no».' }
    }
    case 'text':
      return { value: raw }
  }
}

const bodyFields = new WeakMap<ResolvedImport, { name: string; exclude?: boolean }[]>()
const bodyFieldsOf = (imp: ResolvedImport) => {
  let fields = bodyFields.get(imp)
  if (!fields) bodyFields.set(imp, (fields = imp.columns.map((c) => ({ name: c.name, exclude: c.field?.exclude }))))
  return fields
}

/** The row's cells by column (mapped already), checked. */
export function checkRow(imp: ResolvedImport, cells: Readonly<Record<string, string>>, ctx: CheckContext): RowCheck {
  const problems: Problem[] = []
  const values: Record<string, unknown> = {}
  const broken = new Set<string>()
  for (const col of imp.columns) {
    const { value, problem } = valueOf(col, cells[col.name] ?? '', ctx)
    if (problem) {
      problems.push({ column: col.name, message: problem })
      broken.add(col.name)
    } else if (value !== undefined) values[col.name] = value
  }
  const read = (path: string) => (path.startsWith('values.') ? values[path.slice(7)] : undefined)
  for (const col of imp.columns) {
    if (broken.has(col.name)) continue
    const field = col.field
    // A field the form would hide is not sent, whatever the cell says.
    if (field && !conditionHolds(field.visibleWhen, read)) {
      delete values[col.name]
      continue
    }
    const value = values[col.name]
    if (field) {
      const rule = fieldRuleBreak(field, value, values)
      if (rule) {
        problems.push({ column: col.name, message: ruleMessage(rule) })
        broken.add(col.name)
        continue
      }
    } else if (col.required && value === undefined) {
      problems.push({ column: col.name, message: RULE_MESSAGES.es['rule.required'] })
      broken.add(col.name)
      continue
    }
    if (typeof value !== 'string' || value === '') continue
    const verdict = col.check ? LOCAL_CHECKS[col.check](value) : col.validatorCall ? ctx.remote?.get(`${col.name}\u0000${value}`) : undefined
    if (!verdict) continue
    if (!verdict.valid) {
      problems.push({ column: col.name, message: verdict.reason ?? 'El valor no es válido.' })
      broken.add(col.name)
    } else if (verdict.normalized) values[col.name] = verdict.normalized
  }
  for (const limit of imp.def.optionLimits ?? []) {
    const chosen = values[limit.option]
    if (chosen === undefined) continue
    const option = ctx.options.get(limit.option)?.get(optionKey(String(chosen)))
    const max = option?.item[limit.maxField]
    if (typeof max !== 'number') continue
    for (const name of limit.fields) {
      const v = values[name]
      if (typeof v === 'number' && v > max && !broken.has(name)) {
        const label = String(option!.item.Codigo ?? option!.item.Nombre ?? chosen)
        problems.push({ column: name, message: `Con la tarifa ${label} no puede superar ${max.toLocaleString('es-ES')}${limit.unit ? ` ${limit.unit}` : ''} (tiene ${v.toLocaleString('es-ES')}).` })
        broken.add(name)
      }
    }
  }
  const unique = imp.def.unique && typeof values[imp.def.unique] === 'string' ? (values[imp.def.unique] as string) : undefined
  if (problems.length > 0) return { body: null, problems, unique }
  const body = formBody(bodyFieldsOf(imp), values)
  const bodyProblem = checkJsonBody(imp.call, body)
  if (bodyProblem) return { body: null, problems: [{ column: '', message: bodyProblem }], unique }
  return { body, problems, unique }
}
