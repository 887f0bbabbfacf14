import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { canonicalRequestUrl } from '../../schemas/request-target'
import { sendError } from '../lib/errors'

const REFUSED = Symbol('refusedTarget')
type Marked = IncomingMessage & { [REFUSED]?: string }

/**
 * Fastify's `rewriteUrl`: runs before routing, so the router, every hook, the proxy and the
 * logs see only the canonical target (schemas/request-target.ts). A target without one is
 * marked and routed to `/`; `refuseBadTarget`, the first hook, answers it 400 before anything
 * else runs.
 */
export function canonicalUrl(req: IncomingMessage): string {
  const { url, refused } = canonicalRequestUrl(req)
  if (refused !== undefined) (req as Marked)[REFUSED] = refused
  return url
}

/** The first onRequest hook: a target marked by `canonicalUrl` gets 400 and nothing else runs. */
export function refuseBadTarget(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const reason = (request.raw as Marked)[REFUSED]
  if (reason === undefined) return done()
  request.log.warn({ event: 'bad_request_target', reason }, 'request target refused')
  sendError(reply, 400, `La dirección de la petición no es válida: ${reason}.`)
}
