import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import type { AfterSpec, Field, FormNode } from '../../../schemas/screen'
import { api, ApiError, send, type QueryParams } from '../../api/client'
import { isHeld, reportError, useFailureText, type CallerText } from '../../api/errors'
import { onRecordChange } from '../../api/live-events'
import { useShownRecord } from '../../api/presence'
import { nodeKey } from '../../api/query-keys'
import { showToast } from '../../api/toast'
import { useI18n, useMessages } from '../../i18n/i18n'
import { applyAfter, resolveCall } from '../actions/run-action'
import { useRenderContext } from '../context'
import { messages as rendererMessages } from '../messages'
import { useScreenTitle } from '../screen-title'
import { isMasked } from '../../../schemas/personal-data'
import { evalCondition, fill, getPath, resolveParams, resolveValue, type TemplateContext } from '../template'
import { messages } from './messages'
import { draftValues, loadDraft, useDraftSaver, type SavedDraft } from './use-draft'
import { conflictsOf, reapplied, recordWithValues, sameValue, type FieldConflict, type RecordVersion } from './record-edit'
import { toBody, toFormData, validateField } from './validation'

function emptyValue(f: Field): unknown {
  return f.input === 'checkbox' ? false : f.input === 'multiselect' || f.input === 'file' ? [] : null
}

/** A field's value in the loaded record (through the form's map), if any. */
function loadedValue(f: Field, loaded: unknown, map: Record<string, string> | undefined): unknown {
  return loaded !== undefined && loaded !== null ? getPath(loaded, map?.[f.name] ?? f.name) : undefined
}

/**
 * The fields whose loaded value arrived masked (personal data the BFF masks) in a form that
 * copies its record into a new one: a mask cannot be copied, so they start empty.
 */
export function uncopiedFields(form: FormNode, loaded: unknown): Field[] {
  if (!form.initial?.copy) return []
  return form.fields.filter((f) => isMasked(loadedValue(f, loaded, form.initial?.map)))
}

function initialValues(fields: Field[], ctx: TemplateContext, loaded: unknown, map: Record<string, string> | undefined, copy = false): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const f of fields) {
    const fromLoad = loadedValue(f, loaded, map)
    if (fromLoad !== undefined && fromLoad !== null && !(copy && isMasked(fromLoad))) values[f.name] = fromLoad
    else if (f.defaultValue !== undefined) values[f.name] = resolveValue(f.defaultValue, ctx)
    else values[f.name] = emptyValue(f)
  }
  return values
}

export interface FormSourceOptions {
  /** Toast title the action that opened the form gives explicitly, when the form names none. */
  fallbackArea?: CallerText
  /** The opening action's label: its toasts' title only where no area is given and the endpoint catalogue names none. */
  lastArea?: string
}

/** What a form starts from: still loading, failed to load (with the text to show), or ready. */
export type FormSource = { area: CallerText | undefined; lastArea: string } & (
  | { status: 'loading' }
  | { status: 'failed'; failure: string | null } // null while the catalogue's wording loads
  | { status: 'ready'; loaded: unknown; draft: SavedDraft | null; version?: string }
)

/** A record with its version (the ETag of its answer), for versioned forms. */
export async function loadVersioned(endpoint: string, params: QueryParams): Promise<{ body: unknown; version: string | null }> {
  const res = await send('GET', endpoint, { params })
  const text = await res.text()
  return { body: text ? (JSON.parse(text) as unknown) : undefined, version: res.headers.get('etag') }
}

/** Loads what a form starts from: its initial values (when it names an endpoint) and the user's draft. */
export function useFormSource(form: FormNode, opts: FormSourceOptions = {}): FormSource {
  const ctx = useRenderContext()
  const { t } = useI18n()
  const tf = useMessages(messages)
  const loadError = useMessages(rendererMessages)('data.loadError')
  const wanted = !!form.initial && evalCondition(form.initial.when, ctx)
  const endpoint = form.initial ? `/${fill(form.initial.endpoint, ctx, true)}` : ''
  const params = form.initial ? resolveParams(form.initial.params, ctx) : {}
  // The explicit area (the opening action's, else the form's) wins over the endpoint catalogue's; a title is the last resort.
  const area = opts.fallbackArea ?? form.errorArea
  const title = useScreenTitle(form.title)
  const lastArea = opts.lastArea ?? (title || tf('form.name'))
  const initial = useQuery({
    queryKey: ['form-initial', form.id, endpoint, params],
    queryFn: () => (form.initial?.versioned ? loadVersioned(endpoint, params) : api.get<unknown>(endpoint, { params }).then((body) => ({ body, version: null }))),
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
  if ((wanted && initial.isPending) || (draftKey !== null && draft.isPending)) return { status: 'loading', area, lastArea }
  if (wanted && initial.isError) return { status: 'failed', failure: initialFailure, area, lastArea }
  const loaded = wanted ? (form.initial?.path ? getPath(initial.data?.body, form.initial.path) : initial.data?.body) : undefined
  // A draft that could not be read leaves the form empty (the error was shown), never stuck.
  const version = initial.data?.version
  return { status: 'ready', loaded, draft: draft.data ?? null, area, lastArea, ...(version ? { version } : {}) }
}

export interface FormControllerOptions {
  /** What the form starts from (`useFormSource` once ready); read on the first render only. */
  loaded: unknown
  draft: SavedDraft | null
  /** The ETag the record was loaded with (versioned forms). */
  version?: string | null
  area: CallerText | undefined
  lastArea: string
  /** In a dialog the opener refreshes what it owns; a page form refreshes its own node. */
  inDialog?: boolean
  ownerId?: string
  onDone?: () => void
  onReveal?: (value: string, spec: NonNullable<AfterSpec['reveal']>) => void
  /** Toast message the action that opened the form gives explicitly, when the form names none. */
  fallbackMessage?: CallerText
  /** The view moves the focus: to a field that blocks going on, and to the heading of a step just shown. */
  focusField?: (field: Field) => void
  focusStep?: () => void
}

/** Everything a form view draws and every change it can ask for; no markup, no UI kit. */
export interface FormController {
  values: Record<string, unknown>
  /** The render context with the form's values, for conditions, templates and dependent options. */
  fieldCtx: TemplateContext
  /** The fields shown (their `visibleWhen` holds), all steps together. */
  visible: Field[]
  /** The fields of the current step (all visible ones without steps; none on the review). */
  stepFields: Field[]
  /** Rule errors of the visible fields, shown or not yet. */
  errors: Record<string, string>
  /** The error to show on a field: once it was left, the form submitted or its step tried. */
  errorOf(field: Field): string | undefined
  setValue(name: string, value: unknown): void
  /** A lookup found a record: sets these of the form's fields. */
  fillValues(filled: Record<string, unknown>): void
  /** The user left the field. */
  touch(name: string): void
  /** The server validator's verdict on a field: a message blocks the submit, null clears it. */
  setServerError(name: string, message: string | null): void
  steps: FormNode['steps'] | null
  stepIndex: number
  totalSteps: number
  /** On the last, review step. */
  onReview: boolean
  /** The current step, unless on the review or without steps. */
  step: NonNullable<FormNode['steps']>[number] | null
  /** Goes to a step: forward only when the current one is right (else its first wrong field gets the focus). */
  goTo(index: number): void
  /** From the review, back to a step to change it. */
  editStep(index: number): void
  /** Next step, or validate and send; on failure the values stay (on screen and in the draft). */
  submit(): Promise<void>
  busy: boolean
  submitted: boolean
  /** The user changed something since the form opened (or was reset). */
  dirty: boolean
  /** The draft the form was restored from, while its notice is shown. */
  restoredDraft: SavedDraft | null
  /** Masked values of the record a copying form started from, left for the user to type. */
  uncopied: Field[]
  /** Deletes the draft and goes back to the starting values. */
  discardDraft(): void
  /**
   * Someone else saved the record: the newer version and, field by field, theirs and yours. After
   * a save refused as stale (412), or `live`: told by a change event while the user edits.
   */
  conflict: { record: unknown; version: string | null; fields: FieldConflict[]; live?: boolean } | null
  /** Re-applies the user's edits over the newer version: and saves, after a refused save; only in the form, when told live. */
  reapply(): Promise<void>
  /** Drops the user's edits: the form shows the newer version. */
  discardMine(): void
}

/**
 * The headless logic of a form: values, rules, server validators' verdicts, steps, the draft,
 * submit and what happens after. Field-level work (validator calls, lookups, options) is each
 * field's own (`useFieldController`); it reports back through `setServerError` and `fillValues`.
 */
export function useFormController(form: FormNode, opts: FormControllerOptions): FormController {
  const { loaded, draft, version, area, lastArea, inDialog, ownerId, onDone, onReveal, fallbackMessage, focusField, focusStep } = opts
  const ctx = useRenderContext()
  const { t } = useI18n()
  const client = useQueryClient()
  const navigate = useNavigate()
  const [restored] = useState<SavedDraft | null>(draft)
  const copy = form.initial?.copy === true
  const [uncopied] = useState(() => uncopiedFields(form, loaded))
  const [current, setValues] = useState<Record<string, unknown>>(() => ({
    ...initialValues(form.fields, ctx, loaded, form.initial?.map, copy),
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
  // The version being edited, and the newer one a stale save met.
  const [base, setBase] = useState<RecordVersion>({ record: loaded, version: version ?? null })
  const [conflict, setConflict] = useState<FormController['conflict']>(null)
  const map = form.initial?.map
  // The record a versioned form edits, as change events name it.
  const versionedRead = form.initial?.versioned ? { endpoint: `/${fill(form.initial.endpoint, ctx, true)}`, params: resolveParams(form.initial.params, ctx) } : null
  const editedRecord = useShownRecord(versionedRead?.endpoint ?? '', versionedRead?.params ?? {})
  const warnDraft = (detail: string) => showToast({ severity: 'warn', summary: t('form.draft.area'), detail })
  const drafts = useDraftSaver(form.draft?.key ?? null, () => warnDraft(t('form.draft.saveFailed')))
  // Only what the user changed is saved; opening a form (or restoring a draft) writes nothing.
  const values = current
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
      // A masked value left as it was shown is the record's own: the BFF puts it back on save,
      // so the format rules (made for clear values) do not apply to it.
      if (!copy && isMasked(values[f.name]) && values[f.name] === loadedValue(f, base.record, map)) continue
      const e = validateField(f, values[f.name], values)
      if (e) out[f.name] = e
    }
    return out
  }, [visible, values, copy, base.record, map])

  const blocking = (fields: Field[]) => fields.find((f) => errors[f.name] || serverErrors[f.name])

  const goTo = (index: number) => {
    if (index > stepIndex) {
      // Moving on needs the current step right; going back never does.
      setStepTried((t) => ({ ...t, [stepIndex]: true }))
      const wrong = blocking(stepFields)
      if (wrong) return focusField?.(wrong)
    }
    setStepIndex(index)
    requestAnimationFrame(() => focusStep?.())
  }

  const submit = async (over?: { values: Record<string, unknown>; base: RecordVersion }) => {
    const values = over?.values ?? current
    const edited = over?.base ?? base
    if (steps && !onReview && stepIndex < totalSteps - 1) return goTo(stepIndex + 1)
    setSubmitted(true)
    const wrong = blocking(visible)
    if (wrong) {
      if (steps) {
        const at = steps.findIndex((s) => s.fields.includes(wrong.name))
        if (at >= 0) setStepIndex(at)
        setStepTried((t) => ({ ...t, [at]: true }))
      }
      // After the render that shows the field's step.
      requestAnimationFrame(() => focusField?.(wrong))
      return
    }
    setBusy(true)
    saves.current++
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
      const versioned = form.initial?.versioned === true
      const res = await send(req.method, req.endpoint, {
        params: req.params,
        body: form.submit.body === 'record' ? recordWithValues(edited.record, form.fields, map, body) : payload,
        headers: versioned && edited.version ? { 'If-Match': edited.version } : undefined,
      })
      setConflict(null)
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
      if (err instanceof ApiError && err.status === 412 && form.initial?.versioned) return await showConflict(values, edited, err)
      reportError(area, err, form.errorMessage ?? fallbackMessage, { area: lastArea })
      // Held for approval: the BFF keeps the change, so the form is done with (its draft too).
      if (isHeld(err)) {
        void drafts?.clear()
        if (form.after?.closeDialog) onDone?.()
      }
    } finally {
      setBusy(false)
    }
  }

  /** Someone saved first: reads the version now stored and lays the two side by side. */
  const showConflict = async (values: Record<string, unknown>, edited: RecordVersion, refusal: ApiError) => {
    try {
      const initial = form.initial!
      const now = await loadVersioned(`/${fill(initial.endpoint, ctx, true)}`, resolveParams(initial.params, ctx))
      const record = initial.path ? getPath(now.body, initial.path) : now.body
      setConflict({ record, version: now.version, fields: conflictsOf(visible, map, edited.record, record, values) })
    } catch (err) {
      reportError(area, err, form.errorMessage ?? fallbackMessage, { area: lastArea })
      reportError(area, refusal, form.errorMessage ?? fallbackMessage, { area: lastArea })
    }
  }

  /**
   * Someone else saved the record this form edits (a live change event). Nothing in the form is
   * overwritten: the conflict panel shows what the other person changed beside what the form
   * holds, and the user keeps theirs over the newer version or takes it. A save that started
   * meanwhile wins (its own answer, a 412 or not, says what happened).
   */
  const saves = useRef(0)
  const followChange = useEffectEvent(async () => {
    if (busy || !versionedRead) return
    const started = saves.current
    let now: Awaited<ReturnType<typeof loadVersioned>>
    try {
      now = await loadVersioned(versionedRead.endpoint, versionedRead.params)
    } catch {
      return // the next save meets the 412 and its panel
    }
    if (saves.current !== started) return
    const record = form.initial?.path ? getPath(now.body, form.initial.path) : now.body
    if (now.version !== null && now.version === base.version) return
    const fields = conflictsOf(visible, map, base.record, record, values)
    // The same values (this user's own save, met on its way back): nothing to tell.
    if (fields.every((f) => sameValue(f.theirs, f.yours))) return setBase({ record, version: now.version })
    setConflict({ record, version: now.version, fields, live: true })
  })
  const editedEntity = editedRecord?.entity
  const editedId = editedRecord?.id
  useEffect(() => {
    if (!editedEntity) return
    return onRecordChange((change) => {
      if (change.entity === editedEntity && (change.id === undefined || change.id === editedId)) void followChange()
    })
  }, [editedEntity, editedId])

  return {
    values,
    fieldCtx,
    visible,
    stepFields,
    errors,
    errorOf: (f) => ((touched[f.name] || submitted || stepTried[stepIndex]) && errors[f.name] ? errors[f.name] : undefined),
    setValue: (name, value) => {
      setDirty(true)
      setValues((v) => ({ ...v, [name]: value }))
    },
    fillValues: (filled) => {
      setDirty(true)
      setValues((v) => ({ ...v, ...Object.fromEntries(Object.entries(filled).filter(([k]) => byName.has(k))) }))
    },
    touch: (name) => setTouched((t) => ({ ...t, [name]: true })),
    setServerError: (name, message) =>
      setServerErrors((s) => {
        if ((s[name] ?? null) === message) return s
        const next = { ...s }
        if (message) next[name] = message
        else delete next[name]
        return next
      }),
    steps,
    stepIndex,
    totalSteps,
    onReview,
    step: steps && !onReview ? steps[stepIndex]! : null,
    goTo,
    editStep: setStepIndex,
    submit: () => submit(),
    busy,
    submitted,
    dirty,
    restoredDraft: draftNotice ? restored : null,
    uncopied,
    discardDraft: () => {
      void drafts?.clear().then((deleted) => deleted || warnDraft(t('form.draft.discardFailed')))
      setValues(initialValues(form.fields, ctx, loaded, form.initial?.map, copy))
      setDraftNotice(false)
      setDirty(false)
      setStepIndex(0)
    },
    conflict,
    reapply: async () => {
      if (!conflict) return
      const next = { record: conflict.record, version: conflict.version }
      const merged = reapplied(form.fields, map, base.record, conflict.record, values)
      setBase(next)
      setValues(merged)
      setConflict(null)
      // Told live, the user has not asked to save yet: their edits now stand on the newer version.
      if (conflict.live) return
      await submit({ values: merged, base: next })
    },
    discardMine: () => {
      if (!conflict) return
      setBase({ record: conflict.record, version: conflict.version })
      setValues(initialValues(form.fields, ctx, conflict.record, map))
      setConflict(null)
      setDirty(false)
      void drafts?.clear()
    },
  }
}
