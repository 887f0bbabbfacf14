import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AdminPasswordBody, OwnPasswordBody, RecoveryPasswordBody, RecoveryRequestBody, UserIdQuery } from '../../schemas/auth'
import { MESSAGES, sendError } from '../lib/errors'
import type { UpstreamAnswer, UpstreamClient, UpstreamCall } from '../upstream/upstream-client'
import type { RecoveryThrottle } from '../security/recovery-throttle'
import type { CallIndex } from '../../schemas/catalogue/match'
import { requirePermission } from './require-permission'
import type { SessionGate } from './session-gate'
import type { SessionStore } from './session-store'

/** Recovery bodies are an e-mail, a reset code and a password: a few hundred bytes. */
const RECOVERY_BODY_LIMIT = 4 * 1024

/**
 * The upstream calls that change a password, and the request for a recovery link, taken out
 * of the plain proxy so the BFF can end sessions when they succeed (a user's own change ends
 * their other sessions, an admin's change and a recovery end all of that user's sessions)
 * and so that the public recovery calls are throttled by the body's e-mail before the
 * upstream is asked. Bodies are checked here; the upstream's answer is passed on unchanged.
 */
export async function passwordRoutes(
  app: FastifyInstance,
  opts: { gate: SessionGate; store: SessionStore; upstream: UpstreamClient; recoveryThrottle: RecoveryThrottle; catalogue: CallIndex },
) {
  const { gate, store, upstream, recoveryThrottle } = opts
  // Who may call them is checked before the body is read, as the proxy does for every call:
  // a session for one's own password, and what the catalogue says the admin's call needs.
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
  }
  const adminPermission = opts.catalogue.find('PUT', 'api/usuarios/change-pass-admin')?.call.permission
  const mayChangeOthers = adminPermission ? requirePermission(gate, adminPermission) : signedIn

  const forward = (request: FastifyRequest, call: Omit<UpstreamCall, 'brandDomain' | 'requestId'>) =>
    upstream.call({ ...call, brandDomain: request.brand.Domain, requestId: String(request.id), forwardedHost: request.host, forwardedProto: request.protocol })

  const relay = (reply: FastifyReply, answer: UpstreamAnswer) => {
    reply.code(answer.status)
    if (answer.body === '' || answer.body === undefined) return reply.send()
    return typeof answer.body === 'string' ? reply.type('text/plain; charset=utf-8').send(answer.body) : reply.send(answer.body)
  }
  const ok = (answer: UpstreamAnswer) => answer.status >= 200 && answer.status < 300

  app.put<{ Body: OwnPasswordBody }>('/api/usuarios/password', { onRequest: signedIn, schema: { body: OwnPasswordBody } }, async (request, reply) => {
    const session = await gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    const answer = await forward(request, { method: 'PUT', path: '/api/usuarios/password', token: session.token, body: request.body })
    if (ok(answer)) {
      const ended = await store.deleteByUser(session.userId, session.id)
      request.log.info({ event: 'password_changed', userId: session.userId, sessionsEnded: ended }, 'own password changed: other sessions ended')
    }
    return relay(reply, answer)
  })

  app.put<{ Querystring: UserIdQuery; Body: AdminPasswordBody }>(
    '/api/usuarios/change-pass-admin',
    { onRequest: mayChangeOthers, schema: { querystring: UserIdQuery, body: AdminPasswordBody } },
    async (request, reply) => {
      const session = await gate.current(request, reply)
      if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
      const userId = request.query.Id
      const answer = await forward(request, { method: 'PUT', path: `/api/usuarios/change-pass-admin?Id=${userId}`, token: session.token, body: request.body })
      if (ok(answer)) {
        const ended = await store.deleteByUser(userId)
        request.log.info({ event: 'password_set_by_admin', userId, adminId: session.userId, sessionsEnded: ended }, 'password set by an admin: the user’s sessions ended')
      }
      return relay(reply, answer)
    },
  )

  app.post<{ Body: RecoveryRequestBody }>(
    '/api/auth/request-change-password',
    { schema: { body: RecoveryRequestBody }, bodyLimit: RECOVERY_BODY_LIMIT },
    async (request, reply) => {
      if (await recoveryThrottle.check(request, reply, request.body.email)) return reply
      const answer = await forward(request, { method: 'POST', path: '/api/auth/request-change-password', body: request.body })
      return relay(reply, answer)
    },
  )

  app.post<{ Body: RecoveryPasswordBody }>(
    '/api/auth/change-password',
    { schema: { body: RecoveryPasswordBody }, bodyLimit: RECOVERY_BODY_LIMIT },
    async (request, reply) => {
      if (await recoveryThrottle.check(request, reply, request.body.email)) return reply
      const answer = await forward(request, { method: 'POST', path: '/api/auth/change-password', body: request.body })
      if (ok(answer)) {
        await recoveryThrottle.succeeded(request, request.body.email)
        const ended = await store.deleteByEmail(request.body.email)
        request.log.info({ event: 'password_recovered', sessionsEnded: ended }, 'password recovered: the user’s sessions ended')
      }
      return relay(reply, answer)
    },
  )
}
