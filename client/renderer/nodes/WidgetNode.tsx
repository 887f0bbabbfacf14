import { Suspense } from 'react'
import type { WidgetNode } from '../../../schemas/screen'
import { useMessages } from '../../i18n/i18n'
import { WIDGETS } from '../../widgets'
import { messages } from '../messages'

/** A hand-written component (dashboard, calculators, tools) by name; code-split per widget. */
export function WidgetNodeView({ node }: { node: WidgetNode }) {
  const t = useMessages(messages)
  const Widget = WIDGETS[node.name]
  if (!Widget) {
    return (
      <div className="screen-error-box" role="alert">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" />
        <span>
          {t('widget.unknown')} <code>{node.name}</code>.
        </span>
      </div>
    )
  }
  return (
    <Suspense fallback={<div className="widget-loading" aria-busy="true" />}>
      <Widget {...(node.props ?? {})} />
    </Suspense>
  )
}
