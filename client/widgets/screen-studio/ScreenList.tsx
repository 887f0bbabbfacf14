import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { InputText } from 'primereact/inputtext'
import { useMemo, useState } from 'react'
import { Tag } from '../../ui/plain/Tag'
import { Button as PlainButton } from '../../ui/plain/Button'
import { screenAdmin, type StudioScreenSummary } from '../../api/screen-admin'
import { localized, useMessages } from '../../i18n/i18n'
import type { GridColumn } from '../../ui/grid/DataGrid'
import { LocalGrid } from '../../ui/grid/LocalGrid'
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

  const columns: GridColumn<StudioScreenSummary>[] = [
    {
      key: 'title',
      header: t('list.col.title'),
      body: (s) => (
        <button type="button" className="screen-studio__open" onClick={() => onOpen(s.id)} aria-label={t('list.open', { title: localized(s.title) })}>
          <strong>{localized(s.title)}</strong> <code translate="no">{s.id}</code>
        </button>
      ),
    },
    { key: 'path', header: t('list.col.path'), body: (s) => <code translate="no">{s.path ?? '—'}</code> },
    {
      key: 'status',
      header: t('list.col.status'),
      body: (s) => {
        const badge = statusBadge(s.status)
        return <Tag value={badge.label} severity={badge.severity} />
      },
    },
    { key: 'version', header: t('list.col.version'), body: (s) => (s.version === 0 ? t('status.shipped') : s.version) },
    { key: 'audience', header: t('list.col.audience'), body: (s) => releaseText(s.audience) },
    {
      key: 'copy',
      header: null,
      width: '4rem',
      body: (s) => <PlainButton icon="pi pi-copy" text rounded size="small" aria-label={`${t('list.copy')} ${localized(s.title)}`} data-tip={t('list.copy')} onClick={(e) => (e.stopPropagation(), onNew(s.id))} />,
    },
  ]

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
      <LocalGrid<StudioScreenSummary>
        rows={rows}
        rowKey={(s) => s.id}
        columns={columns}
        label={t('list.title')}
        loading={list.isPending}
        empty={t('list.empty')}
        className="p-datatable-hoverable-rows"
        onRowClick={(s) => onOpen(s.id)}
        rowClassName={() => 'screen-studio__row'}
      />
    </section>
  )
}
