import type { CSSProperties } from 'react'
import { classNames } from './class-names'
import './plain.css'

export interface PlainTagProps {
  value: string
  /** A PrimeIcons class shown before the value. */
  icon?: string
  severity?: 'success' | 'info' | 'warning' | 'danger' | 'secondary' | 'contrast'
  style?: CSSProperties
  /** `no` for data (a value from the API stays in the language it was written in). */
  translate?: 'yes' | 'no'
}

/**
 * A badge with PrimeReact's Tag markup and classes (the brand theme colours it by severity) and
 * none of its code: a list draws one or two in every row. The portal's one badge.
 */
export function Tag({ value, icon, severity, style, translate }: PlainTagProps) {
  return (
    <span className={classNames('p-tag p-component', severity && `p-tag-${severity}`)} style={style} translate={translate}>
      {icon && <span className={classNames('p-tag-icon', icon)} />}
      <span className="p-tag-value">{value}</span>
    </span>
  )
}
