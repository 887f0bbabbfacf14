import { createContext, useContext, type Key, type ReactNode } from 'react'
import type { WidgetPrefetch } from '../api/widget-prefetch'
import type { ScreenNode } from '../../schemas/screen'
import type { LazyComponent } from '../ui/lazy-component'

/** The hand-written widgets by name (client/widgets/index.ts), handed in by the app: the renderer never imports them. */
export type WidgetRegistry = Readonly<Record<string, LazyComponent<Record<string, unknown>> & { prefetchData?: WidgetPrefetch }>>

/**
 * How a node draws the nodes below it (a page its children, tabs their panels, a dialog its
 * content): through the render function ScreenRenderer puts in context, never by importing
 * ScreenRenderer or the registry, so the renderer's modules import one another one way only.
 */
export interface NodeRenderer {
  renderNode: (node: ScreenNode, key?: Key) => ReactNode
  widgets: WidgetRegistry
}

export const NodeRendererContext = createContext<NodeRenderer | null>(null)

export function useNodeRenderer(): NodeRenderer {
  const renderer = useContext(NodeRendererContext)
  if (!renderer) throw new Error('A screen node is drawn outside ScreenRenderer')
  return renderer
}

/** Draws a list of nodes in order. */
export function NodeList({ nodes }: { nodes: ScreenNode[] }) {
  const { renderNode } = useNodeRenderer()
  return <>{nodes.map((n, i) => renderNode(n, `${n.type}-${(n as { id?: string }).id ?? i}`))}</>
}
