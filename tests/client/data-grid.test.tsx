// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import fc from 'fast-check'
import { createRef, useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { setLanguage } from '../../client/i18n/i18n'
import { LocalGrid } from '../../client/ui/grid/LocalGrid'
import { compareValues } from '../../client/ui/grid/sort-rows'
import { dropIndex, moveColumn, moveItem } from '../../client/ui/grid/reorder'
import { DataGrid, type DataGridHandle, type DataGridProps, type GridColumn, type GridSort } from '../../client/ui/grid/DataGrid'
import { pageLinks, pageReport } from '../../client/ui/grid/Paginator'
import { rowWindow, scrollTopFor } from '../../client/ui/grid/virtual-window'

/**
 * Issue 19, screens: the lists draw their rows with the portal's own grid instead of
 * PrimeReact's DataTable (about half of a list's time on a slow machine). It must keep what
 * the DataTable gave: PrimeReact's markup and classes (the theme, the e2e suites), removable
 * sort with aria-sort, checkbox selection, the pager, resizing and moving columns with the
 * pointer, pinned columns, a totals row, a loading veil, an empty message and a virtual body.
 */

afterEach(() => {
  cleanup()
  setLanguage('es')
})

interface Row {
  id: number
  name: string
  amount: number
}
const ROWS: Row[] = [
  { id: 1, name: 'Ana', amount: 10 },
  { id: 2, name: 'Benito', amount: 20 },
  { id: 3, name: 'Carla', amount: 30 },
]
const col = (key: keyof Row, extra: Partial<GridColumn<Row>> = {}): GridColumn<Row> => ({ key, header: key.toUpperCase(), body: (r) => String(r[key]), ...extra })
const COLUMNS = [col('id', { sortable: true }), col('name', { sortable: true }), col('amount', { align: 'right' })]

function grid(props: Partial<DataGridProps<Row>> = {}) {
  return render(<DataGrid<Row> rows={ROWS} rowKey={(r) => r.id} columns={COLUMNS} label="Personas" tableId="personas" {...props} />)
}
const headerCells = (c: HTMLElement) => [...c.querySelectorAll('thead th')] as HTMLElement[]
const bodyRows = (c: HTMLElement) => [...c.querySelectorAll('tbody tr')] as HTMLTableRowElement[]
const th = (c: HTMLElement, title: string) => headerCells(c).find((h) => h.textContent === title)!

/** A pointer event as the browser sends it (jsdom has no PointerEvent: a MouseEvent of that type carries the same fields). */
function pointer(target: EventTarget, type: 'pointerdown' | 'pointermove' | 'pointerup', clientX: number, clientY = 10) {
  act(() => void target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, clientX, clientY, button: 0 })))
}
/** Lays header cells out side by side, `width` px each (jsdom lays nothing out). */
function layOut(cells: HTMLElement[], width = 100) {
  cells.forEach((cell, i) => {
    cell.getBoundingClientRect = () => ({ left: i * width, right: (i + 1) * width, width, top: 0, bottom: 30, height: 30, x: i * width, y: 0, toJSON: () => ({}) })
  })
}
/** Lays rows out one under the other, `height` px each, below a 30 px header. */
function stack(rows: HTMLElement[], height = 40) {
  rows.forEach((row, i) => {
    const top = 30 + i * height
    row.getBoundingClientRect = () => ({ left: 0, right: 800, width: 800, top, bottom: top + height, height, x: 0, y: top, toJSON: () => ({}) })
  })
}

describe('the grid draws PrimeReact’s table markup', () => {
  it('root, table, header, striped rows carrying their index, named for assistive technology', () => {
    const { container } = grid()
    const root = container.querySelector('[data-table="personas"]')!
    expect(root.className).toContain('p-datatable p-component')
    expect(root.className).toContain('p-datatable-striped')
    const table = root.querySelector('table.p-datatable-table')!
    expect(table.getAttribute('aria-label')).toBe('Personas')
    expect(headerCells(container).map((h) => h.textContent)).toEqual(['ID', 'NAME', 'AMOUNT'])
    expect(bodyRows(container).map((r) => [r.className, r.getAttribute('data-row-index')])).toEqual([
      ['', '0'],
      ['p-row-odd', '1'],
      ['', '2'],
    ])
    expect(bodyRows(container)[1]!.textContent).toBe('2Benito20')
    expect(th(container, 'AMOUNT').className).toContain('p-align-right')
    expect(bodyRows(container)[0]!.cells[2]!.className).toBe('p-align-right')
    // No totals row unless a column gives one; no pager unless asked.
    expect(container.querySelector('tfoot')).toBeNull()
    expect(container.querySelector('.p-paginator')).toBeNull()
  })

  it('an empty table keeps its headers, with the message inside it', () => {
    const { container } = grid({ rows: [], empty: <p>Nada todavía</p> })
    expect(headerCells(container)).toHaveLength(3)
    const message = container.querySelector('tbody tr.p-datatable-emptymessage td')!
    expect(message.getAttribute('colspan')).toBe('3')
    expect(message.textContent).toBe('Nada todavía')
  })

  it('a totals row when a column gives one; a veil while loading, the rows kept under it', () => {
    const { container, rerender } = grid({ columns: [col('name', { footer: 'Total' }), col('amount', { footer: '60' })] })
    expect([...container.querySelectorAll('tfoot td')].map((td) => td.textContent)).toEqual(['Total', '60'])
    expect(container.querySelector('.p-datatable-loading-overlay')).toBeNull()
    rerender(<DataGrid<Row> rows={ROWS} rowKey={(r) => r.id} columns={COLUMNS} label="Personas" loading />)
    expect(container.querySelector('.p-datatable-loading-overlay.p-component-overlay')).not.toBeNull()
    expect(bodyRows(container)).toHaveLength(3)
  })

  it('a row click reaches the caller with its row; a click on a control inside the row is the control’s', () => {
    const onRowClick = vi.fn()
    const onButton = vi.fn()
    const columns = [...COLUMNS, col('name', { key: 'open', header: 'Abrir', body: (r) => <button type="button" onClick={onButton}>Abrir {r.name}</button> })]
    const { container } = grid({ onRowClick, columns, rowClassName: () => 'row-clickable' })
    fireEvent.click(bodyRows(container)[2]!.cells[1]!)
    expect(onRowClick).toHaveBeenCalledTimes(1)
    expect(onRowClick.mock.calls[0]![0]).toBe(ROWS[2])
    expect(bodyRows(container)[2]!.className).toContain('row-clickable')
    fireEvent.click(screen.getByRole('button', { name: 'Abrir Benito' }))
    expect(onButton).toHaveBeenCalledTimes(1)
    expect(onRowClick).toHaveBeenCalledTimes(1)
  })
})

describe('sorting', () => {
  function Sorted({ onSort }: { onSort: (s: GridSort | null) => void }) {
    const [sort, setSort] = useState<GridSort | null>(null)
    return (
      <DataGrid<Row>
        rows={ROWS}
        rowKey={(r) => r.id}
        columns={COLUMNS}
        label="Personas"
        sort={sort}
        onSort={(s) => {
          onSort(s)
          setSort(s)
        }}
      />
    )
  }

  it('a header click cycles ascending → descending → none, said by aria-sort and the header’s highlight', () => {
    const onSort = vi.fn()
    const { container } = render(<Sorted onSort={onSort} />)
    const name = () => th(container, 'NAME')
    expect(name().getAttribute('aria-sort')).toBe('none')
    fireEvent.click(name())
    expect(onSort).toHaveBeenLastCalledWith({ key: 'name', order: 'asc' })
    expect(name().getAttribute('aria-sort')).toBe('ascending')
    expect(name().className).toContain('p-highlight')
    fireEvent.click(name())
    expect(onSort).toHaveBeenLastCalledWith({ key: 'name', order: 'desc' })
    expect(name().getAttribute('aria-sort')).toBe('descending')
    fireEvent.click(name())
    expect(onSort).toHaveBeenLastCalledWith(null)
    expect(name().getAttribute('aria-sort')).toBe('none')
    expect(name().className).not.toContain('p-highlight')
  })

  it('Enter or Space on a sortable header sorts; a column that is not sortable never does', () => {
    const onSort = vi.fn()
    const { container } = render(<Sorted onSort={onSort} />)
    // A sortable header is reachable with Tab (the keyboard grid, where it runs, takes it over).
    expect(th(container, 'ID').tabIndex).toBe(0)
    expect(th(container, 'AMOUNT').hasAttribute('tabindex')).toBe(false)
    fireEvent.keyDown(th(container, 'ID'), { key: 'Enter' })
    expect(onSort).toHaveBeenLastCalledWith({ key: 'id', order: 'asc' })
    fireEvent.keyDown(th(container, 'ID'), { key: ' ' })
    expect(onSort).toHaveBeenLastCalledWith({ key: 'id', order: 'desc' })
    onSort.mockClear()
    fireEvent.click(th(container, 'AMOUNT'))
    fireEvent.keyDown(th(container, 'AMOUNT'), { key: 'Enter' })
    expect(onSort).not.toHaveBeenCalled()
    expect(th(container, 'AMOUNT').hasAttribute('aria-sort')).toBe(false)
  })
})

describe('selection', () => {
  function Selectable({ onChange }: { onChange?: (rows: Row[]) => void }) {
    const [selected, setSelected] = useState<Row[]>([])
    return (
      <DataGrid<Row>
        rows={ROWS}
        rowKey={(r) => r.id}
        columns={COLUMNS}
        label="Personas"
        selection={{
          selected,
          onChange: (rows) => {
            onChange?.(rows)
            setSelected(rows)
          },
        }}
      />
    )
  }

  it('a checkbox per row and one for the page, named, with the rows marked selected', () => {
    const { container } = render(<Selectable />)
    const boxes = screen.getAllByRole('checkbox')
    expect(boxes.map((b) => b.getAttribute('aria-label'))).toEqual(['Seleccionar las filas de esta página', 'Seleccionar fila 1', 'Seleccionar fila 2', 'Seleccionar fila 3'])
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 2' }))
    expect(bodyRows(container).map((r) => r.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false'])
    expect(bodyRows(container)[1]!.className).toContain('p-highlight')
    expect(bodyRows(container)[1]!.querySelector('.p-checkbox')!.className).toContain('p-highlight')
    expect((screen.getByRole('checkbox', { name: 'Seleccionar las filas de esta página' }) as HTMLInputElement).checked).toBe(false)
  })

  it('the page’s checkbox picks every row of the page, then none; it is checked once every row is', () => {
    const onChange = vi.fn()
    render(<Selectable onChange={onChange} />)
    const page = () => screen.getByRole('checkbox', { name: 'Seleccionar las filas de esta página' }) as HTMLInputElement
    fireEvent.click(page())
    expect(onChange).toHaveBeenLastCalledWith(ROWS)
    expect(page().checked).toBe(true)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 1' }))
    expect(onChange.mock.lastCall![0].map((r: Row) => r.id)).toEqual([2, 3])
    expect(page().checked).toBe(false)
    fireEvent.click(page())
    fireEvent.click(page())
    expect(onChange).toHaveBeenLastCalledWith([])
  })

  it('a row drawn again only when its own selection changes', () => {
    const drawn: number[] = []
    const counted = [col('id', { body: (r) => (drawn.push(r.id), String(r.id)) }), col('name')]
    function Counted() {
      const [selected, setSelected] = useState<Row[]>([])
      return <DataGrid<Row> rows={ROWS} rowKey={(r) => r.id} columns={counted} label="Personas" selection={{ selected, onChange: setSelected }} />
    }
    render(<Counted />)
    expect(drawn).toEqual([1, 2, 3])
    drawn.length = 0
    fireEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar fila 3' }))
    expect(drawn).toEqual([3])
  })
})

describe('the pager', () => {
  it('five page links around the current page, as PrimeReact shows them', () => {
    expect(pageLinks(0, 1)).toEqual([0])
    expect(pageLinks(0, 65)).toEqual([0, 1, 2, 3, 4])
    expect(pageLinks(10, 65)).toEqual([8, 9, 10, 11, 12])
    expect(pageLinks(64, 65)).toEqual([60, 61, 62, 63, 64])
    expect(pageLinks(2, 3)).toEqual([0, 1, 2])
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.nat(), (count, at) => {
        const page = at % count
        const links = pageLinks(page, count)
        expect(links).toContain(page)
        expect(links).toHaveLength(Math.min(5, count))
        links.forEach((p, i) => i > 0 && expect(p).toBe(links[i - 1]! + 1))
        expect(links[0]).toBeGreaterThanOrEqual(0)
        expect(links.at(-1)).toBeLessThan(count)
      }),
    )
  })

  it('reports the rows shown of the whole set in the user’s numbers', () => {
    expect(pageReport({ page: 0, size: 10, total: 650 })).toEqual({ first: '1', last: '10', total: '650' })
    expect(pageReport({ page: 64, size: 10, total: 650 })).toEqual({ first: '641', last: '650', total: '650' })
    expect(pageReport({ page: 2, size: 25, total: 100_000 })).toEqual({ first: '51', last: '75', total: '100.000' })
    const { container } = grid({ pager: { page: 2, size: 25, total: 100_000, onChange: () => undefined } })
    expect(container.querySelector('.p-paginator-current')!.textContent).toBe('51–75 de 100.000')
    act(() => setLanguage('en'))
    expect(container.querySelector('.p-paginator-current')!.textContent).toBe('51–75 of 100,000')
  })

  it('a page past the last one (its rows went) turns to the last page; an emptied set to the first', () => {
    const onChange = vi.fn()
    const { rerender } = grid({ pager: { page: 4, size: 10, total: 41, onChange } })
    expect(onChange).not.toHaveBeenCalled()
    rerender(<DataGrid<Row> rows={[]} rowKey={(r) => r.id} columns={COLUMNS} label="Personas" pager={{ page: 4, size: 10, total: 40, onChange }} />)
    expect(onChange).toHaveBeenLastCalledWith(3, 10)
    rerender(<DataGrid<Row> rows={[]} rowKey={(r) => r.id} columns={COLUMNS} label="Personas" pager={{ page: 3, size: 10, total: 0, onChange }} />)
    expect(onChange).toHaveBeenLastCalledWith(0, 10)
  })

  it('first, previous, pages, next and last turn the page; at an edge those buttons are off', () => {
    const onChange = vi.fn()
    const { container, rerender } = grid({ pager: { page: 0, size: 10, total: 95, onChange } })
    const pager = container.querySelector<HTMLElement>('.p-paginator')!
    expect(pager.querySelector('.p-paginator-current')!.textContent).toBe('1–10 de 95')
    expect((within(pager).getByRole('button', { name: 'Primera página' }) as HTMLButtonElement).disabled).toBe(true)
    expect((within(pager).getByRole('button', { name: 'Página anterior' }) as HTMLButtonElement).disabled).toBe(true)
    expect(within(pager).getByRole('button', { name: 'Página 1' }).getAttribute('aria-current')).toBe('true')
    fireEvent.click(within(pager).getByRole('button', { name: 'Página siguiente' }))
    expect(onChange).toHaveBeenLastCalledWith(1, 10)
    fireEvent.click(within(pager).getByRole('button', { name: 'Última página' }))
    expect(onChange).toHaveBeenLastCalledWith(9, 10)
    fireEvent.click(within(pager).getByRole('button', { name: 'Página 4' }))
    expect(onChange).toHaveBeenLastCalledWith(3, 10)
    rerender(<DataGrid<Row> rows={ROWS} rowKey={(r) => r.id} columns={COLUMNS} label="Personas" pager={{ page: 9, size: 10, total: 95, onChange }} />)
    expect(container.querySelector('.p-paginator-page.p-highlight')!.textContent).toBe('10')
    expect((within(pager).getByRole('button', { name: 'Página siguiente' }) as HTMLButtonElement).disabled).toBe(true)
    expect(container.querySelector('.p-paginator-current')!.textContent).toBe('91–95 de 95')
  })

  it('no pager over an empty set, and no page to pick from', () => {
    const { container } = grid({ rows: [], pager: { page: 0, size: 10, total: 0, onChange: () => undefined }, selection: { selected: [], onChange: () => undefined } })
    expect(container.querySelector('.p-paginator')).toBeNull()
    expect((screen.getByRole('checkbox', { name: 'Seleccionar las filas de esta página' }) as HTMLInputElement).disabled).toBe(true)
    // Without a message of the caller's, the empty table still says it is empty.
    expect(container.querySelector('.p-datatable-emptymessage')!.textContent).toBe('No hay filas.')
  })
})

describe('resizing a column by its edge', () => {
  it('the width follows the pointer, is handed over once on release, and the release does not sort', async () => {
    const onSort = vi.fn()
    let settle!: () => void
    const onResize = vi.fn(() => new Promise<void>((resolve) => (settle = resolve)))
    const { container } = grid({ onResize, onSort })
    const name = th(container, 'NAME')
    name.getBoundingClientRect = () => ({ left: 100, right: 220, width: 120, top: 0, bottom: 30, height: 30, x: 100, y: 0, toJSON: () => ({}) })
    const resizer = name.querySelector('.p-column-resizer')!
    expect(name.className).toContain('p-resizable-column')
    pointer(resizer, 'pointerdown', 220)
    pointer(resizer, 'pointermove', 260)
    expect(name.style.width).toBe('160px')
    pointer(resizer, 'pointermove', 300)
    expect(onResize).not.toHaveBeenCalled()
    pointer(resizer, 'pointerup', 300)
    // The click the release ends with lands on the header (the pointer left the resizer): it does not sort.
    fireEvent.click(name.querySelector('.p-column-title')!)
    expect(onResize).toHaveBeenCalledTimes(1)
    expect(onResize).toHaveBeenCalledWith('name', 200)
    expect(onSort).not.toHaveBeenCalled()
    // Shown at its new width until the caller's save settles; then the caller's width says it.
    expect(name.style.width).toBe('200px')
    expect(name.style.minWidth).toBe('200px')
    await act(async () => settle())
    expect(name.style.width).toBe('')
  })

  it('a drag under way when the grid goes is dropped: nothing is reported after', () => {
    const onResize = vi.fn()
    const onReorder = vi.fn()
    const { container, unmount } = grid({ onResize, onReorder })
    layOut(headerCells(container))
    const resizer = th(container, 'NAME').querySelector('.p-column-resizer')!
    pointer(resizer, 'pointerdown', 200)
    pointer(window, 'pointermove', 260)
    unmount()
    pointer(window, 'pointerup', 260)
    expect(onResize).not.toHaveBeenCalled()
    const again = grid({ onResize, onReorder })
    layOut(headerCells(again.container))
    pointer(th(again.container, 'ID'), 'pointerdown', 50)
    pointer(window, 'pointermove', 280)
    again.unmount()
    pointer(window, 'pointerup', 280)
    expect(onReorder).not.toHaveBeenCalled()
  })

  it('a column of actions (fixed) has no resizer', () => {
    const { container } = grid({ onResize: () => undefined, columns: [...COLUMNS, col('name', { key: 'actions', header: 'Acciones', fixed: true })] })
    expect(th(container, 'Acciones').querySelector('.p-column-resizer')).toBeNull()
    expect(th(container, 'NAME').querySelector('.p-column-resizer')).not.toBeNull()
  })
})

describe('moving a column by dragging its header', () => {
  it('drops it on the side of the header the pointer is over; the drag does not sort', async () => {
    const onSort = vi.fn()
    // A save that has not answered yet: the new order is shown meanwhile.
    const onReorder = vi.fn(() => new Promise<void>(() => undefined))
    const { container } = grid({ onReorder, onSort })
    layOut(headerCells(container))
    pointer(th(container, 'ID'), 'pointerdown', 50)
    pointer(window, 'pointermove', 52)
    expect(container.querySelector('[data-drop]')).toBeNull()
    // Past the threshold, over AMOUNT's right half.
    pointer(window, 'pointermove', 280)
    expect(th(container, 'AMOUNT').getAttribute('data-drop')).toBe('after')
    pointer(window, 'pointerup', 280)
    fireEvent.click(th(container, 'ID'))
    expect(onReorder).toHaveBeenCalledWith(['name', 'amount', 'id'])
    expect(onSort).not.toHaveBeenCalled()
    expect(container.querySelector('[data-drop]')).toBeNull()
    // Drawn in the new order straight away, while the caller saves it.
    expect(headerCells(container).map((h) => h.textContent)).toEqual(['NAME', 'AMOUNT', 'ID'])
  })

  it('a press that does not travel is a click: it sorts and moves nothing', () => {
    const onSort = vi.fn()
    const onReorder = vi.fn()
    const { container } = grid({ onReorder, onSort })
    layOut(headerCells(container))
    pointer(th(container, 'ID'), 'pointerdown', 50)
    pointer(window, 'pointerup', 51)
    fireEvent.click(th(container, 'ID'))
    expect(onReorder).not.toHaveBeenCalled()
    expect(onSort).toHaveBeenCalledWith({ key: 'id', order: 'asc' })
  })

  it('pinned and fixed columns stay where they are; the others move around them', () => {
    const onReorder = vi.fn()
    const columns = [col('id', { pin: 'left' }), col('name'), col('amount'), { ...col('name'), key: 'actions', header: 'Acciones', fixed: true }]
    const { container } = grid({ onReorder, columns })
    layOut(headerCells(container))
    expect(th(container, 'ID').className).toContain('p-frozen-column')
    expect(th(container, 'ID').className).not.toContain('p-reorderable-column')
    // Dragging the pinned column does nothing.
    pointer(th(container, 'ID'), 'pointerdown', 50)
    pointer(window, 'pointermove', 250)
    pointer(window, 'pointerup', 250)
    expect(onReorder).not.toHaveBeenCalled()
    // AMOUNT dropped before NAME; pinned ID stays first, and dropping on it or on Acciones is no target.
    pointer(th(container, 'AMOUNT'), 'pointerdown', 250)
    pointer(window, 'pointermove', 110)
    pointer(window, 'pointerup', 110)
    expect(onReorder).toHaveBeenLastCalledWith(['id', 'amount', 'name'])
    onReorder.mockClear()
    pointer(th(container, 'NAME'), 'pointerdown', 150)
    pointer(window, 'pointermove', 20)
    expect(container.querySelector('[data-drop]')).toBeNull()
    pointer(window, 'pointerup', 20)
    expect(onReorder).not.toHaveBeenCalled()
  })

  it('moveColumn keeps every column once, puts the moved one beside its target and the rest in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 12 }), fc.nat(), fc.nat(), fc.boolean(), (keys, a, b, after) => {
        const moved = keys[a % keys.length]!
        const target = keys[b % keys.length]!
        const next = moveColumn(keys, moved, target, after ? 'after' : 'before')
        expect([...next].sort()).toEqual([...keys].sort())
        expect(next.filter((k) => k !== moved)).toEqual(keys.filter((k) => k !== moved))
        if (moved !== target) expect(next.indexOf(moved) - next.indexOf(target)).toBe(after ? 1 : -1)
        else expect(next).toEqual(keys)
      }),
    )
  })
})

describe('pinned columns', () => {
  it('stick at their edge past the ones pinned before them', () => {
    const widths: Record<string, number> = { ID: 80, NAME: 150, AMOUNT: 90 }
    const spy = vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return widths[this.textContent ?? ''] ?? 0
    })
    try {
      const { container } = grid({ columns: [col('id', { pin: 'left' }), col('name', { pin: 'left' }), col('amount', { pin: 'right' })] })
      const table = container.querySelector<HTMLElement>('table')!
      expect(table.style.getPropertyValue('--pin-0')).toBe('0px')
      expect(table.style.getPropertyValue('--pin-1')).toBe('80px')
      expect(table.style.getPropertyValue('--pin-2')).toBe('0px')
      const cells = bodyRows(container)[0]!.cells
      expect(cells[1]!.className).toBe('p-frozen-column')
      expect(cells[1]!.style.left).toBe('var(--pin-1, 0px)')
      expect(cells[2]!.style.right).toBe('var(--pin-2, 0px)')
    } finally {
      spy.mockRestore()
    }
  })
})

describe('the virtual body', () => {
  it('draws the rows in view and a few more, the others stand as spacers', () => {
    expect(rowWindow(10_000, 40, 0, 400)).toEqual({ start: 0, end: 21 })
    expect(rowWindow(10_000, 40, 4000, 400, 40)).toEqual({ start: 89, end: 120 })
    expect(rowWindow(10_000, 40, 400_000, 400)).toEqual({ start: 9989, end: 10_000 })
    expect(rowWindow(0, 40, 0, 400)).toEqual({ start: 0, end: 0 })
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 10, max: 80 }), fc.nat(3_000_000), fc.integer({ min: 100, max: 2000 }), (count, height, top, view) => {
        const { start, end } = rowWindow(count, height, top, view)
        expect(start).toBeGreaterThanOrEqual(0)
        expect(end).toBeLessThanOrEqual(count)
        expect(start).toBeLessThan(end)
        // Every row that is in view is drawn.
        const firstSeen = Math.min(count - 1, Math.floor(top / height))
        const lastSeen = Math.min(count - 1, Math.floor((top + view - 1) / height))
        expect(start).toBeLessThanOrEqual(firstSeen)
        expect(end).toBeGreaterThan(lastSeen)
      }),
    )
  })

  it('scrolls a row out of view into it, under the sticky header and totals, and leaves one in view alone', () => {
    expect(scrollTopFor(0, 40, 0, 400, 40, 40)).toBeNull()
    expect(scrollTopFor(50, 40, 0, 400, 40, 40)).toBe(40 + 51 * 40 - 400 + 40)
    expect(scrollTopFor(5, 40, 2000, 400, 40, 40)).toBe(200)
  })

  it('only the rows near the view are in the DOM, with spacers of the others’ height hidden from assistive technology', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `N${i}`, amount: i }))
    const handle = createRef<DataGridHandle>()
    const { container } = render(<DataGrid<Row> rows={many} rowKey={(r) => r.id} columns={COLUMNS} label="Muchas" virtual={{ rowHeight: 40, height: '400px' }} handle={handle} />)
    const scroller = container.querySelector<HTMLElement>('.p-virtualscroller')!
    expect(scroller.style.height).toBe('400px')
    const drawn = () => bodyRows(container).filter((r) => r.hasAttribute('data-row-index'))
    expect(drawn().length).toBeLessThan(100)
    expect(drawn()[0]!.style.height).toBe('40px')
    const spacers = () => bodyRows(container).filter((r) => r.className === 'grid-spacer')
    expect(spacers()).toHaveLength(1)
    expect(spacers()[0]!.getAttribute('aria-hidden')).toBe('true')
    expect(spacers()[0]!.style.height).toBe(`${(5000 - drawn().length) * 40}px`)

    Object.defineProperty(scroller, 'clientHeight', { value: 400, configurable: true })
    act(() => handle.current!.scrollToIndex(4999))
    act(() => void scroller.dispatchEvent(new Event('scroll')))
    expect(drawn().at(-1)!.getAttribute('data-row-index')).toBe('4999')
    expect(spacers()).toHaveLength(1)
    const first = Number(drawn()[0]!.getAttribute('data-row-index'))
    expect(spacers()[0]!.style.height).toBe(`${first * 40}px`)
  })
})

describe('moving a row by its handle', () => {
  it('drops it above or below the row under the pointer; the handle column comes first, headed as asked', () => {
    const onMove = vi.fn()
    const { container } = grid({ rowReorder: { header: 'Mover', onMove } })
    expect(headerCells(container).map((h) => h.textContent)).toEqual(['Mover', 'ID', 'NAME', 'AMOUNT'])
    const handles = container.querySelectorAll('tbody .p-datatable-reorderablerow-handle')
    expect(handles).toHaveLength(3)
    expect(handles[0]!.getAttribute('aria-hidden')).toBe('true')
    stack(bodyRows(container))
    // Row 1 (Ana) dragged to the lower half of row 3 (Carla): it ends last.
    pointer(handles[0]!, 'pointerdown', 10, 50)
    pointer(window, 'pointermove', 10, 140)
    expect(bodyRows(container)[2]!.className).toContain('p-datatable-dragpoint-bottom')
    pointer(window, 'pointerup', 10, 140)
    expect(onMove).toHaveBeenLastCalledWith(0, 2)
    expect(container.querySelector('.p-datatable-dragpoint-bottom, .p-datatable-dragpoint-top')).toBeNull()
    // Row 3 dragged to the upper half of row 2: it takes row 2's place.
    pointer(handles[2]!, 'pointerdown', 10, 130)
    pointer(window, 'pointermove', 10, 75)
    expect(bodyRows(container)[1]!.className).toContain('p-datatable-dragpoint-top')
    pointer(window, 'pointerup', 10, 75)
    expect(onMove).toHaveBeenLastCalledWith(2, 1)
    // Dropped where it was: nothing moves.
    onMove.mockClear()
    pointer(handles[1]!, 'pointerdown', 10, 90)
    pointer(window, 'pointermove', 10, 99)
    pointer(window, 'pointerup', 10, 99)
    expect(onMove).not.toHaveBeenCalled()
  })

  it('dropIndex gives the index the row ends at; moveItem moves it there', () => {
    expect(dropIndex(0, 2, 'after')).toBe(2)
    expect(dropIndex(0, 2, 'before')).toBe(1)
    expect(dropIndex(2, 0, 'before')).toBe(0)
    expect(dropIndex(2, 1, 'after')).toBe(2)
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a'])
    expect(moveItem(['a', 'b', 'c'], 2, 5)).toEqual(['a', 'b', 'c'])
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.nat(), fc.nat(), fc.boolean(), (n, a, b, after) => {
        const from = a % n
        const target = b % n
        const to = dropIndex(from, target, after ? 'after' : 'before')
        expect(to).toBeGreaterThanOrEqual(0)
        expect(to).toBeLessThan(n)
        // Moving the item to `to` puts it beside the target, on the side it was dropped, and keeps every other one in order.
        const list = Array.from({ length: n }, (_, i) => i)
        const moved = moveItem(list, from, to)
        expect(moved.filter((x) => x !== from)).toEqual(list.filter((x) => x !== from))
        if (from !== target) expect(moved.indexOf(target) - moved.indexOf(from)).toBe(after ? -1 : 1)
      }),
    )
  })
})

describe('a grid over rows the browser holds (LocalGrid)', () => {
  const many = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, name: `Ñame ${60 - i}`, amount: (i * 37) % 100 }))

  it('sorts and pages them itself: 25 a page, a new sort back to the first page', () => {
    const { container } = render(<LocalGrid<Row> rows={many} rowKey={(r) => r.id} columns={COLUMNS} label="Todas" />)
    const ids = () => bodyRows(container).map((r) => Number(r.cells[0]!.textContent))
    expect(ids()).toHaveLength(25)
    expect(ids()[0]).toBe(1)
    expect(container.querySelector('.p-paginator-current')!.textContent).toBe('1–25 de 60')
    fireEvent.click(screen.getByRole('button', { name: 'Página 3' }))
    expect(ids()).toEqual(Array.from({ length: 10 }, (_, i) => 51 + i))
    // By name: «Ñame 1» … «Ñame 60» as numbers within text (digits compare as numbers).
    fireEvent.click(th(container, 'NAME'))
    expect(container.querySelector('.p-paginator-current')!.textContent).toBe('1–25 de 60')
    expect(bodyRows(container)[0]!.cells[1]!.textContent).toBe('Ñame 1')
    expect(bodyRows(container)[9]!.cells[1]!.textContent).toBe('Ñame 10')
    fireEvent.click(th(container, 'NAME'))
    expect(bodyRows(container)[0]!.cells[1]!.textContent).toBe('Ñame 60')
  })

  it('no pager for a page or less; values compare as numbers or as Spanish text', () => {
    const { container } = render(<LocalGrid<Row> rows={ROWS} rowKey={(r) => r.id} columns={COLUMNS} label="Pocas" />)
    expect(container.querySelector('.p-paginator')).toBeNull()
    expect(compareValues(2, 10)).toBeLessThan(0)
    expect(compareValues('b', 'Á')).toBeGreaterThan(0)
    expect(compareValues('n2', 'n10')).toBeLessThan(0)
    expect(compareValues(null, 'a')).toBeLessThan(0)
  })
})
