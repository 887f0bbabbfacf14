import type { Field } from '../../../schemas/screen'
import { getPath } from '../template'

/**
 * Editing a versioned record (a form whose `initial` is `versioned`): the body sent is the record
 * as loaded with the form's values written back, and after a 412 the fields are compared three
 * ways: the version the form was loaded from, the version now stored, and what the user typed.
 */

/** The version being edited: the record as its GET returned it, and its ETag (null: none sent). */
export interface RecordVersion {
  record: unknown
  version: string | null
}

/** One field another person changed: what it is now, and what this user has in the form. */
export interface FieldConflict {
  field: Field
  theirs: unknown
  yours: unknown
  /** The user changed the field too (their value differs from the version they loaded). */
  touchedByYou: boolean
}

const pathOf = (f: Field, map: Record<string, string> | undefined) => map?.[f.name] ?? f.name

/** Blank texts and absent values are the same value; the rest compares as JSON. */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (v === undefined || v === null || v === '' ? null : v)
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b))
}

/** A deep copy of `record` with `value` at the dotted `path` (objects made as needed). */
function setPath(record: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.')
  let at = record
  for (const key of keys.slice(0, -1)) {
    const next = at[key]
    at[key] = next !== null && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {}
    at = at[key] as Record<string, unknown>
  }
  at[keys.at(-1)!] = value
}

/**
 * The record with the form's values at their paths (a PUT takes the record as its GET returned
 * it). The values may be flat (`Cliente.Nif` as one key) or nested, as a submit body is.
 */
export function recordWithValues(record: unknown, fields: readonly Field[], map: Record<string, string> | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const out = record !== null && typeof record === 'object' && !Array.isArray(record) ? { ...(record as Record<string, unknown>) } : {}
  for (const f of fields) {
    const value = getPath(values, f.name)
    if (value !== undefined) setPath(out, pathOf(f, map), value)
  }
  return out
}

/** The fields whose stored value moved away from the version the form was loaded from. */
export function conflictsOf(fields: readonly Field[], map: Record<string, string> | undefined, base: unknown, theirs: unknown, values: Record<string, unknown>): FieldConflict[] {
  return fields
    .filter((f) => !sameValue(getPath(base, pathOf(f, map)), getPath(theirs, pathOf(f, map))))
    .map((f) => ({ field: f, theirs: getPath(theirs, pathOf(f, map)), yours: values[f.name], touchedByYou: !sameValue(values[f.name], getPath(base, pathOf(f, map))) }))
}

/**
 * The user's edits re-applied over the new version: each field the user changed keeps what they
 * typed, every other field takes the stored value.
 */
export function reapplied(fields: readonly Field[], map: Record<string, string> | undefined, base: unknown, theirs: unknown, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values }
  for (const f of fields) {
    const mine = !sameValue(values[f.name], getPath(base, pathOf(f, map)))
    if (!mine) out[f.name] = getPath(theirs, pathOf(f, map)) ?? null
  }
  return out
}
