import { classNames } from './class-names'
import { CheckIcon, TimesCircleIcon } from './icons'
import './plain.css'

export interface PlainMessageProps {
  severity: 'error' | 'success'
  text: string
  className?: string
  /** `alert` for an error, `status` for news that need not interrupt. */
  role?: 'alert' | 'status'
}

/** An inline message with PrimeReact's Message markup (icon, text, live region) and none of its code. */
export function Message({ severity, text, className, role = 'alert' }: PlainMessageProps) {
  const Icon = severity === 'error' ? TimesCircleIcon : CheckIcon
  return (
    <div className={classNames(className, 'p-inline-message p-component', `p-inline-message-${severity}`)} role={role} aria-live="polite" aria-atomic="true">
      <Icon className="p-inline-message-icon" />
      <span className="p-inline-message-text">{text}</span>
    </div>
  )
}
