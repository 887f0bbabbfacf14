import { Worker } from 'node:worker_threads'

/** What the portal's process hands the thread: the environment to read its config from, and the port. */
export interface EmbeddedThreadData {
  env: Record<string, string | undefined>
  port: number
}

export type EmbeddedThreadMessage = { kind: 'listening'; url: string }

export interface EmbeddedReferenceApi {
  /** Where it listens: `http://127.0.0.1:<port>`. */
  url: string
  /** Closes it (in-flight requests finish) and ends the thread. */
  close(): Promise<void>
  /** Called once if the thread ends without being asked to. */
  onUnexpectedExit(listener: (code: number) => void): void
}

/**
 * Starts the embedded reference API in its own worker thread of the portal's process, so the
 * CPU it spends (seeding, a 100 000-row export, building a PDF) never stalls the BFF's event
 * loop: the BFF reaches it over loopback HTTP only, exactly as it would a real upstream. Still
 * one process and one `npm start`. Resolves once it listens; rejects if it fails to start.
 */
export function startEmbeddedReferenceApi(env: Record<string, string | undefined>, port: number): Promise<EmbeddedReferenceApi> {
  // A thread does not run this process's `--import tsx` hooks (Node 20), so its first lines
  // register tsx's loader, then import the TypeScript entry.
  const tsx = import.meta.resolve('tsx/esm/api')
  const entry = new URL('./embedded-thread.ts', import.meta.url).href
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  const worker = new Worker(boot, { eval: true, execArgv: [], workerData: { env, port } satisfies EmbeddedThreadData })
  let closing = false
  let unexpected: ((code: number) => void) | undefined
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve))
  void exited.then((code) => {
    if (!closing) unexpected?.(code)
  })
  return new Promise((resolve, reject) => {
    worker.once('error', reject)
    void exited.then((code) => reject(new Error(`the embedded reference API stopped while starting (exit code ${code})`)))
    worker.once('message', (message: EmbeddedThreadMessage) => {
      resolve({
        url: message.url,
        close: () => {
          closing = true
          worker.postMessage('close')
          return exited.then(() => undefined)
        },
        onUnexpectedExit: (listener) => {
          unexpected = listener
        },
      })
    })
  })
}
