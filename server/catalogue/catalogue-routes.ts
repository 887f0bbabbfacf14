import type { FastifyInstance } from 'fastify'
import type { CallIndex } from '../../schemas/catalogue/match'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'

/**
 * `GET /bff/admin/catalogue` (GESTORACCESS): the endpoint catalogue as this BFF loaded it (the
 * shipped files and an operator's own), for the screen studio, which offers only catalogued
 * calls and reads an answer's fields from its shape's name (schemas/business/shapes.ts).
 * Without the personal-data map and error texts: what a screen can call, not how the BFF
 * guards it.
 */
export async function catalogueRoutes(app: FastifyInstance, opts: { gate: SessionGate; catalogue: CallIndex }) {
  app.addHook('onRequest', requirePermission(opts.gate, 'GESTORACCESS'))
  const calls = opts.catalogue.calls
    .filter((c) => !c.access || c.access === 'session')
    .map((c) => ({
      id: c.id,
      method: c.method,
      path: c.path,
      summary: c.summary,
      effect: c.effect,
      ...(c.permission ? { permission: c.permission } : {}),
      ...(c.list ? { list: c.list } : {}),
      ...(c.query ? { query: c.query } : {}),
      ...(c.pathParams ? { pathParams: c.pathParams } : {}),
      ...(c.answer ? { answer: c.answer } : {}),
      ...(c.shape ? { shape: c.shape } : {}),
    }))
  app.get('/bff/admin/catalogue', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
    return calls
  })
}
