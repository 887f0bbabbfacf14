// @vitest-environment jsdom
import { applySizeConstraints, collides, defaultConstraints, moveElement, verticalCompactor, type LayoutItem } from 'react-grid-layout/core'
import { describe, expect, it } from 'vitest'
import { allowedWidgets, CATALOG, DEFAULT_LAYOUTS, keepAllowed, limitsOf } from '../../client/widgets/dashboard/catalog'
import {
  AUTO_SIZE,
  BREAKPOINT_NAMES,
  BREAKPOINTS,
  breakpointForWidth,
  buildPreference,
  clampSize,
  COLS,
  DRAG_CANCEL,
  DRAG_HANDLE,
  DRAG_THRESHOLD,
  fitToColumns,
  freeSpaceResize,
  gridCompactor,
  limitResizeToFreeSpace,
  MARGIN,
  MAX_ROWS,
  mergeLayouts,
  moveItemBy,
  normaliseItem,
  normaliseLayout,
  parsePreference,
  PREFERENCE_KEY,
  PREVENT_COLLISION,
  RESIZE_HANDLES,
  resizeItemBy,
  resolveLayout,
  ROW_HEIGHT,
  samePlacements,
  setBreakpointLayout,
  USE_CSS_TRANSFORMS,
  VISIBILITY_MARGIN_PX,
  VISIBILITY_THRESHOLD,
  type Placement,
  type StoredLayouts,
} from '../../client/widgets/dashboard/grid-rules'

const item = (i: string, x: number, y: number, w: number, h: number, extra: Partial<LayoutItem> = {}): LayoutItem => ({ i, x, y, w, h, ...extra })
const byId = (layout: readonly LayoutItem[], id: string) => layout.find((l) => l.i === id)!
const pos = (l: LayoutItem) => [l.x, l.y, l.w, l.h]
const overlaps = (layout: readonly LayoutItem[]) => layout.some((a, i) => layout.some((b, j) => i < j && collides(a, b)))

describe('spec §9 constants', () => {
  it('breakpoints by container width and columns per breakpoint', () => {
    expect(BREAKPOINTS).toEqual({ lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 })
    expect(COLS).toEqual({ lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 })
    expect(BREAKPOINT_NAMES).toEqual(['lg', 'md', 'sm', 'xs', 'xxs'])
  })

  it('picks the breakpoint from the container width (as react-grid-layout does: above the limit)', () => {
    const cases: [number, string][] = [
      [1600, 'lg'], [1201, 'lg'], [1200, 'md'], [997, 'md'], [996, 'sm'], [769, 'sm'],
      [768, 'xs'], [600, 'xs'], [481, 'xs'], [480, 'xxs'], [390, 'xxs'], [0, 'xxs'],
    ]
    for (const [width, bp] of cases) expect(breakpointForWidth(width), `${width}px`).toBe(bp)
  })

  it('row height 150 px, margin 10 px, unlimited rows, transforms and auto size on', () => {
    expect(ROW_HEIGHT).toBe(150)
    expect(MARGIN).toEqual([10, 10])
    expect(MAX_ROWS).toBe(Infinity)
    expect(USE_CSS_TRANSFORMS).toBe(true)
    expect(AUTO_SIZE).toBe(true)
  })

  it('vertical compaction, colliding items pushed (no preventCollision, no overlap)', () => {
    const c = gridCompactor()
    expect(PREVENT_COLLISION).toBe(false)
    expect(c.type).toBe('vertical')
    expect(c.allowOverlap).toBe(false)
    expect(c.preventCollision ?? false).toBe(false)
    const prevent = gridCompactor(true)
    expect(prevent.type).toBe('vertical')
    expect(prevent.preventCollision).toBe(true)
  })

  it('resizes only from the bottom-right handle; the card header is the drag handle', () => {
    expect(RESIZE_HANDLES).toEqual(['se'])
    expect(DRAG_HANDLE).toBe('.dash-card__header')
  })

  it('pointer move tolerance 1 px before a drag starts; visibility observer margin 8 px, threshold 0.4', () => {
    expect(DRAG_THRESHOLD).toBe(1)
    expect(VISIBILITY_MARGIN_PX).toBe(8)
    expect(VISIBILITY_THRESHOLD).toBe(0.4)
  })

  it('the layouts are kept in the preference dashboard:layouts', () => {
    expect(PREFERENCE_KEY).toBe('dashboard:layouts')
  })
})

describe('a drag starting on a link or button is ignored (dragConfig.cancel)', () => {
  it('matches links, buttons, fields and role=button, and what is inside them', () => {
    document.body.innerHTML = `
      <header class="dash-card__header">
        <h2 id="t">Título</h2>
        <a id="a" href="/x"><span id="in-a">x</span></a>
        <button id="b"><i id="in-b"></i></button>
        <input id="i" /><select id="s"></select><textarea id="ta"></textarea>
        <div id="rb" role="button">r</div>
      </header>`
    for (const id of ['a', 'in-a', 'b', 'in-b', 'i', 's', 'ta', 'rb']) {
      expect(document.getElementById(id)!.closest(DRAG_CANCEL), id).not.toBeNull()
    }
    expect(document.getElementById('t')!.closest(DRAG_CANCEL)).toBeNull()
    expect(document.getElementById('t')!.closest(DRAG_HANDLE)).not.toBeNull()
  })
})

describe('x is clamped to 0 … cols − w', () => {
  it('a negative x becomes 0', () => {
    expect(normaliseItem(item('a', -3, 0, 4, 1), 12).x).toBe(0)
  })
  it('an x that would push the item past the last column is pulled back to cols − w', () => {
    expect(normaliseItem(item('a', 10, 0, 4, 1), 12).x).toBe(8)
    expect(normaliseItem(item('a', 11, 0, 1, 1), 12).x).toBe(11)
    expect(fitToColumns({ x: 3, w: 4 }, 6)).toEqual({ x: 2, w: 4 })
  })
  it('an x inside the grid is kept', () => {
    expect(normaliseItem(item('a', 3, 2, 4, 1), 12)).toMatchObject({ x: 3, y: 2, w: 4 })
  })
})

describe('an item extending beyond the column count moves to x = 0 with its width limited to the columns', () => {
  it('wider than the grid', () => {
    expect(normaliseItem(item('a', 5, 0, 20, 1), 12)).toMatchObject({ x: 0, w: 12 })
    expect(fitToColumns({ x: 2, w: 6 }, 4)).toEqual({ x: 0, w: 4 })
  })
  it('a wide layout read at the narrowest breakpoint', () => {
    const lg = DEFAULT_LAYOUTS.lg.map((p) => ({ ...p, ...limitsOf(p.i) }))
    const xxs = normaliseLayout(lg, COLS.xxs)
    for (const l of xxs) {
      expect(l.x).toBe(0)
      expect(l.w).toBeLessThanOrEqual(2)
    }
    expect(overlaps(xxs)).toBe(false)
  })
})

describe('w and h are clamped between minW/minH (default 1) and maxW/maxH', () => {
  it('raised to the minimum', () => {
    expect(clampSize({ w: 1, h: 1, minW: 3, minH: 2 })).toEqual({ w: 3, h: 2 })
  })
  it('lowered to the maximum', () => {
    expect(clampSize({ w: 10, h: 9, maxW: 4, maxH: 5 })).toEqual({ w: 4, h: 5 })
  })
  it('inside the limits they are kept', () => {
    expect(clampSize({ w: 3, h: 3, minW: 2, minH: 2, maxW: 4, maxH: 4 })).toEqual({ w: 3, h: 3 })
  })
  it('minW and minH default to 1', () => {
    expect(clampSize({ w: 0, h: 0 })).toEqual({ w: 1, h: 1 })
    expect(clampSize({ w: 7, h: 9 })).toEqual({ w: 7, h: 9 })
  })
  it('a maximum below the minimum gives the minimum', () => {
    expect(clampSize({ w: 5, h: 5, minW: 3, maxW: 2, minH: 2, maxH: 1 })).toEqual({ w: 3, h: 2 })
  })
  it('the item keeps its limits for react-grid-layout to enforce while resizing', () => {
    expect(normaliseItem({ ...item('a', 0, 0, 1, 1), minW: 2, minH: 2, maxH: 6 }, 12)).toEqual({ i: 'a', x: 0, y: 0, w: 2, h: 2, minW: 2, minH: 2, maxH: 6 })
  })
  it('react-grid-layout applies the same min/max (default 1) while resizing', () => {
    const ctx = { cols: 12, maxRows: Infinity, containerWidth: 1200, containerHeight: 0, rowHeight: 150, margin: [10, 10] as const, layout: [] }
    expect(applySizeConstraints(defaultConstraints, item('a', 0, 0, 2, 2, { minW: 2, maxH: 3 }), 1, 9, 'se', ctx)).toEqual({ w: 2, h: 3 })
    expect(applySizeConstraints(defaultConstraints, item('a', 0, 0, 2, 2), 0, 0, 'se', ctx)).toEqual({ w: 1, h: 1 })
  })
})

describe('minimum size 1 × 1', () => {
  it('zero, negative and fractional sizes become whole sizes of at least 1', () => {
    expect(clampSize({ w: -2, h: 0.2 })).toEqual({ w: 1, h: 1 })
    expect(clampSize({ w: 2.6, h: 1.4 })).toEqual({ w: 3, h: 1 })
  })
  it('a minW of 0 still gives at least 1', () => {
    expect(clampSize({ w: 0, h: 0, minW: 0, minH: 0 })).toEqual({ w: 1, h: 1 })
  })
  it('non-numbers fall back to the minimum', () => {
    expect(clampSize({ w: Number.NaN, h: Infinity })).toEqual({ w: 1, h: 1 })
  })
})

describe('static items never move', () => {
  const statik = item('s', 4, 3, 4, 1, { static: true })

  it('normalising keeps a static item where it is', () => {
    expect(normaliseItem({ ...statik, x: 10 }, 12)).toMatchObject({ x: 10, y: 3, static: true })
  })

  it('compaction moves the others up around it, never the static item', () => {
    const out = verticalCompactor.compact([statik, item('a', 4, 8, 4, 2), item('b', 0, 6, 2, 1)], 12)
    expect(pos(byId(out, 's'))).toEqual([4, 3, 4, 1])
    expect(byId(out, 'a').y).toBe(4) // rises from 8 until it rests on the static item
    expect(byId(out, 'b').y).toBe(0)
  })

  it('an item that would overlap a static one goes below it', () => {
    const out = normaliseLayout([statik, item('a', 4, 3, 4, 2)], 12)
    expect(pos(byId(out, 's'))).toEqual([4, 3, 4, 1])
    expect(overlaps(out)).toBe(false)
  })

  it('a static item cannot be moved (drag or keyboard)', () => {
    const layout = [statik, item('a', 0, 0, 2, 1)]
    const moved = moveElement(layout.map((l) => ({ ...l })), { ...statik }, 0, 0, true, false, 'vertical', 12)
    expect(pos(byId(moved, 's'))).toEqual([4, 3, 4, 1])
    expect(pos(byId(moveItemBy(layout, 's', -1, 0, 12), 's'))).toEqual([4, 3, 4, 1])
    expect(pos(byId(resizeItemBy(layout, 's', 1, 1, 12), 's'))).toEqual([4, 3, 4, 1])
  })

  it('moving another item onto a static one leaves the static item in place', () => {
    const layout = [statik, item('a', 0, 0, 4, 1)]
    const a = byId(layout, 'a')
    const moved = verticalCompactor.compact(moveElement(layout, a, 4, 3, true, false, 'vertical', 12), 12)
    expect(pos(byId(moved, 's'))).toEqual([4, 3, 4, 1])
    expect(overlaps(moved)).toBe(false)
  })
})

describe('colliding items are pushed down (vertical compaction)', () => {
  it('dragging an item onto another pushes that one down', () => {
    const layout = [item('a', 0, 0, 4, 2), item('b', 0, 2, 4, 2)]
    const b = byId(layout, 'b')
    const out = verticalCompactor.compact(moveElement(layout, b, 0, 0, true, false, 'vertical', 12), 12)
    expect(pos(byId(out, 'b'))).toEqual([0, 0, 4, 2])
    expect(pos(byId(out, 'a'))).toEqual([0, 2, 4, 2])
  })

  it('an overlapping stored layout is resolved by pushing the later item down', () => {
    const out = normaliseLayout([item('a', 0, 0, 6, 2), item('b', 3, 1, 6, 2)], 12)
    expect(pos(byId(out, 'a'))).toEqual([0, 0, 6, 2])
    expect(pos(byId(out, 'b'))).toEqual([3, 2, 6, 2])
  })

  it('gaps are closed upwards', () => {
    const out = normaliseLayout([item('a', 0, 5, 6, 2)], 12)
    expect(byId(out, 'a').y).toBe(0)
  })

  it('growing an item pushes the one below it further down', () => {
    const out = resizeItemBy([item('a', 0, 0, 4, 2), item('b', 0, 2, 4, 2)], 'a', 0, 1, 12)
    expect(pos(byId(out, 'a'))).toEqual([0, 0, 4, 3])
    expect(pos(byId(out, 'b'))).toEqual([0, 3, 4, 2])
  })
})

describe('with preventCollision an overlapping move is cancelled and a resize limited to the free space', () => {
  const prevent = gridCompactor(true)

  it('a drag into another item is cancelled: nothing moves', () => {
    const layout = [item('a', 0, 0, 4, 2), item('b', 4, 0, 4, 2)]
    const b = byId(layout, 'b')
    const out = moveElement(layout, b, 2, 0, true, prevent.preventCollision, prevent.type, 12, prevent.allowOverlap)
    expect(pos(byId(out, 'b'))).toEqual([4, 0, 4, 2])
    expect(pos(byId(out, 'a'))).toEqual([0, 0, 4, 2])
  })

  it('a move into free space is allowed', () => {
    const layout = [item('a', 0, 0, 4, 2), item('b', 4, 0, 4, 2)]
    const out = moveItemBy(layout, 'b', 1, 0, 12, prevent)
    expect(pos(byId(out, 'b'))).toEqual([5, 0, 4, 2])
  })

  it('a keyboard step into another item is cancelled too', () => {
    const layout = [item('a', 0, 0, 4, 2), item('b', 4, 0, 4, 2)]
    expect(pos(byId(moveItemBy(layout, 'b', -1, 0, 12, prevent), 'b'))).toEqual([4, 0, 4, 2])
  })

  it('a resize stops at the neighbour', () => {
    const layout = [item('a', 0, 0, 4, 2), item('b', 6, 0, 4, 2), item('c', 0, 3, 4, 1)]
    const a = byId(layout, 'a')
    expect(limitResizeToFreeSpace(layout, a, 10, 2)).toEqual({ w: 6, h: 2 })
    expect(limitResizeToFreeSpace(layout, a, 4, 5)).toEqual({ w: 4, h: 3 })
    expect(limitResizeToFreeSpace(layout, a, 10, 5)).toEqual({ w: 6, h: 3 })
    // shrinking is always possible
    expect(limitResizeToFreeSpace(layout, a, 2, 1)).toEqual({ w: 2, h: 1 })
  })

  it('as a react-grid-layout constraint and in the keyboard resize', () => {
    const layout = [item('a', 0, 0, 4, 2), item('b', 6, 0, 4, 2)]
    const ctx = { cols: 12, maxRows: Infinity, containerWidth: 1200, containerHeight: 0, rowHeight: 150, margin: [10, 10] as const, layout }
    expect(applySizeConstraints([...defaultConstraints, freeSpaceResize], byId(layout, 'a'), 9, 2, 'se', ctx)).toEqual({ w: 6, h: 2 })
    let out = resizeItemBy(layout, 'a', 1, 0, 12, prevent)
    out = resizeItemBy(out, 'a', 1, 0, 12, prevent)
    out = resizeItemBy(out, 'a', 1, 0, 12, prevent)
    expect(pos(byId(out, 'a'))).toEqual([0, 0, 6, 2])
    expect(pos(byId(out, 'b'))).toEqual([6, 0, 4, 2])
  })
})

describe('a separate layout per breakpoint', () => {
  const lg: Placement[] = [{ i: 'resumen', x: 0, y: 0, w: 12, h: 1 }]
  const xs: Placement[] = [{ i: 'resumen', x: 0, y: 0, w: 4, h: 3 }]

  it('changing one breakpoint leaves the others as they were', () => {
    const stored: StoredLayouts = { lg, xs }
    const next = setBreakpointLayout(stored, 'xs', [item('resumen', 0, 0, 2, 4, { minW: 2 })])
    expect(next.lg).toBe(lg)
    expect(next.xs).toEqual([{ i: 'resumen', x: 0, y: 0, w: 2, h: 4 }])
    expect(stored.xs).toBe(xs)
    expect(next.md).toBeUndefined()
  })

  it('saving merges with what is stored upstream: only the breakpoints arranged here are replaced', () => {
    const upstream: StoredLayouts = { lg: [{ i: 'resumen', x: 0, y: 0, w: 6, h: 2 }], xs }
    const ours: StoredLayouts = { lg, xs: [{ i: 'resumen', x: 0, y: 0, w: 4, h: 4 }] }
    const merged = mergeLayouts(upstream, ours, ['xs'])
    expect(merged.lg).toEqual(upstream.lg) // the wide layout saved elsewhere is not overwritten
    expect(merged.xs).toEqual(ours.xs)
    expect(mergeLayouts(undefined, ours, ['lg'])).toEqual({ lg })
  })

  it('each breakpoint resolves from its own stored layout, or its own default', () => {
    const widgets = ['resumen', 'altas-mes']
    const stored: StoredLayouts = { xs: [{ i: 'altas-mes', x: 0, y: 0, w: 4, h: 2 }, { i: 'resumen', x: 0, y: 2, w: 4, h: 3 }] }
    const atXs = resolveLayout(widgets, stored.xs, DEFAULT_LAYOUTS.xs, limitsOf, COLS.xs)
    const atLg = resolveLayout(widgets, stored.lg, DEFAULT_LAYOUTS.lg, limitsOf, COLS.lg)
    expect(byId(atXs, 'altas-mes').y).toBe(0)
    expect(byId(atXs, 'resumen').y).toBe(2)
    expect(pos(byId(atLg, 'resumen'))).toEqual([0, 0, 12, 1])
    expect(pos(byId(atLg, 'altas-mes'))).toEqual([0, 1, 7, 2])
  })

  it('the stored value keeps each breakpoint apart and is read back the same', () => {
    const value = buildPreference(['resumen'], { lg, xs })
    expect(value).toEqual({ version: 1, widgets: ['resumen'], layouts: { lg, xs } })
    expect(parsePreference(JSON.parse(JSON.stringify(value)))).toEqual({ widgets: ['resumen'], layouts: { lg, xs } })
  })

  it('a malformed stored value is ignored, item by item', () => {
    expect(parsePreference(null)).toBeNull()
    expect(parsePreference('x')).toBeNull()
    expect(parsePreference([1, 2])).toBeNull()
    const parsed = parsePreference({ version: 1, layouts: { lg: [{ i: 'resumen', x: 0, y: 0, w: 12, h: 1 }, { i: 'omie', x: 'a' }, null], md: 'no', zz: [] } })
    expect(parsed).toEqual({ layouts: { lg } })
    // a bare map of layouts (react-grid-layout's own shape) is accepted too
    expect(parsePreference({ lg })).toEqual({ layouts: { lg } })
  })

  it('removed widgets are left out of what is stored', () => {
    const value = buildPreference(['resumen'], { lg: [...lg, { i: 'omie', x: 0, y: 1, w: 6, h: 2 }] })
    expect(value.layouts.lg).toEqual(lg)
  })

  it('layouts compare by placement, not by order', () => {
    expect(samePlacements([{ i: 'a', x: 0, y: 0, w: 1, h: 1 }, { i: 'b', x: 1, y: 0, w: 1, h: 1 }], [{ i: 'b', x: 1, y: 0, w: 1, h: 1 }, { i: 'a', x: 0, y: 0, w: 1, h: 1 }])).toBe(true)
    expect(samePlacements([{ i: 'a', x: 0, y: 0, w: 1, h: 1 }], [{ i: 'a', x: 0, y: 0, w: 2, h: 1 }])).toBe(false)
  })
})

describe('the widgets and their default layouts', () => {
  it('every default layout is already valid: inside the columns, within limits, no overlap, nothing to compact', () => {
    for (const bp of BREAKPOINT_NAMES) {
      const def = DEFAULT_LAYOUTS[bp]
      expect(def.map((p) => p.i).sort(), bp).toEqual(CATALOG.map((w) => w.id).sort())
      const resolved = resolveLayout(CATALOG.map((w) => w.id), undefined, def, limitsOf, COLS[bp])
      for (const p of def) expect(pos(byId(resolved, p.i)), `${bp} ${p.i}`).toEqual([p.x, p.y, p.w, p.h])
      expect(overlaps(resolved), bp).toBe(false)
    }
  })

  it('a widget missing from a stored layout is added at the bottom; one no longer on the grid is dropped', () => {
    const stored: Placement[] = [{ i: 'resumen', x: 0, y: 0, w: 12, h: 1 }, { i: 'omie', x: 0, y: 1, w: 6, h: 2 }]
    const out = resolveLayout(['resumen', 'situacion'], stored, DEFAULT_LAYOUTS.lg, limitsOf, COLS.lg)
    expect(out.map((l) => l.i)).toEqual(['resumen', 'situacion'])
    expect(pos(byId(out, 'situacion'))).toEqual([0, 1, 5, 2])
  })

  it('sizes below a widget’s minimum are raised to it; limits come from the catalogue, not storage', () => {
    const stored = [{ i: 'altas-mes', x: 0, y: 0, w: 1, h: 1, minW: 1, minH: 1 } as Placement]
    const out = resolveLayout(['altas-mes'], stored, DEFAULT_LAYOUTS.lg, limitsOf, COLS.lg)
    expect(byId(out, 'altas-mes')).toMatchObject({ w: 2, h: 2, minW: 2, minH: 2 })
  })

  it('the renewals widget is only for users with VERRENOVACIONES', () => {
    expect(allowedWidgets([]).map((w) => w.id)).not.toContain('renovaciones')
    expect(allowedWidgets(['VERRENOVACIONES']).map((w) => w.id)).toContain('renovaciones')
    expect(keepAllowed(['renovaciones', 'omie', 'desconocido', 'omie'], allowedWidgets([]))).toEqual(['omie'])
  })
})

describe('keyboard moves follow the same rules', () => {
  const layout = [item('a', 0, 0, 4, 2), item('b', 0, 2, 4, 1), item('c', 4, 0, 4, 1)]

  it('left and right by one column, clamped to the grid', () => {
    expect(byId(moveItemBy(layout, 'c', 1, 0, 12), 'c').x).toBe(5)
    expect(byId(moveItemBy(layout, 'a', -1, 0, 12), 'a').x).toBe(0)
    expect(byId(moveItemBy([item('z', 8, 0, 4, 1)], 'z', 1, 0, 12), 'z').x).toBe(8)
  })

  it('down swaps with the item below, up swaps with the item above', () => {
    const down = moveItemBy(layout, 'a', 0, 1, 12)
    expect(byId(down, 'b').y).toBe(0)
    expect(byId(down, 'a').y).toBe(1)
    const up = moveItemBy(layout, 'b', 0, -1, 12)
    expect(byId(up, 'b').y).toBe(0)
    expect(byId(up, 'a').y).toBe(1)
    expect(overlaps(down) || overlaps(up)).toBe(false)
  })

  it('down also swaps with a taller, narrower neighbour', () => {
    const wide = [item('r', 0, 0, 12, 1), item('a', 0, 1, 7, 2), item('n', 7, 1, 5, 2), item('o', 0, 3, 6, 3), item('s', 7, 3, 5, 2)]
    const down = moveItemBy(wide, 'a', 0, 1, 12)
    expect(pos(byId(down, 'o'))).toEqual([0, 1, 6, 3])
    expect(pos(byId(down, 'a'))).toEqual([0, 4, 7, 2])
    expect(overlaps(down)).toBe(false)
    // the last one cannot go further down
    expect(moveItemBy(down, 'a', 0, 1, 12)).toEqual(down)
  })

  it('a resize keeps the limits and the columns', () => {
    expect(byId(resizeItemBy([item('a', 10, 0, 2, 2)], 'a', 1, 0, 12), 'a').w).toBe(2)
    expect(byId(resizeItemBy([item('a', 0, 0, 2, 2, { minW: 2 })], 'a', -1, 0, 12), 'a').w).toBe(2)
    expect(byId(resizeItemBy([item('a', 0, 0, 2, 6, { maxH: 6 })], 'a', 0, 1, 12), 'a').h).toBe(6)
    expect(byId(resizeItemBy([item('a', 0, 0, 1, 1)], 'a', -1, -1, 12), 'a')).toMatchObject({ w: 1, h: 1 })
  })
})
