import type { InputHTMLAttributes } from 'react'
import { classNames } from './class-names'
import './plain.css'

export interface PlainInputTextProps extends InputHTMLAttributes<HTMLInputElement> {
  /** Drawn as invalid (red border), as PrimeReact's `invalid`. */
  invalid?: boolean
}

/** A text input with PrimeReact's InputText classes (filled, invalid, disabled) and none of its code. */
export function InputText({ className, invalid, value, disabled, ...rest }: PlainInputTextProps) {
  const filled = value !== undefined && value !== null && String(value) !== ''
  return <input {...rest} value={value} disabled={disabled} className={classNames(className, 'p-inputtext p-component', disabled && 'p-disabled', filled && 'p-filled', invalid && 'p-invalid')} />
}
