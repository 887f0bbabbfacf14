import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { useEffect, useRef, type FormEvent } from 'react'
import type { AfterSpec, Field, FormNode } from '../../../schemas/screen'
import type { CallerText } from '../../api/errors'
import { useI18n, useMessages } from '../../i18n/i18n'
import { formatDateTime } from '../../ui/format'
import { LoadingSpinner } from '../../ui/loading'
import { RenderContext } from '../context'
import { NodeList } from '../node-renderer'
import { FieldRow } from './FieldRow'
import { messages } from './messages'
import { ConflictPanel } from './ConflictPanel'
import { ReviewList } from './ReviewList'
import type { SavedDraft } from './use-draft'
import { useFormController, useFormSource } from './use-form-controller'

interface FormViewProps {
  form: FormNode
  inDialog?: boolean
  ownerId?: string
  onDone?: () => void
  onReveal?: (value: string, spec: NonNullable<AfterSpec['reveal']>) => void
  /** Toast title and message the action that opened the form gives explicitly, when the form names none. */
  fallbackArea?: CallerText
  fallbackMessage?: CallerText
  /** The opening action's label: its toasts' title only where no area is given and the endpoint catalogue names none. */
  lastArea?: string
}

/** A form: a spinner while what it starts from loads, the load's failure, or the form itself. */
export function FormView(props: FormViewProps) {
  const tf = useMessages(messages)
  const source = useFormSource(props.form, { fallbackArea: props.fallbackArea, lastArea: props.lastArea })
  if (source.status === 'loading') return <LoadingSpinner className="form-loading" size={32} label={tf('form.loading')} />
  if (source.status === 'failed') return <Message severity="error" text={source.failure} />
  return <FormBody {...props} loaded={source.loaded} version={source.version ?? null} area={source.area} lastArea={source.lastArea} draft={source.draft} />
}

/** The form's markup over its controller: fields or the review, steps, the draft notice, the buttons. */
function FormBody({
  form,
  inDialog,
  ownerId,
  onDone,
  onReveal,
  fallbackMessage,
  loaded,
  version,
  area,
  draft,
  lastArea,
}: Omit<FormViewProps, 'lastArea'> & { loaded: unknown; version: string | null; area: CallerText | undefined; lastArea: string; draft: SavedDraft | null }) {
  const { l, t } = useI18n()
  const tf = useMessages(messages)
  const formRef = useRef<HTMLFormElement>(null)
  const c = useFormController(form, {
    loaded,
    version,
    draft,
    area,
    lastArea,
    inDialog,
    ownerId,
    onDone,
    onReveal,
    fallbackMessage,
    focusField: (f) => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${form.id}-${f.name}`)}`)?.focus(),
    focusStep: () => formRef.current?.querySelector<HTMLElement>('.form-step__title')?.focus(),
  })
  const { values, fieldCtx, visible, stepFields, steps, stepIndex, totalSteps, onReview, step, goTo, busy } = c

  // A form in a dialog starts on its first field once it is drawn (PrimeReact would leave the
  // focus on the close button), unless the person already moved into the form. Marked too, for
  // the dialog's focus trap when it mounts with the form (its own focus comes after this one).
  useEffect(() => {
    const root = formRef.current
    if (!inDialog || !root || root.contains(document.activeElement)) return
    const first = firstControl(root)
    first?.setAttribute('data-pc-autofocus', 'true')
    first?.focus()
  }, [inDialog])
  const restored = c.restoredDraft

  const submit = (e: FormEvent) => {
    e.preventDefault()
    e.stopPropagation()
    void c.submit()
  }

  const renderField = (f: Field) => (
    <FieldRow
      key={f.name}
      formId={form.id}
      field={f}
      value={values[f.name]}
      error={c.errorOf(f)}
      ctx={fieldCtx}
      area={area}
      lastArea={lastArea}
      onChange={(v) => c.setValue(f.name, v)}
      onBlur={() => c.touch(f.name)}
      onServerResult={(msg) => c.setServerError(f.name, msg)}
      onFill={c.fillValues}
    />
  )

  return (
    <form
      ref={formRef}
      className={`screen-form ${form.columns === 2 ? 'screen-form--two' : ''} ${inDialog ? '' : 'card'} ${steps ? 'screen-form--steps' : ''}`}
      onSubmit={submit}
      noValidate
      // An area is Spanish only (a plain string of the screen): in English the form is named by its last-resort title.
      aria-label={form.title ? l(form.title) : area ? l(area) : lastArea}
    >
      {!inDialog && form.title && <h2 className="screen-form__title">{l(form.title)}</h2>}
      {restored && (
        <Message
          severity="info"
          className="draft-notice"
          content={
            <span className="draft-notice__content">
              <span>{t('form.draft.restored', { date: formatDateTime(new Date(restored.savedAt).toISOString()) })}</span>
              <Button
                type="button"
                link
                size="small"
                label={t('form.draft.discard')}
                onClick={c.discardDraft}
              />
            </span>
          }
        />
      )}
      {c.uncopied.length > 0 && (
        <Message severity="warn" className="form-uncopied" text={tf('copy.protected', { fields: c.uncopied.map((f) => l(f.label)).join(', ') })} />
      )}
      {c.conflict && <ConflictPanel formId={form.id} conflict={c.conflict} ctx={fieldCtx} busy={busy} onReapply={() => void c.reapply()} onDiscard={c.discardMine} />}
      {steps && (
        <ol className="form-steps" aria-label={tf('steps.label')}>
          {[...steps.map((s) => l(s.title)), ...(form.review ? [l(form.review.title)] : [])].map((title, i) => (
            <li key={title} className={`form-steps__item ${i === stepIndex ? 'is-current' : ''} ${i < stepIndex ? 'is-done' : ''}`}>
              <button type="button" className="form-steps__button" aria-current={i === stepIndex ? 'step' : undefined} disabled={i > stepIndex} onClick={() => goTo(i)}>
                <span className="form-steps__number" aria-hidden="true">
                  {i < stepIndex ? <i className="pi pi-check" /> : i + 1}
                </span>
                <span className="form-steps__title">{title}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {step && (
        <header className="form-step">
          <h2 className="form-step__title" tabIndex={-1}>
            {tf('steps.heading', { n: stepIndex + 1, total: totalSteps, title: l(step.title) })}
          </h2>
          {step.description && <p className="form-step__description">{l(step.description)}</p>}
        </header>
      )}
      {onReview && (
        <header className="form-step">
          <h2 className="form-step__title" tabIndex={-1}>
            {tf('steps.heading', { n: stepIndex + 1, total: totalSteps, title: l(form.review!.title) })}
          </h2>
          {form.review!.description && <p className="form-step__description">{l(form.review!.description)}</p>}
        </header>
      )}
      {onReview ? (
        <ReviewList steps={steps!} fields={visible} values={values} ctx={fieldCtx} onEdit={c.editStep} />
      ) : (
        <div className="screen-form__fields">{stepFields.map(renderField)}</div>
      )}
      {step?.nodes && (
        <RenderContext value={{ values }}>
          <div className="form-step__nodes">
            <NodeList nodes={step.nodes} />
          </div>
        </RenderContext>
      )}
      <div className="dialog-actions">
        {inDialog && <Button type="button" label={tf('button.cancel')} text onClick={onDone} />}
        {steps && stepIndex > 0 && <Button type="button" label={tf('button.previous')} icon="pi pi-arrow-left" outlined onClick={() => goTo(stepIndex - 1)} />}
        {steps && stepIndex < totalSteps - 1 ? (
          <Button type="submit" label={tf('button.next')} icon="pi pi-arrow-right" iconPos="right" />
        ) : (
          <Button type="submit" label={form.submitLabel ? l(form.submitLabel) : tf('button.save')} icon={form.submitIcon ?? 'pi pi-check'} loading={busy} />
        )}
      </div>
    </form>
  )
}

/** The first control a person can type into or choose with: read-only text (shown, not edited) is passed over. */
function firstControl(root: HTMLElement): HTMLElement | undefined {
  return [...root.querySelectorAll<HTMLElement>('input, textarea, select, [role="combobox"]')].find(
    (el) => el.tabIndex >= 0 && !el.matches(':disabled') && !(el.matches('[readonly]') && el.getAttribute('role') !== 'combobox') && (el as HTMLInputElement).type !== 'hidden',
  )
}
