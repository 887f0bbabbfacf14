import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { PresenceBody, type PresenceAnswer } from '../../schemas/events'
import { fullName } from '../audit/audit-writer'
import { MESSAGES, sendError } from '../lib/errors'
import type { SessionGate } from '../session/session-gate'
import type { SessionStore } from '../session/session-store'
import type { EventHub } from './event-hub'
import { openStream } from './event-stream'
import type { PresenceAccess } from './presence-access'
import type { RecordRules } from './record-rules'

export interface EventRoutesOptions {
  gate: SessionGate
  sessions: SessionStore
  hub: EventHub
  rules: RecordRules
  access: PresenceAccess
  heartbeatMs: number
}

const TOO_MANY_STREAMS = 'Tienes demasiadas pestañas del portal abiertas: cierra alguna para recibir los cambios al momento en esta.'
const NOT_A_RECORD = 'Este tipo de registro no muestra quién lo está viendo.'
const CANNOT_VIEW = 'No puedes ver este registro.'

/**
 * `GET /bff/events`: the signed-in user's server-sent event stream (changes of records they may
 * see, and who else views the records their tab views). `POST /bff/presence`: this tab views a
 * record (again every ~20 s); `POST /bff/presence/leave`: no longer. GET needs no CSRF header
 * (it changes nothing); the presence calls are POSTs and the CSRF plugin covers them.
 */
export async function eventRoutes(app: FastifyInstance, opts: EventRoutesOptions) {
  const { gate, hub, rules, access } = opts
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
  }

  app.get('/bff/events', { onRequest: signedIn }, async (request, reply) => {
    const session = request.sessionMemo!
    if (!hub.admits(session.userId)) {
      request.log.warn({ event: 'events_stream_refused', userId: session.userId }, 'events stream refused: too many open')
      return sendError(reply, 429, TOO_MANY_STREAMS)
    }
    // The session the cookie names (the admin's own, under view-as): its end closes the stream.
    const id = request.cookies[gate.cookieName]!
    openStream(request, reply, session, hub, { heartbeatMs: opts.heartbeatMs, stillSignedIn: async () => (await opts.sessions.get(id)) !== null })
  })

  app.post<{ Body: PresenceBody }>('/bff/presence', { onRequest: signedIn, schema: { body: PresenceBody } }, async (request, reply): Promise<PresenceAnswer | undefined> => {
    const session = request.sessionMemo!
    const { entity, id, connection } = request.body
    if (!rules.reads.has(entity)) return sendError(reply, 400, NOT_A_RECORD)
    if (!(await access.mayView(request, session, { entity, id }))) {
      request.log.warn({ event: 'presence_refused', userId: session.userId, entity }, 'presence refused: the user cannot read the record')
      return sendError(reply, 403, CANNOT_VIEW)
    }
    reply.header('cache-control', 'no-store')
    return { viewers: await hub.join(request.brand.key, { entity, id }, { connection, userId: session.userId, name: fullName(session.user) }) }
  })

  app.post<{ Body: PresenceBody }>('/bff/presence/leave', { onRequest: signedIn, schema: { body: PresenceBody } }, async (request, reply) => {
    const { entity, id, connection } = request.body
    await hub.leave(request.brand.key, { entity, id }, connection, request.sessionMemo!.userId)
    return reply.code(204).send()
  })
}
