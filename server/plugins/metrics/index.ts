import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { createHash, timingSafeEqual } from 'node:crypto'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type CounterConfiguration } from 'prom-client'
import { sendError } from '../../lib/errors'
import type { UpstreamObserver } from '../../upstream/upstream-client'
import type { SessionStore } from '../../session/session-store'
import type { AcceptBursts } from '../../ops/accept-bursts'

/** The route label of requests no route matched (404s, probes for random paths): one label, not one per URL. */
export const UNMATCHED_ROUTE = 'unmatched'

export const METRICS_PATH = '/metrics'

/** Seconds; from a cached manifest (~1 ms) to a slow upstream export (the 15 s timeout). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20]

/**
 * The BFF's Prometheus metrics, in a registry of its own (several apps in one process, as in
 * tests, do not collide): requests by route pattern and status, upstream calls by outcome,
 * active sessions, and prom-client's process metrics (memory, CPU, event-loop lag).
 */
export class BffMetrics {
  readonly registry = new Registry()
  private readonly requestSeconds: Histogram<'method' | 'route' | 'status'>
  private readonly upstreamSeconds: Histogram<'via' | 'outcome'>
  private readonly auditFailures: Counter<'kind'>

  constructor(sessions: Pick<SessionStore, 'countActive'>) {
    collectDefaultMetrics({ register: this.registry })
    this.requestSeconds = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    })
    countOf(this.requestSeconds, {
      name: 'http_requests_total',
      help: 'Requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    })
    this.upstreamSeconds = new Histogram({
      name: 'upstream_request_duration_seconds',
      help: 'Time until the upstream answered (or failed), by caller and outcome.',
      labelNames: ['via', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    })
    countOf(this.upstreamSeconds, {
      name: 'upstream_requests_total',
      help: 'Calls to the upstream API, by caller (bff, proxy) and outcome (2xx…5xx; timeout and error when no usable answer came).',
      labelNames: ['via', 'outcome'],
      registers: [this.registry],
    })
    this.auditFailures = new Counter({
      name: 'audit_write_failures_total',
      help: 'Audit entries that could not be written (the change itself went ahead), by kind (call, admin).',
      labelNames: ['kind'],
      registers: [this.registry],
    })
    new Gauge({
      name: 'portal_sessions_active',
      help: 'Sessions neither idle-expired nor past their absolute timeout (read from the session store at each scrape).',
      registers: [this.registry],
      async collect() {
        this.set(await sessions.countActive())
      },
    })
  }

  /** Counts the bursts of new connections met (ops/accept-bursts), read when scraped. */
  countConnectionBursts(bursts: Pick<AcceptBursts, 'bursts'>): void {
    new Counter({
      name: 'http_connection_bursts_total',
      help: 'Bursts of new connections met: each paused reading the open connections until the new ones were accepted.',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(bursts.bursts)
      },
    })
  }

  readonly observeUpstream: UpstreamObserver = (via, outcome, seconds) => {
    this.upstreamSeconds.observe({ via, outcome }, seconds)
  }

  readonly auditWriteFailed = (kind: 'call' | 'admin'): void => {
    this.auditFailures.inc({ kind })
  }

  observeRequest(request: FastifyRequest, reply: FastifyReply): void {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status: String(reply.statusCode) }
    this.requestSeconds.observe(labels, reply.elapsedTime / 1000)
  }
}

/**
 * A counter read from a histogram's `_count` when scraped: the histogram is updated on every
 * request anyway, so the counter keeps its documented name at no per-request cost.
 */
function countOf<L extends string>(histogram: Histogram<L>, config: CounterConfiguration<L>): Counter<L> {
  return new Counter({
    ...config,
    async collect() {
      const { name, values } = await histogram.get()
      // Reset and refilled with no await in between, so overlapping scrapes never add twice.
      this.reset()
      for (const v of values) {
        if (v.metricName === `${name}_count`) this.inc(v.labels as Partial<Record<L, string | number>>, v.value)
      }
    },
  })
}

export interface MetricsAccess {
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  token: string | undefined
  /** Without a token, production serves `/metrics` only to this machine. */
  production: boolean
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/

/** Why a scrape is refused, or null when it may read the metrics. */
export function metricsRefusal(request: FastifyRequest, access: MetricsAccess): { status: 401 | 403; message: string } | null {
  if (access.token) {
    const given = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]
    if (given && sameSecret(given, access.token)) return null
    return { status: 401, message: 'Las métricas necesitan el token de métricas (Authorization: Bearer).' }
  }
  if (!access.production) return null
  // A request that came through a proxy is not a local scrape, whatever the socket says.
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined
  if (!forwarded && LOOPBACK.test(request.socket.remoteAddress ?? '')) return null
  return { status: 403, message: 'Las métricas solo se sirven a esta misma máquina (o con METRICS_TOKEN).' }
}

/** Compares secrets in constant time (hashing first evens out the lengths). */
function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest()
  return timingSafeEqual(digest(a), digest(b))
}

/**
 * Counts every answer (onResponse, so the refusals of earlier hooks too) and serves
 * `GET /metrics` in Prometheus text. Before the routes, so its hook reaches all of them (a route
 * takes the hooks registered before it). Its route is answered on any host (host check) and
 * under pressure (overload), and plain: it is registered before compression.
 */
export const metricsPlugin = fp<{ metrics: BffMetrics; access: MetricsAccess }>(
  async function metrics(app, opts) {
    const { metrics, access } = opts
    app.addHook('onResponse', (request, reply, done) => {
      metrics.observeRequest(request, reply)
      done()
    })

    app.get(METRICS_PATH, async (request, reply) => {
      const refusal = metricsRefusal(request, access)
      if (refusal) {
        request.log.warn({ event: 'metrics_refused', status: refusal.status }, 'metrics scrape refused')
        if (refusal.status === 401) reply.header('www-authenticate', 'Bearer realm="metrics"')
        return sendError(reply, refusal.status, refusal.message)
      }
      reply.header('cache-control', 'no-store').type(metrics.registry.contentType)
      return metrics.registry.metrics()
    })
  },
  { name: 'metrics', fastify: '5.x' },
)
