import type { ReactNode } from 'react'

export interface FieldShellProps {
  /** The input's id: the label points at it; the error is `${id}-error`, the hint `${id}-help` (see ./described-by.ts). */
  id: string
  label: ReactNode
  required?: boolean
  /** A note inside the label, after the required mark (a parameter's kind and place). */
  labelNote?: ReactNode
  hint?: ReactNode
  error?: ReactNode
  /** What sits between the input and its error: a server check, a lookup, a warning, a help of its own. */
  notes?: ReactNode
  /** Spans both columns of a two-column form. */
  wide?: boolean
  /** A checkbox: its label follows the box, on one line. */
  check?: boolean
  className?: string
  /** The `data-field` of the row: the name of the screen field it draws. */
  name?: string
  children: ReactNode
}

/**
 * The portal's one form-field markup (screen forms, widgets, sign-in pages, dialogs): label with
 * its required mark, the input, notes, error and hint, wired for screen readers by the ids
 * `describedBy` (./described-by.ts) gives the input.
 */
export function FieldShell({ id, label, required, labelNote, hint, error, notes, wide, check, className, name, children }: FieldShellProps) {
  const labelElement = (
    <label htmlFor={id} className="screen-form__label">
      {label}
      {required && (
        <span className="required-mark" aria-hidden="true">
          {' *'}
        </span>
      )}
      {labelNote}
    </label>
  )
  return (
    <div className={`screen-form__field${wide ? ' screen-form__field--wide' : ''}${check ? ' screen-form__field--check' : ''}${className ? ` ${className}` : ''}`} data-field={name}>
      {!check && labelElement}
      {children}
      {check && labelElement}
      {notes}
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
