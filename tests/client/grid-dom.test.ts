// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest'
import { cellAt, markGrid, posOf, tableOf } from '../../client/renderer/table/grid-dom'

/** A table as the grid (ui/grid) draws it: header, body rows carrying their index, a link and buttons in cells, a footer. */
function draw(first: number, count: number): HTMLElement {
  const root = document.createElement('div')
  const rows = Array.from({ length: count }, (_, i) => {
    const n = first + i
    return `<tr role="row" class="row-clickable" data-row-index="${n}"><td><a class="row-link" href="/c/${n}">C${n}</a></td><td>Titular ${n}</td><td><span class="row-actions"><button>Ver</button><button>Duplicar</button></span></td></tr>`
  }).join('')
  root.innerHTML = `<div class="p-datatable"><table class="p-datatable-table" role="table">
    <thead><tr role="row"><th tabindex="0" role="columnheader">Código</th><th tabindex="0" role="columnheader">Titular</th><th role="columnheader">Acciones</th></tr></thead>
    <tbody class="p-datatable-tbody">${rows}</tbody>
    <tfoot><tr><td>Total (filtro)</td><td></td><td></td></tr></tfoot></table></div>`
  document.body.replaceChildren(root)
  return root
}

const tabStops = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('*')].filter((el) => el.tabIndex >= 0 && el.getAttribute('tabindex') !== null)

describe('grid semantics written on the table (markGrid)', () => {
  let root: HTMLElement
  let table: HTMLTableElement
  beforeEach(() => {
    root = draw(0, 3)
    table = tableOf(root)!
  })

  it('makes it a grid: roles, row and column counts and indexes over the whole set', () => {
    markGrid(table, { offset: 20, total: 650, cols: 3, active: { row: 1, col: 0 } })
    expect(table.getAttribute('role')).toBe('grid')
    expect(table.getAttribute('aria-rowcount')).toBe('651')
    expect(table.getAttribute('aria-colcount')).toBe('3')
    expect(table.tHead!.rows[0]!.getAttribute('aria-rowindex')).toBe('1')
    expect([...table.tBodies[0]!.rows].map((r) => r.getAttribute('aria-rowindex'))).toEqual(['22', '23', '24'])
    expect([...table.tBodies[0]!.rows[1]!.cells].map((c) => [c.getAttribute('role'), c.getAttribute('aria-colindex')])).toEqual([
      ['gridcell', '1'],
      ['gridcell', '2'],
      ['gridcell', '3'],
    ])
    expect([...table.tFoot!.rows[0]!.cells].every((c) => c.getAttribute('role') === 'gridcell')).toBe(true)
  })

  it('one tab stop: the active cell; the header cells, links and buttons are reached with the keys', () => {
    markGrid(table, { offset: 0, total: 3, cols: 3, active: { row: 2, col: 1 } })
    expect(tabStops(root)).toEqual([table.tBodies[0]!.rows[1]!.cells[1]])
    markGrid(table, { offset: 0, total: 3, cols: 3, active: { row: 0, col: 0 } })
    expect(tabStops(root)).toEqual([table.tHead!.rows[0]!.cells[0]])
    expect([...root.querySelectorAll<HTMLElement>('a, button')].every((el) => el.tabIndex === -1)).toBe(true)
  })

  it('finds cells by position and positions by element, by the row’s index (not the DOM order)', () => {
    root = draw(40, 3)
    table = tableOf(root)!
    const cell = cellAt(table, { row: 42, col: 2 })!
    expect(cell.textContent).toContain('Ver')
    expect(posOf(table, cell.querySelector('button')!)).toEqual({ row: 42, col: 2 })
    expect(posOf(table, table.tHead!.rows[0]!.cells[1]!)).toEqual({ row: 0, col: 1 })
    expect(posOf(table, table.tFoot!.rows[0]!.cells[0]!)).toBeNull()
    expect(cellAt(table, { row: 1, col: 0 })).toBeNull()
  })

  it('an active row a virtual scroller has not drawn leaves the grid reachable by Tab in the same column', () => {
    root = draw(40, 3)
    table = tableOf(root)!
    const reachable = markGrid(table, { offset: 0, total: 1000, cols: 3, active: { row: 900, col: 1 } })
    expect(reachable).toBe(table.tBodies[0]!.rows[0]!.cells[1])
    expect(tabStops(root)).toEqual([reachable])
  })

  it('leaves a virtual body’s spacer rows out of the grid: hidden, no cells, no tab stop', () => {
    root = draw(40, 3)
    table = tableOf(root)!
    const body = table.tBodies[0]!
    const spacer = document.createElement('tr')
    spacer.setAttribute('aria-hidden', 'true')
    spacer.innerHTML = '<td colspan="3"></td>'
    body.insertBefore(spacer, body.rows[0]!)
    const reachable = markGrid(table, { offset: 0, total: 1000, cols: 3, active: { row: 41, col: 0 } })
    expect(spacer.cells[0]!.hasAttribute('role')).toBe(false)
    expect(spacer.hasAttribute('aria-rowindex')).toBe(false)
    expect(reachable).toBe(body.rows[1]!.cells[0])
    expect(tabStops(root)).toEqual([reachable])
  })
})
