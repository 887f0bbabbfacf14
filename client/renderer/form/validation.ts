import type { Field } from '../../../schemas/screen'
import { localized } from '../../i18n/i18n'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
}

/** The Spanish message for a field whose value breaks one of its rules, or null. */
export function validateField(field: Field, value: unknown, values: Record<string, unknown>): string | null {
  if (isEmpty(value) || value === false) {
    return field.required ? (field.type === 'checkbox' ? 'Debes marcar esta casilla.' : 'Este campo es obligatorio.') : null
  }
  if (typeof value === 'string') {
    if (field.minLength !== undefined && value.length < field.minLength) return `Debe tener al menos ${field.minLength} caracteres.`
    if (field.maxLength !== undefined && value.length > field.maxLength) return `No puede tener más de ${field.maxLength} caracteres.`
    if (field.type === 'email' && !EMAIL.test(value)) return 'Introduce un correo electrónico válido.'
    if (field.pattern && !new RegExp(field.pattern.regex).test(value)) return localized(field.pattern.message)
  }
  if (typeof value === 'number') {
    if (field.min !== undefined && value < field.min) return `El valor mínimo es ${field.min.toLocaleString('es-ES')}.`
    if (field.max !== undefined && value > field.max) return `El valor máximo es ${field.max.toLocaleString('es-ES')}.`
  }
  if (field.sameAs && value !== values[field.sameAs.field]) return localized(field.sameAs.message)
  if (field.notBelow && typeof value === 'number') {
    const other = values[field.notBelow.field]
    if (typeof other === 'number' && value < other) return localized(field.notBelow.message)
  }
  if (field.type === 'file' && Array.isArray(value) && field.maxSizeMb) {
    const big = (value as File[]).find((f) => f.size > field.maxSizeMb! * 1024 * 1024)
    if (big) return `«${big.name}» supera ${field.maxSizeMb} MB.`
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
