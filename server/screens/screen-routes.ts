import type { FastifyInstance } from 'fastify'
import type { RouteDef } from '../../schemas/manifest'
import type { ScreenFile } from '../../schemas/screen'
import { MESSAGES, sendError } from '../lib/errors'
import type { SessionGate } from '../session/session-gate'
import { screenForUser } from './screen-access'

/** Paths whose menu entry is hidden for this brand, environment and user. */
export type HiddenPaths = (brandKey: string, permissions: ReadonlySet<string>) => Promise<ReadonlySet<string>>

export interface ScreenSource {
  /** The screen as shipped, with any stored overlay applied. */
  screen(id: string): Promise<ScreenFile | undefined>
}

/** `GET /bff/screens/:id`: 401 without a session, 403 (logged) without the route's permission. */
export async function screenRoutes(app: FastifyInstance, opts: { gate: SessionGate; screens: ScreenSource; routes: RouteDef[]; hiddenPaths: HiddenPaths }) {
  const routeOf = new Map<string, RouteDef>()
  for (const r of opts.routes) if (!routeOf.has(r.screen)) routeOf.set(r.screen, r)

  app.get<{ Params: { id: string } }>('/bff/screens/:id', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = await opts.gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    const id = request.params.id
    const screen = /^[a-z0-9-]{1,80}$/.test(id) ? await opts.screens.screen(id) : undefined
    if (!screen) return sendError(reply, 404, `No existe la pantalla «${id.slice(0, 80)}».`)
    const permissions = new Set(session.user.Permisos.map((p) => p.NombreNormalizado))
    const route = routeOf.get(id)
    if (route?.permission && !permissions.has(route.permission)) {
      request.log.warn({ event: 'screen_denied', userId: session.userId, route: route.path, screen: id, permission: route.permission }, 'screen refused: missing permission')
      return sendError(reply, 403, MESSAGES.forbidden)
    }
    return screenForUser(screen, permissions, opts.routes, await opts.hiddenPaths(request.brand.key, permissions))
  })
}
