import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { batteryRoutes } from './battery'
import { comparatorRoutes } from './comparator'
import { energyRoutes } from './energy'
import { sipsRoutes } from './sips'

/** Sips, energy prices, batteries, maps aggregates and the comparison stand-in (spec §7). */
export async function toolsRoutes(app: FastifyInstance, opts: ApiContext) {
  await app.register(sipsRoutes, opts)
  await app.register(energyRoutes, opts)
  // Its own plugin: the MENUPRODUCTOSBATERIAS guard applies to the battery calls only.
  await app.register(batteryRoutes, opts)
  await app.register(comparatorRoutes, opts)
}
