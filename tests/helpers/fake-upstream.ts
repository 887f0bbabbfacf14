import Fastify from 'fastify'
import { SignJWT } from 'jose'
import type { IncomingHttpHeaders } from 'node:http'
import { gzipSync } from 'node:zlib'
import { Readable } from 'node:stream'

/** What `GET /api/download` answers: 1 MB of a repeating pattern. */
export const DOWNLOAD_BYTES = Buffer.from(Array.from({ length: 1024 * 1024 }, (_, i) => (i * 7) % 256))

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: unknown
}

export interface FakeUpstream {
  url: string
  requests: RecordedRequest[]
  /** Every request as it arrived, before any routing or parsing: what a real upstream would be given. */
  received: { method: string; url: string; headers: IncomingHttpHeaders }[]
  /** Seconds until a newly issued access token expires. */
  tokenTtlS: number
  /** Whether refresh answers (false: 401, as when refresh is off or revoked). */
  refreshEnabled: boolean
  /** Whether sign-in returns a refresh token. */
  issueRefreshToken: boolean
  refreshCalls: number
  logoutBodies: unknown[]
  /** Access tokens the fake still accepts. */
  validTokens: Set<string>
  close(): Promise<void>
}

/** The answer of GET /api/gzipped: JSON, gzip-compressed by the upstream itself. */
export const GZIPPED_JSON = JSON.stringify({ rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `fila ${i}` })) })
const GZIPPED_ANSWER = gzipSync(GZIPPED_JSON)

const secret = new TextEncoder().encode('fake-upstream-secret-fake-upstream-secret')
const USER = {
  Id: 7,
  UserName: 'prueba@portal.test',
  Email: 'prueba@portal.test',
  Nombre: 'Prueba',
  Apellidos: 'Upstream',
  Permisos: [{ Id: 1, Nombre: 'Ver renovaciones', NombreNormalizado: 'VERRENOVACIONES' }],
  Grupos: [],
  Agente: null,
}

/**
 * A stand-in upstream that records what it receives, so tests can assert on the headers the
 * BFF forwards and control token expiry and refresh.
 */
export async function startFakeUpstream(now: () => number = Date.now): Promise<FakeUpstream> {
  const app = Fastify()
  let counter = 0
  const state: FakeUpstream = {
    url: '',
    requests: [],
    received: [],
    tokenTtlS: 900,
    refreshEnabled: true,
    issueRefreshToken: true,
    refreshCalls: 0,
    logoutBodies: [],
    validTokens: new Set(),
    close: () => app.close(),
  }
  const issue = async () => {
    const iat = Math.floor(now() / 1000)
    const token = await new SignJWT({ n: ++counter }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(iat).setExpirationTime(iat + state.tokenTtlS).sign(secret)
    state.validTokens.add(token)
    return state.issueRefreshToken ? { token, refreshToken: `refresh-${counter}` } : { token }
  }
  const bearer = (headers: IncomingHttpHeaders) => String(headers.authorization ?? '').replace(/^Bearer /, '')

  app.server.prependListener('request', (req: { method?: string; url?: string; headers: IncomingHttpHeaders }) => {
    state.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
  })
  app.addHook('onRequest', async (request) => {
    state.requests.push({ method: request.method, url: request.url, headers: { ...request.headers }, body: undefined })
  })
  app.addHook('preHandler', async (request) => {
    state.requests[state.requests.length - 1]!.body = request.body
  })
  app.addContentTypeParser(['application/octet-stream', 'multipart/form-data'], { parseAs: 'buffer' }, (_req, body, done) => done(null, body))

  app.get('/healthz', async () => ({ status: 'ok' }))
  app.post('/api/auth/login', async (request, reply) => {
    const body = request.body as { username?: string; password?: string }
    if (body.password !== 'correcta') return reply.code(401).type('text/plain').send('Usuario o contraseña incorrectos.')
    return issue()
  })
  app.get('/api/auth/session', async (request, reply) => {
    if (!state.validTokens.has(bearer(request.headers))) return reply.code(401).send('Token no válido')
    return USER
  })
  app.post('/api/auth/refresh', async (request, reply) => {
    state.refreshCalls++
    if (!state.refreshEnabled) return reply.code(401).send('Refresh denegado')
    return issue()
  })
  app.post('/api/auth/logout', async (request, reply) => {
    state.logoutBodies.push(request.body)
    state.validTokens.delete(bearer(request.headers))
    return reply.code(204).send()
  })
  app.all('/api/auth/request-change-password', async () => ({ message: 'ok' }))
  app.all('/api/echo/*', async (request) => ({ method: request.method, url: request.url, headers: request.headers, body: request.body ?? null }))
  // An upstream that compresses its own answers: the BFF must pass them on as they are.
  app.get('/api/gzipped', async (_request, reply) => reply.header('content-encoding', 'gzip').type('application/json').send(GZIPPED_ANSWER))
  // A download: sized, larger than the BFF reads whole, with a cookie the browser must not get.
  app.get('/api/download', async (_request, reply) =>
    reply.header('content-disposition', 'attachment; filename="listado.bin"').header('set-cookie', 'upstream=1; Path=/').type('application/octet-stream').send(DOWNLOAD_BYTES),
  )
  // An answer of unknown length (chunked), as a streamed export is.
  app.get('/api/unsized', async (_request, reply) => reply.type('text/csv').send(Readable.from(['Codigo;Estado\n', 'EV-1;activo\n', 'EV-2;baja\n'])))
  app.all('/api/protected', async (request, reply) => {
    if (!state.validTokens.has(bearer(request.headers))) return reply.code(401).send('Token no válido')
    return { ok: true }
  })

  state.url = await app.listen({ host: '127.0.0.1', port: 0 })
  return state
}
