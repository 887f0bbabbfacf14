import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AdminPasswordBody, OwnPasswordBody, RecoveryPasswordBody, UserIdQuery } from '../../schemas/auth'
import { MESSAGES, sendError } from '../lib/errors'
import type { UpstreamAnswer, UpstreamClient, UpstreamCall } from '../proxy/upstream-client'
import type { SessionGate } from './session-gate'
import type { SessionStore } from './session-store'

/**
 * The three upstream calls that change a password, taken out of the plain proxy so the BFF
 * can end sessions when they succeed: a user's own change ends their other sessions, an
 * admin's change and a recovery end all of that user's sessions. Bodies are checked here;
 * the upstream's answer is passed on unchanged.
 */
export async function passwordRoutes(app: FastifyInstance, opts: { gate: SessionGate; store: SessionStore; upstream: UpstreamClient }) {
  const { gate, store, upstream } = opts

  const forward = (request: FastifyRequest, call: Omit<UpstreamCall, 'brandDomain' | 'requestId'>) =>
    upstream.call({ ...call, brandDomain: request.brand.Domain, requestId: String(request.id), forwardedHost: request.host, forwardedProto: request.protocol })

  const relay = (reply: FastifyReply, answer: UpstreamAnswer) => {
    reply.code(answer.status)
    if (answer.body === '' || answer.body === undefined) return reply.send()
    return typeof answer.body === 'string' ? reply.type('text/plain; charset=utf-8').send(answer.body) : reply.send(answer.body)
  }
  const ok = (answer: UpstreamAnswer) => answer.status >= 200 && answer.status < 300

  app.put<{ Body: OwnPasswordBody }>('/api/usuarios/password', { schema: { body: OwnPasswordBody } }, async (request, reply) => {
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
    { schema: { querystring: UserIdQuery, body: AdminPasswordBody } },
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

  app.post<{ Body: RecoveryPasswordBody }>('/api/auth/change-password', { schema: { body: RecoveryPasswordBody } }, async (request, reply) => {
    const answer = await forward(request, { method: 'POST', path: '/api/auth/change-password', body: request.body })
    if (ok(answer)) {
      const ended = await store.deleteByEmail(request.body.email)
      request.log.info({ event: 'password_recovered', sessionsEnded: ended }, 'password recovered: the user’s sessions ended')
    }
    return relay(reply, answer)
  })
}
