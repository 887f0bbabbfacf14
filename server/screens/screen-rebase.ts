/**
 * An edit of a shipped screen is an overlay: what the admin changed is kept, and what a release
 * changed underneath (where the admin did not touch it) comes through. A three-way merge of
 * plain JSON: the shipped file the edit was made on, the edit, and the shipped file now.
 */
export function rebase(oldBase: unknown, edited: unknown, newBase: unknown): unknown {
  if (same(edited, oldBase)) return newBase
  if (same(oldBase, newBase)) return edited
  if (isObject(oldBase) && isObject(edited) && isObject(newBase)) {
    const out: Record<string, unknown> = {}
    for (const key of new Set([...Object.keys(edited), ...Object.keys(newBase)])) {
      const inOld = key in oldBase
      if (!(key in edited)) {
        // Removed by the admin stays removed; added by the release comes in.
        if (!inOld) out[key] = newBase[key]
      } else if (!(key in newBase)) {
        // Removed by the release, unless the admin changed it.
        if (!inOld || !same(edited[key], oldBase[key])) out[key] = edited[key]
      } else {
        out[key] = inOld ? rebase(oldBase[key], edited[key], newBase[key]) : edited[key]
      }
    }
    return out
  }
  // Lists merge item by item only while the three hold the same things in the same places
  // (a reordered or resized list is the admin's as it is).
  if (Array.isArray(oldBase) && Array.isArray(edited) && Array.isArray(newBase) && oldBase.length === edited.length && edited.length === newBase.length) {
    const aligned = oldBase.every((o, i) => identity(o) === identity(edited[i]) && identity(o) === identity(newBase[i]))
    if (aligned) return edited.map((e, i) => rebase(oldBase[i], e, newBase[i]))
  }
  return edited
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** What an item of a list is, whatever its content: a column's field, a node's id or type, an action's key. */
function identity(v: unknown): string {
  if (!isObject(v)) return JSON.stringify(v)
  for (const k of ['field', 'id', 'key', 'name', 'type']) if (typeof v[k] === 'string') return `${k}:${v[k] as string}`
  return '?'
}
