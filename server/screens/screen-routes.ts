import type { FastifyInstance } from 'fastify'
import { RenderErrorBody, ScreenParams } from '../../schemas/admin'
import { MESSAGES, sendError } from '../lib/errors'
import type { MenuSource } from '../manifest/manifest-routes'
import { routeView } from '../manifest/route-visibility'
import { originOf } from '../audit/audit-writer'
import type { SessionGate } from '../session/session-gate'
import { screenForUser } from './screen-access'
import { viewerOf } from './screen-release'
import type { ScreenService } from './screen-service'

export interface ScreenRouteOptions {
  gate: SessionGate
  screens: ScreenService
  menus: MenuSource
  production: boolean
  comparadorUrl: string
}

/** The header naming the version served, which the browser sends back when it fails to render it. */
export const SCREEN_VERSION_HEADER = 'x-screen-version'

/**
 * `GET /bff/screens/:id`: 401 without a session; 404 for an unknown screen, one not published
 * to this user's brand or groups, and one whose routes this brand and environment leave out of
 * the manifest (the same rule, route-visibility.ts); 403 (logged) without the route's permission.
 * `POST /bff/screens/:id/render-error`: the browser could not render the version it was served.
 */
export async function screenRoutes(app: FastifyInstance, opts: ScreenRouteOptions) {
  app.get<{ Params: { id: string } }>('/bff/screens/:id', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = await opts.gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    const id = request.params.id
    const notFound = () => sendError(reply, 404, `No existe la pantalla «${id.slice(0, 80)}».`)
    const viewer = viewerOf(request.brand.key, session.user)
    const served = /^[a-z0-9-]{1,80}$/.test(id) ? await opts.screens.screenFor(id, viewer) : undefined
    if (!served) return notFound()
    const screens = await opts.screens.viewFor(viewer)
    const permissions = new Set(session.user.Permisos.map((p) => p.NombreNormalizado))
    const audience = { brand: request.brand.key, permissions, production: opts.production, comparadorUrl: opts.comparadorUrl }
    const view = routeView(await opts.menus.menuFor(request.brand.key, screens.menu), screens.routes, audience)
    const route = view.routes.find((r) => r.screen === id)
    // Every route of the screen left out: answered as if it did not exist. A screen no route draws is served as before.
    if (screens.routes.some((r) => r.screen === id) && !route) return notFound()
    if (route?.permission && !permissions.has(route.permission)) {
      request.log.warn({ event: 'screen_denied', userId: session.userId, route: route.path, screen: id, permission: route.permission }, 'screen refused: missing permission')
      return sendError(reply, 403, MESSAGES.forbidden)
    }
    reply.header(SCREEN_VERSION_HEADER, String(served.version))
    return screenForUser(served.screen, permissions, screens.routes, view.hiddenLinks)
  })

  app.post<{ Params: ScreenParams; Body: RenderErrorBody }>(
    '/bff/screens/:id/render-error',
    {
      schema: { params: ScreenParams, body: RenderErrorBody },
      // Signed-in users only, decided before the body is read.
      onRequest: async (request, reply) => {
        if (!(await opts.gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const session = request.sessionMemo!
      const result = await opts.screens.renderFailed(request.params.id, request.body.version, viewerOf(request.brand.key, session.user), originOf(request, 202), request.body.message)
      request.log.warn({ event: 'screen_render_error', screen: request.params.id, version: request.body.version, userId: session.userId, counted: result.counted }, 'a browser failed to render a screen')
      return reply.code(202).send(result)
    },
  )
}
