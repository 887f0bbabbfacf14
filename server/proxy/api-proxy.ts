import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errors as undiciErrors } from 'undici'
import { MESSAGES, sendError } from '../lib/errors'
import { UPSTREAM_AUTH_PATHS } from '../session/auth-service'
import type { SessionGate } from '../session/session-gate'
import { exchange, type UpstreamExchange } from './upstream-exchange'
import { outcomeOfError, outcomeOfStatus, toUpstreamError, type UpstreamClient, type UpstreamOutcome } from './upstream-client'

/** Upstream calls a signed-out browser may make: the password recovery flow. */
export const PUBLIC_API_PATHS = new Set(['/api/auth/request-change-password', '/api/auth/change-password'])

/** The upstream's own sign-in/out/session/refresh: only the BFF calls them, never a browser. */
const BLOCKED_API_PATHS = new Set<string>(Object.values(UPSTREAM_AUTH_PATHS))

/**
 * Request headers not forwarded: those a browser may not choose (the BFF sets its own, trace
 * context too when tracing is on) and those of the hop to the BFF (RFC 9110 §7.6.1).
 */
const STRIPPED_REQUEST = new Set([
  'cookie', 'authorization', 'x-brand-domain', 'x-request-id', 'x-csrf', 'forwarded', 'x-real-ip', 'traceparent', 'tracestate', 'baggage',
  'host', 'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade',
])
const isStrippedRequestHeader = (name: string) => STRIPPED_REQUEST.has(name) || name.startsWith('x-forwarded-')

/** Answer headers not passed on: those of the hop from the upstream, and cookies (the browser's cookies are the BFF's). */
const STRIPPED_ANSWER = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'trailer', 'transfer-encoding', 'upgrade', 'set-cookie'])

/**
 * Upstream answers of a declared length up to this are read whole and sent in one write (the
 * JSON of lists, forms and details); larger or unsized ones (exports, documents) are streamed.
 */
const BUFFERED_MAX_BYTES = 512 * 1024

/** A path nothing can change but case and a trailing slash: no escapes, backslashes, empty or dot segments. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9_.~-]*)*\/?$/

/** The path as the upstream will understand it: decoded, dot segments resolved, single slashes, no trailing slash, lower case. */
export function canonicalApiPath(url: string): string {
  const raw = url.split('?', 1)[0] ?? ''
  // The common case, on every proxied request: skip the decoding and URL parsing below.
  if (PLAIN_PATH.test(raw)) return raw.replace(/\/+$/, '').toLowerCase()
  let decoded = raw
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    // keep the raw path; the upstream will refuse it
  }
  const resolved = new URL(decoded.replace(/\\/g, '/').replace(/\/{2,}/g, '/'), 'http://x').pathname
  return resolved.replace(/\/+$/, '').toLowerCase()
}

/**
 * `/api/*` forwarded to the upstream with the session's bearer token and the brand-domain
 * header. The browser's cookie and any identity headers it sent are dropped first.
 *
 * Written on undici's pool directly rather than through @fastify/http-proxy: measured side by
 * side (npm run bench), the generic proxy's per-request work (URL rebuilding, header copies,
 * a stream for every answer) cost a third more CPU than this whole handler.
 */
export async function apiProxy(app: FastifyInstance, opts: { upstream: UpstreamClient; gate: SessionGate; bodyLimit: number }) {
  const { upstream, gate } = opts

  // Bodies are streamed to the upstream unread, so the JSON body limit does not cover them:
  // the declared length is capped here, and a body without one (chunked) is refused, which
  // bounds what the stream can carry (the HTTP parser never delivers more than it declares).
  // Callback style (no promise per request); an answered request does not call done.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done()
    const length = request.headers['content-length']
    if (length === undefined) {
      if (!request.headers['transfer-encoding']) return done()
      sendError(reply, 411, 'La petición debe indicar su tamaño (Content-Length).')
      return
    }
    if (/^\d+$/.test(length) && Number(length) <= opts.bodyLimit) return done()
    request.log.warn({ event: 'body_too_large', contentLength: length.slice(0, 20) }, 'upload refused: over the limit')
    sendError(reply, 413, `La petición es demasiado grande: el máximo son ${Math.round(opts.bodyLimit / 1024 / 1024)} MB.`)
  })
  // Whatever the content type, the body is left unread in the request stream and forwarded as it comes.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => done(null))

  const observe = (outcome: UpstreamOutcome, started: number) => upstream.observer?.('proxy', outcome, (performance.now() - started) / 1000)

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = canonicalApiPath(request.url)
    if (BLOCKED_API_PATHS.has(path)) return sendError(reply, 404, MESSAGES.notFound)
    let token: string | undefined
    if (!PUBLIC_API_PATHS.has(path)) {
      const session = gate.known(request) ?? (await gate.current(request, reply))
      if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
      token = session.token
    }

    const headers: Record<string, string | string[]> = {}
    for (const name in request.headers) {
      const value = request.headers[name]
      if (value !== undefined && !isStrippedRequestHeader(name)) headers[name] = value
    }
    if (token) headers.authorization = `Bearer ${token}`
    headers['x-brand-domain'] = request.brand.Domain
    headers['x-request-id'] = String(request.id)
    headers['x-forwarded-host'] = request.host
    headers['x-forwarded-proto'] = request.protocol
    const hasBody = request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0'

    const started = performance.now()
    let answer: UpstreamExchange
    try {
      // The client retries GETs once (spec §9): the BFF does not retry, or it would multiply that.
      answer = await exchange(upstream.pool, { method: request.method as 'GET', path: request.url, headers, body: hasBody ? request.raw : null }, BUFFERED_MAX_BYTES)
    } catch (err) {
      if (err instanceof undiciErrors.InvalidArgumentError) return sendError(reply, 400, 'Petición no válida.')
      const mapped = toUpstreamError(err)
      observe(outcomeOfError(mapped), started)
      const { code, message } = err as { code?: string; message?: string }
      request.log.warn({ err: { code, message }, event: 'upstream_error' }, 'upstream call failed')
      return sendError(reply, mapped.statusCode, mapped.message)
    }
    observe(outcomeOfStatus(answer.statusCode), started)

    const answerHeaders: Record<string, string | string[]> = {}
    for (const name in answer.headers) {
      const value = answer.headers[name]
      if (value !== undefined && !STRIPPED_ANSWER.has(name)) answerHeaders[name] = value
    }
    return reply.code(answer.statusCode).headers(answerHeaders).send(answer.body)
  }

  app.all('/api/*', forward)
}
