/**
 * A link to a route of the manifest written as a screen holds it: the route's path with each
 * `{param}` filled by a value or a template (`{row.Id}`, `{data.Codigo}`, `{params.id}`), and
 * maybe a query. Shared by the table's row link and the actions' targets.
 */
export interface RouteLink {
  /** The route's path as the manifest spells it (`/area/{referencia}`). */
  path: string
  /** What fills each parameter of the path. */
  values: Record<string, string>
  /** The query after `?`, as written (`duplicar={data.CodigoContrato}`); empty when none. */
  query: string
}

/** The `{param}` names of a route path, in order. */
export const routeParams = (path: string): string[] => [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!)

/** A link to `path`, each parameter filled from `values` (a missing one stays `{name}`), with `query` when given. */
export function linkFor(path: string, values: Record<string, string>, query = ''): string {
  const filled = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => values[name] || `{${name}}`)
  return query ? `${filled}?${query}` : filled
}

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')

/**
 * The route a link leads to, among `paths`, with what fills each parameter; null when none
 * matches. A route without parameters wins over one whose parameter would take the same text.
 */
export function routeOfLink(link: string, paths: readonly string[]): RouteLink | null {
  const [target = '', query = ''] = link.split(/\?(.*)/s, 2)
  const ordered = [...paths].sort((a, b) => routeParams(a).length - routeParams(b).length)
  for (const path of ordered) {
    const names = routeParams(path)
    const pattern = new RegExp(`^${path.split(/\{[A-Za-z0-9_]+\}/).map(escape).join('([^/?#]+)')}$`)
    const m = pattern.exec(target)
    if (m) return { path, values: Object.fromEntries(names.map((n, i) => [n, m[i + 1]!])), query }
  }
  return null
}
