import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { useState } from 'react'
import { ColumnFormat, type Column } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { messages as studioMessages } from '../messages'
import { headerFromField } from '../list-design'
import { moved, removed, replaced, withProps } from './edit'
import { messages } from './messages'
import { textOf, textParts } from './text-value'

/** Every format of the schema, for columns and detail fields alike. */
export const FORMATS = ColumnFormat.enum as readonly ColumnFormat[]

/**
 * A table's columns: field, header in Spanish and English, format, sortable, hidden; moved,
 * removed, added. What this editor does not show (filters, badges, widths…) stays as it was.
 */
export function ColumnsEditor({ id, columns, onChange }: { id: string; columns: Column[]; onChange: (next: Column[]) => void }) {
  const t = useMessages(messages)
  const ts = useMessages(studioMessages)
  const [newField, setNewField] = useState('')
  const set = (i: number, patch: { [K in keyof Column]?: Column[K] | undefined }) => onChange(replaced(columns, i, withProps(columns[i]!, patch)))
  const taken = columns.map((c) => c.field)
  return (
    <fieldset className="screen-studio__group">
      <legend>{t('columns.legend')}</legend>
      <div className="screen-studio__table-wrap">
        <table className="screen-studio__columns">
          <thead>
            <tr>
              <th scope="col">{t('col.field')}</th>
              <th scope="col">{t('col.es')}</th>
              <th scope="col">{t('col.en')}</th>
              <th scope="col">{t('col.format')}</th>
              <th scope="col">{t('col.sortable')}</th>
              <th scope="col">{t('col.hidden')}</th>
              <th scope="col">{t('col.move')}</th>
            </tr>
          </thead>
          <tbody>
            {columns.map((c, i) => {
              const header = textParts(c.header)
              const name = c.field || String(i + 1)
              const what = t('col.what', { field: name })
              return (
                <tr key={i}>
                  <td>
                    <InputText value={c.field} onChange={(e) => set(i, { field: e.target.value.trim() })} aria-label={`${t('col.field')} ${i + 1}`} />
                  </td>
                  <td>
                    <InputText value={header.es} onChange={(e) => set(i, { header: textOf(e.target.value, header.en, c.header) })} aria-label={`${t('col.es')}: ${name}`} />
                  </td>
                  <td>
                    <InputText value={header.en} onChange={(e) => set(i, { header: textOf(header.es, e.target.value, c.header) })} aria-label={`${t('col.en')}: ${name}`} placeholder={header.es} className={header.en ? undefined : 'screen-studio__missing'} />
                  </td>
                  <td>
                    <Dropdown value={c.format ?? 'text'} options={FORMATS.map((f) => ({ value: f, label: ts(`format.${f}`) }))} onChange={(e) => set(i, { format: e.value === 'text' && !c.format ? undefined : (e.value as ColumnFormat) })} aria-label={`${t('col.format')}: ${name}`} />
                  </td>
                  <td>
                    <Checkbox inputId={`${id}-${i}-sortable`} checked={!!c.sortable} onChange={(e) => set(i, { sortable: e.checked ? true : undefined })} aria-label={`${t('col.sortable')}: ${name}`} />
                  </td>
                  <td>
                    <Checkbox inputId={`${id}-${i}-hidden`} checked={!!c.hidden} onChange={(e) => set(i, { hidden: e.checked ? true : undefined })} aria-label={`${t('col.hidden')}: ${name}`} />
                  </td>
                  <td className="screen-studio__move">
                    <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={i === 0} onClick={() => onChange(moved(columns, i, -1))} aria-label={t('up', { what })} />
                    <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={i === columns.length - 1} onClick={() => onChange(moved(columns, i, 1))} aria-label={t('down', { what })} />
                    <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => onChange(removed(columns, i))} aria-label={t('remove', { what })} />
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <div className="screen-studio__inline">
        <InputText value={newField} onChange={(e) => setNewField(e.target.value.trim())} placeholder={t('col.newField')} aria-label={t('col.newField')} />
        <Button
          type="button"
          icon="pi pi-plus"
          label={t('col.add')}
          outlined
          size="small"
          disabled={!newField || taken.includes(newField)}
          onClick={() => {
            onChange([...columns, { field: newField, header: { es: headerFromField(newField) } }])
            setNewField('')
          }}
        />
      </div>
    </fieldset>
  )
}
