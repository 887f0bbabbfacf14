import httpProxy from '@fastify/http-proxy'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { MESSAGES, sendError } from '../lib/errors'
import { UPSTREAM_AUTH_PATHS } from '../session/auth-service'
import type { SessionGate } from '../session/session-gate'
import { outcomeOfError, outcomeOfStatus, toUpstreamError, type UpstreamClient, type UpstreamOutcome } from './upstream-client'

/** Upstream calls a signed-out browser may make: the password recovery flow. */
export const PUBLIC_API_PATHS = new Set(['/api/auth/request-change-password', '/api/auth/change-password'])

/** The upstream's own sign-in/out/session/refresh: only the BFF calls them, never a browser. */
const BLOCKED_API_PATHS = new Set<string>(Object.values(UPSTREAM_AUTH_PATHS))

/** Headers a browser may not choose: the BFF sets its own (trace context too, when tracing is on). */
const STRIPPED = /^(cookie|authorization|x-brand-domain|x-request-id|x-csrf|x-forwarded-.*|forwarded|x-real-ip|traceparent|tracestate|baggage)$/i

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
 */
export async function apiProxy(app: FastifyInstance, opts: { upstream: UpstreamClient; gate: SessionGate; bodyLimit: number }) {
  const { upstream, gate } = opts

  // Bodies are streamed to the upstream unread, so the JSON body limit does not cover them:
  // the declared length is capped here, and a body without one (chunked) is refused, which
  // bounds what the stream can carry (the HTTP parser never delivers more than it declares).
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return
    const length = request.headers['content-length']
    if (length === undefined) {
      if (request.headers['transfer-encoding']) return sendError(reply, 411, 'La petición debe indicar su tamaño (Content-Length).')
      return
    }
    if (!/^\d+$/.test(length) || Number(length) > opts.bodyLimit) {
      request.log.warn({ event: 'body_too_large', contentLength: length.slice(0, 20) }, 'upload refused: over the limit')
      return sendError(reply, 413, `La petición es demasiado grande: el máximo son ${Math.round(opts.bodyLimit / 1024 / 1024)} MB.`)
    }
  })
  // When each forwarded call left, for the upstream latency metric.
  const startedAt = new WeakMap<object, number>()
  const observe = (request: FastifyRequest, outcome: UpstreamOutcome) => {
    const started = startedAt.get(request)
    if (upstream.observer && started !== undefined) upstream.observer('proxy', outcome, (performance.now() - started) / 1000)
  }

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = canonicalApiPath(request.url)
    if (BLOCKED_API_PATHS.has(path)) return sendError(reply, 404, MESSAGES.notFound)
    if (PUBLIC_API_PATHS.has(path)) {
      request.sessionMemo = null
      return
    }
    const session = await gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
  }

  await app.register(httpProxy, {
    upstream: upstream.baseUrl,
    prefix: '/api',
    rewritePrefix: '/api',
    undici: upstream.pool,
    disableRequestLogging: true,
    preHandler,
    replyOptions: {
      timeout: upstream.timeoutMs,
      // The client retries GETs once (spec §9); the BFF must not multiply that.
      retryDelay: () => null,
      rewriteRequestHeaders: (req, headers) => {
        const request = req as FastifyRequest
        const out: IncomingHttpHeaders = {}
        for (const [name, value] of Object.entries(headers)) if (!STRIPPED.test(name)) out[name] = value
        const session = request.sessionMemo
        if (session) out.authorization = `Bearer ${session.token}`
        out['x-brand-domain'] = request.brand.Domain
        out['x-request-id'] = String(request.id)
        out['x-forwarded-host'] = request.host
        out['x-forwarded-proto'] = request.protocol
        startedAt.set(request, performance.now())
        return out
      },
      // reply-from's types describe `res` as a server response; it is the upstream's answer.
      onResponse: (request, reply, res) => {
        const answer = res as unknown as { statusCode: number; stream: Readable }
        observe(request as FastifyRequest, outcomeOfStatus(answer.statusCode))
        reply.send(answer.stream)
      },
      onError: (rep, { error }) => {
        const reply = rep as FastifyReply
        const mapped = toUpstreamError(isTimeout(error) ? Object.assign(new Error(error.message), { name: 'TimeoutError' }) : error)
        observe(reply.request, outcomeOfError(mapped))
        reply.request.log.warn({ err: { code: (error as { code?: string }).code, message: error.message }, event: 'upstream_error' }, 'upstream call failed')
        sendError(reply, mapped.statusCode, mapped.message)
      },
    },
  })
}

function isTimeout(error: Error): boolean {
  const code = (error as { code?: string }).code ?? ''
  return code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT' || /Timeout/i.test(code) || /timeout/i.test(error.name)
}
