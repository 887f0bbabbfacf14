import type { Field } from '../../../schemas/screen'
import { localized, messageIn } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/** The message, in the interface's language, for a field whose value breaks one of its rules, or null. */
export function validateField(field: Field, value: unknown, values: Record<string, unknown>): string | null {
  if (isEmpty(value) || value === false) {
    return field.required ? messageIn(messages, field.input === 'checkbox' ? 'rule.mustCheck' : 'rule.required') : null
  }
  if (typeof value === 'string') {
    if (field.minLength !== undefined && value.length < field.minLength) return messageIn(messages, 'rule.minLength', { n: field.minLength })
    if (field.maxLength !== undefined && value.length > field.maxLength) return messageIn(messages, 'rule.maxLength', { n: field.maxLength })
    if (field.input === 'email' && !EMAIL.test(value)) return messageIn(messages, 'rule.email')
    if (field.pattern && !new RegExp(field.pattern.regex).test(value)) return localized(field.pattern.message)
  }
  if (typeof value === 'number') {
    if (field.min !== undefined && value < field.min) return messageIn(messages, 'rule.min', { n: field.min.toLocaleString(intlLocale()) })
    if (field.max !== undefined && value > field.max) return messageIn(messages, 'rule.max', { n: field.max.toLocaleString(intlLocale()) })
  }
  if (field.sameAs && value !== values[field.sameAs.field]) return localized(field.sameAs.message)
  if (field.notBelow && typeof value === 'number') {
    const other = values[field.notBelow.field]
    if (typeof other === 'number' && value < other) return localized(field.notBelow.message)
  }
  if (field.input === 'file' && Array.isArray(value) && field.maxSizeMb) {
    const big = (value as File[]).find((f) => f.size > field.maxSizeMb! * 1024 * 1024)
    if (big) return messageIn(messages, 'rule.fileTooBig', { n: field.maxSizeMb, name: big.name })
  }
  return null
}

/** Values as multipart form data: files under their field name, other values as text (objects as JSON). */
export function toFormData(fields: Field[], values: Record<string, unknown>): FormData {
  const data = new FormData()
  const excluded = new Set(fields.filter((f) => f.exclude).map((f) => f.name))
  for (const [name, value] of Object.entries(values)) {
    if (excluded.has(name) || value === null || value === undefined || value === '') continue
    if (Array.isArray(value) && value.every((v) => v instanceof File)) for (const file of value as File[]) data.append(name, file, file.name)
    else data.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  return data
}

/** Values shaped for the request: dotted names become nested objects; excluded fields are left out. */
export function toBody(fields: Field[], values: Record<string, unknown>): Record<string, unknown> {
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
