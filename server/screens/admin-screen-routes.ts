import type { FastifyInstance, FastifyReply } from 'fastify'
import { RollbackBody, SaveScreenBody, ScreenParams } from '../../schemas/admin'
import type { RouteDef } from '../../schemas/manifest'
import type { ScreenOverlay } from '../../schemas/screen'
import { sendError } from '../lib/errors'
import { VersionConflictError, type MenuStore } from '../manifest/menu-store'
import { authorOf, requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import { describeScreenChanges } from './screen-changes'
import { ScreenOverlayError, tablesOf, validateScreenOverlay } from './screen-overlay'
import { screenDoc, type ScreenService } from './screen-service'

export interface AdminScreenOptions {
  gate: SessionGate
  screens: ScreenService
  store: MenuStore
  routes: RouteDef[]
}

/**
 * Screen tweaks from the menu manager (GESTORACCESS): the table screens with their columns,
 * the stored overlay of one, saving a new version (validated, optimistic concurrency), history
 * and rollback. The store is the menu store: same versions, same audit trail.
 */
export async function adminScreenRoutes(app: FastifyInstance, opts: AdminScreenOptions) {
  // Every route of this plugin, checked before its body is read (see requirePermission).
  app.addHook('onRequest', requirePermission(opts.gate, 'GESTORACCESS'))
  const pathOf = new Map<string, string>()
  for (const r of opts.routes) if (!pathOf.has(r.screen)) pathOf.set(r.screen, r.path)

  const shippedOr404 = (id: string, reply: FastifyReply) => {
    const screen = opts.screens.shipped.get(id)
    if (!screen) sendError(reply, 404, `No existe la pantalla «${id}».`)
    return screen
  }

  app.get('/bff/admin/screens', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    const out = []
    for (const [id, screen] of opts.screens.shipped) {
      const tables = [...tablesOf(screen).values()]
      if (tables.length === 0) continue
      const state = await opts.screens.state(id)
      out.push({ id, title: screen.title, path: pathOf.get(id) ?? null, version: state?.version ?? 0, tables: tables.map((t) => t.id) })
    }
    return out.sort((a, b) => (a.path ?? a.id).localeCompare(b.path ?? b.id))
  })

  app.get<{ Params: ScreenParams }>('/bff/admin/screens/:id', { schema: { params: ScreenParams } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const screen = shippedOr404(request.params.id, reply)
    if (!screen) return
    const state = (await opts.screens.state(screen.id))!
    return {
      id: screen.id,
      title: screen.title,
      path: pathOf.get(screen.id) ?? null,
      version: state.version,
      author: state.author,
      updatedAt: state.updatedAt,
      overlay: state.overlay,
      // The shipped columns, so the editor can show what each tweak changes.
      tables: [...tablesOf(screen).values()].map((t) => ({ id: t.id, columns: t.columns.map((c) => ({ field: c.field, header: c.header })) })),
    }
  })

  app.put<{ Params: ScreenParams; Body: SaveScreenBody }>(
    '/bff/admin/screens/:id',
    { schema: { params: ScreenParams, body: SaveScreenBody } },
    async (request, reply) => {
      const screen = shippedOr404(request.params.id, reply)
      if (!screen) return
      try {
        validateScreenOverlay(screen, request.body.overlay)
      } catch (err) {
        if (err instanceof ScreenOverlayError) return sendError(reply, 400, err.message)
        throw err
      }
      const before = await opts.screens.overlayAt(screen.id, request.body.version)
      try {
        const state = await opts.screens.save(screen.id, request.body.version, request.body.overlay, authorOf(request))
        request.log.info({ event: 'screen_saved', screen: screen.id, version: state.version }, 'screen overlay saved')
        return { ...state, changes: describeScreenChanges(screen, before, state.overlay) }
      } catch (err) {
        if (err instanceof VersionConflictError) return conflict(reply, screen.id, request.body.version)
        throw err
      }
    },
  )

  async function conflict(reply: FastifyReply, id: string, from: number) {
    const screen = opts.screens.shipped.get(id)!
    const current = (await opts.screens.state(id))!
    const base = await opts.screens.overlayAt(id, from)
    return reply.code(409).send({
      statusCode: 409,
      error: 'Conflict',
      message: `La pantalla ha cambiado mientras la editabas: ${current.author?.name ?? 'otra persona'} guardó la versión ${current.version}. Revisa sus cambios antes de guardar los tuyos.`,
      current,
      changes: describeScreenChanges(screen, base, current.overlay),
    })
  }

  app.get<{ Params: ScreenParams }>('/bff/admin/screens/:id/history', { schema: { params: ScreenParams } }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const screen = shippedOr404(request.params.id, reply)
    if (!screen) return
    const versions = await opts.store.history<ScreenOverlay>(screenDoc(screen.id))
    const out = []
    for (const v of versions) {
      const before = await opts.screens.overlayAt(screen.id, v.version - 1)
      out.push({ version: v.version, author: v.author, createdAt: v.createdAt, kind: v.kind, restoredFrom: v.restoredFrom, changes: describeScreenChanges(screen, before, v.body) })
    }
    out.push({ version: 0, author: null, createdAt: null, kind: 'shipped', restoredFrom: null, changes: [] })
    return out
  })

  app.post<{ Params: ScreenParams; Body: RollbackBody }>(
    '/bff/admin/screens/:id/rollback',
    { schema: { params: ScreenParams, body: RollbackBody } },
    async (request, reply) => {
      const screen = shippedOr404(request.params.id, reply)
      if (!screen) return
      const target = await opts.screens.overlayAt(screen.id, request.body.version)
      if (!target) return sendError(reply, 404, `No existe la versión ${request.body.version} de la pantalla.`)
      const before = await opts.screens.overlayAt(screen.id, request.body.expectedVersion)
      try {
        const state = await opts.screens.save(screen.id, request.body.expectedVersion, target, authorOf(request), 'rollback', request.body.version)
        request.log.info({ event: 'screen_rolled_back', screen: screen.id, version: state.version, restoredFrom: request.body.version }, 'screen overlay rolled back')
        return { ...state, changes: describeScreenChanges(screen, before, state.overlay) }
      } catch (err) {
        if (err instanceof VersionConflictError) return conflict(reply, screen.id, request.body.expectedVersion)
        throw err
      }
    },
  )
}
