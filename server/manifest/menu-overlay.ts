import type { MenuDefinition, MenuEntry, MenuOverlay } from '../../schemas/menu'

/** Fields compared and overridden per entry (the key and the children are structure, not fields). */
const FIELDS = ['label', 'icon', 'to', 'href', 'productionHref', 'command', 'permission', 'devOnly', 'hidden', 'brands', 'badge'] as const
type Field = (typeof FIELDS)[number]

interface Flat {
  entry: Omit<MenuEntry, 'items'>
  parent: string
  /** Whether it holds children (a section or group), even when it has none now. */
  container: boolean
}

/** Every entry by key, with its parent ('' for sections), and each parent's child order. */
export function flatten(menu: MenuDefinition): { entries: Map<string, Flat>; order: Map<string, string[]> } {
  const entries = new Map<string, Flat>()
  const order = new Map<string, string[]>()
  const walk = (list: MenuEntry[], parent: string) => {
    order.set(parent, list.map((e) => e.key))
    for (const e of list) {
      const { items, ...entry } = e
      entries.set(e.key, { entry, parent, container: Array.isArray(items) })
      if (items) walk(items as MenuEntry[], e.key)
    }
  }
  walk(menu.sections, '')
  return { entries, order }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** What `edited` changes on top of `base`, as an overlay (the inverse of applyOverlay). */
export function diffMenu(base: MenuDefinition, edited: MenuDefinition): MenuOverlay {
  const a = flatten(base)
  const b = flatten(edited)
  const overlay: MenuOverlay = { entries: {}, moved: {}, order: {}, added: [], removed: [] }
  for (const [key, was] of a.entries) {
    const now = b.entries.get(key)
    if (!now) {
      overlay.removed.push(key)
      continue
    }
    const changes: Record<string, unknown> = {}
    for (const f of FIELDS) {
      if (!same(was.entry[f], now.entry[f])) changes[f] = now.entry[f] ?? null
    }
    if (Object.keys(changes).length) overlay.entries[key] = changes as MenuOverlay['entries'][string]
    if (was.parent !== now.parent) overlay.moved[key] = now.parent
  }
  for (const [key, now] of b.entries) {
    if (a.entries.has(key)) continue
    overlay.added.push({ parent: now.parent, entry: { ...now.entry, ...(now.container ? { items: [] } : {}) } as MenuEntry })
  }
  for (const [parent, keys] of b.order) {
    if (!same(a.order.get(parent) ?? [], keys)) overlay.order[parent] = keys
  }
  return overlay
}

/**
 * The menu an admin sees and users get: the shipped menu with the stored overlay applied.
 * Entries the release added appear in their shipped place; entries the overlay names that
 * no longer exist are skipped, never an error.
 */
export function applyOverlay(base: MenuDefinition, overlay: MenuOverlay): MenuDefinition {
  const { entries, order } = flatten(base)
  const removed = new Set(overlay.removed)
  const nodes = new Map<string, { entry: Record<string, unknown>; parent: string; container: boolean }>()
  for (const [key, flat] of entries) {
    if (removed.has(key)) continue
    nodes.set(key, { entry: { ...flat.entry }, parent: flat.parent, container: flat.container })
  }
  for (const { parent, entry } of overlay.added) {
    if (nodes.has(entry.key)) continue
    const { items, ...fields } = entry
    nodes.set(entry.key, { entry: fields, parent, container: Array.isArray(items) })
  }
  for (const [key, changes] of Object.entries(overlay.entries)) {
    const node = nodes.get(key)
    if (!node) continue
    for (const [f, v] of Object.entries(changes) as [Field, unknown][]) {
      if (v === null || v === undefined) delete node.entry[f]
      else node.entry[f] = v
    }
  }
  for (const [key, parent] of Object.entries(overlay.moved)) {
    const node = nodes.get(key)
    if (node && (parent === '' || nodes.get(parent)?.container)) node.parent = parent
  }
  // A node whose parent is gone (removed section) goes nowhere.
  const childrenOf = (parent: string): string[] => {
    const here = [...nodes.entries()].filter(([, n]) => n.parent === parent).map(([k]) => k)
    const wanted = overlay.order[parent] ?? []
    const shipped = order.get(parent) ?? []
    const rank = (k: string) => {
      const w = wanted.indexOf(k)
      if (w >= 0) return w
      // Not in the admin's order (new in a release): after the ordered ones, in shipped order.
      const s = shipped.indexOf(k)
      return wanted.length + (s >= 0 ? s : shipped.length + here.indexOf(k))
    }
    return here.sort((x, y) => rank(x) - rank(y))
  }
  const build = (parent: string, seen: Set<string>): MenuEntry[] =>
    childrenOf(parent)
      .filter((k) => !seen.has(k))
      .map((k) => {
        const node = nodes.get(k)!
        const next = new Set(seen).add(k)
        return (node.container ? { ...node.entry, items: build(k, next) } : { ...node.entry }) as MenuEntry
      })
  return { sections: build('', new Set()) }
}
