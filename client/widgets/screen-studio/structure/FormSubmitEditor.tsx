import { Dropdown } from 'primereact/dropdown'
import { useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { submitCalls, type FormEditing, type SubmitDesign } from './form-design'
import { formMessages } from './form-messages'
import { problemText, TextPair } from './FormInputs'

const METHODS: SubmitDesign['method'][] = ['POST', 'PUT', 'PATCH', 'DELETE']

/** Where the form goes: a catalogued call that changes data, with the form's values as its body; the button's text and the notice on success. */
export function FormSubmitEditor({ editing }: { editing: FormEditing }) {
  const t = useMessages(formMessages)
  const { design, apply } = editing
  const s = design.submit
  const id = `${editing.id}-submit`
  const set = (patch: Partial<SubmitDesign>) => apply({ ...design, submit: { ...s, ...patch } })
  const calls = submitCalls(editing.calls ?? []).filter((c) => c.method === s.method)
  const options = calls.map((c) => ({ value: c.path, label: `${c.path} — ${c.summary}` }))
  if (!calls.some((c) => c.path === s.endpoint)) options.unshift({ value: s.endpoint, label: s.endpoint })
  const bodies = [{ value: 'values', label: t('submit.bodyValues') }, ...(s.body === 'other' ? [{ value: 'other', label: t('submit.bodyOther') }] : []), ...(s.body === 'none' ? [{ value: 'none', label: t('submit.bodyNone') }] : [])]
  const error = problemText(editing.problems.filter((p) => p.place === 'submit'), t)

  return (
    <fieldset className="screen-studio__group">
      <legend>{t('submit.title')}</legend>
      <div className="screen-studio__grid">
        <FieldShell id={`${id}-method`} label={t('submit.method')}>
          <Dropdown inputId={`${id}-method`} value={s.method} onChange={(e) => set({ method: e.value as SubmitDesign['method'] })} options={METHODS} />
        </FieldShell>
        <FieldShell id={`${id}-endpoint`} label={t('submit.endpoint')} error={error}>
          <Dropdown inputId={`${id}-endpoint`} value={s.endpoint} onChange={(e) => set({ endpoint: e.value as string })} options={options} filter placeholder={t('submit.endpointPick')} loading={!editing.calls} aria-invalid={!!error} />
        </FieldShell>
        <FieldShell id={`${id}-body`} label={t('submit.body')}>
          <Dropdown inputId={`${id}-body`} value={s.body} onChange={(e) => set({ body: e.value as SubmitDesign['body'] })} options={bodies} />
        </FieldShell>
      </div>
      <div className="form-editor__pairs">
        <TextPair id={`${id}-label`} labels={[t('submit.labelEs'), t('submit.labelEn')]} value={s.label} commit={(label) => set({ label })} />
        <TextPair id={`${id}-toast`} labels={[t('submit.toastEs'), t('submit.toastEn')]} value={s.toast} commit={(toast) => set({ toast })} hint={t('submit.toastHelp')} />
      </div>
    </fieldset>
  )
}
