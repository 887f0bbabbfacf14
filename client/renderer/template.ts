import { conditionHolds } from '../../schemas/form-rules'
import type { Manifest } from '../../schemas/manifest'
import type { Condition } from '../../schemas/screen'

/** What templates in a screen can refer to (see schemas/screen.ts). */
export interface TemplateContext {
  row?: Record<string, unknown>
  data?: unknown
  values?: Record<string, unknown>
  params?: Record<string, string | undefined>
  query?: Record<string, string>
  user?: { id: number; email: string; name: string; agentId: number | null }
  selected?: Record<string, unknown>[]
  result?: unknown
}

/** `{user.*}` of the templates: the signed-in user of the manifest. */
export function templateUser(manifest: Manifest | undefined): TemplateContext['user'] {
  const user = manifest?.user
  return user ? { id: user.id, email: user.email, name: user.name, agentId: user.agent?.id ?? null } : undefined
}

/**
 * Reads a dotted path (`a.b.0.c`) from a value. Form values keep dotted names flat
 * (`values['Cliente.Nif']`), so at each level a key equal to the rest of the path wins.
 */
export function getPath(value: unknown, path: string): unknown {
  if (!path) return value
  if (value === null || value === undefined || typeof value !== 'object') return undefined
  const record = value as Record<string, unknown>
  if (path in record) return record[path]
  const dot = path.indexOf('.')
  if (dot < 0) return undefined
  return getPath(record[path.slice(0, dot)], path.slice(dot + 1))
}

/** `{scope.path}` → value. `selected.X` is the array of X over the selected rows. A bare `{X}` reads the row, then the values, then the data. */
export function lookup(ctx: TemplateContext, expr: string): unknown {
  const [scope, ...rest] = expr.split('.')
  const path = rest.join('.')
  switch (scope) {
    case 'row':
      return getPath(ctx.row, path)
    case 'data':
      return getPath(ctx.data, path)
    case 'values':
      return getPath(ctx.values, path)
    case 'params':
      return getPath(ctx.params, path)
    case 'query':
      return getPath(ctx.query, path)
    case 'user':
      return getPath(ctx.user, path)
    case 'result':
      return getPath(ctx.result, path)
    case 'selected':
      return (ctx.selected ?? []).map((r) => getPath(r, path))
    default:
      for (const source of [ctx.row, ctx.values, ctx.data]) {
        const v = getPath(source, expr)
        if (v !== undefined) return v
      }
      return undefined
  }
}

const WHOLE = /^\{([^{}]+)\}$/
const PART = /\{([^{}]+)\}/g

/** Fills a template. A template that is one placeholder keeps the value's type (numbers, arrays). */
export function resolveValue(template: unknown, ctx: TemplateContext): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template)
    if (whole) return lookup(ctx, whole[1]!)
    return template.replace(PART, (_m, expr: string) => stringify(lookup(ctx, expr)))
  }
  if (Array.isArray(template)) return template.map((t) => resolveValue(t, ctx))
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, resolveValue(v, ctx)]))
  }
  return template
}

function stringify(v: unknown): string {
  if (v === undefined || v === null) return ''
  if (Array.isArray(v)) return v.join(',')
  return String(v)
}

/** A template as text (for paths and labels). Path placeholders are URL-encoded when `encode` is set. */
/** The expressions a template refers to (`{params.id}` → `params.id`). */
export function templateRefs(template: string): string[] {
  return [...template.matchAll(PART)].map(([, expr]) => expr!.trim())
}

export function fill(template: string, ctx: TemplateContext, encode = false): string {
  return template.replace(PART, (_m, expr: string) => {
    const text = stringify(lookup(ctx, expr))
    return encode ? encodeURIComponent(text) : text
  })
}

/** Query parameters with their templates filled; empty values are left out. */
export function resolveParams(params: Record<string, unknown> | undefined, ctx: TemplateContext): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const [k, v] of Object.entries(params ?? {})) {
    const r = resolveValue(v, ctx)
    if (r === undefined || r === null || r === '') continue
    out[k] = typeof r === 'object' ? JSON.stringify(r) : (r as string | number | boolean)
  }
  return out
}

export function evalCondition(cond: Condition | undefined, ctx: TemplateContext): boolean {
  return conditionHolds(cond, (path) => lookup(ctx, path))
}

/** `fromData` paths: a bare field reads the enclosing detail's data (`Historial` → `data.Historial`); `data` alone is all of it. */
export function dataPath(fromData: string): string {
  return /^(data|row|values)(\.|$)/.test(fromData) ? fromData : `data.${fromData}`
}
