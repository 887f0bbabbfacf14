import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { InputText } from 'primereact/inputtext'
import { InputTextarea } from 'primereact/inputtextarea'
import { MultiSelect } from 'primereact/multiselect'
import { useRef, useState } from 'react'
import type { Field } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { fromIsoDay, intlLocale, toIsoDay } from '../../ui/format'
import { PasswordInput } from '../../ui/plain/PasswordInput'
import type { ResolvedOption } from '../options'
import { messages } from './messages'
import { DateInput } from '../../ui/DateInput'

export interface FieldInputProps {
  field: Field
  id: string
  value: unknown
  invalid: boolean
  describedBy?: string
  /** A select's or multiselect's choices (the field controller's). */
  options: ResolvedOption[]
  optionsLoading: boolean
  onChange: (value: unknown) => void
  onBlur: () => void
}

/** The PrimeReact input for a field type. */
export function FieldInput({ field, id, value, invalid, describedBy, options, optionsLoading, onChange, onBlur }: FieldInputProps) {
  const { l, lang } = useI18n()
  const t = useMessages(messages)
  const common = { id, 'aria-describedby': describedBy, 'aria-invalid': invalid || undefined, 'aria-required': field.required || undefined, disabled: field.disabled }
  const placeholder = field.placeholder ? l(field.placeholder) : undefined

  switch (field.input) {
    case 'password':
      return (
        <PasswordInput
          id={id}
          aria-describedby={describedBy}
          value={(value as string) ?? ''}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          invalid={invalid}
          autoComplete={field.autoComplete ?? 'new-password'}
          disabled={field.disabled}
          placeholder={placeholder}
        />
      )
    case 'number':
      return (
        <InputNumber
          inputId={id}
          aria-describedby={describedBy}
          value={typeof value === 'number' ? value : null}
          onValueChange={(e) => onChange(e.value ?? null)}
          onBlur={onBlur}
          locale={intlLocale()}
          min={field.min}
          max={field.max}
          step={field.step}
          maxFractionDigits={field.step && field.step < 1 ? 6 : 0}
          showButtons={false}
          invalid={invalid}
          disabled={field.disabled}
          placeholder={placeholder}
        />
      )
    case 'select':
      return (
        <Dropdown
          inputId={id}
          aria-describedby={describedBy}
          value={value ?? null}
          options={options}
          optionLabel="label"
          optionValue="value"
          onChange={(e) => onChange(e.value)}
          onBlur={onBlur}
          filter={options.length > 8}
          showClear={!field.required}
          loading={optionsLoading}
          invalid={invalid}
          disabled={field.disabled}
          placeholder={placeholder ?? t('input.choose')}
          emptyMessage={t('input.noOptions')}
          emptyFilterMessage={t('input.noResults')}
        />
      )
    case 'multiselect':
      return (
        <MultiSelect
          inputId={id}
          aria-describedby={describedBy}
          value={Array.isArray(value) ? value : []}
          options={options}
          optionLabel="label"
          optionValue="value"
          onChange={(e) => onChange(e.value)}
          onBlur={onBlur}
          filter={options.length > 8}
          display="chip"
          invalid={invalid}
          disabled={field.disabled}
          placeholder={placeholder ?? t('input.choose')}
          emptyMessage={t('input.noOptions')}
        />
      )
    case 'date':
      return (
        <DateInput
          inputId={id}
          aria-describedby={describedBy}
          value={fromIsoDay(value)}
          onChange={(e) => onChange(e.value ? toIsoDay(e.value as Date) : null)}
          onBlur={onBlur}
          dateFormat={lang === 'en' ? 'mm/dd/yy' : 'dd/mm/yy'}
          showIcon
          showButtonBar
          invalid={invalid}
          disabled={field.disabled}
          placeholder={placeholder ?? t('input.date')}
        />
      )
    case 'file':
      return <FileInput field={field} id={id} value={value} describedBy={describedBy} invalid={invalid} onChange={onChange} />
    case 'checkbox':
      return <Checkbox inputId={id} aria-describedby={describedBy} checked={value === true} onChange={(e) => onChange(e.checked === true)} invalid={invalid} disabled={field.disabled} />
    case 'textarea':
      return <InputTextarea {...common} value={(value as string) ?? ''} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} rows={4} autoResize invalid={invalid} placeholder={placeholder} maxLength={field.maxLength} />
    default:
      return (
        <InputText
          {...common}
          type={field.input === 'email' ? 'email' : 'text'}
          value={(value as string) ?? ''}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          invalid={invalid}
          placeholder={placeholder}
          autoComplete={field.autoComplete ?? (field.input === 'email' ? 'email' : 'off')}
          maxLength={field.maxLength}
        />
      )
  }
}

/** Files chosen by picking or by dropping them on the zone; a list with sizes and a remove button each. */
function FileInput({ field, id, value, describedBy, invalid, onChange }: { field: Field; id: string; value: unknown; describedBy?: string; invalid: boolean; onChange: (v: unknown) => void }) {
  const t = useMessages(messages)
  const files = Array.isArray(value) ? (value as File[]) : []
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const add = (list: FileList | null) => {
    if (!list) return
    const chosen = [...list]
    onChange(field.multiple === false ? chosen.slice(0, 1) : [...files, ...chosen])
  }
  return (
    <div
      className={`file-drop ${over ? 'file-drop--over' : ''} ${invalid ? 'file-drop--invalid' : ''}`}
      onDragOver={(e) => {
        e.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        add(e.dataTransfer.files)
      }}
    >
      <input
        ref={input}
        id={id}
        type="file"
        className="file-drop__input"
        multiple={field.multiple !== false}
        accept={field.accept}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => {
          add(e.target.files)
          e.target.value = ''
        }}
      />
      <p className="file-drop__hint">
        <i className="pi pi-cloud-upload" aria-hidden="true" /> {t('file.drop')}{' '}
        <button type="button" className="p-link file-drop__pick" onClick={() => input.current?.click()}>
          {t('file.pick')}
        </button>
        {field.accept ? ` (${field.accept.replaceAll(',', ', ')})` : ''}
      </p>
      {files.length > 0 && (
        <ul className="file-drop__list">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`}>
              <i className="pi pi-file" aria-hidden="true" /> <span>{f.name}</span> <small>{(f.size / 1024).toLocaleString(intlLocale(), { maximumFractionDigits: 0 })} KB</small>
              <button type="button" className="p-link" aria-label={t('file.remove', { name: f.name })} onClick={() => onChange(files.filter((_, j) => j !== i))}>
                <i className="pi pi-times" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
