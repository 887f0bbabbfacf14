import type { FastifyInstance } from 'fastify'
import type { RouteDef } from '../../schemas/manifest'
import type { ScreenFile } from '../../schemas/screen'
import { MESSAGES, sendError } from '../lib/errors'
import type { MenuSource } from '../manifest/manifest-routes'
import { routeView } from '../manifest/route-visibility'
import type { SessionGate } from '../session/session-gate'
import { screenForUser } from './screen-access'

export interface ScreenSource {
  /** The screen as shipped, with any stored overlay applied. */
  screen(id: string): Promise<ScreenFile | undefined>
}

export interface ScreenRouteOptions {
  gate: SessionGate
  screens: ScreenSource
  routes: RouteDef[]
  menus: MenuSource
  production: boolean
  comparadorUrl: string
}

/**
 * `GET /bff/screens/:id`: 401 without a session; 404 for an unknown screen and for one whose
 * routes this brand and environment leave out of the manifest (the same rule, route-visibility.ts);
 * 403 (logged) without the route's permission.
 */
export async function screenRoutes(app: FastifyInstance, opts: ScreenRouteOptions) {
  const routed = new Set(opts.routes.map((r) => r.screen))

  app.get<{ Params: { id: string } }>('/bff/screens/:id', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = await opts.gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    const id = request.params.id
    const notFound = () => sendError(reply, 404, `No existe la pantalla «${id.slice(0, 80)}».`)
    const screen = /^[a-z0-9-]{1,80}$/.test(id) ? await opts.screens.screen(id) : undefined
    if (!screen) return notFound()
    const permissions = new Set(session.user.Permisos.map((p) => p.NombreNormalizado))
    const audience = { brand: request.brand.key, permissions, production: opts.production, comparadorUrl: opts.comparadorUrl }
    const view = routeView(await opts.menus.menuFor(request.brand.key), opts.routes, audience)
    const route = view.routes.find((r) => r.screen === id)
    // Every route of the screen left out: answered as if it did not exist. A screen no route draws is served as before.
    if (routed.has(id) && !route) return notFound()
    if (route?.permission && !permissions.has(route.permission)) {
      request.log.warn({ event: 'screen_denied', userId: session.userId, route: route.path, screen: id, permission: route.permission }, 'screen refused: missing permission')
      return sendError(reply, 403, MESSAGES.forbidden)
    }
    return screenForUser(screen, permissions, opts.routes, view.hiddenLinks)
  })
}
