import { InputNumber } from 'primereact/inputnumber'
import { InputText } from 'primereact/inputtext'
import type { ReactNode } from 'react'
import { useI18n } from '../../i18n/i18n'
import { intlLocale } from '../../ui/format'
import { describedBy } from '../../ui/described-by'
import { FieldShell } from '../../ui/FieldShell'

export function NumberField(props: {
  id: string
  label: string
  value: number | null
  onChange: (v: number | null) => void
  hint?: ReactNode
  error?: string
  required?: boolean
  maxFractionDigits?: number
  placeholder?: string
}) {
  const { id, label, value, onChange, hint, error, required, maxFractionDigits = 0, placeholder } = props
  // Decimal comma in Spanish, decimal point in English.
  const { lang } = useI18n()
  return (
    <FieldShell id={id} label={label} required={required} hint={hint} error={error}>
      <InputNumber
        inputId={id}
        value={value}
        onValueChange={(e) => onChange(typeof e.value === 'number' ? e.value : null)}
        locale={intlLocale(lang)}
        minFractionDigits={0}
        maxFractionDigits={maxFractionDigits}
        aria-describedby={describedBy(id, hint, error)}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        invalid={!!error}
        placeholder={placeholder}
      />
    </FieldShell>
  )
}

export function TextField(props: { id: string; label: string; value: string; onChange: (v: string) => void; hint?: ReactNode; error?: string; required?: boolean; type?: string; autoComplete?: string; maxLength?: number; wide?: boolean; placeholder?: string }) {
  const { id, label, value, onChange, hint, error, required, type = 'text', autoComplete = 'off', maxLength, wide, placeholder } = props
  return (
    <FieldShell id={id} label={label} required={required} hint={hint} error={error} wide={wide}>
      <InputText
        id={id}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={describedBy(id, hint, error)}
        aria-invalid={error ? true : undefined}
        aria-required={required || undefined}
        invalid={!!error}
        autoComplete={autoComplete}
        maxLength={maxLength}
        placeholder={placeholder}
      />
    </FieldShell>
  )
}
