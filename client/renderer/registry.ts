import type { ComponentType } from 'react'
import type { ScreenNode } from '../../schemas/screen'
import { lazyComponent } from '../app/lazy-component'
import { WIDGETS } from '../widgets'
import { ActionNodeView } from './nodes/ActionNode'
import { LinksNodeView } from './nodes/LinksNode'
import { MarkdownNodeView } from './nodes/MarkdownNode'
import { PageNodeView } from './nodes/PageNode'
import { WidgetNodeView } from './nodes/WidgetNode'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type NodeView = ComponentType<{ node: any }>

/**
 * The heavy node views (PrimeReact DataTable, Calendar, MultiSelect, Tree, TabView…) are their
 * own chunks, loaded by the first screen that uses them: the dashboard, drawn by a page and a
 * widget, never downloads the list and form machinery.
 */
const view = (load: () => Promise<NodeView>) => lazyComponent(load)
const LAZY_VIEWS = {
  table: view(() => import('./nodes/TableNode').then((m) => m.TableNodeView)),
  form: view(() => import('./nodes/FormNode').then((m) => m.FormNodeView)),
  detail: view(() => import('./nodes/DetailNode').then((m) => m.DetailNodeView)),
  tabs: view(() => import('./nodes/TabsNode').then((m) => m.TabsNodeView)),
  tree: view(() => import('./nodes/TreeNode').then((m) => m.TreeNodeView)),
}

/** The one registry: node `type` → component. A new node type is added here and in schemas/screen.ts. */
export const NODE_REGISTRY: Record<string, NodeView> = {
  page: PageNodeView,
  action: ActionNodeView,
  markdown: MarkdownNodeView,
  links: LinksNodeView,
  widget: WidgetNodeView,
  ...LAZY_VIEWS,
}

/**
 * Loads the code a screen will draw (its lazy node views and widgets) before it is drawn: a
 * node that suspends shows its placeholder, and React then holds the finished content back for
 * up to 300 ms to batch reveals. Walks the whole tree (tabs, dialogs, details nest nodes).
 */
export function preloadScreenCode(root: ScreenNode): Promise<unknown> {
  const loads: Promise<unknown>[] = []
  const lazyViews: Record<string, { preload: () => Promise<unknown> } | undefined> = LAZY_VIEWS
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (!value || typeof value !== 'object') return
    const node = value as { type?: unknown; name?: unknown }
    if (node.type === 'widget' && typeof node.name === 'string') loads.push(WIDGETS[node.name]?.preload() ?? Promise.resolve())
    else if (typeof node.type === 'string') loads.push(lazyViews[node.type]?.preload() ?? Promise.resolve())
    Object.values(value).forEach(visit)
  }
  visit(root)
  return Promise.all(loads)
}
