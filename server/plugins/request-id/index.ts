import fp from 'fastify-plugin'
import { randomUUID } from 'node:crypto'

/**
 * The id of every request: the constructor's `genReqId` (a plugin cannot set it), with the
 * client's X-Request-Id ignored (`requestIdHeader: false`): a client-sent id is not trusted.
 */
export const newRequestId = (): string => randomUUID()

/**
 * Echoes the request's id as X-Request-Id, the id its log lines and its upstream calls carry.
 * Before CSRF and the access log, so a refused request too answers the id its warning and its
 * request-completed line name; after the host and target refusals, which answer without it.
 */
export const requestIdPlugin = fp(
  async function requestId(app) {
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id)
      done()
    })
  },
  { name: 'request-id', fastify: '5.x', dependencies: ['host-check'] },
)
