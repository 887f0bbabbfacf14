import type { PageNode } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { ActionsEditor } from './ActionsEditor'
import { withProps } from './edit'
import { messages } from './messages'
import { screenRouteParams } from './node-outline'
import { useStructure } from './structure-context'
import { TextFields } from './TextFields'

/** A page: its title and description in Spanish and English, and the actions of its header. Its children are nodes of their own. */
export function PageEditor({ node, onChange }: { node: PageNode; onChange: (next: PageNode) => void }) {
  const t = useMessages(messages)
  const { screen, pointer } = useStructure()
  const set = (patch: { [K in keyof PageNode]?: PageNode[K] | undefined }) => onChange(withProps(node, patch))
  const id = 'st-page'
  return (
    <div className="structure__editor">
      <fieldset className="screen-studio__group">
        <legend>{t('page.legend')}</legend>
        <div className="screen-studio__grid">
          <TextFields id={`${id}-title`} label={t('title')} value={node.title} onChange={(title) => set({ title })} />
          <TextFields id={`${id}-description`} label={t('description')} value={node.description} onChange={(description) => set({ description })} />
        </div>
      </fieldset>
      <ActionsEditor id={`${id}-actions`} legend={t('actions.page')} actions={node.actions} pointer={`${pointer}/actions`} scope={{ kind: 'params', fields: screenRouteParams(screen) }} onChange={(actions) => set({ actions })} />
    </div>
  )
}
