import { fieldRuleBreak, formBody } from '../../../schemas/form-rules'
import type { Field } from '../../../schemas/screen'
import { localized, messageIn } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { messages } from './messages'

export { isEmptyValue as isEmpty } from '../../../schemas/form-rules'

/** The message, in the interface's language, for a field whose value breaks one of its rules, or null. */
export function validateField(field: Field, value: unknown, values: Record<string, unknown>): string | null {
  const broken = fieldRuleBreak(field, value, values)
  if (!broken) return null
  switch (broken.rule) {
    case 'required':
    case 'mustCheck':
    case 'email':
      return messageIn(messages, `rule.${broken.rule}`)
    case 'minLength':
    case 'maxLength':
      return messageIn(messages, `rule.${broken.rule}`, { n: broken.n })
    case 'min':
    case 'max':
      return messageIn(messages, `rule.${broken.rule}`, { n: broken.n.toLocaleString(intlLocale()) })
    case 'pattern':
    case 'sameAs':
    case 'notBelow':
      return localized(broken.message)
    case 'fileTooBig':
      return messageIn(messages, 'rule.fileTooBig', { n: broken.n, name: broken.name })
  }
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
  return formBody(fields, values)
}
