import { memo, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type PointerEvent as ReactPointerEvent, type ReactNode, type Ref } from 'react'
import { useMessages } from '../../i18n/i18n'
import { classNames } from '../plain/class-names'
import { CheckIcon, SpinnerIcon } from '../plain/icons'
import { BarsIcon, SortAltIcon, SortAmountDownIcon, SortAmountUpAltIcon } from './grid-icons'
import { useGridGestures } from './grid-gestures'
import { messages } from './messages'
import { ROW_INDEX_ATTR } from './row-index'
import { Paginator, type PagerState } from './Paginator'
import { scrollTopFor, useRowWindow } from './virtual-window'
import './grid.css'

export interface GridColumn<R> {
  /** Unique among the columns: what a resize or a move reports. */
  key: string
  header: ReactNode
  body: (row: R, index: number) => ReactNode
  sortable?: boolean
  /** A CSS width, also the column's least width. */
  width?: string
  align?: 'left' | 'right' | 'center'
  /** Kept in view at that edge while the rest scrolls sideways. Pinned columns come first (left) or last (right). */
  pin?: 'left' | 'right'
  /** The totals row's cell; the table has a totals row when any column gives one. */
  footer?: ReactNode
  /** Neither resized nor moved by the user (a column of row actions). */
  fixed?: boolean
  /** On every cell of the column (header, rows, totals). */
  className?: string
  headerClassName?: string
}

export interface GridSort {
  key: string
  order: 'asc' | 'desc'
}

export interface GridSelection<R> {
  selected: readonly R[]
  onChange: (rows: R[]) => void
}

export interface DataGridHandle {
  /** Brings row `index` into view (a virtual body draws only the rows near the view). */
  scrollToIndex(index: number): void
}

export interface DataGridProps<R> {
  rows: readonly R[]
  rowKey: (row: R) => unknown
  columns: readonly GridColumn<R>[]
  /** Names the table for assistive technology. */
  label: string
  sort?: GridSort | null
  /** Header clicks cycle ascending → descending → none. */
  onSort?: (sort: GridSort | null) => void
  /** A first column of checkboxes: the rows of this page picked. */
  selection?: GridSelection<R>
  /** Paging of a set larger than `rows`; no pager while the set is empty. */
  pager?: (PagerState & { onChange: (page: number, size: number) => void }) | null
  /** Fetching: the rows stay, under a veil and a spinner. */
  loading?: boolean
  /** What an empty table says, inside the table so its headers keep its shape. */
  empty?: ReactNode
  rowClassName?: (row: R, index: number) => string | undefined
  onRowClick?: (row: R, event: MouseEvent<HTMLTableRowElement>) => void
  /** Only the rows in view are in the DOM, in a scroller `height` tall, each row `rowHeight` px. */
  virtual?: { rowHeight: number; height: string } | null
  /** A column resized by dragging its header's edge (px). A promise keeps the new width shown until it settles. */
  onResize?: (key: string, px: number) => void | Promise<unknown>
  /** The columns' keys (fixed ones left out) in their new drawn order, after a header was dragged. A promise keeps the order shown until it settles. */
  onReorder?: (keys: string[]) => void | Promise<unknown>
  /**
   * Rows moved by dragging the handle of a first column headed `header`, reported as the index a
   * row leaves and the one it takes (of the rows given). The pointer's way only: the caller
   * offers the keyboard's (buttons that move a row up and down).
   */
  rowReorder?: { header: ReactNode; onMove: (from: number, to: number) => void }
  className?: string
  /** `data-table` of the root, where tests and the screen studio find the table. */
  tableId?: string
  minWidth?: string
  handle?: Ref<DataGridHandle>
}

/** What in a row is a control of its own: a click on it is not a click on the row. */
const ROW_CONTROLS = 'a, button, input, select, textarea, label, .p-checkbox, [role="button"]'

/** The keys of the columns the grid adds in front of the others: the rows' drag handles and checkboxes. */
const MOVE_KEY = '\u0000move'
const SELECT_KEY = '\u0000select'

/** What a memoised row calls: stable, each reading the latest render's handlers. */
interface Events<R> {
  onRowClick: (row: R, e: MouseEvent<HTMLTableRowElement>) => void
  toggle: (row: R, checked: boolean) => void
  startRowDrag: (index: number, e: ReactPointerEvent<HTMLElement>) => void
}

/**
 * A table with PrimeReact's DataTable markup and classes (the brand theme styles it exactly as
 * it did PrimeReact's), drawn by the portal: sortable headers (removable sort, `aria-sort`),
 * checkbox selection, a pager, columns resized by their edge, moved by dragging their header and
 * pinned to a side, a totals row, a loading veil, an empty message inside the table and, for
 * large pages, a virtual body. Rows are memoised: a change that does not touch a row (the
 * selection of another, the pager, a menu) does not draw it again. The data and its state
 * are the caller's; the grid only draws them and reports what the user asks for.
 */
export function DataGrid<R>(props: DataGridProps<R>) {
  const { rows, rowKey, columns, label, sort, onSort, selection, pager, loading, empty, rowClassName, virtual, onResize, onReorder, rowReorder, className, tableId, minWidth, handle } = props
  const t = useMessages(messages)
  const tableRef = useRef<HTMLTableElement>(null)
  const scrollerRef = useRef<HTMLDivElement>(null)
  // A width or order the user just set, shown until its save settles (then the caller's props say it).
  const [draftWidth, setDraftWidth] = useState<{ key: string; px: number } | null>(null)
  const [draftOrder, setDraftOrder] = useState<string[] | null>(null)

  const ordered = useMemo(() => {
    if (!draftOrder) return columns
    const byKey = new Map(columns.map((c) => [c.key, c]))
    const queue = draftOrder.map((k) => byKey.get(k)).filter((c): c is GridColumn<R> => !!c && !c.fixed)
    // The draft orders the columns that are not fixed; fixed ones keep their places.
    if (queue.length !== columns.filter((c) => !c.fixed).length) return columns
    return columns.map((c) => (c.fixed ? c : queue.shift()!))
  }, [columns, draftOrder])

  const hasSelection = !!selection
  const moveHeader = rowReorder?.header
  const movesRows = !!rowReorder
  const cols = useMemo<GridColumn<R>[]>(
    () => [
      ...(movesRows ? [{ key: MOVE_KEY, header: moveHeader, body: () => null, fixed: true, width: '3rem' }] : []),
      ...(hasSelection ? [{ key: SELECT_KEY, header: null, body: () => null, fixed: true, width: '3rem', headerClassName: 'p-selection-column' }] : []),
      ...ordered,
    ],
    [ordered, hasSelection, movesRows, moveHeader],
  )
  const movable = useMemo(() => ordered.filter((c) => !c.fixed && !c.pin).map((c) => c.key), [ordered])
  const keyed = useMemo(() => new Set((selection?.selected ?? []).map(rowKey)), [selection?.selected, rowKey])

  // The caller's save, done or failed: the draft goes (a failure is the caller's to report).
  const settle = (pending: void | Promise<unknown>, clear: () => void) => void Promise.resolve(pending).catch(() => undefined).finally(clear)
  const gestures = useGridGestures({
    headRow: () => tableRef.current?.tHead?.rows[0],
    bodyRows: () => [...(tableRef.current?.tBodies[0]?.rows ?? [])].flatMap((el) => (el.hasAttribute(ROW_INDEX_ATTR) ? [{ el, index: Number(el.getAttribute(ROW_INDEX_ATTR)) }] : [])),
    movable,
    onRowMove: rowReorder?.onMove,
    onResize: onResize
      ? (key, px) => {
          const draft = { key, px }
          setDraftWidth(draft)
          // A later resize's draft stays: only this one's is cleared when its save settles.
          settle(onResize(key, px), () => setDraftWidth((current) => (current === draft ? null : current)))
        }
      : undefined,
    onReorder: onReorder
      ? (moved) => {
          // The movable columns in their new order, in the places the movable ones hold among all that are not fixed.
          const queue = [...moved]
          const keys = ordered.filter((c) => !c.fixed).map((c) => (c.pin ? c.key : queue.shift()!))
          setDraftOrder(keys)
          settle(onReorder(keys), () => setDraftOrder((current) => (current === keys ? null : current)))
        }
      : undefined,
  })

  const rowHeight = virtual?.rowHeight ?? 0
  const range = useRowWindow(scrollerRef, rows.length, rowHeight, !!virtual)
  useImperativeHandle(handle, () => ({
    scrollToIndex(index: number) {
      const el = scrollerRef.current
      if (!el || !virtual) return
      const head = tableRef.current?.tHead?.getBoundingClientRect().height ?? 0
      const foot = tableRef.current?.tFoot?.getBoundingClientRect().height ?? 0
      const top = scrollTopFor(index, virtual.rowHeight, el.scrollTop, el.clientHeight, head, foot)
      if (top !== null) el.scrollTop = top
    },
  }))

  // A page past the last one (its rows went: a bulk action, a live refresh) turns to the last page, as PrimeReact's pager did.
  const pastLast = !!pager && pager.page > 0 && pager.page * pager.size >= pager.total
  const lastPage = pager ? Math.max(0, Math.ceil(pager.total / pager.size) - 1) : 0
  const turnPage = pager?.onChange
  const pageSize = pager?.size ?? 0
  useEffect(() => {
    if (pastLast) turnPage?.(lastPage, pageSize)
  }, [pastLast, lastPage, pageSize, turnPage])

  // Pinned columns stick at their edge, each past the ones pinned before it: offsets measured as drawn.
  const pinned = cols.some((c) => c.pin)
  useLayoutEffect(() => {
    const table = tableRef.current
    const head = table?.tHead?.rows[0]
    if (!table || !head || !pinned) return
    let left = 0
    cols.forEach((c, i) => {
      if (c.pin !== 'left') return
      table.style.setProperty(`--pin-${i}`, `${left}px`)
      left += (head.cells[i] as HTMLElement | undefined)?.offsetWidth ?? 0
    })
    let right = 0
    for (let i = cols.length - 1; i >= 0; i--) {
      if (cols[i]!.pin !== 'right') continue
      table.style.setProperty(`--pin-${i}`, `${right}px`)
      right += (head.cells[i] as HTMLElement | undefined)?.offsetWidth ?? 0
    }
  })

  const toggle = (row: R, checked: boolean) => {
    if (!selection) return
    const key = rowKey(row)
    selection.onChange(checked ? [...selection.selected.filter((r) => rowKey(r) !== key), row] : selection.selected.filter((r) => rowKey(r) !== key))
  }
  const latest = useRef({ onRowClick: props.onRowClick, toggle, gestures })
  latest.current = { onRowClick: props.onRowClick, toggle, gestures }
  // Stable for the memoised rows: they call whatever the latest render was given.
  const events = useMemo<Events<R>>(
    () => ({
      onRowClick: (row, e) => {
        // A click on a control inside the row (a link, a button, a checkbox, a field) is that control's, as in PrimeReact's table; so is the click a row drag ends with.
        if ((e.target as Element).closest(ROW_CONTROLS) || latest.current.gestures.endedGesture()) return
        latest.current.onRowClick?.(row, e)
      },
      toggle: (row, checked) => latest.current.toggle(row, checked),
      startRowDrag: (index, e) => latest.current.gestures.startRowDrag(index, e),
    }),
    [],
  )
  const clickable = !!props.onRowClick

  const allPicked = rows.length > 0 && rows.every((r) => keyed.has(rowKey(r)))
  const hasFooter = cols.some((c) => c.footer !== undefined)
  const widthOf = (c: GridColumn<R>) => (draftWidth?.key === c.key ? `${draftWidth.px}px` : c.width)

  const sortBy = (c: GridColumn<R>) => {
    if (!c.sortable || !onSort) return
    if (sort?.key !== c.key) onSort({ key: c.key, order: 'asc' })
    else if (sort.order === 'asc') onSort({ key: c.key, order: 'desc' })
    else onSort(null)
  }

  const header = (
    <thead className="p-datatable-thead">
      <tr>
        {cols.map((c, i) => {
          const width = widthOf(c)
          const sorted = sort?.key === c.key ? sort.order : null
          const resizable = !!onResize && !c.fixed
          const reorderable = !!onReorder && movable.includes(c.key)
          const style: CSSProperties = { ...(width ? { width, minWidth: width } : {}), ...pinStyle(c, i) }
          if (c.key === MOVE_KEY) {
            return (
              <th key={c.key} style={{ width: c.width }} data-key={c.key}>
                <div className="p-column-header-content">
                  <span className="p-column-title">{c.header}</span>
                </div>
              </th>
            )
          }
          if (c.key === SELECT_KEY) {
            return (
              // Its width is a wish, not a floor: the checkboxes' column gives way to the data in a narrow window.
              <th key={c.key} className="p-selection-column" style={{ width: c.width }} data-key={c.key}>
                <div className="p-column-header-content">
                  <Checkbox checked={allPicked} disabled={rows.length === 0} label={t('select.page')} onChange={(checked) => selection?.onChange(checked ? [...rows] : [])} />
                </div>
              </th>
            )
          }
          return (
            <th
              key={c.key}
              data-key={c.key}
              className={classNames(
                c.className,
                c.headerClassName,
                c.sortable && 'p-sortable-column',
                resizable && 'p-resizable-column',
                sorted && 'p-highlight',
                reorderable && 'p-reorderable-column',
                c.pin && 'p-frozen-column',
                c.align && `p-align-${c.align}`,
              )}
              style={style}
              // Reachable with Tab to sort with Enter or Space, as PrimeReact's; the keyboard grid, where it runs, makes it one of its roving cells.
              tabIndex={c.sortable ? 0 : undefined}
              aria-sort={c.sortable ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined}
              onClick={(e) => {
                if (gestures.endedGesture() || (e.target as HTMLElement).closest('.p-column-resizer')) return
                sortBy(c)
              }}
              onKeyDown={(e: KeyboardEvent<HTMLTableCellElement>) => {
                if (e.target !== e.currentTarget || !c.sortable || (e.key !== 'Enter' && e.key !== ' ')) return
                e.preventDefault()
                sortBy(c)
              }}
              onPointerDown={reorderable ? (e) => gestures.startDrag(c.key, e) : undefined}
            >
              {resizable && <span className="p-column-resizer" onPointerDown={(e) => gestures.startResize(c.key, e)} />}
              <div className="p-column-header-content">
                <span className="p-column-title">{c.header}</span>
                {c.sortable && (
                  <span>{sorted === 'asc' ? <SortAmountUpAltIcon className="p-sortable-column-icon" /> : sorted === 'desc' ? <SortAmountDownIcon className="p-sortable-column-icon" /> : <SortAltIcon className="p-sortable-column-icon" />}</span>
                )}
              </div>
            </th>
          )
        })}
      </tr>
    </thead>
  )

  const drawn = virtual ? rows.slice(range.start, range.end) : rows
  const offset = virtual ? range.start : 0
  const body = (
    <tbody className="p-datatable-tbody">
      {rows.length === 0 ? (
        <tr className="p-datatable-emptymessage">
          <td colSpan={cols.length}>{empty ?? t('empty')}</td>
        </tr>
      ) : (
        <>
          {virtual && range.start > 0 && <Spacer height={range.start * rowHeight} span={cols.length} />}
          {drawn.map((row, i) => {
            const index = offset + i
            const selected = keyed.has(rowKey(row))
            return (
              <GridRow
                key={String(rowKey(row) ?? index)}
                row={row}
                index={index}
                cols={cols as readonly GridColumn<unknown>[]}
                selected={selected}
                selectable={hasSelection}
                className={rowClassName?.(row, index)}
                clickable={clickable}
                events={events as Events<unknown>}
                selectLabel={t('select.row', { n: (pager ? pager.page * pager.size : 0) + index + 1 })}
                height={virtual ? rowHeight : undefined}
              />
            )
          })}
          {virtual && range.end < rows.length && <Spacer height={(rows.length - range.end) * rowHeight} span={cols.length} />}
        </>
      )}
    </tbody>
  )

  const footer = hasFooter && (
    <tfoot className="p-datatable-tfoot">
      <tr>
        {cols.map((c, i) => (
          <td key={c.key} className={classNames(c.className, c.pin && 'p-frozen-column', c.align && `p-align-${c.align}`)} style={pinStyle(c, i)}>
            {c.footer}
          </td>
        ))}
      </tr>
    </tfoot>
  )

  const table = (
    <table ref={tableRef} className={classNames('p-datatable-table p-datatable-scrollable-table', onResize && 'p-datatable-resizable-table')} style={minWidth ? { minWidth } : undefined} aria-label={label}>
      {header}
      {body}
      {footer}
    </table>
  )

  return (
    <div
      className={classNames(className, 'p-datatable p-component p-datatable-scrollable p-datatable-striped p-datatable-sm', onResize && 'p-datatable-resizable', hasSelection && 'p-datatable-selectable')}
      data-table={tableId}
    >
      {loading && (
        <div className="p-datatable-loading-overlay p-component-overlay">
          <SpinnerIcon className="p-datatable-loading-icon p-icon-spin" />
        </div>
      )}
      <div className="p-datatable-wrapper">
        {virtual ? (
          <div ref={scrollerRef} className="p-virtualscroller" style={{ height: virtual.height }}>
            {table}
          </div>
        ) : (
          table
        )}
      </div>
      {pager && pager.total > 0 && <Paginator state={pager} onChange={pager.onChange} />}
    </div>
  )
}

/** A pinned cell's offset from its edge, measured after drawing (see the layout effect). */
function pinStyle(c: { pin?: 'left' | 'right' }, index: number): CSSProperties | undefined {
  if (!c.pin) return undefined
  return c.pin === 'left' ? { left: `var(--pin-${index}, 0px)` } : { right: `var(--pin-${index}, 0px)` }
}

/** The height of the rows a virtual body leaves out, hidden from assistive technology. */
function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr className="grid-spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={span} />
    </tr>
  )
}

interface GridRowProps {
  row: unknown
  index: number
  cols: readonly GridColumn<unknown>[]
  selected: boolean
  selectable: boolean
  className: string | undefined
  clickable: boolean
  events: Events<unknown>
  selectLabel: string
  /** A virtual body's rows all have its one height (taller ones tell the caller, who measures them). */
  height: number | undefined
}

/** One body row; drawn again only when its row, its columns, its selection or its class change. */
const GridRow = memo(function GridRow({ row, index, cols, selected, selectable, className, clickable, events, selectLabel, height }: GridRowProps) {
  return (
    <tr
      style={height ? { height } : undefined}
      className={classNames(index % 2 === 1 && 'p-row-odd', className, selected && 'p-highlight')}
      data-row-index={index}
      aria-selected={selectable ? selected : undefined}
      onClick={clickable ? (e) => events.onRowClick?.(row, e) : undefined}
    >
      {cols.map((c, i) => (
        <td key={c.key} className={classNames(c.className, c.key === SELECT_KEY && 'p-selection-column', c.pin && 'p-frozen-column', c.align && `p-align-${c.align}`)} style={pinStyle(c, i)}>
          {c.key === SELECT_KEY ? (
            <Checkbox checked={selected} label={selectLabel} onChange={(checked) => events.toggle(row, checked)} />
          ) : c.key === MOVE_KEY ? (
            // The pointer's way to move a row; the keyboard's are the caller's buttons.
            <span className="p-datatable-reorderablerow-handle" aria-hidden="true" onPointerDown={(e) => events.startRowDrag(index, e)}>
              <BarsIcon />
            </span>
          ) : (
            c.body(row, index)
          )}
        </td>
      ))}
    </tr>
  )
})

/** PrimeReact's Checkbox markup (the theme draws the box), a native checkbox underneath. */
function Checkbox({ checked, disabled, label, onChange }: { checked: boolean; disabled?: boolean; label: string; onChange: (checked: boolean) => void }) {
  return (
    <div className={classNames('p-checkbox p-component', checked && 'p-highlight', disabled && 'p-disabled')}>
      <input type="checkbox" className="p-checkbox-input" checked={checked} disabled={disabled} aria-label={label} onChange={(e) => onChange(e.target.checked)} />
      <div className="p-checkbox-box">{checked && <CheckIcon className="p-checkbox-icon" />}</div>
    </div>
  )
}
