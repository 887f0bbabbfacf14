import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { Locale } from 'typebox/system'
import { Screen } from './screen'

/**
 * Why a screen file fails its schema, in Spanish, naming the JSON path: the first invalid node,
 * deepest first and checked against its own node type only (so its errors are not buried under
 * the other branches of the node union), else the file's own fields. The BFF answers with it
 * (shipped files at start, the studio's saves) and the studio's JSON editor shows it as the admin
 * types, so both say the same thing.
 */

let compiled: ReturnType<typeof Compile<typeof Screen>> | null = null

/** The screen schema, compiled once on first use (a browser that never edits a screen never pays for it). */
export function screenSchemaCheck() {
  compiled ??= Compile(Screen)
  return compiled
}

export type Validator = ReturnType<typeof Compile>
const defs = (Screen as unknown as { $defs: Record<string, { anyOf?: Record<string, unknown>[] }> }).$defs
const branchValidators = new Map<string, Validator>()

/** A validator for one node type alone, so its errors are not buried under the other union branches. */
function branchValidator(type: string): Validator | undefined {
  const cached = branchValidators.get(type)
  if (cached) return cached
  const branch = defs.Node?.anyOf?.find((b) => {
    const target = '$ref' in b ? defs[String(b.$ref)] : b
    return ((target as { properties?: { type?: { const?: string } } })?.properties?.type?.const) === type
  })
  if (!branch) return undefined
  const validator = Compile(Type.Cyclic({ ...defs, Branch: branch } as never, 'Branch'))
  branchValidators.set(type, validator)
  return validator
}

export function firstErrors(validator: Validator, value: unknown, base: string): string {
  const errors = validator.Errors(value)
  const depth = (p: string) => p.split('/').length
  const max = Math.max(...errors.map((e) => depth(e.instancePath)))
  const deepest = errors.filter((e) => depth(e.instancePath) === max && e.message !== 'schema is false')
  const chosen = deepest.length ? deepest : errors
  // In Spanish, as every message of the portal (shipped files at start, the studio's saves).
  return [...new Set(chosen.map((e) => `${base}${e.instancePath}: ${Locale.es_ES(e as never)}`))].slice(0, 3).join('; ')
}

/** The first invalid node, deepest first, with the errors of its own type only. */
function nodeErrors(node: unknown, path: string): string | null {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return `${path}: debe ser un nodo (objeto con "type")`
  const type = (node as { type?: unknown }).type
  if (typeof type !== 'string') return `${path}/type: falta el tipo de nodo`
  const validator = branchValidator(type)
  if (!validator) return `${path}/type: tipo de nodo desconocido «${type}»`
  const n = node as { children?: unknown[]; tabs?: { children?: unknown[] }[] }
  const kids: [unknown, string][] = []
  if (Array.isArray(n.children)) n.children.forEach((c, i) => kids.push([c, `${path}/children/${i}`]))
  if (Array.isArray(n.tabs)) n.tabs.forEach((t, i) => (Array.isArray(t?.children) ? t.children : []).forEach((c, j) => kids.push([c, `${path}/tabs/${i}/children/${j}`])))
  for (const [child, childPath] of kids) {
    const inner = nodeErrors(child, childPath)
    if (inner) return inner
  }
  return validator.Check(node) ? null : firstErrors(validator, node, path)
}

/** The most specific schema errors of a screen file: the first invalid node, or the file's own fields. */
export function describeErrors(value: unknown): string {
  const root = (value as { root?: unknown })?.root
  const inNodes = root === undefined ? '/root: falta el nodo raíz' : nodeErrors(root, '/root')
  if (inNodes) return inNodes
  const { root: _root, ...rest } = value as Record<string, unknown>
  const fileOnly = Compile(
    Type.Object(
      { schemaVersion: Type.Integer({ minimum: 1 }), id: Type.String({ pattern: '^[a-z0-9-]+$' }), title: Type.Unknown(), routes: Type.Optional(Type.Unknown()), menu: Type.Optional(Type.Unknown()) },
      { additionalProperties: false },
    ),
  )
  return fileOnly.Check(rest) ? firstErrors(screenSchemaCheck(), value, '') : firstErrors(fileOnly, rest, '')
}
