import type { Condition, Field, Text } from './screen'
import type { Static } from 'typebox'

/**
 * The rules a screen's form field declares (required, lengths, pattern, e-mail, bounds, sameAs,
 * notBelow, file size) and its `visibleWhen` condition, decided once for every reader: the
 * form in the browser words the break in the interface's language, a bulk import in the BFF
 * words it in Spanish for its per-row report. What breaks, not how it is said.
 */

type LocalText = Static<typeof Text>

export type RuleBreak =
  | { rule: 'required' | 'mustCheck' | 'email' }
  | { rule: 'minLength' | 'maxLength' | 'min' | 'max'; n: number }
  | { rule: 'pattern' | 'sameAs' | 'notBelow'; message: LocalText }
  | { rule: 'fileTooBig'; n: number; name: string }

/** How each rule's break is said, in Spanish and English (`{n}`, `{name}`: its numbers). */
export const RULE_MESSAGES = {
  es: {
    'rule.required': 'Este campo es obligatorio.',
    'rule.mustCheck': 'Debes marcar esta casilla.',
    'rule.minLength': 'Debe tener al menos {n} caracteres.',
    'rule.maxLength': 'No puede tener más de {n} caracteres.',
    'rule.email': 'Introduce un correo electrónico válido.',
    'rule.min': 'El valor mínimo es {n}.',
    'rule.max': 'El valor máximo es {n}.',
    'rule.fileTooBig': '«{name}» supera {n} MB.',
  },
  en: {
    'rule.required': 'This field is required.',
    'rule.mustCheck': 'You must check this box.',
    'rule.minLength': 'It must be at least {n} characters long.',
    'rule.maxLength': 'It cannot be longer than {n} characters.',
    'rule.email': 'Enter a valid e-mail address.',
    'rule.min': 'The minimum value is {n}.',
    'rule.max': 'The maximum value is {n}.',
    'rule.fileTooBig': '“{name}” is larger than {n} MB.',
  },
} as const

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

const patterns = new Map<string, RegExp>()
const patternOf = (regex: string) => {
  let re = patterns.get(regex)
  if (!re) patterns.set(regex, (re = new RegExp(regex)))
  return re
}

/** The first rule of `field` that `value` breaks (with the other `values` of the form), or null. */
export function fieldRuleBreak(field: Field, value: unknown, values: Record<string, unknown>): RuleBreak | null {
  if (isEmptyValue(value) || value === false) {
    return field.required ? { rule: field.input === 'checkbox' ? 'mustCheck' : 'required' } : null
  }
  if (typeof value === 'string') {
    if (field.minLength !== undefined && value.length < field.minLength) return { rule: 'minLength', n: field.minLength }
    if (field.maxLength !== undefined && value.length > field.maxLength) return { rule: 'maxLength', n: field.maxLength }
    if (field.input === 'email' && !EMAIL.test(value)) return { rule: 'email' }
    if (field.pattern && !patternOf(field.pattern.regex).test(value)) return { rule: 'pattern', message: field.pattern.message }
  }
  if (typeof value === 'number') {
    if (field.min !== undefined && value < field.min) return { rule: 'min', n: field.min }
    if (field.max !== undefined && value > field.max) return { rule: 'max', n: field.max }
  }
  if (field.sameAs && value !== values[field.sameAs.field]) return { rule: 'sameAs', message: field.sameAs.message }
  if (field.notBelow && typeof value === 'number') {
    const other = values[field.notBelow.field]
    if (typeof other === 'number' && value < other) return { rule: 'notBelow', message: field.notBelow.message }
  }
  if (field.input === 'file' && Array.isArray(value) && field.maxSizeMb) {
    const big = (value as { size: number; name: string }[]).find((f) => f.size > field.maxSizeMb! * 1024 * 1024)
    if (big) return { rule: 'fileTooBig', n: field.maxSizeMb, name: big.name }
  }
  return null
}

/** Whether a screen condition holds, `read` giving the value at its field's path. */
export function conditionHolds(cond: Condition | undefined, read: (path: string) => unknown): boolean {
  if (!cond) return true
  const v = read(cond.field)
  if (cond.equals !== undefined && v !== cond.equals) return false
  if (cond.in && !cond.in.includes(v as string | number | boolean)) return false
  if (cond.notIn && cond.notIn.includes(v as string | number | boolean)) return false
  if (cond.truthy !== undefined && Boolean(v) !== cond.truthy) return false
  return true
}

/** Form values shaped for the request: dotted names become nested objects; excluded fields are left out; blank is null. */
export function formBody(fields: readonly Pick<Field, 'name' | 'exclude'>[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const excluded = new Set(fields.filter((f) => f.exclude).map((f) => f.name))
  for (const [name, value] of Object.entries(values)) {
    if (excluded.has(name)) continue
    const parts = name.split('.')
    let target = out
    for (const part of parts.slice(0, -1)) {
      target[part] = (target[part] as Record<string, unknown>) ?? {}
      target = target[part] as Record<string, unknown>
    }
    target[parts[parts.length - 1]!] = value === '' ? null : value
  }
  return out
}
