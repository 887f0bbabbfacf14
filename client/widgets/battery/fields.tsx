import { InputNumber } from 'primereact/inputnumber'
import { InputText } from 'primereact/inputtext'
import type { ReactNode } from 'react'

/** Label, input, hint and error of one field, wired for screen readers (describedby, invalid). */
export function FieldShell({ id, label, required, hint, error, children, wide }: { id: string; label: string; required?: boolean; hint?: ReactNode; error?: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`screen-form__field ${wide ? 'screen-form__field--wide' : ''}`}>
      <label htmlFor={id} className="screen-form__label">
        {label}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {children}
      {error && (
        <small id={`${id}-error`} className="p-error field-error" role="alert">
          {error}
        </small>
      )}
      {hint && (
        <small id={`${id}-help`} className="field-help">
          {hint}
        </small>
      )}
    </div>
  )
}

export const describedBy = (id: string, hint: unknown, error: unknown) => [error ? `${id}-error` : null, hint ? `${id}-help` : null].filter(Boolean).join(' ') || undefined

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
  return (
    <FieldShell id={id} label={label} required={required} hint={hint} error={error}>
      <InputNumber
        inputId={id}
        value={value}
        onValueChange={(e) => onChange(typeof e.value === 'number' ? e.value : null)}
        locale="es-ES"
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
