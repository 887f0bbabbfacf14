import { InputText } from 'primereact/inputtext'
import type { DetailNode } from '../../../../schemas/screen'
import type { CatalogueCall } from '../../../api/screen-admin'
import { useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { isReadCall } from '../studio-data'
import { templatesOf } from './action-model'
import { ActionsEditor } from './ActionsEditor'
import { CallFields } from './CallFields'
import { withProps } from './edit'
import { messages } from './messages'
import { screenRouteParams } from './node-outline'
import { SectionsEditor } from './SectionsEditor'
import { useStructure } from './structure-context'
import { TextFields } from './TextFields'

const reads = (calls: readonly CatalogueCall[]) => calls.filter(isReadCall)

/**
 * Any detail of a screen: title, where its record comes from (a catalogued read call with its
 * parameters, or data inside the enclosing detail), its sections and fields, its actions. What is
 * not shown here (badges, links of a field…) stays as it was; its children are nodes of their own.
 */
export function DetailEditor({ node, onChange }: { node: DetailNode; onChange: (next: DetailNode) => void }) {
  const t = useMessages(messages)
  const { screen, pointer } = useStructure()
  const set = (patch: { [K in keyof DetailNode]?: DetailNode[K] | undefined }) => onChange(withProps(node, patch))
  const setSource = (patch: { [K in keyof DetailNode['source']]?: DetailNode['source'][K] | undefined }) => set({ source: withProps(node.source, patch) })
  const fromData = node.source.fromData !== undefined && !node.source.endpoint
  const fields = node.sections.flatMap((s) => s.fields.map((f) => f.field))
  const id = 'st-detail'

  return (
    <div className="structure__editor">
      <fieldset className="screen-studio__group">
        <legend>{t('detail.legend')}</legend>
        <div className="screen-studio__grid">
          <FieldShell id={`${id}-id`} label={t('id')} hint={t('idHelp')}>
            <InputText id={`${id}-id`} value={node.id ?? ''} onChange={(e) => set({ id: e.target.value.trim() || undefined })} />
          </FieldShell>
          <TextFields id={`${id}-title`} label={t('title')} value={node.title} onChange={(title) => set({ title })} />
        </div>
      </fieldset>

      <fieldset className="screen-studio__group">
        <legend>{t('source.legend')}</legend>
        {fromData ? (
          <div className="screen-studio__grid">
            <FieldShell id={`${id}-from`} label={t('source.detailFromData')}>
              <InputText id={`${id}-from`} value={node.source.fromData ?? ''} onChange={(e) => setSource({ fromData: e.target.value.trim() })} />
            </FieldShell>
          </div>
        ) : (
          <CallFields
            id={`${id}-source`}
            label={t('source.call')}
            help={t('source.callHelp')}
            value={{ method: 'GET', endpoint: node.source.endpoint, params: node.source.params }}
            pick={reads}
            templates={templatesOf({ kind: 'params', fields: screenRouteParams(screen) })}
            onChange={(call) => setSource({ endpoint: call.endpoint, params: call.params })}
          />
        )}
      </fieldset>

      <SectionsEditor id={`${id}-sections`} sections={node.sections} onChange={(sections) => set({ sections })} />
      <ActionsEditor id={`${id}-actions`} legend={t('actions.detail')} actions={node.actions} pointer={`${pointer}/actions`} scope={{ kind: 'data', fields }} onChange={(actions) => set({ actions })} />
    </div>
  )
}
