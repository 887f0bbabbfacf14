import type { RouteDef } from '../../schemas/manifest'
import { MenuDefinition, type MenuEntry } from '../../schemas/menu'
import { validatorFor, ValidationError } from '../lib/validate'

const checkShape = validatorFor<MenuDefinition>(MenuDefinition)

export class MenuRuleError extends Error {}

export interface MenuRuleContext {
  routes: RouteDef[]
  /** NombreNormalizado of every permission the upstream knows. */
  permissions: ReadonlySet<string>
  brands: ReadonlySet<string>
}

/**
 * Everything a menu must satisfy before it is stored: the TypeBox schema plus the rules the
 * manifest depends on (unique keys, existing routes, known permissions and brands, no empty
 * section or group, one destination per entry, https for external links). The first problem is
 * thrown as a Spanish message naming the entry.
 */
export function validateMenu(candidate: unknown, ctx: MenuRuleContext): MenuDefinition {
  let menu: MenuDefinition
  try {
    menu = checkShape(candidate, 'El menú')
  } catch (err) {
    if (err instanceof ValidationError) throw new MenuRuleError(schemaMessage(candidate, err.details))
    throw err
  }
  const routePaths = new Set(ctx.routes.filter((r) => !r.public && !r.path.includes('{')).map((r) => r.path.toLowerCase()))
  const seen = new Set<string>()
  const name = (e: MenuEntry) => `«${e.label.es}» (${e.key})`
  const visit = (entries: MenuEntry[], depth: number) => {
    for (const e of entries) {
      if (seen.has(e.key)) throw new MenuRuleError(`La clave «${e.key}» está repetida: cada entrada necesita una clave única.`)
      seen.add(e.key)
      if (e.permission && !ctx.permissions.has(e.permission)) throw new MenuRuleError(`La entrada ${name(e)} pide el permiso «${e.permission}», que no existe.`)
      for (const b of e.brands ?? []) if (!ctx.brands.has(b)) throw new MenuRuleError(`La entrada ${name(e)} nombra la marca «${b}», que no existe.`)
      if (e.items) {
        if (e.to || e.href || e.command) throw new MenuRuleError(`La entrada ${name(e)} agrupa otras entradas y no puede llevar a una página.`)
        if (e.items.length === 0) throw new MenuRuleError(depth === 0 ? `La sección ${name(e)} está vacía: añade alguna entrada o elimínala.` : `El grupo ${name(e)} está vacío: añade alguna entrada o elimínalo.`)
        if (depth >= 2) throw new MenuRuleError(`La entrada ${name(e)} está demasiado anidada: el menú admite secciones, grupos y entradas.`)
        visit(e.items as MenuEntry[], depth + 1)
        continue
      }
      if (depth === 0) throw new MenuRuleError(`La sección ${name(e)} debe contener entradas.`)
      const destinations = [e.to, e.href, e.command].filter(Boolean).length
      if (destinations !== 1) throw new MenuRuleError(`La entrada ${name(e)} debe llevar a una sola ruta, enlace externo o acción.`)
      if (e.to && !routePaths.has(e.to.toLowerCase().replace(/\/+$/, '') || '/')) throw new MenuRuleError(`La entrada ${name(e)} apunta a una ruta que no existe: ${e.to}`)
      if (e.href && !/^https:\/\/[^\s/]+\.[^\s]+$/.test(e.href)) throw new MenuRuleError(`El enlace externo de la entrada ${name(e)} debe ser una dirección https completa.`)
      if (e.productionHref && !e.to) throw new MenuRuleError(`La entrada ${name(e)} tiene enlace de producción pero no ruta local.`)
    }
  }
  visit(menu.sections as MenuEntry[], 0)
  return menu
}

/** What an admin can fix, per field of an entry, when the shape check fails. */
const FIELD_RULES: Record<string, string> = {
  key: 'la clave admite minúsculas, números y guiones (hasta 60 caracteres) y empieza por letra o número',
  label: 'necesita un texto en español',
  icon: 'el icono debe ser de PrimeIcons, como «pi pi-home»',
  to: 'la ruta debe empezar por «/» y no llevar espacios',
  href: 'el enlace externo debe empezar por «https://» y no llevar espacios',
  productionHref: 'el enlace de producción debe empezar por «https://»',
  command: 'la acción no existe',
  permission: 'el permiso se escribe con su código en mayúsculas, como «GESTORACCESS»',
  devOnly: '«solo en desarrollo» es sí o no',
  hidden: '«oculta» es sí o no',
  brands: 'las marcas se nombran por su clave',
  badge: 'la etiqueta admite hasta 12 caracteres',
  items: 'las entradas de un grupo van en una lista',
}

/**
 * The first schema failure as a Spanish sentence naming the entry (its label and key, read
 * from the candidate at the failing path) and what the field needs.
 */
function schemaMessage(candidate: unknown, details: string[]): string {
  const first = details[0] ?? '/'
  const path = first.slice(0, first.indexOf(': ') >= 0 ? first.indexOf(': ') : undefined).split('/').filter(Boolean)
  if (path[0] !== 'sections') return 'El menú no es válido: debe ser una lista de secciones («sections»).'
  // Walk down to the deepest entry on the path; what follows it is the field.
  let entry: Record<string, unknown> | null = null
  let node: unknown = candidate
  let field: string | undefined
  for (let i = 0; i < path.length; i++) {
    node = (node as Record<string, unknown> | undefined)?.[path[i]!]
    const isEntryIndex = /^\d+$/.test(path[i]!) && (path[i - 1] === 'sections' || path[i - 1] === 'items')
    if (isEntryIndex && node && typeof node === 'object') {
      entry = node as Record<string, unknown>
      field = path[i + 1]
    }
  }
  if (!entry) return 'El menú no es válido: cada sección debe ser una entrada con clave y texto.'
  const label = (entry.label as { es?: unknown } | undefined)?.es
  const name = typeof label === 'string' && label ? `«${label}» (${String(entry.key ?? 'sin clave')})` : `«${String(entry.key ?? 'sin clave')}»`
  if (field && FIELD_RULES[field]) return `La entrada ${name} no es válida: ${FIELD_RULES[field]}.`
  if (field) return `La entrada ${name} tiene un campo desconocido: «${field}».`
  const unknown = Object.keys(entry).find((k) => !(k in FIELD_RULES))
  if (unknown) return `La entrada ${name} tiene un campo desconocido: «${unknown}».`
  return `La entrada ${name} no es válida: necesita clave y texto en español.`
}
