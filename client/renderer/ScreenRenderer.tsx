import { Skeleton } from 'primereact/skeleton'
import { Suspense, useMemo, type Key } from 'react'
import type { ScreenNode } from '../../schemas/screen'
import { isNodeType } from '../../schemas/screen-node-types'
import { useI18n, useMessages } from '../i18n/i18n'
import { ErrorState, LoadingBlock } from '../ui/states'
import { messages } from './messages'
import { NodeRendererContext, type NodeRenderer, type WidgetRegistry } from './node-renderer'
import { NODE_REGISTRY } from './registry'

const NO_WIDGETS: WidgetRegistry = {}

const renderNode = (node: ScreenNode, key?: Key) => <NodeView key={key} node={node} />

/**
 * Draws a screen's node tree: puts the render function (and the widgets the app hands in) in
 * context, then draws `node`; every node below draws its children through that function.
 */
export function ScreenRenderer({ node, widgets = NO_WIDGETS }: { node: ScreenNode; widgets?: WidgetRegistry }) {
  const renderer = useMemo<NodeRenderer>(() => ({ renderNode, widgets }), [widgets])
  return (
    <NodeRendererContext value={renderer}>
      <NodeView node={node} />
    </NodeRendererContext>
  )
}

/**
 * One node, by looking its `type` up in the registry; an unknown type shows an error box
 * naming it. A node whose code is still loading (see registry.ts) shows a placeholder meanwhile.
 */
function NodeView({ node }: { node: ScreenNode }) {
  const type = (node as { type?: unknown }).type
  const Component = isNodeType(type) ? NODE_REGISTRY[type] : undefined
  if (!Component) return <UnknownNode type={String(type)} />
  return (
    <Suspense fallback={<NodeLoading />}>
      <Component node={node} />
    </Suspense>
  )
}

function NodeLoading() {
  const { t } = useI18n()
  return (
    <LoadingBlock label={t('app.loading')}>
      <Skeleton height="12rem" />
    </LoadingBlock>
  )
}

function UnknownNode({ type }: { type: string }) {
  const t = useMessages(messages)
  return (
    <ErrorState>
      {t('node.unknown')} <code>{type}</code>. {t('node.unknown.upgrade')}
    </ErrorState>
  )
}
