import type { RouteDef } from '../../schemas/manifest'
import type { ScreenFile } from '../../schemas/screen'
import { rewriteValues } from '../../schemas/screen-walk'

const ACTION_LISTS = new Set(['actions', 'rowActions', 'bulkActions'])

/**
 * The screen as a given user may see it: actions gated by a permission the user lacks are
 * removed wherever they are (toolbars, rows, details, dialogs, form steps), and so are links
 * to routes they may not open or whose menu entry this brand and environment hide
 * (`hiddenPaths`). Works on a copy.
 */
export function screenForUser(screen: ScreenFile, permissions: ReadonlySet<string>, routes: RouteDef[], hiddenPaths: ReadonlySet<string> = new Set()): ScreenFile {
  const allowed = (a: { permission?: string }) => !a.permission || permissions.has(a.permission)
  const routeAllowed = (to: string) => {
    const path = to.toLowerCase().replace(/\/+$/, '') || '/'
    if (hiddenPaths.has(path)) return false
    const route = routes.find((r) => r.path.toLowerCase() === path)
    return !route?.permission || permissions.has(route.permission)
  }
  // Its routes and menu place are the manifest's business (already derived), not the renderer's.
  const { routes: _routes, menu: _menu, ...drawn } = screen
  return rewriteValues(drawn, (value, at) => {
    if (!Array.isArray(value)) return undefined
    let kept = value.filter((item) => !(isNode(item, 'action') && !allowed((item as { action: { permission?: string } }).action)))
    if (typeof at.key === 'string' && ACTION_LISTS.has(at.key)) kept = kept.filter((a) => allowed(a as { permission?: string }))
    else if (at.key === 'items' && isNode(at.parent, 'links')) kept = kept.filter((i) => routeAllowed((i as { to: string }).to))
    return kept
  }) as ScreenFile
}

function isNode(value: unknown, type: string): boolean {
  return !!value && typeof value === 'object' && (value as { type?: unknown }).type === type
}
