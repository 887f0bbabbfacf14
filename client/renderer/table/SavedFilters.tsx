import { Button } from 'primereact/button'
import { Dialog } from 'primereact/dialog'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { useState } from 'react'
import { useMessages } from '../../i18n/i18n'
import { messages } from './messages'
import type { SavedFilter, TableState } from './table-state'

/** Named filters the user keeps (server-side preference): apply, save the current one, delete. */
export function SavedFilters({ saved, current, onApply, onSave, onDelete }: { saved: SavedFilter[]; current: TableState; onApply: (f: SavedFilter) => void; onSave: (name: string) => Promise<void>; onDelete: (name: string) => Promise<void> }) {
  const t = useMessages(messages)
  const [naming, setNaming] = useState(false)
  const [name, setName] = useState('')
  const [selected, setSelected] = useState<string | null>(null)
  const hasFilters = Object.values(current.filters).some(Boolean)
  return (
    <div className="saved-filters">
      {saved.length > 0 && (
        <>
          <label htmlFor="saved-filter" className="p-sr-only">
            {t('saved.label')}
          </label>
          <Dropdown
            inputId="saved-filter"
            value={selected}
            options={saved.map((s) => ({ label: s.name, value: s.name }))}
            placeholder={t('saved.label')}
            onChange={(e) => {
              setSelected(e.value)
              const f = saved.find((s) => s.name === e.value)
              if (f) onApply(f)
            }}
          />
          {selected && <Button type="button" icon="pi pi-trash" text rounded aria-label={t('saved.delete', { name: selected })} onClick={() => void onDelete(selected).then(() => setSelected(null))} />}
        </>
      )}
      <Button type="button" icon="pi pi-bookmark" label={t('saved.save')} outlined size="small" disabled={!hasFilters} onClick={() => setNaming(true)} />
      {naming && (
        <Dialog header={t('saved.save')} visible modal onHide={() => setNaming(false)} style={{ width: '25vw' }} breakpoints={{ '960px': '60vw', '641px': '95vw' }} draggable={false}>
          <form
            onSubmit={(e) => {
              e.preventDefault()
              if (!name.trim()) return
              void onSave(name.trim()).then(() => {
                setNaming(false)
                setSelected(name.trim())
                setName('')
              })
            }}
          >
            <label htmlFor="filter-name">{t('saved.name')}</label>
            <InputText id="filter-name" value={name} autoFocus maxLength={60} onChange={(e) => setName(e.target.value)} className="w-full" />
            <div className="dialog-actions">
              <Button type="button" label={t('dialog.cancel')} text onClick={() => setNaming(false)} />
              <Button type="submit" label={t('dialog.save')} icon="pi pi-check" disabled={!name.trim()} />
            </div>
          </form>
        </Dialog>
      )}
    </div>
  )
}
