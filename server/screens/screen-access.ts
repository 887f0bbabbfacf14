import type { RouteDef } from '../../schemas/manifest'
import type { ActionSpec, ScreenFile, ScreenNode } from '../../schemas/screen'

/**
 * The screen as a given user may see it: actions gated by a permission the user lacks are
 * removed, and so are links to routes they may not open or whose menu entry this brand and
 * environment hide (`hiddenPaths`). Works on a copy.
 */
export function screenForUser(screen: ScreenFile, permissions: ReadonlySet<string>, routes: RouteDef[], hiddenPaths: ReadonlySet<string> = new Set()): ScreenFile {
  const copy = structuredClone(screen)
  const allowed = (a: ActionSpec) => !a.permission || permissions.has(a.permission)
  const filterActions = (list: ActionSpec[] | undefined) => list?.filter(allowed)
  const routeAllowed = (to: string) => {
    const route = routes.find((r) => r.path.toLowerCase() === to.toLowerCase().replace(/\/+$/, '') || (to === '/' && r.path === '/'))
    if (hiddenPaths.has(to.toLowerCase())) return false
    return !route?.permission || permissions.has(route.permission)
  }
  const prune = (node: ScreenNode): ScreenNode | null => {
    switch (node.type) {
      case 'page':
        return { ...node, actions: filterActions(node.actions), children: node.children.map(prune).filter((n): n is ScreenNode => n !== null) }
      case 'tabs':
        return { ...node, tabs: node.tabs.map((t) => ({ ...t, children: t.children.map(prune).filter((n): n is ScreenNode => n !== null) })) }
      case 'table':
        return { ...node, rowActions: filterActions(node.rowActions), bulkActions: filterActions(node.bulkActions), actions: filterActions(node.actions) }
      case 'detail':
        return { ...node, actions: filterActions(node.actions), children: node.children?.map(prune).filter((n): n is ScreenNode => n !== null) }
      case 'action':
        return allowed(node.action) ? node : null
      case 'links':
        return { ...node, items: node.items.filter((i) => routeAllowed(i.to)) }
      default:
        return node
    }
  }
  copy.root = prune(copy.root) ?? { type: 'page', children: [] }
  return copy
}
