import type { ScreenNode } from './screen'
import { isNodeType } from './screen-node-types'

/**
 * The one way through a screen's JSON, for the loader, the access filter, the client and the
 * tests alike: every value, wherever it sits (children, tabs, dialogs, form steps, actions'
 * forms…), with its JSON pointer and key. A screen is a JSON tree: no value is reached twice.
 */

/** Where a value sits: its JSON pointer, its key in its container, and that container (null for the root). */
export interface At {
  path: string
  key: string | number | null
  parent: unknown
}

/** Returned by a visitor: do not look inside this value. */
export const SKIP = Symbol('skip')
/** Returned by a rewrite: leave this value out of its array or object. */
export const DROP = Symbol('drop')
/** Returned by a rewrite: keep this value as it is, without looking inside. */
export const KEEP = Symbol('keep')

/**
 * Keys whose values are data sent or passed on as they are (a call's body and parameters, a
 * widget's props, a field's default): never a node, a link or a field, so never looked into
 * for one.
 */
export const DATA_KEYS: ReadonlySet<string> = new Set(['body', 'props', 'defaultValue', 'params'])

/** Whether a value is a screen node: an object whose `type` names a node type. */
export function isScreenNode(value: unknown): value is ScreenNode {
  return !!value && typeof value === 'object' && !Array.isArray(value) && isNodeType((value as { type?: unknown }).type)
}

const pointer = (path: string, key: string | number) => `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`

function childrenOf(value: unknown): [string | number, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [i, v])
  if (value && typeof value === 'object') return Object.entries(value)
  return []
}

/**
 * Visits `root` and every value inside it, a container before what it holds. Returning SKIP
 * leaves the value's inside unvisited. `base` is the pointer of `root` (e.g. `/root`). The visitor
 * may change the value it is given; what it holds is read after the visitor returns.
 */
export function visitValues(root: unknown, visit: (value: unknown, at: At) => void | typeof SKIP, base = ''): void {
  const go = (value: unknown, at: At) => {
    if (visit(value, at) === SKIP) return
    for (const [key, child] of childrenOf(value)) go(child, { path: pointer(at.path, key), key, parent: value })
  }
  go(root, { path: base, key: null, parent: null })
}

/** Visits every node of a screen, wherever it sits (data values aside), with its JSON pointer. */
export function visitNodes(root: unknown, visit: (node: ScreenNode, path: string) => void, base = ''): void {
  visitValues(
    root,
    (value, at) => {
      if (typeof at.key === 'string' && DATA_KEYS.has(at.key)) return SKIP
      if (isScreenNode(value)) visit(value, at.path)
    },
    base,
  )
}

/** Every node of a screen, in visiting order. */
export function nodesOf(root: unknown): ScreenNode[] {
  const out: ScreenNode[] = []
  visitNodes(root, (n) => out.push(n))
  return out
}

/**
 * A copy of `root` rewritten value by value, a container before what it holds. The rewrite
 * returns undefined to keep the value (copied, its inside rewritten in turn), DROP to leave it
 * out, KEEP to keep it untouched, or a replacement, whose inside is rewritten in turn. The
 * original is never changed.
 */
export function rewriteValues<T>(root: T, rewrite: (value: unknown, at: At) => unknown, base = ''): T {
  const go = (value: unknown, at: At): unknown => {
    const out = rewrite(value, at)
    if (out === DROP || out === KEEP) return out === KEEP ? value : DROP
    const next = out === undefined ? value : out
    if (Array.isArray(next)) {
      return next.flatMap((child, i) => {
        const done = go(child, { path: pointer(at.path, i), key: i, parent: next })
        return done === DROP ? [] : [done]
      })
    }
    if (next && typeof next === 'object') {
      const copy: Record<string, unknown> = {}
      for (const [key, child] of Object.entries(next)) {
        const done = go(child, { path: pointer(at.path, key), key, parent: next })
        if (done !== DROP) copy[key] = done
      }
      return copy
    }
    return next
  }
  const result = go(root, { path: base, key: null, parent: null })
  return (result === DROP ? undefined : result) as T
}
