import { Dropdown } from 'primereact/dropdown'
import { localized, useMessages } from '../../../i18n/i18n'
import { FieldShell } from '../../../ui/FieldShell'
import { valueFor, withField, type FormEditing } from './form-design'
import { formMessages } from './form-messages'
import { TextBox } from './FormInputs'

/** «Visible only when» another field of the form equals a value: picked among its options when it has fixed ones, typed otherwise. */
export function FieldVisibleEditor({ editing, index, error }: { editing: FormEditing; index: number; error?: string }) {
  const t = useMessages(formMessages)
  const { design, apply, form } = editing
  const f = design.fields[index]!
  const id = `${editing.id}-field-${index}-visible`
  const v = f.visibleWhen
  if (v.kind === 'other') return <p className="screen-studio__help">{t('field.visibleOther', { condition: JSON.stringify(form.fields[index]?.visibleWhen) })}</p>

  const other = v.kind === 'equals' ? form.fields.find((g) => g.name === v.field) : undefined
  const setValue = (value: ReturnType<typeof valueFor> | null) => (v.kind === 'equals' ? apply(withField(design, index, { visibleWhen: { ...v, value } })) : null)
  const choices = other?.input === 'checkbox' ? [{ value: true, label: t('field.yes') }, { value: false, label: t('field.no') }] : Array.isArray(other?.options) ? other.options.map((o) => ({ value: o.value, label: `${localized(o.label)} (${String(o.value)})` })) : null

  return (
    <div className="screen-studio__grid">
      <FieldShell id={id} label={t('field.visible')} error={error}>
        <Dropdown
          inputId={id}
          value={v.kind === 'equals' ? v.field : null}
          onChange={(e) => apply(withField(design, index, { visibleWhen: e.value ? { kind: 'equals', field: e.value as string, value: v.kind === 'equals' ? v.value : '' } : { kind: 'always' } }))}
          options={form.fields.filter((_, j) => j !== index).map((g) => ({ value: g.name, label: `${localized(g.label)} (${g.name})` }))}
          placeholder={t('field.visibleAlways')}
          showClear
          filter
          aria-invalid={!!error}
        />
      </FieldShell>
      {v.kind === 'equals' &&
        (choices ? (
          <FieldShell id={`${id}-value`} label={t('field.visibleValue')}>
            <Dropdown inputId={`${id}-value`} value={v.value} onChange={(e) => setValue(e.value as ReturnType<typeof valueFor>)} options={choices} />
          </FieldShell>
        ) : (
          <TextBox id={`${id}-value`} label={t('field.visibleValue')} value={v.value === null ? '' : String(v.value)} commit={(text) => setValue(valueFor(other, text))} />
        ))}
    </div>
  )
}
