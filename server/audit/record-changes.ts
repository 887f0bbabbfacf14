import type { AuditChange } from '../../schemas/audit'
import type { PersonalKind } from '../../schemas/catalogue/endpoint'
import { isSecretName, kindOfName, maskedText, SECRET_PLACEHOLDER } from './audit-mask'

/** How deep nested objects are compared field by field; deeper ones are compared whole. */
const MAX_DEPTH = 3
const MAX_CHANGES = 40
const MAX_ITEMS = 20
/** The field that names an item of a list (a group, a permission, a key…), tried in this order. */
const ITEM_LABELS = ['Nombre', 'NombreNormalizado', 'Codigo', 'Email', 'Descripcion', 'ApiKey', 'Id']

/**
 * What a mutation changed in its record: the record as read before and after it, flattened to
 * dotted fields (`Cliente.Telefono`), each field whose value differs with both values as text.
 * Lists are compared as the names of their items. Values the read call marks as personal
 * (`personal` of the catalogue, `Items[].X` paths included) are masked by their kind, every
 * other text is searched for personal data; secrets are never shown.
 */
export function recordChanges(before: unknown, after: unknown, personal: Record<string, PersonalKind> = {}): AuditChange[] {
  const kinds = new Map(Object.entries(personal).map(([path, kind]) => [path.replace(/\[\]/g, ''), kind]))
  const was = flatten(before)
  const now = flatten(after)
  const changes: AuditChange[] = []
  for (const field of new Set([...now.keys(), ...was.keys()])) {
    const a = was.get(field) ?? null
    const b = now.get(field) ?? null
    if (a === b) continue
    const last = field.slice(field.lastIndexOf('.') + 1)
    const secret = isSecretName(last)
    const kind = kinds.get(field) ?? kindOfName(last)
    const show = (v: string | null) => (v === null ? null : secret ? SECRET_PLACEHOLDER : maskedText(v, kind))
    changes.push({ field, before: show(a), after: show(b) })
    if (changes.length === MAX_CHANGES) break
  }
  return changes
}

/** A record as dotted fields and their values as text (null for nothing). */
function flatten(value: unknown, prefix = '', depth = 0, out = new Map<string, string | null>()): Map<string, string | null> {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value) || depth >= MAX_DEPTH) {
    if (prefix) out.set(prefix, asText(value))
    return out
  }
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${name}` : name, depth + 1, out)
  return out
}

function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) {
    const names = value.slice(0, MAX_ITEMS).map(itemName)
    return `${names.join(', ')}${value.length > MAX_ITEMS ? ` (+${value.length - MAX_ITEMS})` : ''}`
  }
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function itemName(item: unknown): string {
  if (item === null || typeof item !== 'object') return String(item)
  const o = item as Record<string, unknown>
  const key = ITEM_LABELS.find((k) => o[k] !== undefined && o[k] !== null && o[k] !== '')
  return key ? String(o[key]) : JSON.stringify(o)
}
