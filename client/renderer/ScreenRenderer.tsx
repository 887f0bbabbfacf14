import { Skeleton } from 'primereact/skeleton'
import { Suspense, type ComponentType } from 'react'
import type { ScreenNode } from '../../schemas/screen'
import { useI18n, useMessages } from '../i18n/i18n'
import { messages } from './messages'
import { NODE_REGISTRY } from './registry'

/**
 * Draws one node by looking its `type` up in the registry; an unknown type shows an error box
 * naming it. A node whose code is still loading (see registry.ts) shows a placeholder meanwhile.
 */
export function ScreenRenderer({ node }: { node: ScreenNode }) {
  const type = (node as { type?: unknown }).type
  const Component = typeof type === 'string' ? (NODE_REGISTRY[type] as ComponentType<{ node: ScreenNode }> | undefined) : undefined
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
    <div aria-busy="true" aria-label={t('app.loading')}>
      <Skeleton height="12rem" />
    </div>
  )
}

export function UnknownNode({ type }: { type: string }) {
  const t = useMessages(messages)
  return (
    <div className="screen-error-box" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>
        {t('node.unknown')} <code>{type}</code>. {t('node.unknown.upgrade')}
      </span>
    </div>
  )
}

/** Renders a list of nodes in order. */
export function NodeList({ nodes }: { nodes: ScreenNode[] }) {
  return (
    <>
      {nodes.map((n, i) => (
        <ScreenRenderer key={`${n.type}-${(n as { id?: string }).id ?? i}`} node={n} />
      ))}
    </>
  )
}
