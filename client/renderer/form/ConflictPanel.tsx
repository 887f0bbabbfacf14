import { Button } from 'primereact/button'
import { useEffect, useRef } from 'react'
import { useI18n, useMessages } from '../../i18n/i18n'
import type { TemplateContext } from '../template'
import { messages } from './messages'
import type { FieldConflict } from './record-edit'
import { ReviewValue } from './ReviewList'

/**
 * Someone saved the record while this user edited it (the save met a 412, or a live change event
 * told of it): what the other person changed, field by field, beside what this user has typed,
 * which stays in the form. One click re-applies this user's edits over the newer version (and,
 * after a refused save, saves); or they are discarded.
 */
export function ConflictPanel(props: {
  formId: string
  conflict: { fields: FieldConflict[]; live?: boolean }
  ctx: TemplateContext
  busy: boolean
  onReapply: () => void
  onDiscard: () => void
}) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const { formId, conflict, ctx, busy, onReapply, onDiscard } = props
  const titleId = `${formId}-conflict-title`
  // The save button is at the form's foot, the panel at its head: bring it into view.
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    ref.current?.scrollIntoView({ block: 'start', behavior: 'smooth' })
  }, [conflict])
  return (
    <section ref={ref} className="form-conflict" role="alert" aria-labelledby={titleId}>
      <h3 id={titleId} className="form-conflict__title">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {t(conflict.live ? 'conflict.live.title' : 'conflict.title')}
      </h3>
      <p className="form-conflict__text">{t(conflict.live ? 'conflict.live.text' : conflict.fields.length > 0 ? 'conflict.text' : 'conflict.textNoFields')}</p>
      {conflict.fields.length > 0 && (
        <table className="form-conflict__table">
          <thead>
            <tr>
              <th scope="col">{t('conflict.field')}</th>
              <th scope="col">{t('conflict.theirs')}</th>
              <th scope="col">{t('conflict.yours')}</th>
            </tr>
          </thead>
          <tbody>
            {conflict.fields.map((c) => (
              <tr key={c.field.name} className={c.touchedByYou ? 'is-both' : ''}>
                <th scope="row">{l(c.field.label)}</th>
                <td>
                  <ReviewValue field={c.field} value={c.theirs} ctx={ctx} />
                </td>
                <td>
                  <ReviewValue field={c.field} value={c.yours} ctx={ctx} />
                  {!c.touchedByYou && <span className="form-conflict__note"> {t('conflict.untouched')}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="form-conflict__actions">
        <Button type="button" label={t(conflict.live ? 'conflict.live.reapply' : 'conflict.reapply')} icon="pi pi-replay" loading={busy} onClick={onReapply} />
        <Button type="button" label={t(conflict.live ? 'conflict.live.discard' : 'conflict.discard')} icon="pi pi-undo" outlined severity="secondary" disabled={busy} onClick={onDiscard} />
      </div>
    </section>
  )
}
