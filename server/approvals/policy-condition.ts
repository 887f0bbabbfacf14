import type { ApprovalPolicy, PolicyCondition, PolicyLookup, ValuePath } from '../../schemas/approval'

/** What a condition is evaluated over: the request as checked, and the record as read before it (when the call names its read). */
export interface ConditionInput {
  body: unknown
  query: Record<string, string>
  /** undefined: not read (no read call, or the read failed). */
  record: unknown
}

/**
 * Answers a lookup: for each id, the values the list call gives for it. `null` when the list could
 * not be read: the condition then holds (a policy that cannot be checked holds the request).
 */
export type LookupReader = (lookup: PolicyLookup) => Promise<Map<string, string[]> | null>

/** The values a dotted path selects (`Permisos[].NombreNormalizado`): several when it crosses a list. */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root]
  for (const part of path.split('.').filter(Boolean)) {
    const list = part.endsWith('[]')
    const name = list ? part.slice(0, -2) : part
    const next: unknown[] = []
    for (const value of current) {
      const field = name === '' ? value : value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined
      if (field === undefined) continue
      if (list) {
        if (Array.isArray(field)) next.push(...field)
      } else next.push(field)
    }
    current = next
  }
  return current.filter((v) => v !== undefined && v !== null)
}

/** The values a condition path selects from the input. */
export function select(input: ConditionInput, path: ValuePath): unknown[] {
  const dot = path.search(/[.[]/)
  const source = dot < 0 ? path : path.slice(0, dot)
  const rest = dot < 0 ? '' : path.slice(dot).replace(/^\./, '')
  const root = source === 'body' ? input.body : source === 'query' ? input.query : input.record
  return valuesAt(root, rest)
}

/** Scalars compared as text: ids arrive as numbers in a body and as text in a query. */
const asKey = (value: unknown): string | null => (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null)

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Whether the condition holds. A lookup that cannot be read makes its condition hold (fail closed). */
export async function holds(condition: PolicyCondition, input: ConditionInput, lookup: LookupReader): Promise<boolean> {
  if ('all' in condition) {
    for (const c of condition.all) if (!(await holds(c, input, lookup))) return false
    return true
  }
  if ('any' in condition) {
    for (const c of condition.any) if (await holds(c, input, lookup)) return true
    return false
  }
  if ('not' in condition) return !(await holds(condition.not, input, lookup))
  if ('changed' in condition) {
    const sent = valuesAt(input.body, condition.changed)
    if (sent.length === 0) return false
    // Without the record nothing says it is unchanged: held.
    if (input.record === undefined) return true
    return !same(sent[0], valuesAt(input.record, condition.changed)[0] ?? null)
  }
  const paths = Array.isArray(condition.value) ? condition.value : [condition.value]
  let values = paths.flatMap((p) => select(input, p))
  if (condition.lookup && values.length > 0) {
    const table = await lookup(condition.lookup)
    if (table === null) return true
    values = values.flatMap((v) => table.get(asKey(v) ?? '') ?? [])
  }
  if (condition.in) {
    const wanted = new Set(condition.in.map(String))
    return values.some((v) => {
      const key = asKey(v)
      return key !== null && wanted.has(key)
    })
  }
  return values.length > 0
}

/** Whether a condition (or any inside it) needs the record read before the change. */
export function needsRecord(condition: PolicyCondition | undefined): boolean {
  if (!condition) return false
  if ('all' in condition) return condition.all.some(needsRecord)
  if ('any' in condition) return condition.any.some(needsRecord)
  if ('not' in condition) return needsRecord(condition.not)
  if ('changed' in condition) return true
  const paths = Array.isArray(condition.value) ? condition.value : [condition.value]
  return paths.some((p) => p.startsWith('record'))
}

/** The lookups a condition makes, to check they name catalogued reads. */
export function lookupsOf(condition: PolicyCondition | undefined): PolicyLookup[] {
  if (!condition) return []
  if ('all' in condition) return condition.all.flatMap(lookupsOf)
  if ('any' in condition) return condition.any.flatMap(lookupsOf)
  if ('not' in condition) return lookupsOf(condition.not)
  if ('changed' in condition) return []
  return condition.lookup ? [condition.lookup] : []
}

/** The enabled policies that name a call. */
export function policiesFor(policies: ApprovalPolicy[], callId: string): ApprovalPolicy[] {
  return policies.filter((p) => p.enabled !== false && p.calls.includes(callId))
}
