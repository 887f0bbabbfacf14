import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import type { TableNode } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { isReadCall } from '../studio-data'
import { templatesOf } from './action-model'
import { ActionsEditor } from './ActionsEditor'
import type { CatalogueCall } from '../../../api/screen-admin'
import { CallFields } from './CallFields'
import { ColumnsEditor } from './ColumnsEditor'
import { withProps } from './edit'
import { messages } from './messages'
import { screenRouteParams } from './node-outline'
import { RowLinkFields } from './RowLinkFields'
import { useStructure } from './structure-context'
import { TextFields } from './TextFields'

const reads = (calls: readonly CatalogueCall[]) => calls.filter(isReadCall)

/**
 * Any table of a screen: title, where its rows come from (a catalogued read call, or a list in
 * the enclosing detail's data), its columns, where a row leads, and its row, selection and
 * toolbar actions. What is not shown here (filters, export, default sort…) stays as it was.
 */
export function TableEditor({ node, onChange }: { node: TableNode; onChange: (next: TableNode) => void }) {
  const t = useMessages(messages)
  const { screen, pointer } = useStructure()
  const set = (patch: { [K in keyof TableNode]?: TableNode[K] | undefined }) => onChange(withProps(node, patch))
  const setSource = (patch: { [K in keyof TableNode['source']]?: TableNode['source'][K] | undefined }) => set({ source: withProps(node.source, patch) })
  const fields = node.columns.map((c) => c.field)
  const params = screenRouteParams(screen)
  const fromData = node.source.fromData !== undefined && !node.source.endpoint
  const id = 'st-table'

  return (
    <div className="structure__editor">
      <fieldset className="screen-studio__group">
        <legend>{t('table.legend')}</legend>
        <div className="screen-studio__grid">
          <FieldShell id={`${id}-id`} label={t('id')} hint={t('idHelp')}>
            <InputText id={`${id}-id`} value={node.id} onChange={(e) => set({ id: e.target.value.trim() })} />
          </FieldShell>
          <TextFields id={`${id}-title`} label={t('title')} value={node.title} onChange={(title) => set({ title })} />
        </div>
      </fieldset>

      <fieldset className="screen-studio__group">
        <legend>{t('source.legend')}</legend>
        {fromData ? (
          <div className="screen-studio__grid">
            <FieldShell id={`${id}-from`} label={t('source.fromData')} hint={t('source.fromDataHelp')}>
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
            templates={templatesOf({ kind: 'params', fields: params })}
            onChange={(call) => setSource({ endpoint: call.endpoint, params: call.params })}
          />
        )}
        <div className="screen-studio__grid">
          <FieldShell id={`${id}-key`} label={t('source.dataKey')}>
            <Dropdown inputId={`${id}-key`} value={node.dataKey} options={[...new Set([node.dataKey, ...fields])]} onChange={(e) => set({ dataKey: e.value as string })} />
          </FieldShell>
          {!fromData && (
            <FieldShell id={`${id}-paged`} label={t('source.paged')} check>
              <Checkbox inputId={`${id}-paged`} checked={node.source.paged !== false} onChange={(e) => setSource({ paged: e.checked ? undefined : false })} />
            </FieldShell>
          )}
        </div>
      </fieldset>

      <ColumnsEditor id={`${id}-columns`} columns={node.columns} onChange={(columns) => set({ columns })} />
      <RowLinkFields id={`${id}-rowlink`} rowLink={node.rowLink} fields={fields} onChange={(rowLink) => set({ rowLink })} />
      <ActionsEditor id={`${id}-row-actions`} legend={t('actions.row')} actions={node.rowActions} pointer={`${pointer}/rowActions`} scope={{ kind: 'row', fields: [node.dataKey, ...fields] }} onChange={(rowActions) => set({ rowActions })} />
      <ActionsEditor id={`${id}-bulk-actions`} legend={t('actions.bulk')} actions={node.bulkActions} pointer={`${pointer}/bulkActions`} scope={{ kind: 'selected', fields: [node.dataKey, ...fields] }} onChange={(bulkActions) => set({ bulkActions })} />
      <ActionsEditor id={`${id}-toolbar-actions`} legend={t('actions.toolbar')} actions={node.actions} pointer={`${pointer}/actions`} scope={{ kind: 'params', fields: params }} onChange={(actions) => set({ actions })} />
    </div>
  )
}
