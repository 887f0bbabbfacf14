import type { FastifyInstance } from 'fastify'
import type { MenuStore } from '../manifest/menu-store'
import type { UpstreamClient } from '../upstream/upstream-client'
import type { SessionStore } from '../session/session-store'

/** The upstream path that answers 200 when it is alive. */
const UPSTREAM_HEALTH_PATH = '/healthz'

export async function healthRoutes(app: FastifyInstance, opts: { upstream: UpstreamClient; sessions: SessionStore; menus: MenuStore }) {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return { status: 'ok' }
  })

  /** Ready when the upstream, the session store and the menu store answer; otherwise 503 naming what failed. */
  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const checks: Record<string, string> = {}
    await Promise.all([
      opts.sessions.ping().then(
        () => (checks.sessionStore = 'ok'),
        () => (checks.sessionStore = 'error'),
      ),
      opts.menus.ping().then(
        () => (checks.menuStore = 'ok'),
        () => (checks.menuStore = 'error'),
      ),
      opts.upstream
        .call({ method: 'GET', path: UPSTREAM_HEALTH_PATH, brandDomain: request.brand.Domain, requestId: String(request.id) })
        .then(
          (answer) => (checks.upstream = answer.status === 200 ? 'ok' : `status ${answer.status}`),
          () => (checks.upstream = 'unreachable'),
        ),
    ])
    const failed = Object.entries(checks).filter(([, v]) => v !== 'ok').map(([k]) => k)
    if (failed.length > 0) {
      return reply.code(503).send({ status: 'unavailable', failed, checks })
    }
    return { status: 'ok', checks }
  })
}
