import type { FastifyInstance } from 'fastify'
import { DismissNoticesBody } from '../../schemas/notice'
import { MESSAGES, sendError } from '../lib/errors'
import type { SessionGate } from '../session/session-gate'
import type { NoticeStore } from './notice-store'

/** `GET /bff/notices`: the signed-in user's pending notices; `POST /bff/notices/dismiss`: seen, gone. */
export async function noticeRoutes(app: FastifyInstance, opts: { gate: SessionGate; store: NoticeStore }) {
  const signedIn = async (request: Parameters<SessionGate['current']>[0], reply: Parameters<SessionGate['current']>[1]) => {
    if (!(await opts.gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
  }
  app.get('/bff/notices', { onRequest: signedIn }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    return { notices: await opts.store.pending(request.sessionMemo!.userId) }
  })
  app.post<{ Body: DismissNoticesBody }>('/bff/notices/dismiss', { onRequest: signedIn, schema: { body: DismissNoticesBody } }, async (request, reply) => {
    await opts.store.dismiss(request.sessionMemo!.userId, request.body.ids)
    return reply.code(204).send()
  })
}
