import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'

/** Contracts, invoices, renewals, agents and their aggregates (spec §7). */
export async function businessRoutes(_app: FastifyInstance, _opts: ApiContext) {}
