import type { ScreenNode } from '../../../schemas/screen'
import { ActionNodeInner } from '../actions/ActionButton'

export function ActionNodeView({ node }: { node: Extract<ScreenNode, { type: 'action' }> }) {
  return <ActionNodeInner action={node.action} />
}
