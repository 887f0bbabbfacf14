import { ANSWER_SHAPES } from '../../../../schemas/business/shapes'
import { PAGING_PARAMS } from '../../../../schemas/catalogue/paging'
import { SCREEN_SCHEMA_VERSION, type Condition, type Field, type FieldType, type FormNode, type Option, type OptionSource, type ScreenFile, type Text } from '../../../../schemas/screen'
import { KEEP, rewriteValues, visitNodes } from '../../../../schemas/screen-walk'
import type { CatalogueCall } from '../../../api/screen-admin'
import { schemaProblem } from '../schema-check'
import { isReadCall } from '../studio-data'
import type { FormMessageKey } from './form-messages'

/**
 * The form editor's model of a `form` node and the way back. Each field, step and option keeps
 * the object it came from (`origin`), so what the editor does not show (lookups, checks,
 * patterns, a step's nodes, the initial load…) rides along untouched: a form read and written
 * back with no edit is the same form. Also the problems the editor points out, and how a choice
 * of the endpoint catalogue becomes a validator, an option source or a dependency.
 */

export type Scalar = string | number | boolean
export type Params = NonNullable<OptionSource['params']>
export type Validator = NonNullable<Field['validator']>
type Step = NonNullable<FormNode['steps']>[number]

/** A text as two boxes; empty English means none. */
export interface TextDesign {
  es: string
  en: string
}

export type VisibleDesign = { kind: 'always' } | { kind: 'equals'; field: string; value: Scalar | null } | { kind: 'other' }

export interface OptionItem {
  value: Scalar
  label: TextDesign
  origin: Option | null
}

export interface CallOptions {
  endpoint: string
  /** Where the list is in the answer; empty for the answer itself. */
  path: string
  valueField: string
  labelField: string
  sortByLabel: boolean
  labelTemplate: TextDesign
  params: Params
  origin: OptionSource | null
}

export type OptionsDesign = { kind: 'none' } | { kind: 'list'; items: OptionItem[] } | { kind: 'call'; source: CallOptions } | { kind: 'other' }

export interface FieldDesign {
  origin: Field | null
  name: string
  label: TextDesign
  input: FieldType
  required: boolean
  wide: boolean
  exclude: boolean
  placeholder: TextDesign
  help: TextDesign
  minLength: number | null
  maxLength: number | null
  min: number | null
  max: number | null
  visibleWhen: VisibleDesign
  validator: Validator | null
  options: OptionsDesign
  /** The key of the step showing it (a stepped form). */
  step: string | null
}

export interface StepDesign {
  key: string
  title: TextDesign
  description: TextDesign
  origin: Step | null
}

export interface SubmitDesign {
  method: FormNode['submit']['method']
  endpoint: string
  /** `other`: a body the editor does not describe, kept as it is. */
  body: 'values' | 'none' | 'other'
  label: TextDesign
  toast: TextDesign
}

export interface FormDesign {
  fields: FieldDesign[]
  steps: StepDesign[] | null
  review: { title: TextDesign; origin: NonNullable<FormNode['review']> | null } | null
  submit: SubmitDesign
}

export const FIELD_TYPES = ['text', 'email', 'password', 'number', 'select', 'multiselect', 'date', 'checkbox', 'textarea', 'file'] as const satisfies readonly FieldType[]
/** Inputs whose value is text of a length; those that are a number; those that pick among options. */
export const TEXT_INPUTS: readonly FieldType[] = ['text', 'email', 'password', 'textarea']
export const OPTION_INPUTS: readonly FieldType[] = ['select', 'multiselect']
/** A field's name, as the schema says (schemas/screen.ts, Field.name). */
export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_.]*$/
/** A step's key (schemas/screen.ts, Identifier). */
export const STEP_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/

/** The keys of a field the structured editor shows; the others are kept as they are. */
const SHOWN_KEYS = new Set(['name', 'label', 'input', 'required', 'wide', 'exclude', 'placeholder', 'help', 'minLength', 'maxLength', 'min', 'max', 'visibleWhen', 'validator', 'options'])

// ── texts ───────────────────────────────────────────────────────────────────

export const textDesign = (t: Text | undefined): TextDesign => (t === undefined ? { es: '', en: '' } : typeof t === 'string' ? { es: t, en: '' } : { es: t.es, en: t.en ?? '' })

/** Back to a screen text: the original when unchanged (a plain string stays one), undefined when both boxes are empty. */
export function textOf(d: TextDesign, was?: Text): Text | undefined {
  const before = textDesign(was)
  if (was !== undefined && before.es === d.es && before.en === d.en) return was
  if (!d.es && !d.en) return undefined
  if (!d.en) return typeof was === 'string' ? d.es : { es: d.es }
  return { es: d.es, en: d.en }
}

// ── reading a form ──────────────────────────────────────────────────────────

const isCallSource = (o: Field['options']): o is OptionSource => !!o && !Array.isArray(o) && !!o.endpoint && !o.from

function optionsDesign(options: Field['options']): OptionsDesign {
  if (!options) return { kind: 'none' }
  if (Array.isArray(options)) return { kind: 'list', items: options.map((o) => ({ value: o.value, label: textDesign(o.label), origin: o })) }
  if (!isCallSource(options)) return { kind: 'other' }
  return {
    kind: 'call',
    source: {
      endpoint: options.endpoint!,
      path: options.path ?? '',
      valueField: options.valueField,
      labelField: options.labelField,
      sortByLabel: !!options.sortByLabel,
      labelTemplate: textDesign(options.labelTemplate),
      params: options.params ?? {},
      origin: options,
    },
  }
}

function visibleDesign(c: Condition | undefined): VisibleDesign {
  if (!c) return { kind: 'always' }
  const keys = Object.keys(c)
  if (keys.length === 2 && 'equals' in c && c.field.startsWith('values.')) return { kind: 'equals', field: c.field.slice('values.'.length), value: c.equals ?? null }
  return { kind: 'other' }
}

export function fieldDesign(field: Field, steps?: readonly Step[] | null): FieldDesign {
  return {
    origin: field,
    name: field.name,
    label: textDesign(field.label),
    input: field.input,
    required: !!field.required,
    wide: !!field.wide,
    exclude: !!field.exclude,
    placeholder: textDesign(field.placeholder),
    help: textDesign(field.help),
    minLength: field.minLength ?? null,
    maxLength: field.maxLength ?? null,
    min: field.min ?? null,
    max: field.max ?? null,
    visibleWhen: visibleDesign(field.visibleWhen),
    validator: field.validator ?? null,
    options: optionsDesign(field.options),
    step: steps?.find((s) => s.fields.includes(field.name))?.key ?? null,
  }
}

export function formDesign(form: FormNode): FormDesign {
  const steps = form.steps ?? null
  return {
    fields: form.fields.map((f) => fieldDesign(f, steps)),
    steps: steps ? steps.map((s) => ({ key: s.key, title: textDesign(s.title), description: textDesign(s.description), origin: s })) : null,
    review: form.review ? { title: textDesign(form.review.title), origin: form.review } : null,
    submit: {
      method: form.submit.method,
      endpoint: form.submit.endpoint,
      body: form.submit.body === 'values' ? 'values' : form.submit.body === undefined ? 'none' : 'other',
      label: textDesign(form.submitLabel),
      toast: textDesign(form.after?.toast),
    },
  }
}

// ── writing it back ─────────────────────────────────────────────────────────

type Loose = Record<string, unknown>

/** Sets `key`, or removes it when the value is undefined. */
function put(out: Loose, key: string, value: unknown) {
  if (value === undefined) delete out[key]
  else out[key] = value
}

/** A yes/no key: left as it was while it means the same (an explicit `false` stays), else `true` or absent. */
function flag(out: Loose, key: string, value: boolean) {
  if (!!out[key] !== value) put(out, key, value ? true : undefined)
}

function optionOf(item: OptionItem): Option {
  const out: Loose = { ...(item.origin ?? {}) }
  out.value = item.value
  out.label = textOf(item.label, item.origin?.label) ?? { es: '' }
  return out as Option
}

function sourceOf(s: CallOptions): OptionSource {
  const out: Loose = { ...(s.origin ?? {}) }
  out.endpoint = s.endpoint
  put(out, 'params', Object.keys(s.params).length ? s.params : undefined)
  put(out, 'path', s.path || undefined)
  out.valueField = s.valueField
  out.labelField = s.labelField
  put(out, 'labelTemplate', textOf(s.labelTemplate, s.origin?.labelTemplate))
  flag(out, 'sortByLabel', s.sortByLabel)
  return out as OptionSource
}

export function fieldOfDesign(d: FieldDesign): Field {
  const out: Loose = { ...(d.origin ?? {}) }
  out.name = d.name
  // An empty Spanish label fails the schema: the editor refuses such a change and says why.
  out.label = textOf(d.label, d.origin?.label) ?? { es: '' }
  out.input = d.input
  flag(out, 'required', d.required)
  put(out, 'minLength', d.minLength ?? undefined)
  put(out, 'maxLength', d.maxLength ?? undefined)
  put(out, 'min', d.min ?? undefined)
  put(out, 'max', d.max ?? undefined)
  if (d.options.kind === 'none') delete out.options
  if (d.options.kind === 'list') out.options = d.options.items.map(optionOf)
  if (d.options.kind === 'call') out.options = sourceOf(d.options.source)
  put(out, 'validator', d.validator ?? undefined)
  put(out, 'placeholder', textOf(d.placeholder, d.origin?.placeholder))
  put(out, 'help', textOf(d.help, d.origin?.help))
  if (d.visibleWhen.kind === 'always') delete out.visibleWhen
  if (d.visibleWhen.kind === 'equals') {
    const was = d.origin?.visibleWhen
    const same = was && visibleDesign(was).kind === 'equals' && was.field === `values.${d.visibleWhen.field}` && was.equals === d.visibleWhen.value
    if (!same) out.visibleWhen = { field: `values.${d.visibleWhen.field}`, equals: d.visibleWhen.value }
  }
  flag(out, 'wide', d.wide)
  flag(out, 'exclude', d.exclude)
  return out as Field
}

/** A step's fields: those assigned to it, in the form's order (the order the renderer shows them in); its own list while it names the same ones. */
function stepOf(s: StepDesign, fields: readonly FieldDesign[]): Step {
  const names = fields.filter((f) => f.step === s.key).map((f) => f.name)
  const kept = s.origin && s.origin.fields.length === names.length && names.every((n) => s.origin!.fields.includes(n))
  const out: Loose = { ...(s.origin ?? {}) }
  out.key = s.key
  out.title = textOf(s.title, s.origin?.title) ?? { es: '' }
  put(out, 'description', textOf(s.description, s.origin?.description))
  out.fields = kept ? s.origin!.fields : names
  return out as Step
}

export function formOfDesign(d: FormDesign, base: FormNode): FormNode {
  const out: Loose = { ...base }
  out.fields = d.fields.map(fieldOfDesign)
  put(out, 'steps', d.steps ? d.steps.map((s) => stepOf(s, d.fields)) : undefined)
  put(out, 'review', d.review ? { ...(d.review.origin ?? {}), title: textOf(d.review.title, d.review.origin?.title) ?? { es: '' } } : undefined)
  const submit: Loose = { ...base.submit, method: d.submit.method, endpoint: d.submit.endpoint }
  if (d.submit.body === 'values') submit.body = 'values'
  if (d.submit.body === 'none') delete submit.body
  out.submit = submit
  put(out, 'submitLabel', textOf(d.submit.label, base.submitLabel))
  const toast = textOf(d.submit.toast, base.after?.toast)
  if (toast !== base.after?.toast) {
    const after: Loose = { ...(base.after ?? {}) }
    put(after, 'toast', toast)
    put(out, 'after', Object.keys(after).length ? after : undefined)
  }
  return out as unknown as FormNode
}

// ── edits ───────────────────────────────────────────────────────────────────

const moved = <T>(list: readonly T[], i: number, by: number): T[] => {
  const next = [...list]
  const [item] = next.splice(i, 1)
  next.splice(Math.max(0, Math.min(next.length, i + by)), 0, item!)
  return next
}

/** A new text field named `name`, labelled with its name until the admin writes a label, in the last step. */
export function withNewField(d: FormDesign, name: string): FormDesign {
  const field: FieldDesign = {
    ...fieldDesign({ name, label: { es: name }, input: 'text' }),
    origin: null,
    step: d.steps?.at(-1)?.key ?? null,
  }
  return { ...d, fields: [...d.fields, field] }
}

export const withField = (d: FormDesign, i: number, patch: Partial<FieldDesign>): FormDesign => ({ ...d, fields: d.fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) })
export const withoutField = (d: FormDesign, i: number): FormDesign => ({ ...d, fields: d.fields.filter((_, j) => j !== i) })
export const withFieldMoved = (d: FormDesign, i: number, by: number): FormDesign => ({ ...d, fields: moved(d.fields, i, by) })

/** Steps on: one step holding every field (titles from `title(n)`); off: no steps and no review. */
export function withSteps(d: FormDesign, on: boolean, title: (n: number) => TextDesign): FormDesign {
  if (!on) return { ...d, steps: null, review: null, fields: d.fields.map((f) => ({ ...f, step: null })) }
  if (d.steps) return d
  return { ...d, steps: [{ key: 'paso1', title: title(1), description: { es: '', en: '' }, origin: null }], fields: d.fields.map((f) => ({ ...f, step: 'paso1' })) }
}

/** A new step at the end, with a key no other step has. */
export function withNewStep(d: FormDesign, title: (n: number) => TextDesign): FormDesign {
  const steps = d.steps ?? []
  let n = steps.length + 1
  while (steps.some((s) => s.key === `paso${n}`)) n++
  return { ...d, steps: [...steps, { key: `paso${n}`, title: title(steps.length + 1), description: { es: '', en: '' }, origin: null }] }
}

export const withStep = (d: FormDesign, i: number, patch: Partial<StepDesign>): FormDesign => ({ ...d, steps: (d.steps ?? []).map((s, j) => (j === i ? { ...s, ...patch } : s)) })
export const withStepMoved = (d: FormDesign, i: number, by: number): FormDesign => ({ ...d, steps: moved(d.steps ?? [], i, by) })

/** Without step `i`: its fields are left in no step (flagged until assigned again). */
export function withoutStep(d: FormDesign, i: number): FormDesign {
  const key = d.steps?.[i]?.key
  const steps = (d.steps ?? []).filter((_, j) => j !== i)
  return { ...d, steps: steps.length ? steps : null, review: steps.length ? d.review : null, fields: d.fields.map((f) => (f.step === key ? { ...f, step: null } : f)) }
}

/** Step `i` under another key: its fields go with it. */
export function withStepKey(d: FormDesign, i: number, key: string): FormDesign {
  const old = d.steps?.[i]?.key
  return { ...withStep(d, i, { key }), fields: d.fields.map((f) => (f.step === old ? { ...f, step: key } : f)) }
}

/**
 * The form with field `from` named `to`, and every mention of it renamed: its steps, the
 * conditions and templates that read it (`values.X`, `{values.X}`, in fields, options, a step's
 * nodes and the submit), the fields compared with it, the lookups and the initial load filling it.
 */
export function renameField(form: FormNode, from: string, to: string): FormNode {
  const token = `{values.${from}}`
  const rewritten = rewriteValues(form, (value) => {
    if (typeof value === 'string') return value.includes(token) ? value.replaceAll(token, `{values.${to}}`) : KEEP
    if (value && typeof value === 'object' && !Array.isArray(value) && (value as { field?: unknown }).field === `values.${from}`) return { ...value, field: `values.${to}` }
    return undefined
  })
  const renameKey = (record: Record<string, string> | undefined) => (record && from in record ? Object.fromEntries(Object.entries(record).map(([k, v]) => [k === from ? to : k, v])) : record)
  const fields = rewritten.fields.map((f) => {
    const next: Loose = { ...f, name: f.name === from ? to : f.name }
    if (f.sameAs?.field === from) next.sameAs = { ...f.sameAs, field: to }
    if (f.notBelow?.field === from) next.notBelow = { ...f.notBelow, field: to }
    if (f.lookup) next.lookup = { ...f.lookup, fill: renameKey(f.lookup.fill) }
    return next as Field
  })
  const out: FormNode = { ...rewritten, fields }
  if (rewritten.steps) out.steps = rewritten.steps.map((s) => ({ ...s, fields: s.fields.map((n) => (n === from ? to : n)) })) as FormNode['steps']
  if (rewritten.initial?.map) out.initial = { ...rewritten.initial, map: renameKey(rewritten.initial.map) }
  return out
}

// ── the catalogue ───────────────────────────────────────────────────────────

const isTemplateSegment = (s: string) => /^\{.*\}$/.test(s)

/** The catalogued call a screen's endpoint names (a `{…}` segment on either side matches any). */
export function callAt(calls: readonly CatalogueCall[], method: string, endpoint: string): CatalogueCall | null {
  const parts = endpoint.split('/')
  return (
    calls.find((c) => {
      if (c.method !== method) return false
      const own = c.path.split('/')
      return own.length === parts.length && own.every((s, i) => s === parts[i] || isTemplateSegment(s) || isTemplateSegment(parts[i]!))
    }) ?? null
  )
}

/** The catalogue's validation calls: the `api/validators/…` reads. */
export const validatorCalls = (calls: readonly CatalogueCall[]) => calls.filter((c) => isReadCall(c) && c.path.startsWith('api/validators/'))
/** Calls a form may submit to: the catalogue's mutations. */
export const submitCalls = (calls: readonly CatalogueCall[]) => calls.filter((c) => c.effect === 'mutation' && c.path.startsWith('api/'))
/** Calls options may be read from (validators aside). */
export const optionCalls = (calls: readonly CatalogueCall[]) => calls.filter((c) => isReadCall(c) && !c.path.startsWith('api/validators/') && c.answer !== 'file')

const queryOf = (call: CatalogueCall) => (call.query ?? {}) as Record<string, { required?: boolean; type?: string }>
export const requiredParams = (call: CatalogueCall) => Object.entries(queryOf(call)).filter(([, p]) => p.required).map(([name]) => name)
/** The query parameters a call takes (its paging ones too when it is a list). */
export const paramsOf = (call: CatalogueCall): string[] => [...Object.keys(queryOf(call)), ...(call.list ? PAGING_PARAMS : [])]

type Kind = 'boolean' | 'string' | 'nullableString' | 'scalar' | 'other'
interface JsonSchema {
  type?: string
  anyOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
}

const shapeOf = (name: string | undefined): JsonSchema | null => (name ? ((ANSWER_SHAPES as Record<string, unknown>)[name] as JsonSchema | undefined) ?? null : null)

function kindOf(s: JsonSchema): Kind {
  if (s.type === 'boolean') return 'boolean'
  if (s.type === 'string') return 'string'
  if (s.type === 'number' || s.type === 'integer') return 'scalar'
  const branches = s.anyOf?.filter((b) => b.type !== 'null') ?? []
  if (s.anyOf && branches.length === 1) return branches[0]!.type === 'string' ? 'nullableString' : kindOf(branches[0]!) === 'other' ? 'other' : 'scalar'
  return 'other'
}

const namesOfKind = (props: Record<string, JsonSchema>, kind: Kind) => Object.entries(props).filter(([, s]) => kindOf(s) === kind).map(([n]) => n)

/**
 * The validator a catalogued validation call gives: its one required query parameter takes the
 * value; its answer's shape (schemas/business/shapes.ts) says the rest — the one yes/no field is
 * the verdict, the one text that is never null the normalised value. Null when the call does not
 * say enough.
 */
export function validatorFromCall(call: CatalogueCall): Validator | null {
  const required = requiredParams(call)
  const props = shapeOf(call.shape)?.properties
  if (required.length !== 1 || !props) return null
  const valid = namesOfKind(props, 'boolean')
  const normalized = namesOfKind(props, 'string')
  const texts = namesOfKind(props, 'nullableString')
  // Which text-or-null says why a value is wrong cannot be told from types alone (the validators'
  // answers carry Tipo and Motivo, both text or null): it is `Motivo` by the convention of the
  // validators' answers (schemas/business/utility.ts); a shape with a single such text uses it.
  const message = texts.includes('Motivo') ? 'Motivo' : texts.length === 1 ? texts[0]! : null
  if (valid.length !== 1 || !message) return null
  return { endpoint: call.path, param: required[0]!, validField: valid[0]!, messageField: message, ...(normalized.length === 1 ? { normalizedField: normalized[0]! } : {}) }
}

/** Where a call's answer holds its list and the scalar fields of an item, from its shape: the answer itself, or `Items` of a page. */
export function itemShape(call: CatalogueCall): { path: string; fields: string[] } | null {
  const shape = shapeOf(call.shape)
  const list = shape?.type === 'array' ? { path: '', items: shape.items } : shape?.properties?.Items?.type === 'array' ? { path: 'Items', items: shape.properties.Items.items } : null
  const props = list?.items?.properties
  if (!list || !props) return null
  return { path: list.path, fields: Object.entries(props).filter(([, s]) => kindOf(s) !== 'other').map(([n]) => n) }
}

/** The value at a dotted path of an answer; the answer itself for an empty path. */
export function valueAt(value: unknown, path: string): unknown {
  return path ? path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Loose)[key] : undefined), value) : value
}

/** The first item of a real answer at `path` (or of its `Items`, for a page) and its scalar fields. */
export function sampledItem(answer: unknown, path: string): { path: string; item: Loose; fields: string[] } | null {
  const at = (p: string) => {
    const list = valueAt(answer, p)
    const item = Array.isArray(list) ? list.find((i): i is Loose => !!i && typeof i === 'object' && !Array.isArray(i)) : undefined
    return item ? { path: p, item, fields: Object.keys(item).filter((k) => item[k] === null || ['string', 'number', 'boolean'].includes(typeof item[k])) } : null
  }
  return at(path) ?? (path ? null : at('Items'))
}

/** A first value and label field among an item's fields: an id or code for the value, a name for the label. */
export function proposeOptionFields(fields: readonly string[]): { valueField: string; labelField: string } {
  const valueField = ['Id', 'Codigo', 'Valor'].find((f) => fields.includes(f)) ?? fields.find((f) => /^(Id|Codigo)/.test(f)) ?? fields[0] ?? ''
  const labelField = ['Nombre', 'Descripcion', 'Texto', 'Etiqueta'].find((f) => fields.includes(f)) ?? fields.find((f) => f !== valueField) ?? valueField
  return { valueField, labelField }
}

/** Options read from `call`: where its list is, a value and a label field; a page of a list asks for 500 items at once. */
export function optionsFromCall(call: CatalogueCall, fields: readonly string[], path: string): CallOptions {
  return {
    endpoint: call.path,
    path,
    ...proposeOptionFields(fields),
    sortByLabel: false,
    labelTemplate: { es: '', en: '' },
    params: call.list ? { pageSize: 500 } : {},
    origin: null,
  }
}

// ── dependent options ───────────────────────────────────────────────────────

export interface Dependency {
  field: string
  param: string
}

const DEPENDENCY = /^\{values\.([A-Za-z][A-Za-z0-9_.]*)\}$/

/** The field the options depend on: the first parameter whose value is exactly `{values.<Field>}`. */
export function dependencyOf(params: Params | undefined): Dependency | null {
  for (const [param, value] of Object.entries(params ?? {})) {
    const m = typeof value === 'string' ? DEPENDENCY.exec(value) : null
    if (m) return { param, field: m[1]! }
  }
  return null
}

/** The parameters with the dependency `dep` in place of the current one (none: removed); the other parameters stay. */
export function withDependency(params: Params, dep: Dependency | null): Params {
  const current = dependencyOf(params)
  const out = { ...params }
  if (current) delete out[current.param]
  if (dep) out[dep.param] = `{values.${dep.field}}`
  return out
}

// ── visible when ────────────────────────────────────────────────────────────

/** What a typed value means for `field`: one of its fixed options' values, yes/no for a checkbox, a number for a number. */
export function valueFor(field: Field | undefined, text: string): Scalar {
  if (field?.input === 'checkbox') return text === 'true'
  const option = Array.isArray(field?.options) ? field.options.find((o) => String(o.value) === text) : undefined
  if (option) return option.value
  if (field?.input === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text)
  return text
}

/** The keys of a field the structured editor does not show (kept as they are). */
export const keptKeys = (field: Field | null): string[] => Object.keys(field ?? {}).filter((k) => !SHOWN_KEYS.has(k))

// ── problems ────────────────────────────────────────────────────────────────

export type ProblemPlace = 'name' | 'label' | 'step' | 'validator' | 'options' | 'length' | 'range' | 'visible' | 'stepKey' | 'stepFields' | 'submit'

export interface FormProblem {
  /** The index of the field it concerns, or of the step (place `stepKey`/`stepFields`). */
  field: number | null
  step: number | null
  place: ProblemPlace
  code: FormMessageKey
  vars: Record<string, string | number>
  severity: 'error' | 'warning'
}

/** Why `name` cannot be the name of field `index` (a name the schema refuses, or one another field has); null when it can. */
export function nameProblem(form: FormNode, index: number, name: string): { code: FormMessageKey; vars: Record<string, string> } | null {
  if (!FIELD_NAME.test(name)) return { code: 'name.invalid', vars: { name } }
  if (form.fields.some((f, i) => i !== index && f.name === name)) return { code: 'name.duplicate', vars: { name } }
  return null
}

/**
 * What is wrong in a form that its schema does not catch: names repeated, a field no step
 * shows, a validator or options that are not the catalogue's or lack what they need, a
 * dependency or a condition naming no field, bounds the wrong way round, the submit call.
 * `calls`: the catalogue, when it is known (the checks against it are left out otherwise).
 */
export function formProblems(form: FormNode, calls: readonly CatalogueCall[] | null): FormProblem[] {
  const out: FormProblem[] = []
  const names = new Set(form.fields.map((f) => f.name))
  const add = (place: ProblemPlace, code: FormMessageKey, vars: Record<string, string | number>, at: { field?: number; step?: number }, severity: FormProblem['severity'] = 'error') =>
    out.push({ field: at.field ?? null, step: at.step ?? null, place, code, vars, severity })

  form.fields.forEach((f, i) => {
    const at = { field: i }
    if (!FIELD_NAME.test(f.name)) add('name', 'name.invalid', { name: f.name }, at)
    else if (form.fields.findIndex((g) => g.name === f.name) !== i) add('name', 'name.duplicate', { name: f.name }, at)
    if (form.steps) {
      const inSteps = form.steps.filter((s) => s.fields.includes(f.name)).length
      if (inSteps === 0) add('step', 'problem.noStep', { field: f.name }, at)
      if (inSteps > 1) add('step', 'problem.twoSteps', { field: f.name, n: inSteps }, at, 'warning')
    }
    if (f.validator) {
      const v = f.validator
      if (!v.param) add('validator', 'problem.validatorParam', {}, at)
      if (!v.validField || !v.messageField) add('validator', 'problem.validatorFields', {}, at)
      const call = calls ? callAt(validatorCalls(calls), 'GET', v.endpoint) : null
      if (calls && !call) add('validator', 'problem.validatorUnknown', { endpoint: v.endpoint }, at)
      if (call && v.param && !paramsOf(call).includes(v.param)) add('validator', 'problem.validatorParamUnknown', { endpoint: v.endpoint, param: v.param }, at)
    }
    if (OPTION_INPUTS.includes(f.input) && (!f.options || (Array.isArray(f.options) && f.options.length === 0))) add('options', 'problem.noOptions', { input: f.input }, at)
    if (Array.isArray(f.options)) {
      const seen = new Set<string>()
      for (const o of f.options) {
        if (o.value === '') add('options', 'problem.optionEmpty', {}, at)
        else if (seen.has(String(o.value))) add('options', 'problem.optionDuplicate', { value: String(o.value) }, at)
        seen.add(String(o.value))
      }
    } else if (isCallSource(f.options)) {
      const source = f.options
      if (!source.valueField || !source.labelField) add('options', 'problem.optionsFields', {}, at)
      const dep = dependencyOf(source.params)
      if (dep && dep.field === f.name) add('options', 'problem.dependsSelf', {}, at)
      else if (dep && !names.has(dep.field)) add('options', 'problem.dependsMissing', { field: dep.field }, at)
      const call = calls ? callAt(optionCalls(calls), 'GET', source.endpoint!) : null
      if (calls && !call) add('options', 'problem.optionsUnknown', { endpoint: source.endpoint! }, at)
      if (call) {
        const declared = paramsOf(call)
        const sent = Object.keys(source.params ?? {})
        // `filterColumns[0]` is the array parameter `filterColumns`.
        for (const p of sent) if (!declared.includes(p.replace(/\[\d*\]$/, ''))) add('options', 'problem.optionsParam', { endpoint: call.path, param: p }, at)
        for (const p of requiredParams(call)) if (!sent.includes(p)) add('options', 'problem.optionsRequired', { endpoint: call.path, param: p }, at)
      }
    }
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) add('length', 'problem.lengthRange', { min: f.minLength, max: f.maxLength }, at)
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) add('range', 'problem.range', { min: f.min, max: f.max }, at)
    const cond = f.visibleWhen?.field
    if (cond?.startsWith('values.') && !names.has(cond.slice('values.'.length))) add('visible', 'problem.visibleUnknown', { field: cond.slice('values.'.length) }, at)
  })

  form.steps?.forEach((s, i) => {
    const at = { step: i }
    if (form.steps!.findIndex((t) => t.key === s.key) !== i) add('stepKey', 'problem.stepKeyDuplicate', { step: s.key }, at)
    if (s.fields.length === 0) add('stepFields', 'problem.stepEmpty', { step: s.key }, at, 'warning')
    for (const n of s.fields) if (!names.has(n)) add('stepFields', 'problem.stepUnknownField', { step: s.key, field: n }, at)
  })

  if (calls && !callAt(submitCalls(calls), form.submit.method, form.submit.endpoint)) add('submit', 'problem.submitUnknown', { method: form.submit.method, endpoint: form.submit.endpoint }, {})
  return out
}

// ── the schema, and the form's place in its screen ──────────────────────────

/**
 * The first schema problem of a form on its own (in Spanish, as the BFF words it), its JSON
 * pointer inside the form, and the field it is in; null when it passes. A form valid alone is
 * valid wherever it sits: no rule of the schema depends on a node's place.
 */
export function formSchemaProblem(form: FormNode): { text: string; field: number | null } | null {
  const wrapped = { schemaVersion: SCREEN_SCHEMA_VERSION, id: 'formulario', title: 'Formulario', root: form }
  const problem = schemaProblem(wrapped)
  if (!problem) return null
  const text = problem.replace(/(^|; )\/root/g, '$1')
  const m = /^\/fields\/(\d+)/.exec(text)
  return { text, field: m ? Number(m[1]) : null }
}

/** The forms of a screen, wherever they sit (a page, a tab, a dialog, an action), with their JSON pointers. */
export function formsOfScreen(screen: ScreenFile): { pointer: string; form: FormNode }[] {
  const out: { pointer: string; form: FormNode }[] = []
  visitNodes(screen.root, (node, pointer) => (node.type === 'form' ? out.push({ pointer, form: node }) : undefined), '/root')
  return out
}

/** The screen with the node at `pointer` replaced by `form`; the rest of it untouched. */
export function withFormAt(screen: ScreenFile, pointer: string, form: FormNode): ScreenFile {
  const root = rewriteValues(screen.root, (_value, at) => (at.path === pointer ? form : pointer.startsWith(`${at.path}/`) ? undefined : KEEP), '/root')
  return { ...screen, root }
}

// ── what the editor's parts share ───────────────────────────────────────────

/**
 * The form being edited, as every part of the editor sees it. `apply` and `applyForm` answer
 * why a change was refused (it would break the screen's schema), or null when it was applied.
 */
export interface FormEditing {
  /** Tells the editors of two forms apart (input ids). */
  id: string
  form: FormNode
  design: FormDesign
  calls: CatalogueCall[] | null
  problems: FormProblem[]
  apply: (next: FormDesign) => string | null
  applyForm: (next: FormNode) => string | null
}
