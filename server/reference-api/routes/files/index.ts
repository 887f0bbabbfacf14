import type { FastifyError, FastifyInstance } from 'fastify'
import { archivoStore, materializeDemoFiles } from '../../lib/archivos'
import type { ApiContext } from '../../lib/context'
import { tolerantJsonBodies } from '../../lib/json-body'
import { fileRoutes } from './files'
import { folderRoutes } from './folders'
import { publicApiV1Routes } from './public-api-v1'
import { zipRoutes } from './zip'

/** Fastify's own request errors, in Spanish (the rest go on to the app's error handler). */
const REQUEST_ERRORS: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'El cuerpo de la petición está vacío pero se ha declarado como JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'El cuerpo de la petición no es un JSON válido.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Tipo de contenido no admitido: envía JSON (application/json) o, para subir archivos, multipart/form-data.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'El cuerpo de la petición es demasiado grande.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'La petición debe ser multipart/form-data.',
}

/** The file and folder area (spec §7 Files) and the public integration API calls. */
export async function filesRoutes(app: FastifyInstance, opts: ApiContext) {
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    const message = err.code ? REQUEST_ERRORS[err.code] : undefined
    if (message) return reply.code(err.statusCode && err.statusCode < 500 ? err.statusCode : 400).type('text/plain; charset=utf-8').send(message)
    throw err
  })
  tolerantJsonBodies(app)

  // The demo files' bytes (the seed only writes their rows): written when missing.
  const written = await materializeDemoFiles(opts.db, archivoStore(opts))
  if (written > 0) app.log.info({ written }, 'demo files written')

  await app.register(folderRoutes, opts)
  await app.register(fileRoutes, opts)
  await app.register(zipRoutes, opts)
  await app.register(publicApiV1Routes, opts)
}
