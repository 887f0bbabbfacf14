import type { PersonalKind } from './catalogue/endpoint'
import { ANSWER_MASKED_KINDS, maskAs } from './personal-data'

/**
 * The catalogue's personal-data map of an answer (`Items[].Cliente.Iban`: `iban`) as a tree the
 * masker walks once per answer: each answer is walked only where the map leads, so the cost is
 * that of the marked fields, not of the whole answer.
 */
export interface PersonalTree {
  /** The kind of the value at this point (a leaf). */
  kind?: PersonalKind
  /** Named fields below this point. */
  fields?: Map<string, PersonalTree>
  /** The items, when the value here is an array (`[]`). */
  items?: PersonalTree
}

/** Path segments: `Items[].Nif` is `Items`, `[]`, `Nif`; `[].Cups` is `[]`, `Cups`. */
export function pathSegments(path: string): string[] {
  const out: string[] = []
  for (const part of path.split('.')) {
    let name = part
    let arrays = 0
    while (name.endsWith('[]')) {
      name = name.slice(0, -2)
      arrays++
    }
    if (name !== '') out.push(name)
    for (let i = 0; i < arrays; i++) out.push('[]')
  }
  return out
}

/** The tree of the kinds the BFF masks in answers; null when the map marks none of them. */
export function personalTree(personal: Readonly<Record<string, PersonalKind>> | undefined): PersonalTree | null {
  if (!personal) return null
  const root: PersonalTree = {}
  let any = false
  for (const [path, kind] of Object.entries(personal)) {
    if (!ANSWER_MASKED_KINDS.has(kind)) continue
    let node = root
    for (const segment of pathSegments(path)) {
      if (segment === '[]') node = node.items ??= {}
      else {
        node.fields ??= new Map()
        let next = node.fields.get(segment)
        if (!next) node.fields.set(segment, (next = {}))
        node = next
      }
    }
    node.kind = kind
    any = true
  }
  return any ? root : null
}

/**
 * Masks, in place, every value the tree marks: texts and numbers by their kind; an object or
 * array marked as a whole has every text and number inside masked. Whatever is missing, null or
 * of another shape than the map says is left as it is (there is nothing clear to hide there).
 * Returns the value, for chaining.
 */
export function maskAnswer<T>(value: T, tree: PersonalTree): T {
  walk(value, tree)
  return value
}

function walk(value: unknown, tree: PersonalTree): void {
  if (value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    if (!tree.items) return
    for (let i = 0; i < value.length; i++) value[i] = visit(value[i], tree.items)
    return
  }
  if (!tree.fields) return
  const record = value as Record<string, unknown>
  for (const [name, node] of tree.fields) {
    if (Object.prototype.hasOwnProperty.call(record, name)) record[name] = visit(record[name], node)
  }
}

/** The value at a node: masked when it is a leaf, else walked further. */
function visit(value: unknown, node: PersonalTree): unknown {
  if (node.kind) return maskWhole(value, node.kind)
  walk(value, node)
  return value
}

function maskWhole(value: unknown, kind: PersonalKind): unknown {
  if (typeof value === 'string') return value === '' ? value : maskAs(kind, value)
  if (typeof value === 'number') return maskAs(kind, String(value))
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => maskWhole(v, kind))
  // fromEntries defines own properties: a key named `__proto__` (JSON.parse makes it an own key)
  // stays a key, where assigning it would set the copy's prototype and drop it from the answer.
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, v]) => [name, maskWhole(v, kind)]))
}

/**
 * The kind the map gives one concrete field of an answer (`PuntosSuministro[2].Direccion`,
 * `Cliente.Iban`), and the value there; undefined when the map does not mark it. What the reveal
 * route reads, and what the client asks it for.
 */
export function personalFieldAt(tree: PersonalTree | null, answer: unknown, field: string): { kind: PersonalKind; value: unknown } | undefined {
  if (!tree) return undefined
  let node: PersonalTree | undefined = tree
  let value: unknown = answer
  for (const part of field.split('.')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)?((?:\[\d{1,6}\])*)$/.exec(part)
    if (!m || !node) return undefined
    if (m[1] !== undefined) {
      node = node.fields?.get(m[1])
      value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[m[1]] : undefined
    }
    for (const index of m[2]!.match(/\d+/g) ?? []) {
      node = node?.items
      value = Array.isArray(value) ? value[Number(index)] : undefined
    }
    if (!node) return undefined
  }
  return node.kind ? { kind: node.kind, value } : undefined
}
