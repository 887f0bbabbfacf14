import type { FastifyInstance, FastifyRequest } from 'fastify'
import type Database from 'better-sqlite3'
import { fail } from '../lib/http'
import type { Caller, Marca } from '../lib/context'
import { UnchangedDbCache } from '../lib/unchanged-db-cache'
import { authenticateApiKey } from '../lib/api-keys'
import type { TokenService } from './tokens'
import type { UsersRepo } from './users-repo'

/** Calls anyone may make: sign-in, refresh, self sign-up (and its withdrawal, by its token) and the password recovery flow. */
export const PUBLIC_PATHS = new Set(['/api/auth/login', '/api/auth/refresh', '/api/auth/register', '/api/auth/register/withdraw', '/api/auth/request-change-password', '/api/auth/change-password'])

/** Calls of the public integration API: authenticated by `X-Api-Key`, never by a bearer token. */
export const API_KEY_PREFIX = '/api/public/'

/**
 * Every /api request names its brand (X-Brand-Domain) and, unless public, carries a valid
 * bearer token of an active user. Brand-owned data is then scoped by `request.marca`.
 */
export function installAccessHooks(app: FastifyInstance, deps: { db: Database.Database; tokens: TokenService; users: UsersRepo; now?: () => number }) {
  const marcaByDomain = deps.db.prepare<[string], Marca>('SELECT id, dominio, nombre FROM marcas WHERE dominio = ?')
  const marcas = new UnchangedDbCache(deps.db, (domain: string) => marcaByDomain.get(domain))
  const callers = new UnchangedDbCache(deps.db, (userId: number) => activeCaller(deps.users, userId))
  app.decorateRequest('marca', null as never)
  app.decorateRequest('caller', null)
  app.decorateRequest('apiCaller', null)

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return
    const domain = String(request.headers['x-brand-domain'] ?? '').trim().toLowerCase()
    if (!domain) fail(400, 'Falta la cabecera X-Brand-Domain.')
    const marca = marcas.get(domain)
    if (!marca) fail(400, `Marca desconocida: ${domain}.`)
    request.marca = marca

    const path = request.url.split('?', 1)[0]!.replace(/\/+$/, '')
    if (PUBLIC_PATHS.has(path)) return
    if (`${path}/`.startsWith(API_KEY_PREFIX)) {
      request.apiCaller = authenticateApiKey(request, deps.db, (deps.now ?? Date.now)())
      return
    }
    request.caller = await authenticate(request, deps.tokens, callers)
  })
}

/** The user with their effective permissions, or null when unknown or deactivated. */
function activeCaller(users: UsersRepo, userId: number): Caller | null {
  const user = users.find(userId)
  if (!user || !user.activo) return null
  return { userId: user.id, permissions: new Set(users.permissions(user.id).map((p) => p.NombreNormalizado)) }
}

async function authenticate(request: FastifyRequest, tokens: TokenService, callers: UnchangedDbCache<number, Caller | null>): Promise<Caller> {
  const header = request.headers.authorization ?? ''
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match) fail(401, 'Falta el token de acceso.')
  const claims = await tokens.verify(match[1]!, 'access')
  if (!claims) fail(401, 'Token no válido o caducado.')
  const caller = callers.get(claims.userId)
  if (!caller) fail(401, 'El usuario no existe o está desactivado.')
  if (claims.actorId === undefined) return caller
  // View-as is read-only here too, whatever sits in front: only reads and the session's own sign-out.
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.url.split('?', 1)[0] !== '/api/auth/logout') fail(403, 'Sesión de solo lectura («ver como»): no se puede cambiar nada.')
  return { ...caller, actorId: claims.actorId }
}

/** Route guard: the caller must hold the permission (403 otherwise). */
export function requirePermission(permission: string) {
  return async (request: FastifyRequest) => {
    if (!request.caller?.permissions.has(permission)) fail(403, `No tienes permiso para esta operación (requiere ${permission}).`)
  }
}
