import type { FastifyError, FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { tolerantJsonBodies } from '../../lib/json-body'
import { clientRoutes } from './clients'
import { documentRoutes } from './documents'
import { draftDeleteRoutes } from './draft-delete'
import { editRoutes } from './edit'
import { endRoutes } from './end'
import { insertRoutes } from './insert'
import { printRoutes } from './print'
import { stateRoutes } from './state'
import { supplyRoutes } from './supply'
import { validatorRoutes } from './validators'

/** Fastify's own request errors, in Spanish (the rest go on to the app's error handler). */
const REQUEST_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'El cuerpo de la petición no es un JSON válido.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Tipo de contenido no admitido: envía JSON (application/json) o, para los documentos, multipart/form-data.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'El cuerpo de la petición es demasiado grande.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'La petición debe ser multipart/form-data.',
}

/**
 * The contract life cycle (README: Validadores, Clientes, Contratos, Documentos, Ciclo de
 * vida): validators, client lookups, CUPS in force, fixed prices, contract insert, documents,
 * signature, Kleen validation, sending to the distributor, end (baja, anulado), penalty and print.
 */
export async function contractLifecycleRoutes(app: FastifyInstance, opts: ApiContext) {
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    const message = err.code ? REQUEST_ERRORS[err.code] : undefined
    if (message) return reply.code(err.statusCode && err.statusCode < 500 ? err.statusCode : 400).type('text/plain; charset=utf-8').send(message)
    throw err
  })
  // PUT calls take their contract in the query: an empty body declared as JSON is no error here.
  tolerantJsonBodies(app)

  await app.register(validatorRoutes)
  await app.register(clientRoutes, opts)
  await app.register(supplyRoutes, opts)
  await app.register(insertRoutes, opts)
  await app.register(documentRoutes, opts)
  await app.register(stateRoutes, opts)
  await app.register(editRoutes, opts)
  await app.register(endRoutes, opts)
  await app.register(draftDeleteRoutes, opts)
  await app.register(printRoutes, opts)
}
