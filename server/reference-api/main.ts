import { buildReferenceApi } from './app'
import { loadReferenceApiConfig } from './config'

/** `npm run api`: the reference API alone, on API_PORT (docker-compose runs it as its own service). */
const config = loadReferenceApiConfig()
const { app } = await buildReferenceApi(config)
await app.listen({ host: config.host, port: config.port })

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  })
}
