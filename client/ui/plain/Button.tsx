import type { ButtonHTMLAttributes } from 'react'
import { classNames } from './class-names'
import { SpinnerIcon } from './icons'
import './plain.css'

export interface PlainButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  label?: string
  /** A PrimeIcons class, e.g. `pi pi-sign-in`. */
  icon?: string
  /** Disabled, with a spinning icon in place of `icon`. */
  loading?: boolean
  text?: boolean
  outlined?: boolean
  /** Drawn as a link (PrimeReact's `link`). */
  link?: boolean
  rounded?: boolean
  size?: 'small' | 'large'
  /** PrimeReact's severities (`p-button-danger`…). */
  severity?: 'secondary' | 'success' | 'info' | 'warning' | 'danger' | 'help' | 'contrast'
}

/**
 * A button with PrimeReact's Button markup and classes (so the brand theme styles it the same)
 * and none of its code: for the public pages, which must not download PrimeReact, and for the
 * buttons of every list (row actions, toolbar, filter bar), where PrimeReact's per-button cost
 * adds up on each screen drawn.
 */
export function Button({ label, icon, loading = false, text, outlined, link, rounded, size, severity, className, disabled, type = 'button', ...rest }: PlainButtonProps) {
  const off = disabled || loading
  const iconClass = classNames('p-button-icon p-c', label && 'p-button-icon-left')
  return (
    <button
      aria-label={label ?? rest['aria-label']}
      {...rest}
      type={type}
      disabled={off}
      className={classNames(
        className,
        'p-button p-component',
        (icon || loading) && !label && 'p-button-icon-only',
        off && 'p-disabled',
        loading && 'p-button-loading',
        text && 'p-button-text',
        outlined && 'p-button-outlined',
        link && 'p-button-link',
        rounded && 'p-button-rounded',
        loading && label && 'p-button-loading-left',
        size && `p-button-${size === 'small' ? 'sm' : 'lg'}`,
        severity && `p-button-${severity}`,
      )}
    >
      {loading ? <SpinnerIcon className={classNames('p-icon-spin', iconClass, 'p-button-loading-icon')} /> : icon && <span className={classNames(iconClass, icon)} />}
      <span className="p-button-label p-c">{label ?? '\u00a0'}</span>
    </button>
  )
}
