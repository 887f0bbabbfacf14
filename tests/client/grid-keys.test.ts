import { describe, expect, it } from 'vitest'
import { clampPos, extendSelection, gridKey, type GridShape } from '../../client/renderer/table/grid-keys'

/** Ten loaded rows of four columns, five in view, more pages both ways. */
const shape: GridShape = { rows: 10, cols: 4, pageRows: 5, hasPrevPage: true, hasNextPage: true }
const key = (k: string, mods: { shift?: boolean; ctrl?: boolean } = {}) => ({ key: k, ...mods })

describe('the grid keyboard model (gridKey)', () => {
  it('arrows move one cell and stop at the edges; row 0 is the header', () => {
    expect(gridKey({ row: 3, col: 1 }, key('ArrowDown'), shape)).toEqual({ pos: { row: 4, col: 1 } })
    expect(gridKey({ row: 3, col: 1 }, key('ArrowUp'), shape)).toEqual({ pos: { row: 2, col: 1 } })
    expect(gridKey({ row: 1, col: 1 }, key('ArrowUp'), shape)).toEqual({ pos: { row: 0, col: 1 } })
    expect(gridKey({ row: 0, col: 1 }, key('ArrowUp'), shape)).toEqual({ pos: { row: 0, col: 1 } })
    expect(gridKey({ row: 10, col: 1 }, key('ArrowDown'), shape)).toEqual({ pos: { row: 10, col: 1 } })
    expect(gridKey({ row: 3, col: 0 }, key('ArrowLeft'), shape)).toEqual({ pos: { row: 3, col: 0 } })
    expect(gridKey({ row: 3, col: 3 }, key('ArrowRight'), shape)).toEqual({ pos: { row: 3, col: 3 } })
    expect(gridKey({ row: 3, col: 2 }, key('ArrowRight'), shape)).toEqual({ pos: { row: 3, col: 3 } })
  })

  it('Home and End go to the row start and end; with Ctrl, to the first and the last cell', () => {
    expect(gridKey({ row: 4, col: 2 }, key('Home'), shape)).toEqual({ pos: { row: 4, col: 0 } })
    expect(gridKey({ row: 4, col: 1 }, key('End'), shape)).toEqual({ pos: { row: 4, col: 3 } })
    expect(gridKey({ row: 4, col: 2 }, key('Home', { ctrl: true }), shape)).toEqual({ pos: { row: 1, col: 0 } })
    expect(gridKey({ row: 4, col: 1 }, key('End', { ctrl: true }), shape)).toEqual({ pos: { row: 10, col: 3 } })
  })

  it('PageDown and PageUp move a view of rows, then turn the pager at the edge', () => {
    expect(gridKey({ row: 2, col: 1 }, key('PageDown'), shape)).toEqual({ pos: { row: 7, col: 1 } })
    expect(gridKey({ row: 7, col: 1 }, key('PageDown'), shape)).toEqual({ pos: { row: 10, col: 1 } })
    expect(gridKey({ row: 10, col: 1 }, key('PageDown'), shape)).toEqual({ pos: { row: 1, col: 1 }, effect: { type: 'page', delta: 1, focus: 'first' } })
    expect(gridKey({ row: 8, col: 1 }, key('PageUp'), shape)).toEqual({ pos: { row: 3, col: 1 } })
    expect(gridKey({ row: 3, col: 1 }, key('PageUp'), shape)).toEqual({ pos: { row: 1, col: 1 } })
    expect(gridKey({ row: 1, col: 1 }, key('PageUp'), shape)).toEqual({ pos: { row: 1, col: 1 }, effect: { type: 'page', delta: -1, focus: 'last' } })
  })

  it('on the first or last page the pager is not turned', () => {
    const only: GridShape = { ...shape, hasPrevPage: false, hasNextPage: false }
    expect(gridKey({ row: 10, col: 0 }, key('PageDown'), only)).toEqual({ pos: { row: 10, col: 0 } })
    expect(gridKey({ row: 1, col: 0 }, key('PageUp'), only)).toEqual({ pos: { row: 1, col: 0 } })
  })

  it('Enter opens and Space toggles a data row; on the header both are left to the header', () => {
    expect(gridKey({ row: 5, col: 2 }, key('Enter'), shape)).toEqual({ pos: { row: 5, col: 2 }, effect: { type: 'open', row: 5 } })
    expect(gridKey({ row: 5, col: 2 }, key(' '), shape)).toEqual({ pos: { row: 5, col: 2 }, effect: { type: 'toggle', row: 5 } })
    expect(gridKey({ row: 0, col: 2 }, key('Enter'), shape)).toBeNull()
    expect(gridKey({ row: 0, col: 2 }, key(' '), shape)).toBeNull()
  })

  it('Shift+Up/Down move and extend the selection over data rows', () => {
    expect(gridKey({ row: 5, col: 0 }, key('ArrowDown', { shift: true }), shape)).toEqual({ pos: { row: 6, col: 0 }, effect: { type: 'extend', from: 5, to: 6 } })
    expect(gridKey({ row: 5, col: 0 }, key('ArrowUp', { shift: true }), shape)).toEqual({ pos: { row: 4, col: 0 }, effect: { type: 'extend', from: 5, to: 4 } })
    // Into the header, or against the edge: a move, nothing selected.
    expect(gridKey({ row: 1, col: 0 }, key('ArrowUp', { shift: true }), shape)).toEqual({ pos: { row: 0, col: 0 } })
    expect(gridKey({ row: 10, col: 0 }, key('ArrowDown', { shift: true }), shape)).toEqual({ pos: { row: 10, col: 0 } })
  })

  it('Tab and other keys are left to the browser: the grid never traps focus', () => {
    for (const k of ['Tab', 'Escape', 'a', 'F2']) expect(gridKey({ row: 3, col: 1 }, key(k), shape)).toBeNull()
    expect(gridKey({ row: 3, col: 1 }, key('Tab', { shift: true }), shape)).toBeNull()
  })

  it('an empty grid keeps the header reachable; a shrunk grid pulls the active cell inside', () => {
    const empty: GridShape = { rows: 0, cols: 3, pageRows: 5, hasPrevPage: false, hasNextPage: false }
    expect(gridKey({ row: 0, col: 0 }, key('ArrowDown'), empty)).toEqual({ pos: { row: 0, col: 0 } })
    expect(gridKey({ row: 0, col: 0 }, key('Home', { ctrl: true }), empty)).toEqual({ pos: { row: 0, col: 0 } })
    expect(clampPos({ row: 40, col: 9 }, shape)).toEqual({ row: 10, col: 3 })
  })
})

describe('extending the selection (extendSelection)', () => {
  it('away from the anchor adds rows, back towards it removes the row left', () => {
    let sel = extendSelection(new Set(), 4, 4, 5)
    expect([...sel].sort()).toEqual([4, 5])
    sel = extendSelection(sel, 4, 5, 6)
    expect([...sel].sort()).toEqual([4, 5, 6])
    sel = extendSelection(sel, 4, 6, 5)
    expect([...sel].sort()).toEqual([4, 5])
    sel = extendSelection(sel, 4, 5, 4)
    expect([...sel].sort()).toEqual([4])
    sel = extendSelection(sel, 4, 4, 3)
    expect([...sel].sort()).toEqual([3, 4])
  })

  it('keeps rows selected before the range', () => {
    expect([...extendSelection(new Set([0]), 4, 4, 5)].sort()).toEqual([0, 4, 5])
  })
})
