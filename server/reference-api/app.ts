import multipart from '@fastify/multipart'
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify'
import type Database from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { DestinationStream } from 'pino'
import type { TSchema } from 'typebox'
import { requestPartCheck } from '../../schemas/request-check'
import { canonicalRequestUrl } from '../../schemas/request-target'
import { installAccessHooks } from './auth/access-hooks'
import { authRoutes } from './auth/auth-routes'
import { signupRoutes } from './auth/signup-routes'
import { TokenService } from './auth/tokens'
import { UsersRepo } from './auth/users-repo'
import type { ReferenceApiConfig } from './config'
import { openReferenceDb } from './db/database'
import { seedIfEmpty } from './db/seed/seed'
import type { ApiContext } from './lib/context'
import { MAX_FILE_BYTES, MAX_FILES } from './lib/documents'
import { FaultRegistry, installFaults, parseFaultSpec } from './lib/faults'
import { ApiFailure, sendText } from './lib/http'
import { backfillLifecycle } from './lib/lifecycle-backfill'
import { backfillKeyScopes } from './lib/api-keys'
import { backfillRenewalPrices } from './lib/renewal-prices'
import { OutboxMailer, type Mailer } from './mail/mailer'
import { adminRoutes } from './routes/admin'
import { filesRoutes } from './routes/files'
import { toolsRoutes } from './routes/tools'
import { businessRoutes } from './routes/business'
import { utilityRoutes } from './routes/utility-routes'

export interface ReferenceApiDeps {
  now?: () => number
  mailer?: Mailer
  logStream?: DestinationStream
  /** Date the demo data is seeded around (tests pin it). */
  seedDate?: Date
}

export interface ReferenceApi {
  app: FastifyInstance
  db: Database.Database
  /** Every route it serves, `{ method, url }` as registered (the catalogue's tests compare). */
  routes: { method: string; url: string }[]
}

/** The secret signing the API's JWTs: from the environment, else generated once and kept in DATA_DIR. */
function jwtSecret(config: ReferenceApiConfig): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret)
  const file = path.join(config.dataDir, 'reference-api.secret')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true })
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 })
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim())
}

/**
 * The embedded reference API: a separate Fastify app over its own SQLite file implementing
 * the spec's call contract. It knows nothing of the BFF; the BFF reaches it only over HTTP.
 */
export async function buildReferenceApi(config: ReferenceApiConfig, deps: ReferenceApiDeps = {}): Promise<ReferenceApi> {
  const now = deps.now ?? Date.now
  const refusedTargets = new WeakMap<object, string>()
  const db = openReferenceDb(path.join(config.dataDir, 'reference-api.db'))
  await seedIfEmpty(db, { brandsDir: config.brandsDir, today: deps.seedDate, contractsPerBrand: config.seedContracts })
  backfillLifecycle(db)
  backfillKeyScopes(db)
  backfillRenewalPrices(db)
  // Tests only: refused in production (no registry, no routes, the variable ignored).
  const faults = config.production ? null : new FaultRegistry(parseFaultSpec(config.faults ?? ''), now)

  const app = Fastify({
    logger: {
      level: config.logLevel,
      base: { svc: 'reference-api' },
      redact: { paths: ['req.headers.authorization', '*.password', '*.token', '*.refreshToken', '*.newPassword'], censor: '[oculto]' },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    requestIdHeader: 'x-request-id',
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: true }),
    bodyLimit: 25 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    // Before routing, as the BFF does: the access hook and the routes see one canonical target.
    rewriteUrl: (req) => {
      const { url, refused } = canonicalRequestUrl(req)
      if (refused !== undefined) refusedTargets.set(req, refused)
      return url
    },
  })
  // The same schema check and Spanish wording as the BFF, from the shared `schemas/`.
  app.setValidatorCompiler<TSchema>(({ schema, httpPart }) => requestPartCheck(schema, httpPart))
  const routes: ReferenceApi['routes'] = []
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url })
  })

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiFailure) return sendText(reply, err.statusCode, err.message)
    if (err.validation) return sendText(reply, 400, `Datos no válidos: ${err.message}`)
    if (err.statusCode && err.statusCode < 500) return sendText(reply, err.statusCode, err.message)
    request.log.error({ err }, 'unhandled error')
    return sendText(reply, 500, 'Error interno del servicio.')
  })
  app.setNotFoundHandler((_request, reply) => sendText(reply, 404, 'Recurso no encontrado.'))
  // First hook: a target without a canonical form never reaches the access checks.
  app.addHook('onRequest', (request, reply, done) => {
    const refused = refusedTargets.get(request.raw)
    if (refused === undefined) return done()
    sendText(reply, 400, `La dirección de la petición no es válida: ${refused}.`)
  })

  const tokens = new TokenService({ secret: jwtSecret(config), accessTtlS: config.accessTokenTtlS, refreshTtlS: config.refreshTokenTtlS, now })
  const users = new UsersRepo(db)
  const mailer = deps.mailer ?? new OutboxMailer(path.join(config.dataDir, 'outbox'), app.log)
  const ctx: ApiContext = { db, now, brandsDir: config.brandsDir, documentsDir: config.documentsDir }

  app.get('/healthz', async () => {
    db.prepare('SELECT 1').get()
    return { status: 'ok' }
  })
  // The API's own time for each answer (to its first byte), for benchmarks and browser tools.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('server-timing', `app;dur=${reply.elapsedTime.toFixed(1)}`)
  })
  installAccessHooks(app, { db, tokens, users, now })
  if (faults) installFaults(app, faults)
  // Contract documents (POST /api/contract/insert-documents): streamed, at most 10 files of 10 MB.
  await app.register(multipart, { limits: { files: MAX_FILES, fileSize: MAX_FILE_BYTES, fields: 20, fieldSize: 10_000, parts: 40, headerPairs: 200 } })
  await app.register(authRoutes, { ...ctx, tokens, users, mailer })
  await app.register(signupRoutes, { ...ctx, users })
  await app.register(utilityRoutes, ctx)
  await app.register(businessRoutes, ctx)
  await app.register(adminRoutes, ctx)
  await app.register(toolsRoutes, ctx)
  await app.register(filesRoutes, ctx)

  app.addHook('onClose', async () => {
    db.close()
  })
  return { app, db, routes }
}
