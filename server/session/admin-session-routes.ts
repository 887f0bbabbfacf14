import Type from 'typebox'
import type { FastifyInstance } from 'fastify'
import { originOf, type AuditWriter } from '../audit/audit-writer'
import type { SessionGate } from './session-gate'
import type { SessionStore } from './session-store'
import { requirePermission } from './require-permission'

const UserParams = Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })
type UserParams = Type.Static<typeof UserParams>

/** `DELETE /bff/admin/users/:id/sessions` (GESTORACCESS): signs a user out everywhere, at once. */
export async function adminSessionRoutes(app: FastifyInstance, opts: { gate: SessionGate; store: SessionStore; audit: AuditWriter }) {
  // Every route of this plugin, checked before its body is read (see requirePermission).
  app.addHook('onRequest', requirePermission(opts.gate, 'GESTORACCESS'))
  app.delete<{ Params: UserParams }>('/bff/admin/users/:id/sessions', { schema: { params: UserParams } }, async (request) => {
    const admin = request.sessionMemo!
    // The admin's own session in this browser survives: ending it would sign them out mid-task.
    const ended = await opts.store.deleteByUser(request.params.id, admin.userId === request.params.id ? admin.id : undefined)
    request.log.info({ event: 'sessions_ended_by_admin', userId: request.params.id, adminId: admin.userId, sessionsEnded: ended }, 'an admin ended a user’s sessions')
    // Filed under the user's record: their timeline shows it.
    await opts.audit.admin(originOf(request), { action: 'sessions.end', doc: `usuario:${request.params.id}`, version: null, details: { ended } })
    return { ended }
  })
}
