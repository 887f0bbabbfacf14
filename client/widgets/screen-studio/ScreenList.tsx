import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Column } from 'primereact/column'
import { DataTable } from 'primereact/datatable'
import { InputText } from 'primereact/inputtext'
import { Tag } from 'primereact/tag'
import { Button as PlainButton } from '../../ui/plain/Button'
import { useMemo, useState } from 'react'
import { screenAdmin, type StudioScreenSummary } from '../../api/screen-admin'
import { localized, useMessages } from '../../i18n/i18n'
import { ErrorState } from '../../ui/states'
import { messages } from './messages'
import { releaseText, statusBadge } from './status'

/** Every screen, shipped or built here, with its status and audience; search, open, create, copy. */
export function ScreenList({ onOpen, onNew }: { onOpen: (id: string) => void; onNew: (copyOf?: string) => void }) {
  const t = useMessages(messages)
  const list = useQuery({ queryKey: ['studio', 'screens'], queryFn: screenAdmin.list, staleTime: 0, meta: { errorArea: t('area'), errorMessage: t('list.error') } })
  const [search, setSearch] = useState('')
  const rows = useMemo(() => {
    const q = search.trim().toLowerCase()
    const all = list.data ?? []
    return q ? all.filter((s) => `${s.id} ${localized(s.title)} ${s.path ?? ''}`.toLowerCase().includes(q)) : all
  }, [list.data, search])

  if (list.isError) return <ErrorState action={<Button label={t('editor.reload')} text size="small" onClick={() => void list.refetch()} />}>{t('list.error')}</ErrorState>
  return (
    <section className="screen-studio card" aria-labelledby="studio-list-title">
      <div className="screen-studio__toolbar">
        <h2 id="studio-list-title" className="screen-studio__heading">
          {t('list.title')}
        </h2>
        <InputText type="search" className="screen-studio__search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('list.search')} aria-label={t('list.search')} />
        <Button label={t('list.new')} icon="pi pi-plus" onClick={() => onNew()} />
      </div>
      <DataTable
        value={rows}
        dataKey="id"
        loading={list.isPending}
        emptyMessage={t('list.empty')}
        size="small"
        stripedRows
        rowHover
        onRowClick={(e) => onOpen((e.data as StudioScreenSummary).id)}
        rowClassName={() => 'screen-studio__row'}
        paginator={rows.length > 25}
        rows={25}
      >
        <Column
          header={t('list.col.title')}
          body={(s: StudioScreenSummary) => (
            <button type="button" className="screen-studio__open" onClick={() => onOpen(s.id)} aria-label={t('list.open', { title: localized(s.title) })}>
              <strong>{localized(s.title)}</strong> <code translate="no">{s.id}</code>
            </button>
          )}
        />
        <Column header={t('list.col.path')} body={(s: StudioScreenSummary) => <code translate="no">{s.path ?? '—'}</code>} />
        <Column
          header={t('list.col.status')}
          body={(s: StudioScreenSummary) => {
            const badge = statusBadge(s.status)
            return <Tag value={badge.label} severity={badge.severity} />
          }}
        />
        <Column header={t('list.col.version')} body={(s: StudioScreenSummary) => (s.version === 0 ? t('status.shipped') : s.version)} />
        <Column header={t('list.col.audience')} body={(s: StudioScreenSummary) => releaseText(s.audience)} />
        <Column
          body={(s: StudioScreenSummary) => <PlainButton icon="pi pi-copy" text rounded size="small" aria-label={`${t('list.copy')} ${localized(s.title)}`} data-tip={t('list.copy')} onClick={(e) => (e.stopPropagation(), onNew(s.id))} />}
          style={{ width: '4rem' }}
        />
      </DataTable>
    </section>
  )
}
