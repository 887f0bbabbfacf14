import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { Message } from 'primereact/message'
import { useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { FieldOptionsEditor } from './FieldOptionsEditor'
import { FieldValidatorEditor } from './FieldValidatorEditor'
import { FieldVisibleEditor } from './FieldVisibleEditor'
import { FIELD_TYPES, keptKeys, nameProblem, OPTION_INPUTS, renameField, TEXT_INPUTS, withField, type FieldDesign, type FormEditing, type ProblemPlace } from './form-design'
import { formMessages } from './form-messages'
import { NumberBox, problemText, TextBox, TextPair, Warning } from './FormInputs'

/** One field opened: its name, texts, kind, flags, bounds, visibility, validator and options. */
export function FieldEditor({ editing, index, refused, onRenamed }: { editing: FormEditing; index: number; refused: string | null; onRenamed: (name: string) => void }) {
  const t = useMessages(formMessages)
  const { design, apply } = editing
  const f = design.fields[index]!
  const id = `${editing.id}-field-${index}`
  const set = (patch: Partial<FieldDesign>) => apply(withField(design, index, patch))
  const at = (place: ProblemPlace) => editing.problems.filter((p) => p.field === index && p.step === null && p.place === place)
  const errorAt = (place: ProblemPlace) => problemText(at(place), t)
  const headingId = `${id}-heading`

  const rename = (name: string) => {
    const problem = nameProblem(editing.form, index, name)
    if (problem) return t(problem.code, problem.vars)
    const refusal = editing.applyForm(renameField(editing.form, f.name, name))
    if (!refusal) onRenamed(name)
    return refusal
  }
  const kept = keptKeys(f.origin)

  return (
    <section className="form-editor__field" aria-labelledby={headingId}>
      <h4 id={headingId} className="form-editor__heading">
        {t('field.editing', { field: f.name })}
      </h4>
      {refused && <Message severity="error" className="screen-studio__message" text={refused} />}
      <div className="form-editor__pairs">
        <div className="form-editor__pair">
        <TextBox id={`${id}-name`} label={t('field.name')} value={f.name} commit={rename} lazy required hint={t('field.nameHelp')} error={errorAt('name')} />
        <FieldShell id={`${id}-input`} label={t('field.input')}>
          <Dropdown inputId={`${id}-input`} value={f.input} onChange={(e) => set({ input: e.value as FieldDesign['input'] })} options={FIELD_TYPES.map((k) => ({ value: k, label: t(`input.${k}`) }))} />
        </FieldShell>
        </div>
        <TextPair id={`${id}-label`} labels={[t('field.labelEs'), t('field.labelEn')]} value={f.label} commit={(label) => set({ label })} required />
      </div>
      <div className="form-editor__checks">
        <FieldShell id={`${id}-required`} label={t('field.required')} check>
          <Checkbox inputId={`${id}-required`} checked={f.required} onChange={(e) => set({ required: !!e.checked })} />
        </FieldShell>
        <FieldShell id={`${id}-wide`} label={t('field.wide')} check>
          <Checkbox inputId={`${id}-wide`} checked={f.wide} onChange={(e) => set({ wide: !!e.checked })} />
        </FieldShell>
        <FieldShell id={`${id}-exclude`} label={t('field.exclude')} check>
          <Checkbox inputId={`${id}-exclude`} checked={f.exclude} onChange={(e) => set({ exclude: !!e.checked })} />
        </FieldShell>
      </div>
      <div className="form-editor__pairs">
        <TextPair id={`${id}-placeholder`} labels={[t('field.placeholderEs'), t('field.placeholderEn')]} value={f.placeholder} commit={(placeholder) => set({ placeholder })} />
        <TextPair id={`${id}-help`} labels={[t('field.helpEs'), t('field.helpEn')]} value={f.help} commit={(help) => set({ help })} />
      </div>
      {(TEXT_INPUTS.includes(f.input) || f.minLength !== null || f.maxLength !== null) && (
        <div className="screen-studio__grid">
          <NumberBox id={`${id}-minlength`} label={t('field.minLength')} value={f.minLength} commit={(minLength) => set({ minLength })} integer error={errorAt('length')} />
          <NumberBox id={`${id}-maxlength`} label={t('field.maxLength')} value={f.maxLength} commit={(maxLength) => set({ maxLength })} integer />
        </div>
      )}
      {(f.input === 'number' || f.min !== null || f.max !== null) && (
        <div className="screen-studio__grid">
          <NumberBox id={`${id}-min`} label={t('field.min')} value={f.min} commit={(min) => set({ min })} error={errorAt('range')} />
          <NumberBox id={`${id}-max`} label={t('field.max')} value={f.max} commit={(max) => set({ max })} />
        </div>
      )}
      <FieldVisibleEditor editing={editing} index={index} error={errorAt('visible')} />
      {(TEXT_INPUTS.includes(f.input) || f.validator) && <FieldValidatorEditor editing={editing} index={index} error={errorAt('validator')} />}
      {(OPTION_INPUTS.includes(f.input) || f.options.kind !== 'none') && <FieldOptionsEditor editing={editing} index={index} error={errorAt('options')} />}
      <Warning>{problemText(editing.problems.filter((p) => p.field === index && p.step === null && p.place !== 'step'), t, 'warning')}</Warning>
      {kept.length > 0 && <p className="screen-studio__help">{t('field.kept', { keys: kept.join(', ') })}</p>}
    </section>
  )
}
