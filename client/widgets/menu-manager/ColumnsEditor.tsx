import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Checkbox } from 'primereact/checkbox'
import { Dropdown } from 'primereact/dropdown'
import { InputText } from 'primereact/inputtext'
import { Message } from 'primereact/message'
import { useEffect, useState } from 'react'
import { ApiError } from '../../api/client'
import { reportError } from '../../api/errors'
import { notifySuccess } from '../../api/toast'
import { messageIn, useI18n, useMessages } from '../../i18n/i18n'
import { DataGrid } from '../../ui/grid/DataGrid'
import { moveItem } from '../../ui/grid/reorder'
import { conflictOf, describeVersion, restoredVersion, screenAdmin, type Conflict } from './admin-api'
import { rowsFrom, screenWith, tweaksFrom, tweaksOf, type ColumnTweaks, type TableRows } from './columns-model'
import { ConflictDialog } from './ConflictDialog'
import { messages } from './messages'
import { VersionHistory } from './VersionHistory'

/** The toasts' title, in the current language. */
const area = () => messageIn(messages, 'area.columns')

/** Column order, visibility and headers of the table screens, for everyone; versioned like the menu. */
export function ColumnsEditor() {
  const t = useMessages(messages)
  // Screen titles in the current language (the headers edited below stay the Spanish ones: see ./columns-model.ts).
  const { l } = useI18n()
  const client = useQueryClient()
  const screens = useQuery({ queryKey: ['menu-manager', 'screens'], queryFn: screenAdmin.list, staleTime: 0, meta: { errorArea: t('area.columns'), errorMessage: t('columns.error.screens') } })
  const [screenId, setScreenId] = useState<string | null>(null)
  // The shipped screens with tables: the ones whose columns this editor tweaks (the studio edits the rest).
  const tableScreens = (screens.data ?? []).filter((s) => s.shipped && s.tables.length > 0)
  const id = screenId ?? tableScreens.find((s) => s.id === 'contratos-listado')?.id ?? tableScreens[0]?.id ?? null
  const state = useQuery({
    queryKey: ['menu-manager', 'screen', id],
    queryFn: () => screenAdmin.state(id!),
    enabled: !!id,
    staleTime: 0,
    meta: { errorArea: t('area.columns'), errorMessage: t('columns.error.screen') },
  })
  const [draft, setDraft] = useState<{ id: string; baseVersion: number; rows: TableRows } | null>(null)
  const [saveError, setSaveError] = useState<string | null>(null)
  const [conflict, setConflict] = useState<Conflict<null> | null>(null)
  const [history, setHistory] = useState(false)

  useEffect(() => {
    if (state.data && draft?.id !== state.data.id) {
      setDraft({ id: state.data.id, baseVersion: state.data.version, rows: rowsFrom(state.data, state.data.overlay) })
      setSaveError(null)
    }
  }, [state.data, draft?.id])

  const current = draft && state.data && draft.id === state.data.id ? draft : null
  const overlay = current && state.data ? tweaksFrom(state.data, current.rows) : null
  const dirty = !!current && !!state.data && (current.baseVersion !== state.data.version || JSON.stringify(overlay) !== JSON.stringify(tweaksFrom(state.data, rowsFrom(state.data, state.data.overlay))))

  const adopt = (version: number, stored: ColumnTweaks) => {
    if (!state.data) return
    setDraft({ id: state.data.id, baseVersion: version, rows: rowsFrom(state.data, stored) })
    setSaveError(null)
    void client.invalidateQueries({ queryKey: ['menu-manager', 'screen', id] })
    void client.invalidateQueries({ queryKey: ['menu-manager', 'screen-history', id] })
    void client.invalidateQueries({ queryKey: ['menu-manager', 'screens'] })
    // The admin's own copy of the screen refreshes too.
    void client.invalidateQueries({ queryKey: ['screen', id] })
  }

  const onFailure = (err: unknown) => {
    const clash = conflictOf<null>(err, () => null)
    if (clash) return setConflict(clash)
    if (err instanceof ApiError && err.status === 400 && err.serverMessage) return setSaveError(err.serverMessage)
    reportError(area(), err, messageIn(messages, 'columns.error.save'))
  }

  const save = useMutation({
    // The whole screen with its columns changed: a new version, for everyone at once.
    mutationFn: () => screenAdmin.saveAndPublish(current!.id, current!.baseVersion, screenWith(state.data!.screen, state.data!.shipped, overlay!)),
    onSuccess: (res) => {
      adopt(res.version, overlay!)
      notifySuccess(area(), messageIn(messages, 'columns.saved', { n: res.version }))
    },
    onError: onFailure,
  })
  const rollback = useMutation({
    // A new version with the content of the older one, published to everyone.
    mutationFn: async (target: number) => {
      const older = await screenAdmin.at(id!, target)
      const saved = await screenAdmin.saveAndPublish(id!, state.data!.version, older)
      return { ...saved, overlay: tweaksOf(state.data!.tables, older) }
    },
    onSuccess: (res, target) => {
      adopt(res.version, res.overlay)
      setHistory(false)
      notifySuccess(area(), messageIn(messages, 'rollback.saved', { n: res.version, from: restoredVersion(target) }))
    },
    onError: onFailure,
  })

  const setRows = (table: string, rows: TableRows[string]) => {
    if (!current) return
    setDraft({ ...current, rows: { ...current.rows, [table]: rows } })
    setSaveError(null)
  }

  const title = state.data ? l(state.data.title) : ''
  return (
    <div className="menu-manager__columns">
      <div className="card menu-manager__toolbar">
        <div className="menu-manager__brand">
          <label htmlFor="mm-screen" className="screen-form__label">
            {t('columns.screen')}
          </label>
          <Dropdown
            inputId="mm-screen"
            value={id}
            filter
            options={tableScreens.map((s) => ({ value: s.id, label: `${l(s.title)}${s.path ? ` — ${s.path}` : ''}` }))}
            onChange={(e) => {
              setScreenId(e.value as string)
              setDraft(null)
            }}
            placeholder={t('columns.screenPlaceholder')}
          />
        </div>
        <p className="menu-manager__status" aria-live="polite">
          {state.data && describeVersion(state.data.version, state.data.author, state.data.updatedAt)}
          {dirty && <span className="menu-manager__dirty">{t('unsaved')}</span>}
        </p>
        <div className="action-bar">
          <Button type="button" label={t('history')} icon="pi pi-history" outlined disabled={!state.data} onClick={() => setHistory(true)} />
          <Button type="button" label={t('discard')} icon="pi pi-undo" text disabled={!dirty} onClick={() => state.data && adopt(state.data.version, state.data.overlay)} />
          <Button type="button" label={t('save')} icon="pi pi-save" disabled={!dirty || save.isPending} loading={save.isPending} onClick={() => save.mutate()} />
        </div>
      </div>
      {saveError && <Message className="menu-manager__message" severity="error" text={t('notSaved', { error: saveError })} role="alert" />}
      <p className="field-help menu-manager__columns-help">
        {t('columns.help')}
      </p>
      {current &&
        state.data?.tables.map((table) => {
          const rows = current.rows[table.id] ?? []
          return (
            <section key={table.id} className="card" aria-labelledby={`mm-table-${table.id}`}>
              <h2 id={`mm-table-${table.id}`} className="screen-form__title">
                {t('columns.table', { title, table: table.id })}
              </h2>
              <DataGrid<(typeof rows)[number]>
                rows={rows}
                rowKey={(r) => r.field}
                label={t('columns.table', { title, table: table.id })}
                className="menu-manager__columns-table"
                rowReorder={{ header: t('columns.col.move'), onMove: (from, to) => setRows(table.id, moveItem(rows, from, to)) }}
                columns={[
                  {
                    key: 'visible',
                    header: t('columns.col.visible'),
                    width: '6rem',
                    body: (r, i) => (
                      <Checkbox
                        inputId={`mm-col-${table.id}-${r.field}`}
                        checked={!r.hidden}
                        aria-label={t('columns.show', { name: r.header || r.shippedHeader })}
                        onChange={(e) => setRows(table.id, rows.map((x, j) => (j === i ? { ...x, hidden: !e.checked } : x)))}
                      />
                    ),
                  },
                  { key: 'field', header: t('columns.col.field'), body: (r) => <code>{r.field}</code> },
                  {
                    key: 'header',
                    header: t('columns.col.header'),
                    body: (r, i) => (
                      <InputText
                        value={r.header}
                        placeholder={r.shippedHeader}
                        maxLength={60}
                        aria-label={t('columns.headerOf', { field: r.field })}
                        onChange={(e) => setRows(table.id, rows.map((x, j) => (j === i ? { ...x, header: e.target.value } : x)))}
                      />
                    ),
                  },
                  {
                    key: 'order',
                    header: t('columns.col.order'),
                    width: '7rem',
                    body: (r, i) => (
                      <span className="menu-manager__order">
                        <Button type="button" icon="pi pi-arrow-up" text rounded size="small" aria-label={t('columns.up', { field: r.field })} disabled={i === 0} onClick={() => setRows(table.id, moveItem(rows, i, i - 1))} />
                        <Button type="button" icon="pi pi-arrow-down" text rounded size="small" aria-label={t('columns.down', { field: r.field })} disabled={i === rows.length - 1} onClick={() => setRows(table.id, moveItem(rows, i, i + 1))} />
                      </span>
                    ),
                  },
                ]}
              />
            </section>
          )
        })}
      {history && state.data && (
        <VersionHistory
          title={t('columns.historyOf', { title })}
          queryKey={['menu-manager', 'screen-history', id]}
          load={() => screenAdmin.history(id!)}
          currentVersion={state.data.version}
          dirty={dirty}
          onRollback={(v) => rollback.mutate(v)}
          busy={rollback.isPending}
          onHide={() => setHistory(false)}
          errorArea={t('area.columns')}
        />
      )}
      {conflict && (
        <ConflictDialog
          conflict={conflict}
          onMerge={null}
          onTakeTheirs={() => {
            // Their version, read again: the editor starts over from it.
            setConflict(null)
            void state.refetch().then((r) => r.data && adopt(r.data.version, r.data.overlay))
          }}
          onHide={() => setConflict(null)}
        />
      )}
    </div>
  )
}
