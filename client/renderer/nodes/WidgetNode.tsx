import { Suspense } from 'react'
import type { WidgetNode } from '../../../schemas/screen'
import { useMessages } from '../../i18n/i18n'
import { ErrorState } from '../../ui/states'
import { messages } from '../messages'
import { useNodeRenderer } from '../node-renderer'

/** A hand-written component (dashboard, calculators, tools) by name, from the widgets the app hands in; code-split per widget. */
export function WidgetNodeView({ node }: { node: WidgetNode }) {
  const t = useMessages(messages)
  const Widget = useNodeRenderer().widgets[node.name]
  if (!Widget) {
    return (
      <ErrorState>
        {t('widget.unknown')} <code>{node.name}</code>.
      </ErrorState>
    )
  }
  return (
    <Suspense fallback={<div className="widget-loading" aria-busy="true" />}>
      <Widget {...(node.props ?? {})} />
    </Suspense>
  )
}
