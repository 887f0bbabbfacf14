import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { CreateScreenBody, PublishScreenBody, RollbackScreenBody, SaveScreenBody, ScreenDiffQuery, ScreenParams, ScreenVersionQuery } from '../../schemas/admin'
import type { RouteDef } from '../../schemas/manifest'
import type { Text } from '../../schemas/screen'
import { HttpError, sendError } from '../lib/errors'
import { originOf } from '../audit/audit-writer'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import { tablesOf } from './screen-changes'
import { ScreenConflictError, type ScreenService } from './screen-service'

export interface AdminScreenOptions {
  gate: SessionGate
  screens: ScreenService
  /** The shipped route table: a screen's path in the list. */
  routes: RouteDef[]
}

/**
 * The screen studio's server contract (GESTORACCESS): every screen, shipped or made here, its
 * versions (drafts nobody sees until published), staged publication to a brand or user group
 * then everyone, history, diff and rollback. The menu manager's column editing is an edit here:
 * an overlay version of the shipped screen.
 */
export async function adminScreenRoutes(app: FastifyInstance, opts: AdminScreenOptions) {
  // Every route of this plugin, checked before its body is read (see requirePermission).
  app.addHook('onRequest', requirePermission(opts.gate, 'GESTORACCESS'))
  const pathOf = new Map<string, string>()
  for (const r of opts.routes) if (!pathOf.has(r.screen)) pathOf.set(r.screen, r.path)
  const { screens } = opts

  /** Runs a studio operation; its refusals (400, 404, 409) are answered with their Spanish message. */
  const answer = async <T>(reply: FastifyReply, work: () => Promise<T>) => {
    try {
      return await work()
    } catch (err) {
      if (err instanceof ScreenConflictError) {
        return reply.code(409).header('cache-control', 'no-store').send({ statusCode: 409, error: 'Conflict', message: err.message, current: err.current, changes: err.changes })
      }
      if (err instanceof HttpError) return sendError(reply, err.statusCode, err.message)
      throw err
    }
  }
  const notFound = (reply: FastifyReply, id: string) => sendError(reply, 404, `No existe la pantalla «${id}».`)
  const noStore = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header('cache-control', 'no-store')
    done()
  }

  app.get('/bff/admin/screens', { onRequest: noStore }, async () => {
    const out = []
    for (const id of await screens.ids()) {
      const state = await screens.state(id)
      if (!state?.screen) continue
      const title: Text = state.screen.title
      out.push({
        id,
        title,
        path: state.screen.routes?.[0]?.path ?? pathOf.get(id) ?? null,
        version: state.version,
        status: state.status,
        audience: state.audience,
        shipped: state.shipped,
        fallback: state.fallback,
        tables: [...tablesOf(state.screen).keys()],
      })
    }
    return out.sort((a, b) => (a.path ?? a.id).localeCompare(b.path ?? b.id))
  })

  app.get<{ Params: ScreenParams; Querystring: ScreenVersionQuery }>(
    '/bff/admin/screens/:id',
    { schema: { params: ScreenParams, querystring: ScreenVersionQuery }, onRequest: noStore },
    async (request, reply) => {
      const state = await screens.state(request.params.id, request.query.version)
      if (!state) return notFound(reply, request.params.id)
      if (!state.screen) return sendError(reply, 404, `No existe la versión ${request.query.version} de la pantalla «${request.params.id}».`)
      return state
    },
  )

  app.post<{ Body: CreateScreenBody }>('/bff/admin/screens', { schema: { body: CreateScreenBody } }, async (request, reply) =>
    answer(reply, async () => {
      const created = await screens.create(request.body.screen, originOf(request, 201))
      request.log.info({ event: 'screen_created', screen: created.id, version: created.version }, 'screen draft created')
      return reply.code(201).send({ ...created, status: 'draft' })
    }),
  )

  app.put<{ Params: ScreenParams; Body: SaveScreenBody }>('/bff/admin/screens/:id', { schema: { params: ScreenParams, body: SaveScreenBody } }, async (request, reply) =>
    answer(reply, async () => {
      const saved = await screens.save(request.params.id, request.body.screen, request.body.expectedVersion, originOf(request))
      request.log.info({ event: 'screen_saved', screen: request.params.id, version: saved.version }, 'screen draft saved')
      return { id: request.params.id, status: 'draft', ...saved }
    }),
  )

  app.post<{ Params: ScreenParams; Body: PublishScreenBody }>(
    '/bff/admin/screens/:id/publish',
    { schema: { params: ScreenParams, body: PublishScreenBody } },
    async (request, reply) =>
      answer(reply, async () => {
        const { version, audience } = request.body ?? {}
        const release = await screens.publish(request.params.id, version, audience ? { brands: audience.brands ?? [], groups: audience.groups ?? [] } : null, originOf(request))
        request.log.info({ event: 'screen_published', screen: request.params.id, release }, 'screen version published')
        return { id: request.params.id, audience: release }
      }),
  )

  app.post<{ Params: ScreenParams; Body: RollbackScreenBody }>(
    '/bff/admin/screens/:id/rollback',
    { schema: { params: ScreenParams, body: RollbackScreenBody } },
    async (request, reply) =>
      answer(reply, async () => {
        const release = await screens.rollback(request.params.id, request.body?.version, originOf(request))
        request.log.info({ event: 'screen_rolled_back', screen: request.params.id, release }, 'screen publication rolled back')
        return { id: request.params.id, audience: release }
      }),
  )

  app.get<{ Params: ScreenParams }>('/bff/admin/screens/:id/history', { schema: { params: ScreenParams }, onRequest: noStore }, async (request, reply) => {
    if (!(await screens.exists(request.params.id))) return notFound(reply, request.params.id)
    return screens.history(request.params.id)
  })

  app.get<{ Params: ScreenParams; Querystring: ScreenDiffQuery }>(
    '/bff/admin/screens/:id/diff',
    { schema: { params: ScreenParams, querystring: ScreenDiffQuery }, onRequest: noStore },
    async (request, reply) => {
      const { from, to } = request.query
      const changes = await screens.diff(request.params.id, from, to)
      if (!changes) return sendError(reply, 404, `No existen las versiones ${from} y ${to} de la pantalla «${request.params.id}».`)
      return { from, to, changes }
    },
  )
}
