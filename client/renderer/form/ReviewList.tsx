import { Button } from 'primereact/button'
import type { Field, FormNode } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { formatValue } from '../../ui/format'
import { useOptions } from '../options'
import type { TemplateContext } from '../template'
import { messages } from './messages'

/** The last step of a step-by-step form: every answer, by step, with a way back to change it. */
export function ReviewList({ steps, fields, values, ctx, onEdit }: { steps: NonNullable<FormNode['steps']>; fields: Field[]; values: Record<string, unknown>; ctx: TemplateContext; onEdit: (step: number) => void }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  return (
    <div className="review-list">
      {steps.map((step, i) => {
        const shown = fields.filter((f) => step.fields.includes(f.name) && !f.exclude)
        if (shown.length === 0) return null
        return (
          <section key={step.key} className="review-list__section" aria-labelledby={`review-${step.key}`}>
            <div className="review-list__header">
              <h3 id={`review-${step.key}`}>{l(step.title)}</h3>
              <Button type="button" link size="small" icon="pi pi-pencil" label={t('review.change')} aria-label={t('review.changeStep', { step: l(step.title) })} onClick={() => onEdit(i)} />
            </div>
            <dl className="detail-grid">
              {shown.map((f) => (
                <div key={f.name} className="detail-grid__item">
                  <dt>{l(f.label)}</dt>
                  <dd>
                    <ReviewValue field={f} value={values[f.name]} ctx={ctx} />
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        )
      })}
    </div>
  )
}

/** A field's value as text, as the review and the conflict panel show it. */
export function ReviewValue({ field, value, ctx }: { field: Field; value: unknown; ctx: TemplateContext }) {
  const { options } = useOptions(field.input === 'select' || field.input === 'multiselect' ? field.options : undefined, ctx)
  if (field.input === 'password') return <>{value ? '••••••••' : '—'}</>
  if (field.input === 'file') return <>{Array.isArray(value) && value.length ? (value as File[]).map((f) => f.name).join(', ') : '—'}</>
  if (field.input === 'checkbox') return <>{formatValue(value === true, 'boolean')}</>
  if (field.input === 'date') return <>{formatValue(value, 'date')}</>
  if (field.input === 'select') return <>{options.find((o) => o.value === value)?.label ?? formatValue(value, 'text')}</>
  if (field.input === 'multiselect') {
    const list = Array.isArray(value) ? value : []
    return <>{list.length ? list.map((v) => options.find((o) => o.value === v)?.label ?? String(v)).join(', ') : '—'}</>
  }
  if (field.input === 'number') return <>{formatValue(value, 'number')}</>
  return <>{formatValue(value, 'text')}</>
}
