import type { FastifyInstance } from 'fastify'
import { PreviewScreenBody } from '../../schemas/admin'
import type { UserDetail } from '../../schemas/business/access'
import { HttpError, sendError } from '../lib/errors'
import type { MenuSource } from '../manifest/manifest-routes'
import { routeView } from '../manifest/route-visibility'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import type { UpstreamClient } from '../upstream/upstream-client'
import { screenForUser } from './screen-access'
import { viewerOf, type Viewer } from './screen-release'
import type { ScreenService } from './screen-service'

export interface ScreenPreviewOptions {
  gate: SessionGate
  screens: ScreenService
  menus: MenuSource
  upstream: UpstreamClient
  production: boolean
  comparadorUrl: string
}

/**
 * `POST /bff/admin/screens/preview` (GESTORACCESS): the screen the studio is editing, checked as
 * a save would be (400 naming the JSON path), and served as `GET /bff/screens/:id` would serve
 * it to the chosen user on this brand: their effective permissions and groups read from the
 * upstream (`api/usuarios/{id}`, with the admin's own session), actions and links they may not
 * use removed. Nothing is stored. Without a user, the admin sees it as themselves.
 */
export async function screenPreviewRoutes(app: FastifyInstance, opts: ScreenPreviewOptions) {
  app.addHook('onRequest', requirePermission(opts.gate, 'GESTORACCESS'))

  app.post<{ Body: PreviewScreenBody }>('/bff/admin/screens/preview', { schema: { body: PreviewScreenBody } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = request.sessionMemo!
    let screen
    try {
      screen = await opts.screens.preview(request.body.screen)
    } catch (err) {
      if (err instanceof HttpError) return sendError(reply, err.statusCode, err.message)
      throw err
    }
    let permissions = new Set(session.user.Permisos.map((p) => p.NombreNormalizado))
    let viewer: Viewer = viewerOf(request.brand.key, session.user)
    let as: { id: number; name: string; permissions: string[]; groups: number[] } | null = null
    const userId = request.body.userId
    if (userId !== undefined) {
      const answer = await opts.upstream.call<UserDetail>({ method: 'GET', path: `/api/usuarios/${userId}`, token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) })
      if (answer.status === 404) return sendError(reply, 404, `No existe el usuario ${userId}.`)
      if (answer.status !== 200 || !answer.body || !Array.isArray(answer.body.PermisosEfectivos)) return sendError(reply, 502, 'No se ha podido obtener el usuario para la vista previa.')
      const user = answer.body
      permissions = new Set(user.PermisosEfectivos.map((p) => p.NombreNormalizado))
      viewer = { brand: request.brand.key, groups: user.Grupos.map((g) => g.Id) }
      as = { id: user.Id, name: [user.Nombre, user.Apellidos].filter(Boolean).join(' ') || user.Email, permissions: [...permissions].sort(), groups: [...viewer.groups] }
    }
    const view = await opts.screens.viewFor(viewer)
    const audience = { brand: request.brand.key, permissions, production: opts.production, comparadorUrl: opts.comparadorUrl }
    const visible = routeView(await opts.menus.menuFor(request.brand.key, view.menu), view.routes, audience)
    const permission = screen.routes?.[0]?.permission
    request.log.info({ event: 'screen_previewed', screen: screen.id, as: as?.id ?? null }, 'screen previewed in the studio')
    return { screen: screenForUser(screen, permissions, view.routes, visible.hiddenLinks), allowed: !permission || permissions.has(permission), as }
  })
}
