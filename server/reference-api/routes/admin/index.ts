import type { FastifyError, FastifyInstance } from 'fastify'
import { requirePermission } from '../../auth/access-hooks'
import type { ApiContext } from '../../lib/context'
import { apiKeyRoutes } from './api-keys'
import { apiUserRoutes } from './api-users'
import { groupRoutes } from './groups'
import { permissionRoutes } from './permissions'
import { preferenceRoutes } from './preferences'
import { publicApiRoutes } from './public-api'
import { GESTOR } from './shared'
import { ownPasswordRoute, userRoutes } from './users'

/** Fastify's own request errors, in Spanish (the rest go on to the app's error handler). */
const REQUEST_ERRORS: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'El cuerpo de la petición está vacío pero se ha declarado como JSON.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'El cuerpo de la petición no es un JSON válido.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Tipo de contenido no admitido: envía JSON (application/json).',
  FST_ERR_CTP_BODY_TOO_LARGE: 'El cuerpo de la petición es demasiado grande.',
}

/** Users, preferences, permissions, groups, API keys and API users (spec §7). */
export async function adminRoutes(app: FastifyInstance, opts: ApiContext) {
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    const message = err.code ? REQUEST_ERRORS[err.code] : undefined
    if (message) return reply.code(err.statusCode ?? 400).type('text/plain; charset=utf-8').send(message)
    throw err
  })

  // Any signed-in user: their own password and preferences.
  await app.register(ownPasswordRoute, opts)
  await app.register(preferenceRoutes, opts)

  // Everything else needs GESTORACCESS, checked before the body is even read.
  await app.register(async (gestor) => {
    gestor.addHook('onRequest', requirePermission(GESTOR))
    await gestor.register(userRoutes, opts)
    await gestor.register(permissionRoutes, opts)
    await gestor.register(groupRoutes, opts)
    await gestor.register(apiKeyRoutes, opts)
    await gestor.register(apiUserRoutes, opts)
  })

  // Integrations, by X-Api-Key.
  await app.register(publicApiRoutes, opts)
}
