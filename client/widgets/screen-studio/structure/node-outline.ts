import type { Language } from '../../../../schemas/i18n'
import type { NodeType, ScreenFile, ScreenNode, Text } from '../../../../schemas/screen'
import { DROP, KEEP, rewriteValues, SKIP, visitNodes, visitValues } from '../../../../schemas/screen-walk'
import { localized, messageIn } from '../../../i18n/i18n'
import { messages } from './messages'

/**
 * The outline of a screen for the structure editor: every node, wherever it sits (children,
 * tabs, dialogs, actions' forms, form steps), with its JSON pointer, its depth among nodes and a
 * label a person recognises. Pure: the language is a parameter.
 */
export interface OutlineItem {
  /** JSON pointer from the screen file (`/root/children/0`). */
  pointer: string
  type: NodeType
  /** How many nodes hold it (the root is 0). */
  depth: number
  /** Its title, id or name in the language asked, else the name of its type. */
  label: string
  /** Where it sits when that is not plain children: a tab, an action's dialog or form, a form step. */
  place: string | null
}

const text = (value: Text | undefined, lang: Language) => (value === undefined ? '' : localized(value, lang))

/** A node's own name: its title, id or name, in `lang`; empty when it has none. */
function ownLabel(node: ScreenNode, lang: Language): string {
  switch (node.type) {
    case 'page':
      return text(node.title, lang)
    case 'action':
      return text(node.action.label, lang)
    case 'widget':
      return node.name
    case 'tabs':
      return node.id ?? ''
    case 'table':
    case 'form':
    case 'detail':
    case 'tree':
      return text(node.title, lang) || (node.id ?? '')
    default:
      return ''
  }
}

export const typeName = (type: NodeType, lang: Language) => messageIn(messages, `type.${type}`, undefined, lang)

/** The value at a JSON pointer of `root`, or undefined when nothing is there. */
export function valueAt(root: unknown, pointer: string): unknown {
  let found: unknown
  visitValues(root, (value, at) => {
    if (at.path === pointer) {
      found = value
      return SKIP
    }
    // Only the way down to the pointer is looked into.
    return pointer.startsWith(`${at.path}/`) ? undefined : SKIP
  })
  return found
}

/** The node at `pointer`, or null when there is none (a pointer left behind by an edit). */
export function nodeAt(screen: ScreenFile, pointer: string): ScreenNode | null {
  let found: ScreenNode | null = null
  visitNodes(screen, (node, path) => {
    if (path === pointer) found = node
  })
  return found
}

/**
 * A copy of `root` with `value` at `pointer` (undefined removes it); a missing last key of an
 * existing object is added. What is off the way to the pointer is shared, the original untouched.
 */
export function withValueAt<T>(root: T, pointer: string, value: unknown): T {
  const slash = pointer.lastIndexOf('/')
  const parent = pointer.slice(0, slash)
  const key = pointer.slice(slash + 1).replaceAll('~1', '/').replaceAll('~0', '~')
  return rewriteValues(root, (current, at) => {
    if (at.path === pointer) return value === undefined ? DROP : value
    if (!pointer.startsWith(`${at.path}/`)) return KEEP
    if (at.path === parent && value !== undefined && current && typeof current === 'object' && !Array.isArray(current) && !(key in current)) return { ...current, [key]: value }
    return undefined
  })
}

/** A copy of the screen with `node` at `pointer`; the original untouched. */
export function withNodeAt(screen: ScreenFile, pointer: string, node: ScreenNode): ScreenFile {
  return withValueAt(screen, pointer, node)
}

const labelOfValue = (value: unknown, lang: Language): string => {
  const v = value as { label?: Text; title?: Text } | undefined
  return text(v?.label ?? v?.title, lang)
}

/** Where a node sits when its container says more than its parent node: a tab, an action's dialog or form, a form step. */
function placeOf(screen: ScreenFile, pointer: string, lang: Language): string | null {
  const tab = /^(.*\/tabs\/\d+)\/children\/\d+$/.exec(pointer)
  if (tab) return messageIn(messages, 'place.tab', { label: labelOfValue(valueAt(screen, tab[1]!), lang) }, lang)
  const form = /^(.*\/(?:actions|rowActions|bulkActions)\/\d+)\/form$/.exec(pointer)
  if (form) return messageIn(messages, 'place.form', { label: labelOfValue(valueAt(screen, form[1]!), lang) }, lang)
  const dialog = /^(.*)\/content\/\d+$/.exec(pointer)
  if (dialog) return messageIn(messages, 'place.dialog', { label: labelOfValue(valueAt(screen, dialog[1]!), lang) }, lang)
  const step = /^(.*\/steps\/\d+)\/nodes\/\d+$/.exec(pointer)
  if (step) return messageIn(messages, 'place.step', { label: labelOfValue(valueAt(screen, step[1]!), lang) }, lang)
  return null
}

/** Every node of the screen, a node before those it holds, as the structure editor lists them. */
export function screenOutline(screen: ScreenFile, lang: Language): OutlineItem[] {
  const items: OutlineItem[] = []
  const holders: string[] = []
  visitNodes(screen, (node, pointer) => {
    while (holders.length && !pointer.startsWith(`${holders.at(-1)}/`)) holders.pop()
    items.push({ pointer, type: node.type, depth: holders.length, label: ownLabel(node, lang) || typeName(node.type, lang), place: placeOf(screen, pointer, lang) })
    holders.push(pointer)
  })
  return items
}

/** The ids an action may reload after it ran: the screen's tables and details that have one. */
export function refreshableIds(screen: ScreenFile): string[] {
  const ids: string[] = []
  visitNodes(screen, (node) => {
    if ((node.type === 'table' || node.type === 'detail') && node.id && !ids.includes(node.id)) ids.push(node.id)
  })
  return ids
}

/** The parameters of the screen's routes (`{referencia}` of `/area/{referencia}`): what `{params.X}` reads. */
export function screenRouteParams(screen: ScreenFile): string[] {
  return [...new Set((screen.routes ?? []).flatMap((r) => [...r.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!)))]
}

/** The outline item a schema error's JSON path falls in: the deepest node whose pointer holds it. */
export function itemOfPath(items: readonly OutlineItem[], path: string): OutlineItem | null {
  let best: OutlineItem | null = null
  for (const item of items) if ((path === item.pointer || path.startsWith(`${item.pointer}/`)) && (!best || item.pointer.length > best.pointer.length)) best = item
  return best
}
