import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { RadioButton } from 'primereact/radiobutton'
import { useState } from 'react'
import { api } from '../../../api/client'
import type { CatalogueCall } from '../../../api/screen-admin'
import { localized, messageIn, useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import {
  callAt,
  dependencyOf,
  itemShape,
  optionCalls,
  optionsFromCall,
  requiredParams,
  sampledItem,
  withDependency,
  withField,
  type CallOptions,
  type FormEditing,
  type OptionItem,
  type OptionsDesign,
  type Scalar,
} from './form-design'
import { formMessages } from './form-messages'
import { TextBox, TextPair } from './FormInputs'

type Kind = OptionsDesign['kind']

/** A first page of a call's real answer, to read an item's fields from (calls that need a value of their own are not asked). */
const sampleQuery = (call: CatalogueCall) => ({
  queryKey: ['studio', 'options-sample', call.path],
  queryFn: () => api.get<unknown>(`/${call.path}`, call.list ? { params: { pageIndex: 0, pageSize: 5 } } : {}),
  staleTime: 5 * 60_000,
  retry: false,
})
const sampleable = (call: CatalogueCall | null): call is CatalogueCall => !!call && !call.path.includes('{') && requiredParams(call).length === 0

/** A sample shown in one or two lines. */
const shortened = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text)

/** A typed option value keeps the kind of the value it replaces (a number stays a number, yes/no stays yes/no). */
function typedValue(previous: Scalar, text: string): Scalar {
  if (typeof previous === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text)
  if (typeof previous === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

/** Where a select's options come from: none, a fixed list, or a catalogued read call (value and label fields, order, template, a field it depends on). */
export function FieldOptionsEditor({ editing, index, error }: { editing: FormEditing; index: number; error?: string }) {
  const t = useMessages(formMessages)
  const { design, apply } = editing
  const f = design.fields[index]!
  const id = `${editing.id}-field-${index}-options`
  const [pending, setPending] = useState<Kind | null>(null)
  const kind = pending ?? f.options.kind
  const setOptions = (options: OptionsDesign) => {
    const refusal = apply(withField(design, index, { options }))
    if (!refusal) setPending(null)
    return refusal
  }
  const choose = (next: Kind) => {
    if (next === 'none') return setOptions({ kind: 'none' })
    if (next === 'list') return setOptions({ kind: 'list', items: f.options.kind === 'list' ? f.options.items : [] })
    // A call is applied once one is picked: a source without an endpoint is not a valid screen.
    setPending('call')
  }

  return (
    <fieldset className="form-editor__sub">
      <legend>{t('options.title')}</legend>
      {f.options.kind === 'other' ? (
        <p className="screen-studio__help">{t('options.other', { from: JSON.stringify(editing.form.fields[index]?.options) })}</p>
      ) : (
        <div className="screen-studio__choice" role="radiogroup" aria-label={t('options.kind')}>
          {(['none', 'list', 'call'] as const).map((k) => (
            <label key={k} htmlFor={`${id}-${k}`}>
              <RadioButton inputId={`${id}-${k}`} checked={kind === k} onChange={() => void choose(k)} /> {t(`options.${k}`)}
            </label>
          ))}
        </div>
      )}
      {error && (
        <small className="p-error field-error" role="alert">
          {error}
        </small>
      )}
      {kind === 'list' && f.options.kind === 'list' && <OptionList id={id} items={f.options.items} onChange={(items) => setOptions({ kind: 'list', items })} />}
      {kind === 'call' && <CallSource editing={editing} index={index} id={id} source={f.options.kind === 'call' ? f.options.source : null} onChange={(source) => setOptions({ kind: 'call', source })} />}
    </fieldset>
  )
}

function OptionList({ id, items, onChange }: { id: string; items: OptionItem[]; onChange: (items: OptionItem[]) => string | null }) {
  const t = useMessages(formMessages)
  const set = (i: number, patch: Partial<OptionItem>) => onChange(items.map((o, j) => (j === i ? { ...o, ...patch } : o)))
  const add = () => {
    const n = items.length + 1
    onChange([...items, { value: String(n), label: { es: messageIn(formMessages, 'options.newLabel', { n }, 'es'), en: messageIn(formMessages, 'options.newLabel', { n }, 'en') }, origin: null }])
  }
  return (
    <div className="form-editor__options">
      {items.map((o, i) => (
        <div key={i} className="form-editor__option">
          <TextBox id={`${id}-${i}-value`} label={t('options.value')} value={String(o.value)} commit={(text) => set(i, { value: typedValue(o.value, text) })} />
          <TextPair id={`${id}-${i}-label`} labels={[t('options.labelEs'), t('options.labelEn')]} value={o.label} commit={(label) => set(i, { label })} required />
          <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => onChange(items.filter((_, j) => j !== i))} aria-label={t('options.remove', { n: i + 1 })} />
        </div>
      ))}
      <Button type="button" icon="pi pi-plus" text size="small" label={t('options.add')} onClick={add} />
    </div>
  )
}

function CallSource({ editing, index, id, source, onChange }: { editing: FormEditing; index: number; id: string; source: CallOptions | null; onChange: (next: CallOptions) => string | null }) {
  const t = useMessages(formMessages)
  const client = useQueryClient()
  const offered = optionCalls(editing.calls ?? [])
  const call = source ? callAt(offered, 'GET', source.endpoint) : null
  const [picking, setPicking] = useState(false)
  const sample = useQuery({ ...sampleQuery(call ?? ({ path: '' } as CatalogueCall)), enabled: sampleable(call) })
  const sampled = sample.data === undefined ? null : sampledItem(sample.data, source?.path ?? '')
  const shaped = call ? itemShape(call) : null
  const candidates = sampled?.fields ?? shaped?.fields ?? []
  const fieldsHint = sampled ? t('options.fieldsHelp') : shaped ? t('options.fieldsShape') : t('options.fieldsTyped')

  // A new call: where its list is and its fields, from a real item when it can be read, else from its answer's shape.
  const pick = async (path: string) => {
    const chosen = offered.find((c) => c.path === path)
    if (!chosen) return
    const shape = itemShape(chosen)
    let found = shape ? { path: shape.path, fields: shape.fields } : { path: '', fields: [] as string[] }
    if (sampleable(chosen)) {
      setPicking(true)
      try {
        const item = sampledItem(await client.fetchQuery(sampleQuery(chosen)), shape?.path ?? '')
        if (item) found = { path: item.path, fields: item.fields }
      } catch {
        // The call failing now leaves the fields its shape gives, or typed by hand.
      } finally {
        setPicking(false)
      }
    }
    onChange(optionsFromCall(chosen, found.fields, found.path))
  }

  const options = offered.map((c) => ({ value: c.path, label: `${c.path} — ${c.summary}` }))
  if (source && !call) options.push({ value: source.endpoint, label: source.endpoint })
  const dep = source ? dependencyOf(source.params) : null
  const callParams = call ? Object.keys(call.query ?? {}) : []
  const others = editing.form.fields.filter((_, j) => j !== index)
  const otherParams = source ? Object.entries(source.params).filter(([k]) => k !== dep?.param) : []
  const set = (patch: Partial<CallOptions>) => (source ? onChange({ ...source, ...patch }) : null)
  const setDependency = (field: string, param: string) => set({ params: withDependency(source!.params, field && param ? { field, param } : null) })
  const fieldPicker = (key: 'valueField' | 'labelField') => (
    <FieldShell id={`${id}-${key}`} label={t(`options.${key}`)}>
      <Dropdown inputId={`${id}-${key}`} value={source?.[key] ?? ''} onChange={(e) => set({ [key]: String(e.value ?? '') })} options={candidates} editable />
    </FieldShell>
  )

  return (
    <>
      <div className="form-editor__pairs">
        <div className="form-editor__pair">
          <FieldShell id={`${id}-endpoint`} label={t('options.endpoint')} hint={picking ? t('options.sampling') : undefined}>
            <Dropdown inputId={`${id}-endpoint`} value={source?.endpoint ?? null} onChange={(e) => void pick(e.value as string)} options={options} filter placeholder={t('options.endpointPick')} loading={!editing.calls || picking} />
          </FieldShell>
          {source && <TextBox id={`${id}-path`} label={t('options.path')} hint={t('options.pathHelp')} value={source.path} commit={(path) => set({ path: path.trim() })} />}
        </div>
        {source && (
          <div className="form-editor__pair">
            {fieldPicker('valueField')}
            {fieldPicker('labelField')}
          </div>
        )}
      </div>
      {source && (
        <>
          <p className="screen-studio__help">{fieldsHint}</p>
          {sampled && <p className="screen-studio__help form-editor__summary">{t('options.sampled', { sample: shortened(JSON.stringify(sampled.item)) })}</p>}
          <FieldShell id={`${id}-sort`} label={t('options.sort')} check>
            <Checkbox inputId={`${id}-sort`} checked={source.sortByLabel} onChange={(e) => set({ sortByLabel: !!e.checked })} />
          </FieldShell>
          <div className="form-editor__pairs">
            <TextPair id={`${id}-template`} labels={[t('options.templateEs'), t('options.templateEn')]} value={source.labelTemplate} commit={(labelTemplate) => set({ labelTemplate })} hint={t('options.templateHelp')} />
          </div>
          <div className="screen-studio__grid form-editor__depends">
            <FieldShell id={`${id}-depends`} label={t('options.dependsOn')} hint={callParams.length ? undefined : t('options.noParams')}>
              <Dropdown
                inputId={`${id}-depends`}
                value={dep?.field ?? null}
                onChange={(e) => setDependency((e.value as string | null) ?? '', dep?.param ?? (call ? requiredParams(call).find((p) => !(p in source.params)) : undefined) ?? callParams[0] ?? '')}
                options={others.map((g) => ({ value: g.name, label: `${localized(g.label)} (${g.name})` }))}
                placeholder={t('options.dependsNone')}
                showClear
                disabled={!callParams.length && !dep}
                filter
              />
            </FieldShell>
            {dep && (
              <FieldShell id={`${id}-depends-param`} label={t('options.dependsParam')}>
                <Dropdown inputId={`${id}-depends-param`} value={dep.param} onChange={(e) => setDependency(dep.field, e.value as string)} options={callParams.length ? callParams : [dep.param]} />
              </FieldShell>
            )}
          </div>
          {dep && <p className="form-editor__depends-summary">{t('options.dependsSummary', { field: dep.field, param: dep.param, value: `{values.${dep.field}}` })}</p>}
          {otherParams.length > 0 && <p className="screen-studio__help">{t('options.otherParams', { params: otherParams.map(([k, v]) => `${k}=${String(v)}`).join(', ') })}</p>}
        </>
      )}
    </>
  )
}
