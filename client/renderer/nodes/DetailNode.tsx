import { useQuery } from '@tanstack/react-query'
import { isMasked } from '../../../schemas/personal-data'
import type { DetailNode } from '../../../schemas/screen'
import { useFailureText } from '../../api/errors'
import { useI18n, useMessages } from '../../i18n/i18n'
import { EmptyState, ErrorState, LoadingState } from '../../ui/states'
import { ActionBar } from '../actions/ActionButton'
import { RenderContext, useRenderContext } from '../context'
import { messages } from '../messages'
import { NodeList } from '../node-renderer'
import { CellValue } from '../table/CellValue'
import { dataPath, fill, getPath, lookup } from '../template'
import { MaskedValue, RevealSourceContext, useRevealSource, type RevealSource } from './MaskedValue'
import { useShownRecord } from '../../api/presence'
import type { RecordRef } from '../../../schemas/catalogue/records'
import { PresenceNote } from './PresenceNote'
import { detailQuery } from './detail-query'

/** A record's fields in labelled sections, its actions, and child nodes that see its data as `{data.X}`. */
export function DetailNodeView({ node }: { node: DetailNode }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const loadError = t('data.loadError')
  const ctx = useRenderContext()
  const fromData = node.source.fromData
  const { key, endpoint, params, options } = detailQuery(node, ctx)
  const query = useQuery({
    ...options,
    enabled: !!endpoint,
    // The screen's own area and message win; else the endpoint catalogue's for the call; the title and usual text are the last resort.
    meta: { errorArea: node.errorArea, errorMessage: node.errorMessage, fallbackArea: node.title ? l(node.title) : t('detail.title'), fallbackMessage: loadError },
  })
  const failure = useFailureText(query.error, node.errorMessage, loadError)
  const inherited = useRevealSource()
  // The record of a detail screen (its kind's read call): who else has it open is shown.
  const record = useShownRecord(endpoint, params)
  // A detail of the enclosing record's own data reveals through the record's request; one of a part of it cannot (its paths are the part's).
  if (fromData) return <DetailBody node={node} data={lookup(ctx, dataPath(fromData))} ownerId={key} source={dataPath(fromData) === 'data' ? inherited : undefined} />
  // An error wins over the record shown before it: a detail that failed to refresh says so.
  if (query.isError) return <ErrorState onRetry={() => void query.refetch()}>{failure}</ErrorState>
  if (query.isPending) return <LoadingState label={node.title ? undefined : t('detail.title')} lines={4} className="card" />
  const data = node.source.path ? getPath(query.data, node.source.path) : query.data
  // No record in the answer: said, never drawn as a form of blank fields.
  if (data == null) return <EmptyState icon="pi pi-file">{t('detail.empty')}</EmptyState>
  // Values of a record read by its own request can be revealed through it; a sub-path of the answer cannot (its field paths are not the answer's).
  const source = node.source.path ? undefined : { endpoint: endpoint.slice(1), params }
  return <DetailBody node={node} data={data} ownerId={key} source={source} record={record} />
}

function DetailBody({ node, data, ownerId, source, record }: { node: DetailNode; data: unknown; ownerId: string; source?: RevealSource; record?: RecordRef | null }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const ctx = useRenderContext()
  const key = ownerId
  const row = (data ?? {}) as Record<string, unknown>
  return (
    <RenderContext value={{ data }}>
      <section className="screen-detail card" aria-label={fill(node.title ? l(node.title) : t('detail.title'), { ...ctx, data })}>
        <div className="detail-header">
          {node.title && <h2 className="detail-title">{fill(l(node.title), { ...ctx, data })}</h2>}
          {node.actions && node.actions.length > 0 && <ActionBar actions={node.actions} ownerId={key} />}
        </div>
        {record && <PresenceNote record={record} />}
        {node.sections.map((section, i) => (
          <div key={i} className="detail-section">
            {section.title && <h3 className="detail-section__title">{l(section.title)}</h3>}
            <dl className="detail-grid">
              {section.fields.map((f) => (
                <div key={f.field} className="detail-grid__item">
                  <dt>{l(f.label)}</dt>
                  <dd>
                    {(() => {
                      const cell = <CellValue column={{ field: f.field, format: f.format, badges: f.badges, link: f.link, itemField: f.itemField, colorField: f.colorField, labelField: f.labelField }} row={row} />
                      // A value the BFF masked: shown masked, with «Mostrar» for whoever may reveal it.
                      return source && isMasked(getPath(row, f.field)) ? <MaskedValue masked={cell} field={f.field} source={source} /> : cell
                    })()}
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
      </section>
      {node.children && (
        <RevealSourceContext value={source}>
          <NodeList nodes={node.children} />
        </RevealSourceContext>
      )}
    </RenderContext>
  )
}
