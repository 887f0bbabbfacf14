import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router-dom'
import { Button } from '../../ui/plain/Button'
import type { TableNode } from '../../../schemas/screen'
import { useI18n, useMessages } from '../../i18n/i18n'
import { intlLocale, isNumericFormat } from '../../ui/format'
import { useOfferAction } from '../../ui/offered-actions'
import { EmptyState, ErrorState, FilteredEmptyState, LoadingState, viewStateOf } from '../../ui/states'
import { ActionButton } from '../actions/ActionButton'
import { ReasonDialog } from '../actions/ReasonDialog'
import { CellValue } from '../table/CellValue'
import { ColumnChooser } from '../table/ColumnChooser'
import { FilterBar, focusFilters } from '../table/FilterBar'
import { extendSelection } from '../table/grid-keys'
import { arrangeColumns } from '../table/grid-layout'
import { GridMenu } from '../table/GridMenu'
import { messages } from '../table/messages'
import { pageSizesOf, VIRTUAL_FROM } from '../table/table-state'
import { totalCells } from '../table/totals'
import { useGridKeyboard } from '../table/use-grid-keyboard'
import { useGridLayout } from '../table/use-grid-layout'
import { useRowHeight } from '../table/use-row-height'
import { useTableController, type Row } from '../table/use-table-controller'
import { ViewsMenu } from '../table/ViewsMenu'
import { DataGrid, type DataGridHandle, type GridColumn } from '../../ui/grid/DataGrid'
import { ROW_INDEX_ATTR } from '../../ui/grid/row-index'
import { useLinkIntent } from '../../ui/link-intent'
import { SplitButton } from '../../ui/SplitButton'

/** First guess of a row's height (px) per density, for the virtual scroller; the drawn height is measured then. */
const ROW_HEIGHT = { comfortable: 41, compact: 31 } as const

/**
 * A server-paged (or local) table: columns, sort, filters, pager, export, row link, row and bulk
 * actions, column choice and views; as a grid: resizable, reorderable and pinnable
 * columns, density, keyboard use, virtual scrolling of large pages and a totals row. The state
 * and data are the controller's; this draws them with the portal's grid (ui/grid).
 */
export function TableNodeView({ node }: { node: TableNode }) {
  const { l, lang } = useI18n()
  const t = useMessages(messages)
  const navigate = useNavigate()
  const table = useTableController(node)
  const { state, rows, total, columns, selection, title } = table
  const [chooser, setChooser] = useState(false)
  const [askingReason, setAskingReason] = useState(false)
  // An untitled table is named by the screen's explicit area where it gives one; an area is
  // Spanish only (a plain string of the screen), so in English the translated title names it.
  const tableName = node.title ? title : node.errorArea ? l(node.errorArea) : title
  const grid = useGridLayout(node, tableName)
  const { layout } = grid
  const shown = arrangeColumns(columns, layout.pinned)
  const totals = rows.length > 0 ? totalCells(shown, table.totals) : null
  const virtual = table.paged && state.size > VIRTUAL_FROM
  const gridHandle = useRef<DataGridHandle>(null)
  const gridRef = useRef<HTMLDivElement>(null)
  const rowHeight = useRowHeight(gridRef, ROW_HEIGHT[layout.density], virtual, rows)
  // The export is a table action like the declared ones: the command palette offers it too.
  useOfferAction(node.export ? { key: `${node.id}:export`, label: `${t('toolbar.export')} — ${tableName}`, icon: 'pi pi-file-excel', run: () => void table.exportFile() } : null)

  const view = viewStateOf({ loading: table.pending, failed: table.failed, empty: rows.length === 0, filtered: table.filtered })
  // Empty and filtered-empty keep the column headers (the table's shape) with the state inside.
  const emptyBody =
    view === 'filtered-empty' ? (
      <FilteredEmptyState
        onClearFilters={() => {
          table.clearFilters()
          focusFilters(node.id, node.columns, columns.map((c) => c.field))
        }}
      />
    ) : (
      <EmptyState icon="pi pi-inbox">{node.emptyMessage ? l(node.emptyMessage) : t('table.emptyAll')}</EmptyState>
    )

  const rowLink = node.rowLink
  // The cells read the table's latest links; the columns themselves change only with the layout, the totals or the language.
  const latest = useRef(table)
  latest.current = table
  const totalsLabelField = totals ? shown.find((c) => !totals.has(c.field))?.field : undefined
  const columnsKey = JSON.stringify([shown.map((c) => c.field), layout.widths, layout.pinned, lang, !!totals, totalsLabelField])
  const gridColumns = useMemo<GridColumn<Row>[]>(() => {
    const firstField = shown[0]?.field
    const dataColumns = shown.map((col): GridColumn<Row> => {
      const px = layout.widths[col.field]
      return {
        key: col.field,
        header: l(col.header),
        sortable: !!col.sortable,
        width: px ? `${px}px` : col.width,
        align: col.align ?? (isNumericFormat(col.format) ? 'right' : undefined),
        pin: layout.pinned[col.field],
        footer: totals ? (col.field === totalsLabelField ? t('grid.totals') : <span translate="no">{totals.get(col.field) ?? ''}</span>) : undefined,
        body: (row) =>
          rowLink && col.field === firstField ? (
            <RowLink to={latest.current.rowHref(row)!}>
              <CellValue column={col} row={row} />
            </RowLink>
          ) : (
            <CellValue column={col} row={row} />
          ),
      }
    })
    const actions = node.rowActions ?? []
    if (actions.length === 0) return dataColumns
    return [
      ...dataColumns,
      {
        key: '\u0000actions',
        header: t('table.actions'),
        headerClassName: 'actions-header',
        fixed: true,
        width: `${Math.max(5, actions.length * 3)}rem`,
        footer: totals ? null : undefined,
        body: (row) => (
          <span className="row-actions">
            {actions.map((a) => (
              <ActionButton key={a.id} action={a} extra={{ row }} ownerId={node.id} compact />
            ))}
          </span>
        ),
      },
    ]
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- columnsKey stands for shown, the layout, the language and the totals row's label
  }, [columnsKey, table.totals, node, rowLink])

  const bulk = node.bulkActions ?? []
  const keyOf = useCallback((row: Row) => row[node.dataKey], [node.dataKey])
  const selectRows = (indexes: Set<number>) => table.select(rows.filter((_, i) => indexes.has(i)))
  const selectedIndexes = () => new Set(selection.map((r) => rows.findIndex((x) => keyOf(x) === keyOf(r))).filter((i) => i >= 0))
  const keyboard = useGridKeyboard({
    rootRef: gridRef,
    rows: rows.length,
    cols: shown.length + (bulk.length > 0 ? 1 : 0) + (node.rowActions?.length ? 1 : 0),
    offset: table.paged ? state.page * state.size : 0,
    total: table.paged ? total : rows.length,
    hasPrevPage: state.page > 0,
    hasNextPage: (state.page + 1) * state.size < total,
    scrollToRow: (index) => gridHandle.current?.scrollToIndex(index),
    onOpen: (index) => {
      const row = rows[index]
      if (!row) return
      if (rowLink) {
        navigate(table.rowHref(row)!)
        return
      }
      // No row link: the row's first link (a record's code shown as a link), else its first
      // action (its "open" where the screen has one).
      const tr = gridRef.current?.querySelector(`tr[${ROW_INDEX_ATTR}="${index}"]`)
      const link = [...(tr?.querySelectorAll<HTMLElement>('a[href]') ?? [])].find((a) => !a.closest('.row-actions'))
      ;(link ?? tr?.querySelector<HTMLElement>('.row-actions button'))?.click()
    },
    onToggle:
      bulk.length > 0
        ? (index) => {
            const next = selectedIndexes()
            if (next.has(index)) next.delete(index)
            else next.add(index)
            selectRows(next)
          }
        : undefined,
    onExtend: bulk.length > 0 ? (anchor, from, to) => selectRows(extendSelection(selectedIndexes(), anchor, from, to)) : undefined,
    onPage: (delta) => table.setPage(state.page + delta, state.size),
  })

  return (
    <section className="screen-table card" aria-label={tableName}>
      <div className="table-toolbar">
        {node.title && <h2 className="table-title">{l(node.title)}</h2>}
        <div className="table-toolbar__actions">
          {node.actions?.map((a) => <ActionButton key={a.id} action={a} ownerId={node.id} offer />)}
          {table.paged && <ViewsMenu tableId={node.id} views={table.views} />}
          <Button type="button" icon="pi pi-table" label={t('toolbar.columns')} outlined size="small" onClick={() => setChooser(true)} />
          <GridMenu columns={shown} grid={grid} />
          {node.export &&
            (table.clearExport ? (
              // Masked by default; the clear export is the second choice, after a reason.
              <SplitButton
                icon="pi pi-file-excel"
                label={t('toolbar.export')}
                outlined
                size="small"
                loading={table.exporting}
                onClick={() => void table.exportFile()}
                model={[{ label: t('export.personal'), icon: 'pi pi-eye', command: () => setAskingReason(true) }]}
                menuLabel={t('export.more')}
                menuStyle={{ minWidth: '17rem' }}
                className="table-export"
              />
            ) : (
              <Button type="button" icon="pi pi-file-excel" label={t('toolbar.export')} outlined size="small" loading={table.exporting} onClick={() => void table.exportFile()} />
            ))}
        </div>
      </div>
      <FilterBar tableId={node.id} columns={node.columns} shown={columns.map((c) => c.field)} filters={state.filters} onChange={table.setFilters} />
      {bulk.length > 0 && table.selectedCount > 0 && (
        <div className="bulk-bar" role="region" aria-label={t('bulk.region')}>
          <span>
            {table.allMatching ? t('bulk.allMatching', { n: total.toLocaleString(intlLocale()) }) : t('bulk.selected', { n: selection.length })}
          </span>
          {table.canSelectAllMatching && (
            <Button type="button" link size="small" label={t('bulk.selectAllMatching', { n: total.toLocaleString(intlLocale()) })} onClick={table.selectAllMatching} />
          )}
          <span className="bulk-bar__actions">
            {bulk.map((a) => (
              <ActionButton
                key={a.id}
                action={a}
                ownerId={node.id}
                extra={{ selected: selection }}
                prepare={async () => ({ selected: await table.selectedRows() })}
              />
            ))}
          </span>
          <Button type="button" text size="small" label={t('bulk.clear')} onClick={table.clearSelection} />
        </div>
      )}
      {view === 'error' ? (
        // A failed load is never drawn as an empty list: no rows, no pager, the failure and a retry.
        <ErrorState onRetry={table.retry}>{table.failure}</ErrorState>
      ) : view === 'loading' ? (
        <LoadingState lines={Math.min(state.size, 6)} className="table-loading" />
      ) : (
        <div ref={gridRef} className="grid-frame" onKeyDown={keyboard.onKeyDown} onFocus={keyboard.onFocus} onBlur={keyboard.onBlur}>
          <DataGrid<Row>
            handle={gridHandle}
            rows={rows}
            rowKey={keyOf}
            columns={gridColumns}
            label={tableName}
            tableId={node.id}
            sort={state.sort ? { key: state.sort.field, order: state.sort.order } : null}
            onSort={(sort) => table.setSort(sort ? { field: sort.key, order: sort.order } : null)}
            // Multiple selection (checkboxes) only when the table has bulk actions.
            selection={bulk.length > 0 ? { selected: selection, onChange: table.select } : undefined}
            pager={{ page: state.page, size: state.size, total, sizes: pageSizesOf(node), onChange: table.setPage }}
            loading={table.loading}
            empty={emptyBody}
            rowClassName={rowLink ? () => 'row-clickable' : undefined}
            onRowClick={rowLink ? (row) => navigate(table.rowHref(row)!) : undefined}
            className={`grid-density-${layout.density}${virtual ? ' grid-virtual' : ''}`}
            // Large pages: only the rows in view are in the DOM.
            virtual={virtual ? { rowHeight, height: '65vh' } : null}
            onResize={grid.setWidth}
            onReorder={(keys) => grid.setOrder(keys.filter((k) => columns.some((c) => c.field === k)))}
            minWidth="40rem"
          />
        </div>
      )}
      {askingReason && (
        <ReasonDialog
          inputId={`export-reason-${node.id}`}
          title={t('export.reason.title')}
          label={t('export.reason.label')}
          confirmLabel={t('export.reason.confirm')}
          confirmIcon="pi pi-file-excel"
          onConfirm={(reason) => {
            setAskingReason(false)
            void table.exportFile({ reason })
          }}
          onCancel={() => setAskingReason(false)}
        />
      )}
      {chooser && (
        <ColumnChooser
          columns={node.columns}
          visible={columns.map((c) => c.field)}
          onClose={() => setChooser(false)}
          onReset={() => {
            void table.saveColumns(undefined).then(() => setChooser(false))
          }}
          onSave={(fields) => {
            void table.saveColumns(fields).then(() => setChooser(false))
          }}
        />
      )}
    </section>
  )
}

/** A row's link to its record: resting the pointer on it or focusing it prefetches the record's screen and data. */
function RowLink({ to, children }: { to: string; children: ReactNode }) {
  const intent = useLinkIntent(to)
  return (
    <Link to={to} className="row-link" {...intent}>
      {children}
    </Link>
  )
}
