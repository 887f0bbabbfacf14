import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'

/** Users, preferences, permissions, groups, API keys and API users (spec §7). */
export async function adminRoutes(_app: FastifyInstance, _opts: ApiContext) {}
