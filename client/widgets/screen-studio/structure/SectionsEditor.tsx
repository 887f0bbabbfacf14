import { Button } from 'primereact/button'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { useState } from 'react'
import type { ColumnFormat, DetailNode } from '../../../../schemas/screen'
import { useMessages } from '../../../i18n/i18n'
import { headerFromField } from '../list-design'
import { messages as studioMessages } from '../messages'
import { FORMATS } from './ColumnsEditor'
import { moved, removed, replaced, withProps } from './edit'
import { messages } from './messages'
import { textOf, textParts } from './text-value'
import { TextFields } from './TextFields'

type Section = DetailNode['sections'][number]
type Field = Section['fields'][number]

/** A detail's sections, each with its title and fields (field, label in Spanish and English, format); added, removed, moved. */
export function SectionsEditor({ id, sections, onChange }: { id: string; sections: Section[]; onChange: (next: Section[]) => void }) {
  const t = useMessages(messages)
  return (
    <fieldset className="screen-studio__group">
      <legend>{t('sections.legend')}</legend>
      {sections.map((section, i) => {
        const what = t('section.what', { n: i + 1 })
        return (
          <fieldset key={i} className="screen-studio__group structure__section">
            <legend>{t('section.n', { n: i + 1 })}</legend>
            <div className="screen-studio__inline structure__section-head">
              <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={i === 0} onClick={() => onChange(moved(sections, i, -1))} aria-label={t('up', { what })} />
              <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={i === sections.length - 1} onClick={() => onChange(moved(sections, i, 1))} aria-label={t('down', { what })} />
              <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => onChange(removed(sections, i))} aria-label={t('remove', { what })} />
            </div>
            <div className="screen-studio__grid">
              <TextFields id={`${id}-${i}-title`} label={t('section.title')} value={section.title} onChange={(title) => onChange(replaced(sections, i, withProps(section, { title })))} />
            </div>
            <SectionFields id={`${id}-${i}`} n={i + 1} fields={section.fields} onChange={(fields) => onChange(replaced(sections, i, { ...section, fields }))} />
          </fieldset>
        )
      })}
      <Button type="button" icon="pi pi-plus" outlined size="small" label={t('section.add')} className="structure__add" onClick={() => onChange([...sections, { fields: [] }])} />
    </fieldset>
  )
}

function SectionFields({ id, n, fields, onChange }: { id: string; n: number; fields: Field[]; onChange: (next: Field[]) => void }) {
  const t = useMessages(messages)
  const ts = useMessages(studioMessages)
  const [newField, setNewField] = useState('')
  const set = (i: number, patch: { [K in keyof Field]?: Field[K] | undefined }) => onChange(replaced(fields, i, withProps(fields[i]!, patch)))
  return (
    <>
      {fields.length > 0 && (
        <div className="screen-studio__table-wrap">
          <table className="screen-studio__columns">
            <thead>
              <tr>
                <th scope="col">{t('field.field')}</th>
                <th scope="col">{t('field.es')}</th>
                <th scope="col">{t('field.en')}</th>
                <th scope="col">{t('field.format')}</th>
                <th scope="col">{t('col.move')}</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((f, i) => {
                const label = textParts(f.label)
                const name = f.field || String(i + 1)
                const what = t('field.what', { field: name })
                return (
                  <tr key={i}>
                    <td>
                      <InputText value={f.field} onChange={(e) => set(i, { field: e.target.value.trim() })} aria-label={`${t('field.field')} ${i + 1}`} />
                    </td>
                    <td>
                      <InputText value={label.es} onChange={(e) => set(i, { label: textOf(e.target.value, label.en, f.label) })} aria-label={`${t('field.es')}: ${name}`} />
                    </td>
                    <td>
                      <InputText value={label.en} onChange={(e) => set(i, { label: textOf(label.es, e.target.value, f.label) })} aria-label={`${t('field.en')}: ${name}`} placeholder={label.es} className={label.en ? undefined : 'screen-studio__missing'} />
                    </td>
                    <td>
                      <Dropdown value={f.format ?? 'text'} options={FORMATS.map((x) => ({ value: x, label: ts(`format.${x}`) }))} onChange={(e) => set(i, { format: e.value === 'text' && !f.format ? undefined : (e.value as ColumnFormat) })} aria-label={`${t('field.format')}: ${name}`} />
                    </td>
                    <td className="screen-studio__move">
                      <Button type="button" icon="pi pi-arrow-up" text rounded size="small" disabled={i === 0} onClick={() => onChange(moved(fields, i, -1))} aria-label={t('up', { what })} />
                      <Button type="button" icon="pi pi-arrow-down" text rounded size="small" disabled={i === fields.length - 1} onClick={() => onChange(moved(fields, i, 1))} aria-label={t('down', { what })} />
                      <Button type="button" icon="pi pi-trash" text rounded size="small" severity="danger" onClick={() => onChange(removed(fields, i))} aria-label={t('remove', { what })} />
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="screen-studio__inline">
        <InputText id={`${id}-new-field`} value={newField} onChange={(e) => setNewField(e.target.value.trim())} placeholder={t('field.newField')} aria-label={t('field.newFieldIn', { n })} />
        <Button
          type="button"
          icon="pi pi-plus"
          label={t('field.add')}
          outlined
          size="small"
          disabled={!newField || fields.some((f) => f.field === newField)}
          onClick={() => {
            onChange([...fields, { field: newField, label: { es: headerFromField(newField) } }])
            setNewField('')
          }}
        />
      </div>
    </>
  )
}
