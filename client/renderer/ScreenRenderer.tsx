import type { ComponentType } from 'react'
import type { ScreenNode } from '../../schemas/screen'
import { NODE_REGISTRY } from './registry'

/** Draws one node by looking its `type` up in the registry; an unknown type shows an error box naming it. */
export function ScreenRenderer({ node }: { node: ScreenNode }) {
  const type = (node as { type?: unknown }).type
  const Component = typeof type === 'string' ? (NODE_REGISTRY[type] as ComponentType<{ node: ScreenNode }> | undefined) : undefined
  if (!Component) return <UnknownNode type={String(type)} />
  return <Component node={node} />
}

export function UnknownNode({ type }: { type: string }) {
  return (
    <div className="screen-error-box" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>
        Tipo de nodo desconocido: <code>{type}</code>. Esta pantalla necesita una versión más reciente del portal.
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
