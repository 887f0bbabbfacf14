import type { TreeNode } from 'primereact/treenode'
import type { MenuDefinition, MenuEntry } from '../../../schemas/menu'
import { messageIn } from '../../i18n/i18n'
import { messages } from './messages'

/** An entry's own fields, without its children. */
export type EntryFields = Omit<MenuEntry, 'items'>

/** Where an entry sits: its parent key ('' for a section), position and depth (0 section, 1 entry or group, 2 entry of a group). */
export interface Located {
  entry: MenuEntry
  parent: string
  index: number
  depth: number
}

/** The menu allows sections, groups and entries: three levels. */
export const MAX_DEPTH = 2

export const isContainer = (e: MenuEntry) => Array.isArray(e.items)

export function locate(menu: MenuDefinition, key: string): Located | null {
  const visit = (list: MenuEntry[], parent: string, depth: number): Located | null => {
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!
      if (e.key === key) return { entry: e, parent, index: i, depth }
      const found = e.items ? visit(e.items as MenuEntry[], e.key, depth + 1) : null
      if (found) return found
    }
    return null
  }
  return visit(menu.sections as MenuEntry[], '', 0)
}

/** The children list of `parent` ('' = the sections) in a copy being edited. */
function childrenOf(menu: MenuDefinition, parent: string): MenuEntry[] {
  if (parent === '') return menu.sections as MenuEntry[]
  const found = locate(menu, parent)
  if (!found || !found.entry.items) throw new Error(`«${parent}» no admite entradas`)
  return found.entry.items as MenuEntry[]
}

/** Replaces an entry's own fields (its key and children stay). */
export function updateEntry(menu: MenuDefinition, key: string, fields: EntryFields): MenuDefinition {
  const copy = structuredClone(menu)
  const found = locate(copy, key)!
  const items = found.entry.items
  const next = { ...fields, key } as MenuEntry
  if (items) next.items = items
  childrenOf(copy, found.parent)[found.index] = next
  return copy
}

/** Moves an entry one place up or down among its siblings. */
export function moveBy(menu: MenuDefinition, key: string, delta: -1 | 1): MenuDefinition {
  const copy = structuredClone(menu)
  const found = locate(copy, key)!
  const list = childrenOf(copy, found.parent)
  const to = found.index + delta
  if (to < 0 || to >= list.length) return menu
  ;[list[found.index], list[to]] = [list[to]!, list[found.index]!]
  return copy
}

/** Moves an entry to the end of another section or group; refused (null) when the result would be too deep. */
export function moveInto(menu: MenuDefinition, key: string, parent: string): MenuDefinition | null {
  const found = locate(menu, key)
  if (!found || found.parent === parent || key === parent) return menu
  const copy = structuredClone(menu)
  const from = childrenOf(copy, found.parent)
  const [moved] = from.splice(found.index, 1)
  let target: MenuEntry[]
  try {
    target = childrenOf(copy, parent)
  } catch {
    return null
  }
  target.push(moved!)
  return structureProblem(copy) ? null : copy
}

export function removeEntry(menu: MenuDefinition, key: string): MenuDefinition {
  const copy = structuredClone(menu)
  const found = locate(copy, key)!
  childrenOf(copy, found.parent).splice(found.index, 1)
  return copy
}

/** Adds an entry at the end of `parent` ('' = a new section). */
export function addEntry(menu: MenuDefinition, parent: string, entry: MenuEntry): MenuDefinition {
  const copy = structuredClone(menu)
  childrenOf(copy, parent).push(entry)
  return copy
}

/** Every key in use. */
export function keysOf(menu: MenuDefinition): Set<string> {
  const keys = new Set<string>()
  const visit = (list: MenuEntry[]) => list.forEach((e) => (keys.add(e.key), e.items && visit(e.items as MenuEntry[])))
  visit(menu.sections as MenuEntry[])
  return keys
}

/** A key for a new entry from its label: lower case, no accents, hyphens; unique in the menu. */
export function newKey(menu: MenuDefinition, label: string): string {
  const base =
    label
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50) || 'entrada'
  const used = keysOf(menu)
  if (!used.has(base)) return base
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`
}

/** Sections and groups an entry can be moved into, with their depth, in menu order. */
export function containers(menu: MenuDefinition): { key: string; label: string; depth: number }[] {
  const out: { key: string; label: string; depth: number }[] = []
  const visit = (list: MenuEntry[], depth: number, prefix: string) => {
    for (const e of list) {
      if (!e.items) continue
      out.push({ key: e.key, label: `${prefix}${e.label.es}`, depth })
      visit(e.items as MenuEntry[], depth + 1, `${prefix}${e.label.es} › `)
    }
  }
  visit(menu.sections as MenuEntry[], 0, '')
  return out
}

/**
 * What is wrong with the tree's shape, for refusing a drag and drop on the spot: a section
 * that is a page, an entry that holds others, more than three levels. The full rules (routes,
 * permissions, empty sections) are the server's, on save.
 */
export function structureProblem(menu: MenuDefinition): string | null {
  const visit = (list: MenuEntry[], depth: number): string | null => {
    for (const e of list) {
      if (depth === 0 && !e.items) return messageIn(messages, 'menu.notPage', { label: e.label.es })
      if (e.items) {
        if (depth > MAX_DEPTH - 1) return messageIn(messages, 'menu.tooDeep', { label: e.label.es })
        const inner = visit(e.items as MenuEntry[], depth + 1)
        if (inner) return inner
      }
    }
    return null
  }
  return visit(menu.sections as MenuEntry[], 0)
}

export interface NodeData {
  entry: EntryFields
  container: boolean
}

/** The menu as PrimeReact Tree nodes: pages cannot take drops, so they never gain children by accident. */
export function toTreeNodes(menu: MenuDefinition): TreeNode[] {
  const map = (list: MenuEntry[]): TreeNode[] =>
    list.map((e) => {
      const { items, ...entry } = e
      const data: NodeData = { entry, container: Array.isArray(items) }
      return {
        key: e.key,
        label: e.label.es,
        icon: e.icon,
        data,
        droppable: data.container,
        className: e.hidden ? 'menu-manager__node--hidden' : undefined,
        ...(items ? { children: map(items as MenuEntry[]) } : {}),
      }
    })
  return map(menu.sections as MenuEntry[])
}

/** Back from Tree nodes (after a drag and drop) to a menu. */
export function fromTreeNodes(nodes: TreeNode[]): MenuDefinition {
  const map = (list: TreeNode[]): MenuEntry[] =>
    list.map((n) => {
      const data = n.data as NodeData
      return (data.container ? { ...data.entry, items: map(n.children ?? []) } : { ...data.entry }) as MenuEntry
    })
  return { sections: map(nodes) }
}

export const sameMenu = (a: MenuDefinition | undefined, b: MenuDefinition | undefined) => JSON.stringify(a) === JSON.stringify(b)
