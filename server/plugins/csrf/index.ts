import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { MESSAGES, sendError } from '../../lib/errors'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Every state-changing request, whatever its path, must carry `X-CSRF: 1` (a header a foreign
 * page cannot set without a CORS preflight we never grant) and, when the browser names an
 * Origin, one of this very host. Not deciding by path means no spelling of a path can slip
 * past it, and a route added tomorrow is covered without thinking of it.
 */
export function csrfRejection(request: FastifyRequest): boolean {
  if (!STATE_CHANGING.has(request.method)) return false
  if (request.headers['x-csrf'] !== '1') return true
  const origin = request.headers.origin
  if (origin === undefined) return false
  try {
    return new URL(origin).host.toLowerCase() !== String(request.host).toLowerCase()
  } catch {
    return true
  }
}

/**
 * Refuses a state-changing request that fails `csrfRejection` with 403, before any route, body
 * parsing or session lookup. After the host check (the Origin is compared with a Host this
 * portal serves: a rebound foreign name never gets here) and the request id (the refusal
 * carries the id its warning names).
 */
export const csrfPlugin = fp(
  async function csrf(app) {
    app.addHook('onRequest', (request, reply, done) => {
      if (!csrfRejection(request)) return done()
      request.log.warn({ event: 'csrf_rejected', method: request.method }, 'state-changing request without CSRF header or with a foreign origin')
      sendError(reply, 403, MESSAGES.csrf)
    })
  },
  { name: 'csrf', fastify: '5.x', dependencies: ['host-check', 'request-id'] },
)
