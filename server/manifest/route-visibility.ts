import type { RouteDef } from '../../schemas/manifest'
import type { MenuDefinition, MenuEntry } from '../../schemas/menu'
import { hiddenMenuPaths, type MenuAudience } from './menu-filter'

/** What one audience (brand, user's permissions, environment) has of the route table. */
export interface RouteView {
  /**
   * The routes that exist for this audience: the manifest's routes, so the only ones the client
   * router knows, and the only ones whose screens are served. Routes the user lacks the
   * permission for stay: they are refused (401/403, spec §5), not unknown.
   */
  routes: RouteDef[]
  /** Paths (lower case) a screen must not link to: the routes left out, and menu entries this user does not see. */
  hiddenLinks: ReadonlySet<string>
}

/** A route path as the router matches it: case and a trailing slash do not count. */
export function routeKey(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '') || '/'
}

/**
 * The one rule for which routes exist for an audience (issue 13), used by the manifest and by
 * `GET /bff/screens/:id` alike. A route is left out when it is dev-only in production, or when
 * the side menu names its path (or it is the section path above such entries) and every entry
 * naming it is hidden for this brand and environment: dev-only in production, meant for other
 * brands, or replaced by an external link in production (the Comparador's Comparativa and
 * Listado). Public routes are never left out. An entry an admin hides from the menu still
 * leaves its page reachable (the menu manager says «no aparece en el menú», nothing more);
 * screens only stop linking to it.
 */
export function routeView(menu: MenuDefinition, routes: RouteDef[], audience: MenuAudience): RouteView {
  // Resolved for someone holding every permission the menu asks for: what remains hidden is hidden
  // by brand, environment or admin, never by the user's permissions (those are a 401, not a 404).
  const absent = hiddenMenuPaths({ ...menu, sections: unhidden(menu.sections) }, { ...audience, permissions: menuPermissions(menu.sections) })
  const left = (r: RouteDef) => !r.public && ((audience.production && !!r.devOnly) || absent.has(routeKey(r.path)))
  const hiddenLinks = hiddenMenuPaths(menu, audience)
  const out: RouteDef[] = []
  for (const r of routes) {
    if (left(r)) hiddenLinks.add(routeKey(r.path))
    else out.push(r)
  }
  return { routes: out, hiddenLinks }
}

/** The entries with the admin's «hidden» taken off, at any depth. */
function unhidden(entries: MenuEntry[]): MenuEntry[] {
  return entries.map(({ hidden: _hidden, ...e }) => (e.items ? { ...e, items: unhidden(e.items as MenuEntry[]) } : e) as MenuEntry)
}

/** Every permission an entry of the menu asks for, at any depth. */
function menuPermissions(entries: MenuEntry[]): Set<string> {
  const out = new Set<string>()
  const walk = (list: MenuEntry[]) => {
    for (const e of list) {
      if (e.permission) out.add(e.permission)
      if (e.items) walk(e.items as MenuEntry[])
    }
  }
  walk(entries)
  return out
}
