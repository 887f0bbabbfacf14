import path from 'node:path'
import { RouteTable, type RouteDef } from '../../schemas/manifest'
import { MenuDefinition, MenuFrame, type MenuEntry, type MenuFrameEntry } from '../../schemas/menu'
import { APP_PAGES } from '../../schemas/app-pages'
import { PUBLIC_PAGES } from '../../schemas/public-pages'
import type { ScreenFile } from '../../schemas/screen'
import { validatorFor } from '../lib/validate'
import { loadScreens } from '../screens/screen-loader'
import { routeKey } from './route-visibility'
import menuSectionsJson from './menu-sections.json' with { type: 'json' }

const checkMenu = validatorFor<MenuDefinition>(MenuDefinition)
const checkRoutes = validatorFor<RouteDef[]>(RouteTable)
const checkFrame = validatorFor<MenuFrame>(MenuFrame)

export class ManifestDataError extends Error {}

/** The screens shipped with the code. */
export const SHIPPED_SCREENS_DIR = path.join(import.meta.dirname, '../screens')

/** The side menu's sections, groups and the entries that open no route (server/manifest/menu-sections.json). */
export function loadMenuFrame(): MenuFrame {
  return checkFrame(structuredClone(menuSectionsJson), 'server/manifest/menu-sections.json')
}

export interface ShippedManifest {
  /** The route table of spec §2: the public pages, then every route a screen declares, by path. */
  routes: RouteDef[]
  /** The side menu shipped with the code: the base every stored admin edit sits on. */
  menu: MenuDefinition
}

const localized = (text: ScreenFile['title']) => (typeof text === 'string' ? { es: text } : text)
const fileOf = (screen: ScreenFile) => `pantalla «${screen.id}» (${screen.id}.json)`

/**
 * The route table and the default side menu, derived at boot from what each screen file
 * declares (its `routes` and `menu`), the public and app pages (schemas/public-pages.ts,
 * schemas/app-pages.ts) and the menu's
 * sections (`frame`). A repeated path or key, an entry placed in no known section, or two
 * siblings with one order stop the start with a message naming the screen.
 */
export function deriveManifest(screens: ReadonlyMap<string, ScreenFile>, frame: MenuFrame = loadMenuFrame(), knownBrands?: ReadonlySet<string>): ShippedManifest {
  const routes: RouteDef[] = PUBLIC_PAGES.map((p) => ({ ...p, title: { ...p.title } }))
  const byPath = new Map<string, string>(routes.map((r) => [routeKey(r.path), `página pública «${r.screen}»`]))
  for (const page of APP_PAGES) {
    byPath.set(routeKey(page.path), `página de la aplicación «${page.screen}»`)
    routes.push({ ...page, title: { ...page.title } })
  }
  const sorted = [...screens.values()].sort((a, b) => (a.id < b.id ? -1 : 1))
  for (const screen of sorted) {
    if (PUBLIC_PAGES.some((p) => p.screen === screen.id)) throw new ManifestDataError(`${fileOf(screen)}: el id es el de una página pública.`)
    if (APP_PAGES.some((p) => p.screen === screen.id)) throw new ManifestDataError(`${fileOf(screen)}: el id es el de una página de la aplicación.`)
    for (const r of screen.routes ?? []) {
      const taken = byPath.get(routeKey(r.path))
      if (taken) throw new ManifestDataError(`${fileOf(screen)}: la ruta ${r.path} ya es de la ${taken}.`)
      byPath.set(routeKey(r.path), fileOf(screen))
      routes.push({
        path: r.path,
        screen: screen.id,
        ...(r.permission ? { permission: r.permission } : {}),
        ...(r.check ? { check: r.check } : {}),
        title: r.title ?? localized(screen.title),
        ...(r.devOnly ? { devOnly: true } : {}),
      })
    }
  }
  // By path, so the table does not depend on file names; the router ranks routes itself.
  const publicCount = PUBLIC_PAGES.length
  const table = [...routes.slice(0, publicCount), ...routes.slice(publicCount).sort((a, b) => (routeKey(a.path) < routeKey(b.path) ? -1 : routeKey(a.path) > routeKey(b.path) ? 1 : 0))]
  return { routes: checkRoutes(table, 'la tabla de rutas'), menu: deriveMenu(sorted, frame, knownBrands) }
}

interface Node {
  entry: MenuEntry
  order: number
  /** Who put it there, for the messages. */
  from: string
  children?: Node[]
  /** Permissions a section or group above asks for: an entry does not repeat them. */
  inherited: ReadonlySet<string>
}

function deriveMenu(screens: ScreenFile[], frame: MenuFrame, knownBrands?: ReadonlySet<string>): MenuDefinition {
  const keys = new Map<string, string>()
  const containers = new Map<string, Node>()
  const claim = (key: string, from: string) => {
    const before = keys.get(key)
    if (before) throw new ManifestDataError(`${from}: la clave de menú «${key}» ya es de ${before}.`)
    keys.set(key, from)
  }
  const checkBrands = (brands: string[] | undefined, from: string) => {
    const unknown = brands?.find((b) => knownBrands && !knownBrands.has(b))
    if (unknown) throw new ManifestDataError(`${from}: la marca «${unknown}» no existe.`)
  }
  const fromFrame = (e: MenuFrameEntry, depth: number, inherited: ReadonlySet<string>): Node => {
    const from = `server/manifest/menu-sections.json («${e.key}»)`
    claim(e.key, from)
    checkBrands(e.brands, from)
    const { items, order, ...fields } = e
    const node: Node = { entry: fields as MenuEntry, order, from, inherited }
    if (items || depth === 0) {
      const below = e.permission ? new Set([...inherited, e.permission]) : inherited
      node.children = (items ?? []).map((child) => fromFrame(child, depth + 1, below))
      containers.set(e.key, node)
    }
    return node
  }
  const top = frame.sections.map((s) => fromFrame(s, 0, new Set()))

  for (const screen of screens) {
    const place = screen.menu
    if (!place) continue
    const from = fileOf(screen)
    claim(place.key, from)
    checkBrands(place.brands, from)
    const parent = containers.get(place.section)
    if (!parent) throw new ManifestDataError(`${from}: la sección de menú «${place.section}» no existe en server/manifest/menu-sections.json.`)
    const route = screen.routes?.[0]
    if (!route) throw new ManifestDataError(`${from}: tiene entrada de menú pero ninguna ruta.`)
    if (route.path.includes('{')) throw new ManifestDataError(`${from}: la entrada de menú lleva a ${route.path}, una ruta con parámetros.`)
    const entry: MenuEntry = { key: place.key, label: place.label ?? localized(screen.title) }
    if (place.icon) entry.icon = place.icon
    entry.to = route.path
    if (place.productionHref) entry.productionHref = place.productionHref
    if (place.brands) entry.brands = place.brands
    // The entry asks what its route asks, so the menu never offers a page that answers 401.
    if (route.permission && !parent.inherited.has(route.permission) && parent.entry.permission !== route.permission) entry.permission = route.permission
    if (place.devOnly || route.devOnly) entry.devOnly = true
    if (place.badge) entry.badge = place.badge
    parent.children!.push({ entry, order: place.order, from, inherited: new Set() })
  }

  const build = (nodes: Node[], where: string): MenuEntry[] => {
    const sorted = [...nodes].sort((a, b) => a.order - b.order)
    sorted.forEach((n, i) => {
      const next = sorted[i + 1]
      if (next && next.order === n.order) throw new ManifestDataError(`${next.from}: el orden ${n.order} en «${where}» ya es de «${n.entry.key}».`)
    })
    return sorted.map((n) => {
      if (!n.children) return n.entry
      if (n.children.length === 0) throw new ManifestDataError(`${n.from}: ninguna pantalla se coloca en «${n.entry.key}».`)
      return { ...n.entry, items: build(n.children, n.entry.key) }
    })
  }
  return checkMenu({ sections: build(top, 'el nivel superior') }, 'el menú derivado de las pantallas')
}

let shipped: ShippedManifest | undefined

/** The shipped screens' manifest (read once): for tools and tests that need the table without an app. */
function shippedManifest(): ShippedManifest {
  shipped ??= deriveManifest(loadScreens(SHIPPED_SCREENS_DIR))
  return shipped
}

/** The route table of spec §2, as the shipped screen files declare it. */
export function loadRoutes(): RouteDef[] {
  return structuredClone(shippedManifest().routes)
}

/** The side menu shipped with the code, as the shipped screen files place themselves in it. */
export function loadDefaultMenu(): MenuDefinition {
  return structuredClone(shippedManifest().menu)
}
