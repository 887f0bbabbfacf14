import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dialog } from 'primereact/dialog'
import { useState } from 'react'
import type { Column } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { useReturnFocus } from '../../ui/return-focus'
import { messages } from './messages'

/** Choose and order the table's columns; keyboard friendly (checkboxes and up/down buttons). */
export function ColumnChooser({ columns, visible, onSave, onReset, onClose }: { columns: Column[]; visible: string[]; onSave: (fields: string[]) => void; onReset: () => void; onClose: () => void }) {
  const { l } = useI18n()
  const t = useMessages(messages)
  const [order, setOrder] = useState(() => [...visible, ...columns.map((c) => c.field).filter((f) => !visible.includes(f))])
  const [shown, setShown] = useState(() => new Set(visible))
  useReturnFocus()
  const byField = new Map(columns.map((c) => [c.field, c]))
  const move = (i: number, delta: number) => {
    const next = [...order]
    const j = i + delta
    if (j < 0 || j >= next.length) return
    ;[next[i], next[j]] = [next[j]!, next[i]!]
    setOrder(next)
  }
  return (
    <Dialog header={t('columns.title')} visible modal onHide={onClose} style={{ width: '26rem' }} breakpoints={{ '641px': '95vw' }} draggable={false}>
      <ul className="column-chooser">
        {order.map((field, i) => {
          const col = byField.get(field)
          if (!col) return null
          const id = `col-${field}`
          return (
            <li key={field}>
              <Checkbox
                inputId={id}
                checked={shown.has(field)}
                onChange={(e) => {
                  const next = new Set(shown)
                  if (e.checked) next.add(field)
                  else if (next.size > 1) next.delete(field)
                  setShown(next)
                }}
              />
              <label htmlFor={id}>{l(col.header)}</label>
              <span className="column-chooser__move">
                <Button type="button" icon="pi pi-arrow-up" text rounded size="small" aria-label={t('columns.up', { column: l(col.header) })} disabled={i === 0} onClick={() => move(i, -1)} />
                <Button type="button" icon="pi pi-arrow-down" text rounded size="small" aria-label={t('columns.down', { column: l(col.header) })} disabled={i === order.length - 1} onClick={() => move(i, 1)} />
              </span>
            </li>
          )
        })}
      </ul>
      <div className="dialog-actions">
        <Button type="button" label={t('columns.reset')} text onClick={onReset} />
        <Button type="button" label={t('dialog.save')} icon="pi pi-check" onClick={() => onSave(order.filter((f) => shown.has(f)))} />
      </div>
    </Dialog>
  )
}
