import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { contractLifecycleRoutes } from '../contracts-lifecycle'
import { agentRoutes } from './agents'
import { contractRoutes } from './contracts'
import { invoiceRoutes } from './invoices'
import { renewalRoutes } from './renewals'

/** Contracts, invoices, renewals, agents and their aggregates (spec §7). */
export async function businessRoutes(app: FastifyInstance, opts: ApiContext) {
  await app.register(contractRoutes, opts)
  await app.register(invoiceRoutes, opts)
  // Its own plugin: the VERRENOVACIONES guard applies to the renewal calls only.
  await app.register(renewalRoutes, opts)
  await app.register(agentRoutes, opts)
  await app.register(contractLifecycleRoutes, opts)
}
