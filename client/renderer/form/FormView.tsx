import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Message } from 'primereact/message'
import { ProgressSpinner } from 'primereact/progressspinner'
import { useMemo, useRef, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import type { AfterSpec, Field, FormNode } from '../../../schemas/screen'
import { api, send } from '../../api/client'
import { reportError } from '../../api/errors'
import { useI18n } from '../../i18n/i18n'
import { applyAfter, nodeKey, resolveCall } from '../actions/run-action'
import { useRenderContext } from '../context'
import { evalCondition, fill, getPath, resolveParams, resolveValue, type TemplateContext } from '../template'
import { FieldInput } from './FieldInput'
import { useServerValidator } from './use-server-validator'
import { toBody, validateField } from './validation'

interface FormViewProps {
  form: FormNode
  inDialog?: boolean
  ownerId?: string
  onDone?: () => void
  onReveal?: (value: string, spec: NonNullable<AfterSpec['reveal']>) => void
  fallbackArea?: string
}

function initialValues(fields: Field[], ctx: TemplateContext, loaded: unknown): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const f of fields) {
    const fromLoad = loaded !== undefined ? getPath(loaded, f.name) : undefined
    if (fromLoad !== undefined && fromLoad !== null) values[f.name] = fromLoad
    else if (f.defaultValue !== undefined) values[f.name] = resolveValue(f.defaultValue, ctx)
    else values[f.name] = f.type === 'checkbox' ? false : f.type === 'multiselect' ? [] : null
  }
  return values
}

/** A form: initial values (optionally from an endpoint), rules, server validators, submit, what happens after. */
export function FormView(props: FormViewProps) {
  const ctx = useRenderContext()
  const { form } = props
  const endpoint = form.initial ? `/${fill(form.initial.endpoint, ctx, true)}` : ''
  const params = form.initial ? resolveParams(form.initial.params, ctx) : {}
  const initial = useQuery({
    queryKey: ['form-initial', form.id, endpoint, params],
    queryFn: () => api.get<unknown>(endpoint, { params }),
    enabled: !!form.initial,
    staleTime: 0,
    gcTime: 0,
    meta: { errorArea: form.errorArea ?? props.fallbackArea ?? 'Formulario', errorMessage: 'No se han podido obtener los datos.' },
  })
  if (form.initial && initial.isPending) {
    return (
      <div className="form-loading" role="status" aria-label="Cargando">
        <ProgressSpinner style={{ width: 32, height: 32 }} strokeWidth="4" />
      </div>
    )
  }
  if (form.initial && initial.isError) return <Message severity="error" text="No se han podido obtener los datos." />
  const loaded = form.initial?.path ? getPath(initial.data, form.initial.path) : initial.data
  return <FormBody {...props} ctx={ctx} loaded={loaded} />
}

function FormBody({ form, inDialog, ownerId, onDone, onReveal, fallbackArea, ctx, loaded }: FormViewProps & { ctx: TemplateContext; loaded: unknown }) {
  const { l } = useI18n()
  const client = useQueryClient()
  const navigate = useNavigate()
  const [values, setValues] = useState(() => initialValues(form.fields, ctx, loaded))
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const area = form.errorArea ?? fallbackArea ?? l(form.title ?? 'Formulario')
  const fieldCtx = { ...ctx, values }
  const visible = form.fields.filter((f) => evalCondition(f.visibleWhen, fieldCtx))
  const errors = useMemo(() => {
    const out: Record<string, string> = {}
    for (const f of visible) {
      const e = validateField(f, values[f.name], values)
      if (e) out[f.name] = e
    }
    return out
  }, [visible, values])

  const setValue = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }))

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    e.stopPropagation()
    setSubmitted(true)
    const blocking = { ...errors, ...serverErrors }
    const first = visible.find((f) => blocking[f.name])
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${form.id}-${first.name}`)}`)?.focus()
      return
    }
    setBusy(true)
    const visibleNames = new Set(visible.map((f) => f.name))
    const body = toBody(form.fields, Object.fromEntries(Object.entries(values).filter(([k]) => visibleNames.has(k))))
    const callCtx = { ...ctx, values: body }
    try {
      const req = resolveCall(form.submit, callCtx)
      const res = await send(req.method, req.endpoint, { params: req.params, body: req.body })
      const text = await res.text()
      let result: unknown = text
      try {
        result = text ? JSON.parse(text) : undefined
      } catch {
        // text answer
      }
      await applyAfter(form.after, undefined, area, { ...callCtx, result }, { client, navigate, ownerId, closeDialog: onDone, reveal: onReveal })
      if (form.after?.reset) {
        setValues(initialValues(form.fields, ctx, undefined))
        setSubmitted(false)
        setTouched({})
      }
      if (!inDialog) await client.invalidateQueries({ queryKey: nodeKey(form.id) })
    } catch (err) {
      // Nothing typed is lost: the values stay as they are.
      reportError(area, err, form.errorMessage)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form ref={formRef} className={`screen-form ${form.columns === 2 ? 'screen-form--two' : ''} ${inDialog ? '' : 'card'}`} onSubmit={(e) => void submit(e)} noValidate aria-label={l(form.title ?? area)}>
      {!inDialog && form.title && <h2 className="screen-form__title">{l(form.title)}</h2>}
      <div className="screen-form__fields">
        {visible.map((f) => (
          <FieldRow
            key={f.name}
            formId={form.id}
            field={f}
            value={values[f.name]}
            error={(touched[f.name] || submitted) && errors[f.name] ? errors[f.name] : undefined}
            ctx={fieldCtx}
            onChange={(v) => setValue(f.name, v)}
            onBlur={() => setTouched((t) => ({ ...t, [f.name]: true }))}
            onServerResult={(msg) =>
              setServerErrors((s) => {
                const next = { ...s }
                if (msg) next[f.name] = msg
                else delete next[f.name]
                return next
              })
            }
          />
        ))}
      </div>
      <div className="dialog-actions">
        {inDialog && <Button type="button" label="Cancelar" text onClick={onDone} />}
        <Button type="submit" label={l(form.submitLabel ?? 'Guardar')} icon={form.submitIcon ?? 'pi pi-check'} loading={busy} />
      </div>
    </form>
  )
}

function FieldRow(props: {
  formId: string
  field: Field
  value: unknown
  error: string | undefined
  ctx: TemplateContext
  onChange: (v: unknown) => void
  onBlur: () => void
  onServerResult: (message: string | null) => void
}) {
  const { l } = useI18n()
  const { formId, field, value, error, ctx, onChange, onBlur, onServerResult } = props
  const id = `${formId}-${field.name}`
  const check = useServerValidator(field.validator, value)
  const lastReported = useRef<string | null>(null)
  const serverMessage = check.state === 'invalid' ? check.message! : null
  if (lastReported.current !== serverMessage) {
    lastReported.current = serverMessage
    queueMicrotask(() => onServerResult(serverMessage))
  }
  const message = error ?? serverMessage ?? undefined
  const describedBy = [message ? `${id}-error` : null, field.help ? `${id}-help` : null, check.state === 'checking' || check.state === 'valid' || check.state === 'unavailable' ? `${id}-check` : null].filter(Boolean).join(' ') || undefined
  const label = (
    <label htmlFor={id} className="screen-form__label">
      {l(field.label)}
      {field.required && <span className="required-mark" aria-hidden="true"> *</span>}
    </label>
  )
  return (
    <div className={`screen-form__field ${field.wide ? 'screen-form__field--wide' : ''} ${field.type === 'checkbox' ? 'screen-form__field--check' : ''}`}>
      {field.type !== 'checkbox' && label}
      <FieldInput field={field} id={id} value={value} invalid={!!message} describedBy={describedBy} ctx={ctx} onChange={onChange} onBlur={onBlur} />
      {field.type === 'checkbox' && label}
      {check.state === 'checking' && (
        <small id={`${id}-check`} className="field-check field-check--busy">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Comprobando…
        </small>
      )}
      {check.state === 'valid' && (
        <small id={`${id}-check`} className="field-check field-check--ok">
          <i className="pi pi-check-circle" aria-hidden="true" /> Correcto
        </small>
      )}
      {check.state === 'unavailable' && (
        <small id={`${id}-check`} className="field-check">
          {check.message}
        </small>
      )}
      {message && (
        <small id={`${id}-error`} className="p-error field-error" role="alert">
          {message}
        </small>
      )}
      {field.help && (
        <small id={`${id}-help`} className="field-help">
          {l(field.help)}
        </small>
      )}
    </div>
  )
}
