import type { FastifyInstance } from 'fastify'
import type { Manifest, ManifestUser, RouteDef } from '../../schemas/manifest'
import type { MenuDefinition } from '../../schemas/menu'
import type { SessionUser } from '../../schemas/session-user'
import { publicBrand } from '../brand/brand-registry'
import type { SessionGate } from '../session/session-gate'
import { viewerOf, type Viewer } from '../screens/screen-release'
import { resolveMenu } from './menu-filter'
import { routeView } from './route-visibility'

/** Where the menu for a brand comes from (the shipped default, or the menu manager's versions). */
export interface MenuSource {
  /** The brand's menu: the admin's edits on `base` (default: the menu the shipped screens give). */
  menuFor(brandKey: string, base?: MenuDefinition): Promise<MenuDefinition>
}

/** The routes and default menu of the screens one signed-in user sees (published studio versions included). */
export interface ScreenViews {
  viewFor(viewer: Viewer): Promise<{ routes: RouteDef[]; menu: MenuDefinition }>
}

export interface ManifestOptions {
  gate: SessionGate
  menus: MenuSource
  screens: ScreenViews
  /** The menu shipped with the code: decides the routes of a signed-out manifest, which needs no store. */
  shippedMenu: MenuDefinition
  routes: RouteDef[]
  production: boolean
  comparadorUrl: string
  buildId: () => string
  /** Self sign-up is offered (SIGNUP_ENABLED): the sign-in page shows «Crear cuenta». */
  signup?: boolean
}

export function manifestUser(user: SessionUser): ManifestUser {
  return {
    id: user.Id,
    name: [user.Nombre, user.Apellidos].filter(Boolean).join(' '),
    email: user.Email,
    permissions: user.Permisos.map((p) => p.NombreNormalizado),
    agent: user.Agente ? { id: user.Agente.Id, name: user.Agente.Nombre } : null,
  }
}

/** `GET /bff/manifest`: what this host and session may see. `GET /bff/build`: the build id alone. */
export async function manifestRoutes(app: FastifyInstance, opts: ManifestOptions) {
  app.get('/bff/manifest', async (request, reply): Promise<Manifest> => {
    reply.header('cache-control', 'no-store')
    const session = await opts.gate.current(request, reply)
    const brand = request.brand
    const user = session ? manifestUser(session.user) : undefined
    // Signed out, the shipped menu decides: the sign-in page must work while the menu store is down.
    const screens = session ? await opts.screens.viewFor(viewerOf(brand.key, session.user)) : { routes: opts.routes, menu: opts.shippedMenu }
    const menu = session ? await opts.menus.menuFor(brand.key, screens.menu) : opts.shippedMenu
    const audience = { brand: brand.key, permissions: new Set(user?.permissions ?? []), production: opts.production, comparadorUrl: opts.comparadorUrl }
    const manifest: Manifest = {
      brand: publicBrand(brand),
      authenticated: session !== null,
      menu: [],
      // Only the routes this brand and environment have: the client router knows no other, so a hidden path is its 404.
      routes: routeView(menu, screens.routes, audience).routes,
      buildId: opts.buildId(),
      environment: opts.production ? 'production' : 'development',
      ...(opts.signup ? { signup: true } : {}),
    }
    if (user) {
      manifest.user = user
      if (session?.actor) manifest.viewAs = { actor: { id: session.actor.userId, name: session.actor.name }, mode: session.actor.mode }
      manifest.menu = resolveMenu(menu, audience)
    }
    return manifest
  })

  app.get('/bff/build', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return { buildId: opts.buildId() }
  })
}
