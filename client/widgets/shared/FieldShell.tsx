import type { ReactNode } from 'react'

/** Label, input, hint and error of one field of a widget's form, wired for screen readers (describedby, invalid). */
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

/** The aria-describedby of a field: its error and its hint, when shown. */
export const describedBy = (id: string, hint: unknown, error: unknown) => [error ? `${id}-error` : null, hint ? `${id}-help` : null].filter(Boolean).join(' ') || undefined
