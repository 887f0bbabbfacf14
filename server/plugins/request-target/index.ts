import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingMessage } from 'node:http'
import { canonicalRequestUrl } from '../../../schemas/request-target'
import { sendError } from '../../lib/errors'

const REFUSED = Symbol('refusedTarget')
type Marked = IncomingMessage & { [REFUSED]?: string }

/**
 * Fastify's `rewriteUrl`: runs before routing, so the router, every hook, the proxy and the
 * logs see only the canonical target (schemas/request-target.ts). A target without one is
 * marked and routed to `/`; the plugin below answers it 400 before anything else runs. It stays
 * a constructor option: a plugin's hooks run after routing, too late to change the route.
 */
export function canonicalUrl(req: IncomingMessage): string {
  const { url, refused } = canonicalRequestUrl(req)
  if (refused !== undefined) (req as Marked)[REFUSED] = refused
  return url
}

/** A target marked by `canonicalUrl` gets 400 and nothing else runs. */
function refuseBadTarget(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const reason = (request.raw as Marked)[REFUSED]
  if (reason === undefined) return done()
  request.log.warn({ event: 'bad_request_target', reason }, 'request target refused')
  sendError(reply, 400, `La dirección de la petición no es válida: ${reason}.`)
}

/**
 * The refusal of a target without a canonical form. Right after the security headers (its 400
 * carries them) and before every other hook: nothing (host check, brand, CSRF, session, proxy)
 * works on a target that was only routed to `/` as a placeholder.
 */
export const requestTargetPlugin = fp(
  async function requestTarget(app) {
    app.addHook('onRequest', refuseBadTarget)
  },
  { name: 'request-target', fastify: '5.x', dependencies: ['security-headers'] },
)
