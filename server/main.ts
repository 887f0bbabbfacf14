// First: V8 settings that must hold before any other module runs.
import './ops/v8-settings'
import { buildApp } from './app'
import { ConfigError, loadConfig, type Config } from './config'
import { asyncStdout } from './ops/log-destination'
import { startTracing } from './ops/tracing'
import type { EmbeddedReferenceApi } from './reference-api/embedded'

/** Reads config, starts the embedded reference API when no upstream is set, builds the BFF, listens, shuts down gracefully. */
async function main() {
  let config: Config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(1)
    }
    throw err
  }

  // Before anything else, so the first requests are traced; unset, the SDK is not even loaded.
  const tracing = config.otelEndpoint ? await startTracing(config.otelEndpoint) : undefined

  let embedded: EmbeddedReferenceApi | undefined
  if (!config.upstreamUrl) {
    // In its own worker thread: its work never stalls this event loop, and in front of a real
    // upstream its modules (PDF, spreadsheets, maps) are not even loaded.
    const { startEmbeddedReferenceApi } = await import('./reference-api/embedded')
    embedded = await startEmbeddedReferenceApi({ ...process.env, DATA_DIR: config.dataDir }, config.referenceApiPort)
    config = { ...config, upstreamUrl: embedded.url }
  }

  const app = await buildApp(config, { tracing, logStream: asyncStdout() })
  await app.listen({ host: config.host, port: config.port })
  embedded?.onUnexpectedExit((code) => {
    // Without its upstream the portal cannot serve anyone: stop, so the supervisor restarts it.
    app.log.fatal({ event: 'reference_api_stopped', code }, 'the embedded reference API stopped')
    process.exit(1)
  })
  app.log.info({ event: 'started', upstream: embedded ? 'embedded reference API' : config.upstreamUrl }, `Portal listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`)

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ event: 'shutdown', signal }, 'closing: finishing in-flight requests')
    const force = setTimeout(() => {
      app.log.error({ event: 'shutdown_timeout' }, 'in-flight requests did not finish in 10 s')
      process.exit(1)
    }, 10_000)
    force.unref()
    app
      .close()
      .then(() => embedded?.close())
      // An unreachable collector loses the last spans, it does not fail the shutdown.
      .then(() => tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'could not send the last spans')))
      .then(
        () => {
          app.log.info({ event: 'stopped' }, 'closed: requests finished, stores and upstream closed')
          process.exit(0)
        },
        (err) => {
          app.log.error({ err }, 'error while closing')
          process.exit(1)
        },
      )
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
}

await main()
