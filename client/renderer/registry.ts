import type { ComponentType } from 'react'
import type { NodeTypeName, ScreenNode } from '../../schemas/screen'
import { visitNodes } from '../../schemas/screen-walk'
import { lazyComponent } from '../ui/lazy-component'
import type { WidgetRegistry } from './node-renderer'
import { ActionNodeView } from './nodes/ActionNode'
import { LinksNodeView } from './nodes/LinksNode'
import { MarkdownNodeView } from './nodes/MarkdownNode'
import { PageNodeView } from './nodes/PageNode'
import { WidgetNodeView } from './nodes/WidgetNode'

/** The view of each node type, typed by the node it draws. */
type NodeViews = { [T in NodeTypeName]: ComponentType<{ node: Extract<ScreenNode, { type: T }> }> }

/**
 * The heavy node views (the grid, PrimeReact's Calendar, MultiSelect, Tree…) are their own
 * chunks, loaded by the first screen that uses them: the dashboard, drawn by a page and a
 * widget, never downloads the list and form machinery.
 */
const LAZY_VIEWS = {
  table: lazyComponent(() => import('./nodes/TableNode').then((m) => m.TableNodeView)),
  form: lazyComponent(() => import('./nodes/FormNode').then((m) => m.FormNodeView)),
  detail: lazyComponent(() => import('./nodes/DetailNode').then((m) => m.DetailNodeView)),
  tabs: lazyComponent(() => import('./nodes/TabsNode').then((m) => m.TabsNodeView)),
  tree: lazyComponent(() => import('./nodes/TreeNode').then((m) => m.TreeNodeView)),
}

const VIEWS: NodeViews = {
  page: PageNodeView,
  action: ActionNodeView,
  markdown: MarkdownNodeView,
  links: LinksNodeView,
  widget: WidgetNodeView,
  ...LAZY_VIEWS,
}

/**
 * The one registry: node `type` → component. A new node type is added here and in
 * schemas/screen-node-types.ts (the one list, which schemas/screen.ts is checked against).
 * Looked up by a type read from the screen's JSON once `isNodeType` says this build knows it.
 */
export const NODE_REGISTRY = VIEWS as Record<NodeTypeName, ComponentType<{ node: ScreenNode }>>

/**
 * Loads the code a screen will draw (its lazy node views and widgets) before it is drawn: a
 * node that suspends shows its placeholder, and React then holds the finished content back for
 * up to 300 ms to batch reveals. Walks the whole tree (tabs, dialogs, details nest nodes).
 */
export function preloadScreenCode(root: ScreenNode, widgets: WidgetRegistry): Promise<unknown> {
  const loads: Promise<unknown>[] = []
  const lazyViews: Record<string, { preload: () => Promise<unknown> } | undefined> = LAZY_VIEWS
  visitNodes(root, (node) => {
    if (node.type === 'widget') loads.push(widgets[node.name]?.preload() ?? Promise.resolve())
    else loads.push(lazyViews[node.type]?.preload() ?? Promise.resolve())
  })
  return Promise.all(loads)
}
