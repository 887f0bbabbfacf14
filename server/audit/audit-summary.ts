import type { Endpoint, PersonalKind } from '../../schemas/catalogue/endpoint'
import { cut, isSecretName, kindOfName, maskedText, SECRET_PLACEHOLDER } from './audit-mask'

/** Bounds of a summary: it tells what was sent, it is not a copy of it. */
const MAX_DEPTH = 4
const MAX_KEYS = 40
const MAX_ITEMS = 20
const MAX_SUMMARY = 2000

/**
 * A request body as the audit keeps it, as JSON text: the fields the catalogue marks as personal
 * masked by their kind, the rest searched for personal data, secrets left out, long texts, long
 * lists and deep nesting cut. Undefined when there is no JSON body (none, or an upload).
 */
export function summarizeBody(call: Endpoint, body: unknown): string | undefined {
  if (body === undefined || call.body?.kind !== 'json') return undefined
  // Marks by dotted path (`[]` dropped): the top-level fields', then the body's nested paths.
  const marked = new Map<string, PersonalKind>()
  for (const [name, field] of Object.entries(call.body.fields ?? {})) if (field.personal) marked.set(name, field.personal)
  for (const [path, kind] of Object.entries(call.body.personal ?? {})) marked.set(path.replace(/\[\]/g, ''), kind)
  const itemKind = call.body.items?.personal
  return cut(JSON.stringify(masked(body, 0, '', marked, itemKind)), MAX_SUMMARY)
}

/** A value with its personal data masked; `path` is where it sits in the body (dotted). */
function masked(value: unknown, depth: number, path: string, marked: ReadonlyMap<string, PersonalKind>, kind?: PersonalKind): unknown {
  if (typeof value === 'string') return maskedText(value, kind)
  if (typeof value === 'number') return kind ? maskedText(String(value), kind) : value
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_DEPTH) return '…'
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => masked(v, depth + 1, path, marked, kind))
    return value.length > MAX_ITEMS ? [...items, `… (+${value.length - MAX_ITEMS})`] : items
  }
  const entries = Object.entries(value as Record<string, unknown>)
  // Built with fromEntries (own keys): a field named `__proto__` is summarised like any other.
  const out = Object.fromEntries(
    entries.slice(0, MAX_KEYS).map(([name, v]) => {
      const at = path === '' ? name : `${path}.${name}`
      return [name, isSecretName(name) ? SECRET_PLACEHOLDER : masked(v, depth + 1, at, marked, marked.get(at) ?? kindOfName(name))]
    }),
  )
  if (entries.length > MAX_KEYS) out['…'] = `+${entries.length - MAX_KEYS}`
  return out
}
