import type { FastifyUnderPressureOptions } from '@fastify/under-pressure'
import type { FastifyBaseLogger } from 'fastify'
import { randomBytes } from 'node:crypto'
import { getHeapStatistics } from 'node:v8'
import { HttpError } from '../lib/errors'
import { METRICS_PATH } from '../plugins/metrics'

export interface OverloadLimits {
  /** Mean event-loop delay over the last second above which requests are refused; 0 = not checked. */
  maxEventLoopDelayMs: number
  /** Heap in use above which requests are refused; undefined = 90 % of V8's heap limit; 0 = not checked. */
  maxHeapUsedBytes: number | undefined
  /** Resident memory above which requests are refused; 0 = not checked. */
  maxRssBytes: number
}

export const OVERLOAD_RETRY_AFTER_S = 10
export const OVERLOAD_MESSAGE = 'El portal está atendiendo demasiadas peticiones. Inténtalo de nuevo en unos segundos.'

/**
 * Answered even under pressure: liveness must not fail because the process is busy (the
 * orchestrator would restart a healthy process), and metrics are how one sees the overload.
 * `/readyz` is not here on purpose: refusing it takes the instance out of the balancer.
 */
const ALWAYS_ANSWERED = new Set(['/healthz', METRICS_PATH])

/**
 * A call the BFF makes to itself (in-process) for a request it already admitted, such as an
 * import's rows: carries this header with this process's secret, and is not refused halfway
 * through the work it belongs to. The proxy never forwards the header.
 */
export const INTERNAL_CALL_HEADER = 'x-portal-internal'
export const INTERNAL_CALL_TOKEN = randomBytes(24).toString('base64url')

/** At most one overload warning in the log per this many milliseconds. */
const WARN_EVERY_MS = 10_000

/**
 * @fastify/under-pressure settings: when the event loop lags or memory runs high, new requests
 * get 503 with `Retry-After` and the usual Spanish error body instead of piling up until the
 * process falls over. Memory and delay are sampled once a second.
 */
export function overloadOptions(limits: OverloadLimits, log: FastifyBaseLogger): FastifyUnderPressureOptions {
  let lastWarning = 0
  return {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes ?? Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    maxRssBytes: limits.maxRssBytes,
    retryAfter: OVERLOAD_RETRY_AFTER_S,
    // Thrown: the app's error handler answers it as { statusCode, error, message }.
    pressureHandler: async (request, reply, type, value) => {
      if (ALWAYS_ANSWERED.has(request.routeOptions.url ?? '')) return
      if (request.headers[INTERNAL_CALL_HEADER] === INTERNAL_CALL_TOKEN) return
      const now = Date.now()
      if (now - lastWarning >= WARN_EVERY_MS) {
        lastWarning = now
        log.warn({ event: 'overloaded', reason: type, value }, 'under pressure: refusing requests with 503')
      }
      reply.header('retry-after', String(OVERLOAD_RETRY_AFTER_S))
      throw new HttpError(503, OVERLOAD_MESSAGE)
    },
  }
}
