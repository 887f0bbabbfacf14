import { isApiScope } from '../../../schemas/business/api-scopes'
import publicApi from '../../../schemas/catalogue/public-api.json'

/**
 * The scope each public API route needs, read from the endpoint catalogue (its `scope`), so
 * the call → scope mapping is declared once. Keyed by `METHOD /route` as Fastify registers it
 * (a route's `:codigo` is read as the catalogue's `{codigo}`). `null`: any valid key may make it.
 */
const SCOPE_BY_ROUTE: ReadonlyMap<string, string | null> = new Map(
  (publicApi.calls as { method: string; path: string; scope?: string }[]).map((call) => {
    if (call.scope !== undefined && !isApiScope(call.scope)) throw new Error(`Ámbito desconocido en el catálogo: ${call.scope}`)
    return [`${call.method} /${call.path}`, call.scope ?? null] as const
  }),
)

/** The scope a route needs; `undefined` when the route is not a catalogued public call. */
export function scopeOfRoute(method: string, routeUrl: string): string | null | undefined {
  const key = `${method} ${routeUrl.replace(/\/+$/, '').replace(/:([A-Za-z0-9]+)/g, '{$1}')}`
  return SCOPE_BY_ROUTE.has(key) ? SCOPE_BY_ROUTE.get(key)! : undefined
}

/** The public calls a scope opens, `GET /api/public/v1/…`, in catalogue order. */
export function callsOfScope(scope: string): string[] {
  return [...SCOPE_BY_ROUTE].filter(([, s]) => s === scope).map(([route]) => route)
}
