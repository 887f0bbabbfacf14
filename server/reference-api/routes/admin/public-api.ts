import type { FastifyInstance } from 'fastify'
import type { ApiContext } from '../../lib/context'
import { isoInstant } from '../../lib/instants'

/**
 * The public integration API, authenticated by `X-Api-Key` (the access hook checks the key for
 * every `/api/public/*` path and sets `request.apiCaller`). For now one call, used by the
 * portal's API test console: who am I.
 */
export async function publicApiRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db, now } = opts

  app.get('/api/public/v1/me', async (request) => {
    const caller = request.apiCaller!
    const agente = db
      .prepare(
        `SELECT a.id AS Id, a.codigo AS Codigo, a.nombre AS Nombre FROM api_usuario_agentes l JOIN agentes a ON a.id = l.agente_id
         WHERE l.api_usuario_id = ? AND l.marca_id = ?`,
      )
      .get(caller.apiUserId, request.marca.id) as { Id: number; Codigo: string; Nombre: string } | undefined
    return {
      ApiUsuario: { Id: caller.apiUserId, Nombre: caller.nombre, Email: caller.email, Descripcion: caller.descripcion },
      ApiKey: caller.apiKey,
      Permisos: caller.permissions,
      Marca: { Dominio: request.marca.dominio, Nombre: request.marca.nombre },
      Agente: agente ?? null,
      Fecha: isoInstant(now()),
    }
  })
}
