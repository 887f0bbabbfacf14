import { useQuery } from '@tanstack/react-query'
import type { MenuDefinition } from '../../../schemas/menu'
import { api } from '../../api/client'
import { screenAdmin, type CatalogueCall } from '../../api/screen-admin'
import { localized } from '../../i18n/i18n'
import { messages } from './messages'
import { messageIn } from '../../i18n/i18n'

/** What the editors pick from: brands, permissions and menu sections (the menu manager's state), the catalogue's read calls, user groups. */
interface AdminMenuState {
  menu: MenuDefinition
  permissions: { code: string; name: string }[]
  brands: { key: string; name: string }[]
}

const area = () => messageIn(messages, 'area')

export function useAdminChoices() {
  return useQuery({
    queryKey: ['studio', 'choices'],
    queryFn: () => api.get<AdminMenuState>('/bff/admin/menu'),
    staleTime: 60_000,
    meta: { errorArea: area() },
  })
}

/** Every call a screen may make (the catalogue's session calls), once per studio visit. */
export function useCatalogue() {
  return useQuery({
    queryKey: ['studio', 'catalogue'],
    queryFn: () => screenAdmin.catalogue(),
    staleTime: 5 * 60_000,
    meta: { errorArea: area() },
  })
}

/** The catalogue's read calls: what lists, details and options read. */
export function useReadCalls() {
  const catalogue = useCatalogue()
  return { ...catalogue, data: catalogue.data?.filter(isReadCall) }
}

export const isReadCall = (c: CatalogueCall) => c.effect === 'read' && c.method === 'GET' && c.path.startsWith('api/')

export function useUserGroups() {
  return useQuery({
    queryKey: ['studio', 'groups'],
    queryFn: () => api.get<{ Id: number; Nombre: string }[]>('/api/utility/usergroups-options'),
    staleTime: 60_000,
    meta: { errorArea: area(), errorMessage: messageIn(messages, 'publish.groupsError') },
  })
}

/** The menu's sections and groups a screen can go in: `key` and its label path (Gestión de sistema › Usuarios). */
export function menuPlaces(menu: MenuDefinition): { key: string; label: string }[] {
  const out: { key: string; label: string }[] = []
  const visit = (entries: readonly { key: string; label: { es: string; en?: string }; items?: unknown[]; to?: unknown; command?: unknown; href?: unknown }[], prefix: string) => {
    for (const e of entries) {
      if (e.to || e.command || e.href) continue
      const label = `${prefix}${localized(e.label)}`
      out.push({ key: e.key, label })
      if (e.items) visit(e.items as typeof entries, `${label} › `)
    }
  }
  visit(menu.sections as unknown as Parameters<typeof visit>[0], '')
  return out
}

/** Every icon the menu already uses (PrimeIcons classes), so a shipped entry's icon is among the choices. */
export function menuIcons(menu: MenuDefinition | undefined): string[] {
  const out = new Set<string>()
  const visit = (entries: readonly { icon?: unknown; items?: unknown[] }[]) => {
    for (const e of entries) {
      if (typeof e.icon === 'string' && e.icon) out.add(e.icon)
      if (e.items) visit(e.items as typeof entries)
    }
  }
  if (menu) visit(menu.sections as unknown as Parameters<typeof visit>[0])
  return [...out]
}
