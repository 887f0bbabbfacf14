import Type from 'typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { originOf, type AuditWriter } from '../audit/audit-writer'
import { MESSAGES, sendError } from '../lib/errors'
import { ViewAsRefusedError, type AuthService } from './auth-service'
import type { SessionGate } from './session-gate'
import type { SessionStore } from './session-store'

const ViewAsBody = Type.Object({ userId: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })
type ViewAsBody = Type.Static<typeof ViewAsBody>

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** What a view-as session may still do on the BFF: leave it (starting another is refused by the route, saying why), sign out, report a screen that broke. */
const ALLOWED_WHILE_VIEWING = new Set(['DELETE /bff/view-as', 'POST /bff/view-as', 'POST /bff/auth/logout', 'POST /bff/screens/:id/render-error'])

/**
 * View-as is read-only, at the BFF, whatever the upstream does: every state-changing `/bff/`
 * route but those above is refused (catalogued `/api` mutations are refused by the proxy, in
 * its audit). Only requests that carry a view-as cookie pay for the session lookup.
 */
export function viewAsReadOnly(gate: SessionGate) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!STATE_CHANGING.has(request.method) || request.cookies[gate.viewAsCookieName] === undefined) return
    if (!request.url.startsWith('/bff/') || ALLOWED_WHILE_VIEWING.has(`${request.method} ${request.routeOptions.url}`)) return
    const session = await gate.current(request, reply)
    if (!session?.actor) return
    request.log.warn({ event: 'view_as_refused', userId: session.userId, actorId: session.actor.userId, route: request.routeOptions.url }, 'change refused: view-as is read-only')
    return sendError(reply, 403, MESSAGES.viewAsReadOnly)
  }
}

/**
 * `POST /bff/view-as` (GESTORACCESS): the portal as another user sees it, read-only, started
 * and ended in the audit; `DELETE /bff/view-as` leaves it. The admin's own session stays as it
 * was: leaving needs no new sign-in.
 */
export async function viewAsRoutes(app: FastifyInstance, opts: { gate: SessionGate; auth: AuthService; store: SessionStore; audit: AuditWriter }) {
  const { gate, auth, store, audit } = opts

  app.post<{ Body: ViewAsBody }>(
    '/bff/view-as',
    {
      // Who may, before the body is read (as requirePermission does).
      onRequest: async (request, reply) => {
        const session = await gate.current(request, reply)
        if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
        if (session.actor) return sendError(reply, 409, 'Ya estás viendo el portal como otro usuario: sal de «Ver como» antes de elegir otro.')
        if (!session.user.Permisos.some((p) => p.NombreNormalizado === 'GESTORACCESS')) return sendError(reply, 403, MESSAGES.forbidden)
      },
      schema: { body: ViewAsBody },
    },
    async (request, reply) => {
      const admin = request.sessionMemo!
      if (request.body.userId === admin.userId) return sendError(reply, 400, 'Ya estás viendo el portal como tú mismo.')
      let view
      try {
        view = await auth.startViewAs(admin, request.body.userId, gate.context(request))
      } catch (err) {
        if (err instanceof ViewAsRefusedError) return sendError(reply, err.status, err.message)
        throw err
      }
      gate.setViewAsCookie(reply, request, view.id)
      request.log.info({ event: 'view_as_started', userId: view.userId, actorId: admin.userId, mode: view.actor!.mode }, 'an admin views the portal as a user')
      await audit.admin(originOf(request), { action: 'viewas.start', doc: `usuario:${view.userId}`, version: null, details: { mode: view.actor!.mode } })
      return { user: { id: view.user.Id, name: [view.user.Nombre, view.user.Apellidos].filter(Boolean).join(' ') }, mode: view.actor!.mode }
    },
  )

  app.delete('/bff/view-as', async (request, reply) => {
    const session = await gate.current(request, reply)
    gate.clearViewAsCookie(reply, request)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    if (!session.actor) return reply.code(204).send()
    await store.delete(session.id)
    // Recorded as the admin's own action, filed under the user who was viewed.
    const admin = request.actorSession!
    request.sessionMemo = admin
    request.log.info({ event: 'view_as_ended', userId: session.userId, actorId: admin.userId }, 'an admin left view-as')
    await audit.admin(originOf(request), { action: 'viewas.end', doc: `usuario:${session.userId}`, version: null, details: { mode: session.actor.mode } })
    return reply.code(204).send()
  })
}
