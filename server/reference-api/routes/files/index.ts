import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'

/** The file and folder area (spec §7 Files) and the public integration API calls. */
export async function filesRoutes(_app: FastifyInstance, _opts: ApiContext) {}
