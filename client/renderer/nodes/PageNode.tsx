import type { PageNode } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'
import { ActionBar } from '../actions/ActionButton'
import { NodeList } from '../node-renderer'
import { useScreenTitle } from '../screen-title'

export function PageNodeView({ node }: { node: PageNode }) {
  const { l } = useI18n()
  const title = useScreenTitle(node.title)
  return (
    <section className="screen-page" aria-labelledby="screen-title">
      <header className="screen-header">
        <div>
          <h1 id="screen-title" className="screen-title">
            {title}
          </h1>
          {node.description && <p className="screen-description">{l(node.description)}</p>}
        </div>
        {node.actions && node.actions.length > 0 && <ActionBar actions={node.actions} />}
      </header>
      <NodeList nodes={node.children} />
    </section>
  )
}
