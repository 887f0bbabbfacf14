import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'

/** Sips, energy prices, batteries, maps aggregates and the comparison stand-in (spec §7). */
export async function toolsRoutes(_app: FastifyInstance, _opts: ApiContext) {}
