import { Link } from 'react-router-dom'
import type { Column } from '../../../schemas/screen'
import { useI18n } from '../../i18n/i18n'
import { changesOf, formatValue } from '../../ui/format'
import { Tag } from '../../ui/plain/Tag'
import { fill, getPath } from '../template'

/** Text that stays readable on a coloured badge. */
function textOn(hex: string): string {
  const n = parseInt(hex.slice(1), 16)
  const lum = (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255
  return lum > 0.6 ? '#111827' : '#ffffff'
}

/**
 * A table cell or detail value: formatted text, a badge with its colour, a link, or code.
 * What comes from the API is data, marked `translate="no"` (it stays in the language it was
 * written in); a badge's label from the screen and yes/no are the portal's own words.
 */
export function CellValue({ column, row }: { column: Pick<Column, 'field' | 'format' | 'badges' | 'colorField' | 'labelField' | 'link' | 'itemField'>; row: Record<string, unknown> }) {
  const { l } = useI18n()
  const raw = getPath(row, column.field)
  // A `{ es, en }` text (a label the BFF sends in both languages) is shown in the user's language.
  const text = (v: unknown) => (isLocalizedText(v) ? l(v) : v)
  const value = column.itemField && Array.isArray(raw) ? raw.map((item) => text(getPath(item, column.itemField!))).filter((v) => v != null) : text(raw)
  if (Array.isArray(value) && value.length === 0) return <span>—</span>
  if (column.format === 'badge') {
    if (value === null || value === undefined || value === '') return <span>—</span>
    const badge = column.badges?.[String(value)]
    const label = badge?.label ? l(badge.label) : String(column.labelField ? (getPath(row, column.labelField) ?? value) : value)
    const color = badge?.color ?? (column.colorField ? (getPath(row, column.colorField) as string | undefined) : undefined)
    const data = badge?.label ? undefined : 'no'
    if (color && /^#[0-9a-fA-F]{6}$/.test(color)) return <Tag value={label} translate={data} style={{ background: color, color: textOn(color) }} />
    return <Tag value={label} translate={data} severity={(badge?.severity as 'success' | 'info' | 'warning' | 'danger' | 'secondary' | 'contrast' | undefined) ?? 'info'} />
  }
  if (column.format === 'boolean') {
    const yes = value === true || value === 1 || value === 'true'
    return (
      <span className={`bool-cell ${yes ? 'bool-cell--yes' : 'bool-cell--no'}`}>
        <i className={`pi ${yes ? 'pi-check-circle' : 'pi-minus-circle'}`} aria-hidden="true" /> {formatValue(value, 'boolean')}
      </span>
    )
  }
  if (column.format === 'link' && column.link && value !== null && value !== undefined) {
    return (
      <Link to={fill(column.link, { row }, true)} translate="no">
        {formatValue(value, 'text')}
      </Link>
    )
  }
  if (column.format === 'code') return <code className="code-cell" translate="no">{formatValue(value, 'text')}</code>
  if (column.format === 'tags') {
    const items = (Array.isArray(value) ? value : [value]).filter((v) => v !== null && v !== undefined && v !== '')
    if (items.length === 0) return <span>—</span>
    return (
      <span className="tag-list" translate="no">
        {items.map((item, i) => (
          <Tag key={`${String(item)}-${i}`} value={String(item)} severity="secondary" />
        ))}
      </span>
    )
  }
  if (column.format === 'changes') {
    const changes = changesOf(value)
    if (changes.length === 0) return <span>—</span>
    return (
      <ul className="change-list" translate="no">
        {changes.map((c) => (
          <li key={c.field}>
            <span className="change-list__field">{c.field}</span> {c.before} → {c.after}
          </li>
        ))}
      </ul>
    )
  }
  return <span translate="no">{formatValue(value, column.format)}</span>
}

function isLocalizedText(v: unknown): v is { es: string; en?: string } {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && typeof (v as { es?: unknown }).es === 'string' && Object.keys(v).every((k) => k === 'es' || k === 'en')
}
