import { parentPort, workerData } from 'node:worker_threads'
import { buildReferenceApi } from './app'
import { loadReferenceApiConfig } from './config'
import type { EmbeddedThreadData, EmbeddedThreadMessage } from './embedded'

/**
 * The embedded reference API, inside its worker thread (started by `startEmbeddedReferenceApi`):
 * it seeds, listens on loopback, says where, and closes when told to.
 */
const port = parentPort
if (!port) throw new Error('embedded-thread.ts runs only as a worker thread')
const data = workerData as EmbeddedThreadData
const { app } = await buildReferenceApi(loadReferenceApiConfig(data.env))
const url = await app.listen({ host: '127.0.0.1', port: data.port })
port.postMessage({ kind: 'listening', url } satisfies EmbeddedThreadMessage)
port.on('message', (message: unknown) => {
  if (message !== 'close') return
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
})
