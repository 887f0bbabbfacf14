import type { MenuDefinition, MenuEntry, ResolvedMenuEntry } from '../../schemas/menu'

export interface MenuAudience {
  brand: string
  permissions: ReadonlySet<string>
  production: boolean
  comparadorUrl: string
}

/**
 * The menu a given user sees on a given brand: entries they may not see removed, groups and
 * sections left without a visible entry removed, production links filled in.
 */
export function resolveMenu(menu: MenuDefinition, audience: MenuAudience): ResolvedMenuEntry[] {
  return resolveEntries(menu.sections, audience)
}

function resolveEntries(entries: MenuEntry[], audience: MenuAudience): ResolvedMenuEntry[] {
  const out: ResolvedMenuEntry[] = []
  for (const entry of entries) {
    const resolved = resolveEntry(entry, audience)
    if (resolved) out.push(resolved)
  }
  return out
}

function resolveEntry(entry: MenuEntry, audience: MenuAudience): ResolvedMenuEntry | null {
  if (!isVisible(entry, audience)) return null
  const base: ResolvedMenuEntry = { key: entry.key, label: entry.label }
  if (entry.icon) base.icon = entry.icon
  if (entry.badge) base.badge = entry.badge
  if (entry.items) {
    const items = resolveEntries(entry.items as MenuEntry[], audience)
    if (items.length === 0) return null
    return { ...base, items }
  }
  if (audience.production && entry.productionHref) {
    return { ...base, href: entry.productionHref.replace('{COMPARADOR_URL}', audience.comparadorUrl) }
  }
  if (entry.to) return { ...base, to: entry.to }
  if (entry.href) return { ...base, href: entry.href }
  if (entry.command) return { ...base, command: entry.command }
  return null
}

export function isVisible(entry: MenuEntry, audience: MenuAudience): boolean {
  if (entry.hidden) return false
  if (entry.devOnly && audience.production) return false
  if (entry.brands && !entry.brands.includes(audience.brand)) return false
  if (entry.permission && !audience.permissions.has(entry.permission)) return false
  return true
}

/** Route paths the menu names (lower case), at any depth. */
export function menuPaths(entries: { to?: string; items?: unknown[] }[]): Set<string> {
  const out = new Set<string>()
  const walk = (list: { to?: string; items?: unknown[] }[]) => {
    for (const e of list) {
      // As routes are matched: case and a trailing slash do not tell two paths apart.
      if (e.to) out.add(e.to.toLowerCase().replace(/\/+$/, '') || '/')
      if (e.items) walk(e.items as { to?: string; items?: unknown[] }[])
    }
  }
  walk(entries)
  return out
}

/**
 * Paths the menu has but hides from this audience (brand rules, dev-only, permission),
 * including section paths (`/soluciones/comparador`) all of whose entries are hidden.
 */
export function hiddenMenuPaths(menu: MenuDefinition, audience: MenuAudience): Set<string> {
  const visible = [...menuPaths(resolveMenu(menu, audience))]
  const candidates = new Set<string>()
  for (const p of menuPaths(menu.sections)) {
    const parts = p.split('/').filter(Boolean)
    for (let i = 1; i <= parts.length; i++) candidates.add(`/${parts.slice(0, i).join('/')}`)
  }
  return new Set([...candidates].filter((p) => !visible.some((v) => v === p || v.startsWith(`${p}/`))))
}
