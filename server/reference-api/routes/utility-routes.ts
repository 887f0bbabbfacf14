import type { FastifyInstance } from 'fastify'
import cnaes from '../data/cnaes.json' with { type: 'json' }
import estados from '../data/estados-contrato.json' with { type: 'json' }
import provincias from '../data/provincias.json' with { type: 'json' }
import tarifas from '../data/tarifas.json' with { type: 'json' }
import tipos from '../data/tipos.json' with { type: 'json' }
import { isoDate } from '../lib/catalogos'
import type { ApiContext } from '../lib/context'
import { callerScope } from '../lib/visibility'
import { loadTestBody } from '../lib/load-test-body'
import { dashboardSummary } from './business/dashboard'

/** The utility lists of spec §7: reference data the forms pick from. */
export async function utilityRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts
  app.get('/api/utility/cnaes', async () => cnaes.map((c, i) => ({ Id: i + 1, ...c })))
  app.get('/api/utility/tarifas', async () => tarifas)
  app.get('/api/utility/tipoaltasolicitud', async () => tipos.tipoaltasolicitud)
  app.get('/api/utility/tipoimpresionfacturas', async () => tipos.tipoimpresionfacturas)
  app.get('/api/utility/tipocomision', async () => tipos.tipocomision)
  app.get('/api/utility/colectivos', async () => tipos.colectivos)
  app.get('/api/utility/provincias', async () => provincias)
  app.get('/api/utility/contrato/estados', async () => estados)
  app.get('/api/utility/usergroups-options', async () =>
    db.prepare('SELECT id AS Id, nombre AS Nombre, descripcion AS Descripcion FROM grupos ORDER BY nombre').all(),
  )
  // Headline figures of the brand, or of the caller's sales channel (README: dashboard/resumen).
  app.get('/api/utility/dashboard/resumen', async (request) => dashboardSummary(db, callerScope(db, request), isoDate(now())))
  // Always the same 2 KB, after the usual token check: load tests of the proxies in front (npm run bench).
  const fixedBody = loadTestBody()
  app.get('/api/utility/prueba-carga', (_request, reply) => {
    reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(fixedBody)
  })
}
