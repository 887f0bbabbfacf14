import type { FastifyReply, FastifyRequest } from 'fastify'
import { MESSAGES, sendError } from '../lib/errors'
import type { SessionGate } from './session-gate'

/**
 * A session holding `permission`, else 401/403 (the denial is logged with user and route).
 * Meant as an onRequest hook: it answers before the body is read, parsed or validated, so a
 * caller without the permission learns nothing from the body checks and costs no parsing.
 */
export function requirePermission(gate: SessionGate, permission: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    if (!session.user.Permisos.some((p) => p.NombreNormalizado === permission)) {
      request.log.warn({ event: 'admin_denied', userId: session.userId, route: request.routeOptions.url, permission }, 'admin call refused: missing permission')
      return sendError(reply, 403, MESSAGES.forbidden)
    }
  }
}
