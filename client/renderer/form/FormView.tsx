import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import type { AfterSpec, Field, FormNode } from '../../../schemas/screen'
import { api, send } from '../../api/client'
import { reportError, useFailureText, type CallerText } from '../../api/errors'
import { nodeKey } from '../../api/query-keys'
import { showToast } from '../../api/toast'
import { useI18n, useMessages } from '../../i18n/i18n'
import { formatDateTime } from '../../ui/format'
import { LoadingSpinner } from '../../ui/loading'
import { applyAfter, resolveCall } from '../actions/run-action'
import { RenderContext, useRenderContext } from '../context'
import { messages as rendererMessages } from '../messages'
import { NodeList } from '../node-renderer'
import { useScreenTitle } from '../screen-title'
import { evalCondition, fill, getPath, resolveParams, resolveValue, type TemplateContext } from '../template'
import { FieldRow } from './FieldRow'
import { messages } from './messages'
import { ReviewList } from './ReviewList'
import { draftValues, loadDraft, useDraftSaver, type SavedDraft } from './use-draft'
import { toBody, toFormData, validateField } from './validation'

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

function emptyValue(f: Field): unknown {
  return f.input === 'checkbox' ? false : f.input === 'multiselect' || f.input === 'file' ? [] : null
}

function initialValues(fields: Field[], ctx: TemplateContext, loaded: unknown, map: Record<string, string> | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const f of fields) {
    const fromLoad = loaded !== undefined && loaded !== null ? getPath(loaded, map?.[f.name] ?? f.name) : undefined
    if (fromLoad !== undefined && fromLoad !== null) values[f.name] = fromLoad
    else if (f.defaultValue !== undefined) values[f.name] = resolveValue(f.defaultValue, ctx)
    else values[f.name] = emptyValue(f)
  }
  return values
}

/** A form: initial values (optionally from an endpoint), rules, server validators, steps, a draft, submit, what happens after. */
export function FormView(props: FormViewProps) {
  const ctx = useRenderContext()
  const { t } = useI18n()
  const tf = useMessages(messages)
  const loadError = useMessages(rendererMessages)('data.loadError')
  const { form } = props
  const wanted = !!form.initial && evalCondition(form.initial.when, ctx)
  const endpoint = form.initial ? `/${fill(form.initial.endpoint, ctx, true)}` : ''
  const params = form.initial ? resolveParams(form.initial.params, ctx) : {}
  // The explicit area (the opening action's, else the form's) wins over the endpoint catalogue's; a title is the last resort.
  const area = props.fallbackArea ?? form.errorArea
  const title = useScreenTitle(form.title)
  const lastArea = props.lastArea ?? (title || tf('form.name'))
  const initial = useQuery({
    queryKey: ['form-initial', form.id, endpoint, params],
    queryFn: () => api.get<unknown>(endpoint, { params }),
    enabled: wanted,
    staleTime: 0,
    gcTime: 0,
    meta: { errorArea: form.initial?.errorArea ?? area, errorMessage: form.initial?.errorMessage, fallbackArea: lastArea, fallbackMessage: loadError },
  })
  const initialFailure = useFailureText(initial.error, form.initial?.errorMessage, loadError)
  // A draft is restored unless the form was loaded from elsewhere (a duplicated contract).
  const draftKey = form.draft && !wanted ? form.draft.key : null
  const draft = useQuery({
    queryKey: ['form-draft', draftKey],
    queryFn: () => loadDraft(draftKey!),
    enabled: draftKey !== null,
    staleTime: 0,
    gcTime: 0,
    meta: { errorArea: t('form.draft.area'), errorMessage: t('form.draft.loadFailed') },
  })
  if ((wanted && initial.isPending) || (draftKey !== null && draft.isPending)) {
    return <LoadingSpinner className="form-loading" size={32} label={tf('form.loading')} />
  }
  if (wanted && initial.isError) return <Message severity="error" text={initialFailure} />
  const loaded = wanted ? (form.initial?.path ? getPath(initial.data, form.initial.path) : initial.data) : undefined
  // A draft that could not be read leaves the form empty (the error was shown), never stuck.
  return <FormBody {...props} ctx={ctx} loaded={loaded} area={area} lastArea={lastArea} draft={draft.data ?? null} />
}

function FormBody({
  form,
  inDialog,
  ownerId,
  onDone,
  onReveal,
  fallbackMessage,
  ctx,
  loaded,
  area,
  draft,
  lastArea,
}: FormViewProps & { ctx: TemplateContext & { screenId?: string }; loaded: unknown; area: CallerText | undefined; lastArea: string; draft: SavedDraft | null }) {
  const { l, t } = useI18n()
  const tf = useMessages(messages)
  const client = useQueryClient()
  const navigate = useNavigate()
  const [restored] = useState<SavedDraft | null>(draft)
  const [values, setValues] = useState<Record<string, unknown>>(() => ({
    ...initialValues(form.fields, ctx, loaded, form.initial?.map),
    ...(restored ? draftValues(form.fields, restored.values) : {}),
  }))
  const [dirty, setDirty] = useState(false)
  const [draftNotice, setDraftNotice] = useState(restored !== null)
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const [stepIndex, setStepIndex] = useState(0)
  const [stepTried, setStepTried] = useState<Record<number, boolean>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const warnDraft = (detail: string) => showToast({ severity: 'warn', summary: t('form.draft.area'), detail })
  const drafts = useDraftSaver(form.draft?.key ?? null, () => warnDraft(t('form.draft.saveFailed')))
  // Only what the user changed is saved; opening a form (or restoring a draft) writes nothing.
  useEffect(() => {
    if (drafts && dirty) drafts.change(draftValues(form.fields, values))
  }, [drafts, dirty, values, form.fields])

  const fieldCtx = { ...ctx, values }
  const visible = form.fields.filter((f) => evalCondition(f.visibleWhen, fieldCtx))
  const byName = new Map(form.fields.map((f) => [f.name, f]))
  const steps = form.steps ?? null
  const totalSteps = steps ? steps.length + (form.review ? 1 : 0) : 1
  const onReview = !!steps && !!form.review && stepIndex === steps.length
  const stepFields = steps && !onReview ? visible.filter((f) => steps[stepIndex]!.fields.includes(f.name)) : steps ? [] : visible

  const errors = useMemo(() => {
    const out: Record<string, string> = {}
    for (const f of visible) {
      const e = validateField(f, values[f.name], values)
      if (e) out[f.name] = e
    }
    return out
  }, [visible, values])

  const setValue = (name: string, value: unknown) => {
    setDirty(true)
    setValues((v) => ({ ...v, [name]: value }))
  }
  const blocking = (fields: Field[]) => fields.find((f) => errors[f.name] || serverErrors[f.name])
  const focusField = (f: Field) => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${form.id}-${f.name}`)}`)?.focus()

  const goTo = (index: number) => {
    if (index > stepIndex) {
      // Moving on needs the current step right; going back never does.
      setStepTried((t) => ({ ...t, [stepIndex]: true }))
      const wrong = blocking(stepFields)
      if (wrong) return focusField(wrong)
    }
    setStepIndex(index)
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('.form-step__title')?.focus())
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    e.stopPropagation()
    if (steps && !onReview && stepIndex < totalSteps - 1) return goTo(stepIndex + 1)
    setSubmitted(true)
    const wrong = blocking(visible)
    if (wrong) {
      if (steps) {
        const at = steps.findIndex((s) => s.fields.includes(wrong.name))
        if (at >= 0) setStepIndex(at)
        setStepTried((t) => ({ ...t, [at]: true }))
      }
      requestAnimationFrame(() => focusField(wrong))
      return
    }
    setBusy(true)
    // Should the submit fail, what was typed is already stored (a reload finds it).
    void drafts?.flush()
    const visibleNames = new Set(visible.map((f) => f.name))
    const shown = Object.fromEntries(Object.entries(values).filter(([k]) => visibleNames.has(k)))
    const body = toBody(form.fields, shown)
    const callCtx = { ...ctx, values: body }
    try {
      const req = resolveCall(form.submit, callCtx)
      // Multipart: the values (files included) plus any fixed fields the submit names in its body.
      const payload =
        form.encoding === 'multipart'
          ? toFormData(form.fields, { ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) && form.submit.body !== 'values' ? (req.body as Record<string, unknown>) : {}), ...shown })
          : req.body
      const res = await send(req.method, req.endpoint, { params: req.params, body: payload })
      const text = await res.text()
      let result: unknown = text
      try {
        result = text ? JSON.parse(text) : undefined
      } catch {
        // text answer
      }
      // Not awaited: the delete waits behind any save in flight, even after the form is gone.
      void drafts?.clear()
      await applyAfter(form.after, undefined, { area, method: req.method, path: req.endpoint, lastResort: lastArea }, { ...callCtx, result }, { client, navigate, ownerId, closeDialog: onDone, reveal: onReveal })
      if (form.after?.reset) {
        setValues(initialValues(form.fields, ctx, undefined, undefined))
        setDirty(false)
        setSubmitted(false)
        setTouched({})
        setStepIndex(0)
      }
      if (!inDialog) await client.invalidateQueries({ queryKey: nodeKey(form.id) })
    } catch (err) {
      // Nothing typed is lost: the values stay on screen and in the draft.
      reportError(area, err, form.errorMessage ?? fallbackMessage, { area: lastArea })
    } finally {
      setBusy(false)
    }
  }

  const showError = (f: Field) => (touched[f.name] || submitted || stepTried[stepIndex]) && errors[f.name] ? errors[f.name] : undefined
  const renderField = (f: Field) => (
    <FieldRow
      key={f.name}
      formId={form.id}
      field={f}
      value={values[f.name]}
      error={showError(f)}
      ctx={fieldCtx}
      area={area}
      lastArea={lastArea}
      onChange={(v) => setValue(f.name, v)}
      onBlur={() => setTouched((t) => ({ ...t, [f.name]: true }))}
      onServerResult={(msg) =>
        setServerErrors((s) => {
          if ((s[f.name] ?? null) === msg) return s
          const next = { ...s }
          if (msg) next[f.name] = msg
          else delete next[f.name]
          return next
        })
      }
      onFill={(filled) => {
        setDirty(true)
        setValues((v) => ({ ...v, ...Object.fromEntries(Object.entries(filled).filter(([k]) => byName.has(k))) }))
      }}
    />
  )

  const step = steps && !onReview ? steps[stepIndex] : null
  return (
    <form
      ref={formRef}
      className={`screen-form ${form.columns === 2 ? 'screen-form--two' : ''} ${inDialog ? '' : 'card'} ${steps ? 'screen-form--steps' : ''}`}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={form.title ? l(form.title) : area ? l(area) : lastArea}
    >
      {!inDialog && form.title && <h2 className="screen-form__title">{l(form.title)}</h2>}
      {draftNotice && restored && (
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
                onClick={() => {
                  void drafts?.clear().then((deleted) => deleted || warnDraft(t('form.draft.discardFailed')))
                  setValues(initialValues(form.fields, ctx, loaded, form.initial?.map))
                  setDraftNotice(false)
                  setDirty(false)
                  setStepIndex(0)
                }}
              />
            </span>
          }
        />
      )}
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
        <ReviewList steps={steps!} fields={visible} values={values} ctx={fieldCtx} onEdit={(i) => setStepIndex(i)} />
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
