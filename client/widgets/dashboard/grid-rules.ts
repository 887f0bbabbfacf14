import {
  bottom,
  cloneLayout,
  getAllCollisions,
  getBreakpointFromWidth,
  getCompactor,
  getLayoutItem,
  moveElement,
  verticalCompactor,
  type Compactor,
  type Layout,
  type LayoutConstraint,
  type LayoutItem,
} from 'react-grid-layout/core'

/**
 * The dashboard grid's rules (spec §5 and §9), pure: the constants the grid is drawn with and
 * what the page applies itself before handing a layout to react-grid-layout (a stored or default
 * layout is normalised: sizes clamped, widths fitted to the columns, statics kept, overlaps
 * resolved) and the keyboard moves. Collisions and compaction are react-grid-layout's own.
 */

// ── Spec §9 constants ───────────────────────────────────────────────────

/** Breakpoints by container width (px). */
export const BREAKPOINTS = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 } as const
export type Breakpoint = keyof typeof BREAKPOINTS
/** Columns per breakpoint. */
export const COLS: Record<Breakpoint, number> = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 }
/** Widest first. */
export const BREAKPOINT_NAMES: readonly Breakpoint[] = ['lg', 'md', 'sm', 'xs', 'xxs']
export const ROW_HEIGHT = 150
export const MARGIN: readonly [number, number] = [10, 10]
/** Unlimited rows. */
export const MAX_ROWS = Infinity
/** Spec §9: "transforms on" (items placed with CSS transforms) and "auto size on" (the container grows with its items). */
export const USE_CSS_TRANSFORMS = true
export const AUTO_SIZE = true
/** Spec §9: colliding items are pushed down or aside. With preventCollision a move into another item is cancelled. */
export const PREVENT_COLLISION = false
/** A drag starting on a link, a button or a field is ignored (spec §5). */
export const DRAG_CANCEL = 'a, button, input, select, textarea, [role=button]'
/** Only a card's header moves it, so charts, tables and links inside stay usable. */
export const DRAG_HANDLE = '.dash-card__header'
/** Resizing only from the bottom-right handle (spec §5). */
export const RESIZE_HANDLES = ['se'] as const
/** Spec §9 interaction defaults: a drag starts once the pointer has moved this many pixels. */
export const DRAG_THRESHOLD = 1
/** Spec §9 visibility observer: a widget loads its data once 40 % of its card is within 8 px of the viewport. */
export const VISIBILITY_MARGIN_PX = 8
export const VISIBILITY_THRESHOLD = 0.4

/** Vertical compaction (spec §9), with or without preventCollision. */
export function gridCompactor(preventCollision: boolean = PREVENT_COLLISION): Compactor {
  return preventCollision ? getCompactor('vertical', false, true) : verticalCompactor
}

export function breakpointForWidth(width: number): Breakpoint {
  return getBreakpointFromWidth(BREAKPOINTS, width) as Breakpoint
}

// ── Items ───────────────────────────────────────────────────────────────

/** Position and size only: what a layout stores. */
export interface Placement {
  i: string
  x: number
  y: number
  w: number
  h: number
}

/** What the widget catalogue says about an item's size; never taken from storage. */
export interface ItemLimits {
  minW?: number
  minH?: number
  maxW?: number
  maxH?: number
  static?: boolean
}

const int = (v: number, fallback: number) => (Number.isFinite(v) ? Math.round(v) : fallback)
const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max)

/** w and h clamped between minW/minH (default 1) and maxW/maxH, and never under 1 × 1. */
export function clampSize(item: Pick<LayoutItem, 'w' | 'h'> & ItemLimits): { w: number; h: number } {
  const minW = Math.max(1, int(item.minW ?? 1, 1))
  const minH = Math.max(1, int(item.minH ?? 1, 1))
  const maxW = Math.max(minW, item.maxW ?? Infinity)
  const maxH = Math.max(minH, item.maxH ?? Infinity)
  return { w: clamp(int(item.w, minW), minW, maxW), h: clamp(int(item.h, minH), minH, maxH) }
}

/**
 * The column rules: an item wider than the column count moves to x = 0 with its width limited to
 * the column count; otherwise x is clamped to 0 … cols − w.
 */
export function fitToColumns(item: Pick<LayoutItem, 'x' | 'w'>, cols: number): { x: number; w: number } {
  if (item.w > cols) return { x: 0, w: cols }
  return { x: clamp(int(item.x, 0), 0, cols - item.w), w: item.w }
}

/**
 * One item made valid for a grid of `cols` columns: sizes clamped, then fitted to the columns,
 * y a whole number ≥ 0. A static item never moves: its x and y are kept as they are.
 */
export function normaliseItem(item: Placement & ItemLimits, cols: number): LayoutItem {
  const size = clampSize(item)
  const out: LayoutItem = { i: item.i, x: int(item.x, 0), y: Math.max(0, int(item.y, 0)), w: size.w, h: size.h }
  if (item.minW !== undefined) out.minW = item.minW
  if (item.minH !== undefined) out.minH = item.minH
  if (item.maxW !== undefined) out.maxW = item.maxW
  if (item.maxH !== undefined) out.maxH = item.maxH
  if (item.static) {
    out.static = true
    return out
  }
  const fitted = fitToColumns(out, cols)
  out.x = fitted.x
  out.w = fitted.w
  return out
}

/** Every item normalised, then overlaps resolved by the grid's compaction (statics stay put). */
export function normaliseLayout(layout: readonly (Placement & ItemLimits)[], cols: number, compactor: Compactor = gridCompactor()): LayoutItem[] {
  const seen = new Set<string>()
  const items: LayoutItem[] = []
  for (const item of layout) {
    if (seen.has(item.i)) continue
    seen.add(item.i)
    items.push(normaliseItem(item, cols))
  }
  return [...compactor.compact(items, cols)]
}

/** Position and size only, for storage. */
export function toPlacements(layout: Layout): Placement[] {
  return layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))
}

export function samePlacements(a: readonly Placement[] | undefined, b: readonly Placement[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false
  const key = (p: Placement) => `${p.i}:${p.x}:${p.y}:${p.w}:${p.h}`
  const set = new Set(a.map(key))
  return b.every((p) => set.has(key(p)))
}

// ── Per-breakpoint layouts and the stored preference ────────────────────

/** The layouts the user arranged, by breakpoint; a breakpoint not here uses its default layout. */
export type StoredLayouts = Partial<Record<Breakpoint, Placement[]>>

/** The preference `dashboard:layouts` (kept upstream, follows the user to any machine). */
export interface DashboardPreference {
  version: 1
  /** The widgets on the grid, in order; absent: the default set. */
  widgets?: string[]
  layouts: StoredLayouts
}

export const PREFERENCE_KEY = 'dashboard:layouts'

function isPlacement(v: unknown): v is Placement {
  if (typeof v !== 'object' || v === null) return false
  const p = v as Record<string, unknown>
  return typeof p.i === 'string' && ['x', 'y', 'w', 'h'].every((k) => typeof p[k] === 'number' && Number.isFinite(p[k]))
}

/**
 * A stored value read defensively: anything malformed is dropped (that breakpoint falls back to
 * its default). Also accepts a bare `{ lg: [...], xs: [...] }` map of layouts.
 */
export function parsePreference(value: unknown): { widgets?: string[]; layouts: StoredLayouts } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const v = value as Record<string, unknown>
  const source = (typeof v.layouts === 'object' && v.layouts !== null ? v.layouts : v) as Record<string, unknown>
  const layouts: StoredLayouts = {}
  for (const bp of BREAKPOINT_NAMES) {
    const list = source[bp]
    if (Array.isArray(list)) layouts[bp] = list.filter(isPlacement).map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))
  }
  const widgets = Array.isArray(v.widgets) ? [...new Set(v.widgets.filter((w): w is string => typeof w === 'string'))] : undefined
  return widgets ? { widgets, layouts } : { layouts }
}

/** The value to store. */
export function buildPreference(widgets: readonly string[], layouts: StoredLayouts): DashboardPreference {
  const clean: StoredLayouts = {}
  for (const bp of BREAKPOINT_NAMES) {
    const list = layouts[bp]
    if (list) clean[bp] = list.filter((p) => widgets.includes(p.i)).map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))
  }
  return { version: 1, widgets: [...widgets], layouts: clean }
}

/** The layout of one breakpoint replaced; every other breakpoint's stays as it was. */
export function setBreakpointLayout(layouts: StoredLayouts, bp: Breakpoint, layout: Layout): StoredLayouts {
  return { ...layouts, [bp]: toPlacements(layout) }
}

/**
 * Before saving: what is stored upstream (perhaps by another machine) with only the breakpoints
 * arranged here replaced, so a layout saved for one breakpoint never overwrites another's.
 */
export function mergeLayouts(stored: StoredLayouts | undefined, ours: StoredLayouts, changed: Iterable<Breakpoint>): StoredLayouts {
  const out: StoredLayouts = { ...(stored ?? {}) }
  for (const bp of changed) {
    const mine = ours[bp]
    if (mine) out[bp] = mine
    else delete out[bp]
  }
  return out
}

/**
 * The full layout of one breakpoint: the stored one (or the default) restricted to the widgets on
 * the grid, each widget missing from it added at the bottom with its default size, limits from the
 * catalogue, then normalised.
 */
export function resolveLayout(
  widgets: readonly string[],
  stored: readonly Placement[] | undefined,
  defaults: readonly Placement[],
  limits: (id: string) => ItemLimits,
  cols: number,
): LayoutItem[] {
  const base = stored ?? defaults
  const items: (Placement & ItemLimits)[] = []
  for (const p of base) if (widgets.includes(p.i) && !items.some((q) => q.i === p.i)) items.push({ ...p, ...limits(p.i) })
  let y = bottom(normaliseLayout(items, cols))
  for (const id of widgets) {
    if (items.some((p) => p.i === id)) continue
    const def = defaults.find((p) => p.i === id) ?? { i: id, x: 0, y: 0, w: cols, h: 2 }
    const added = { ...def, x: 0, y, ...limits(id) }
    items.push(added)
    y += clampSize(added).h
  }
  return normaliseLayout(items, cols)
}

// ── Moves and resizes (keyboard) ────────────────────────────────────────

/** The nearest item above or below `l` that shares a column with it. */
function neighbour(layout: Layout, l: LayoutItem, direction: -1 | 1): LayoutItem | undefined {
  const sharesColumn = (o: LayoutItem) => o.i !== l.i && o.x < l.x + l.w && l.x < o.x + o.w
  const candidates = layout.filter((o) => sharesColumn(o) && (direction < 0 ? o.y + o.h <= l.y : o.y >= l.y + l.h))
  candidates.sort((a, b) => (direction < 0 ? b.y - a.y : a.y - b.y))
  return candidates[0]
}

/**
 * Moves an item one step (dx, dy in grid units) as a drag would: colliding items are pushed
 * (or, with preventCollision, the move is cancelled), then the layout is compacted. A step up or
 * down swaps places with the neighbour in that direction, since compaction would undo a one-row move.
 */
export function moveItemBy(layout: Layout, id: string, dx: number, dy: number, cols: number, compactor: Compactor = gridCompactor()): LayoutItem[] {
  const start = getLayoutItem(layout, id)
  if (!start || start.static) return cloneLayout(layout)
  const attempt = (x: number, y: number): LayoutItem[] => {
    const working = cloneLayout(layout)
    const l = getLayoutItem(working, id)!
    const moved = moveElement(working, l, x, y, true, compactor.preventCollision ?? false, compactor.type, cols, compactor.allowOverlap)
    return [...compactor.compact(moved, cols)]
  }
  if (dy === 0) return attempt(clamp(start.x + dx, 0, Math.max(0, cols - start.w)), start.y)
  const other = neighbour(layout, start, dy < 0 ? -1 : 1)
  if (!other) return cloneLayout(layout)
  if (dy < 0) return attempt(start.x, other.y)
  // Down: as a drag would, go further over the neighbour until the two swap places.
  for (let y = other.y + 1; y <= other.y + other.h; y++) {
    const out = attempt(start.x, y)
    if (getLayoutItem(out, id)!.y > start.y) return out
  }
  return cloneLayout(layout)
}

/** Grows or shrinks an item by (dw, dh) within its limits and the columns; others make room. */
export function resizeItemBy(layout: Layout, id: string, dw: number, dh: number, cols: number, compactor: Compactor = gridCompactor()): LayoutItem[] {
  const working = cloneLayout(layout)
  const l = getLayoutItem(working, id)
  if (!l || l.static) return working
  const size = clampSize({ ...l, w: l.w + dw, h: l.h + dh })
  let w = Math.min(size.w, cols - l.x)
  let h = size.h
  if (compactor.preventCollision) ({ w, h } = limitResizeToFreeSpace(working, l, w, h))
  l.w = Math.max(1, w)
  l.h = h
  return [...compactor.compact(working, cols)]
}

/**
 * With preventCollision a resize is limited to the free space: the largest size up to (w, h)
 * that overlaps no other item (width first, then height). Shrinking is always allowed.
 */
export function limitResizeToFreeSpace(layout: Layout, item: LayoutItem, w: number, h: number): { w: number; h: number } {
  const free = (ww: number, hh: number) => getAllCollisions(layout, { ...item, w: ww, h: hh }).every((o) => o.i === item.i)
  if (free(w, h)) return { w, h }
  let bestW = Math.min(item.w, w)
  for (let ww = bestW + 1; ww <= w && free(ww, Math.min(item.h, h)); ww++) bestW = ww
  let bestH = Math.min(item.h, h)
  for (let hh = bestH + 1; hh <= h && free(bestW, hh); hh++) bestH = hh
  return { w: bestW, h: bestH }
}

/** The same rule as a react-grid-layout constraint, for a grid that prevents collisions. */
export const freeSpaceResize: LayoutConstraint = {
  name: 'freeSpaceResize',
  constrainSize(item, w, h, _handle, context) {
    return limitResizeToFreeSpace(context.layout, item, w, h)
  },
}
