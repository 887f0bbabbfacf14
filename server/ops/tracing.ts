import type { FastifyPluginCallback } from 'fastify'
import { METRICS_PATH } from '../plugins/metrics'

export const TRACING_SERVICE_NAME = 'portal-bff'

const UNTRACED_PATHS = new Set(['/healthz', METRICS_PATH])

/** A collector that does not answer must not hold the shutdown (10 s in all) for long. */
const EXPORT_TIMEOUT_MS = 3000

/** Tracing started: the Fastify plugin that makes a span per request, and the flush on shutdown. */
export interface Tracing {
  /** @fastify/otel: register it before any route. */
  plugin: FastifyPluginCallback
  /** Sends the spans still buffered and stops tracing. */
  shutdown(): Promise<void>
}

/**
 * Starts OpenTelemetry tracing towards an OTLP/HTTP collector (`<endpoint>/v1/traces`, JSON).
 *
 * Only called when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; the SDK is imported here, on demand,
 * so a portal without tracing loads none of it. Both instrumentations need no load order:
 * undici reports its requests on diagnostics channels, and @fastify/otel is a plugin the app
 * registers. Each request gets a `request` span (@fastify/otel); every call to the upstream,
 * the BFF's own and the proxied ones, is a client span under it (undici instrumentation),
 * which also sends the W3C `traceparent` to the upstream.
 */
export async function startTracing(endpoint: string): Promise<Tracing> {
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { UndiciInstrumentation }, { default: FastifyOtelInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/instrumentation-undici'),
      import('@fastify/otel'),
    ])

  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': TRACING_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces`, timeoutMillis: EXPORT_TIMEOUT_MS }))],
  })
  // Global provider, AsyncLocalStorage context and W3C propagation.
  provider.register()

  const undici = new UndiciInstrumentation()
  undici.setTracerProvider(provider)
  undici.enable()

  // One span per request; no span per hook or for the handler (they would sit between the
  // request and its upstream calls and mostly repeat the request's own duration), and none
  // for liveness probes and scrapes, which come every few seconds and never call upstream.
  const fastify = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    instrumentHandler: false,
    ignorePaths: ({ url }) => UNTRACED_PATHS.has(url.split('?', 1)[0]!),
  })
  fastify.setTracerProvider(provider)

  return {
    plugin: fastify.plugin(),
    async shutdown() {
      undici.disable()
      fastify.disable()
      await provider.shutdown()
    },
  }
}
