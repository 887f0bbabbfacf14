import { Worker } from 'node:worker_threads'

/**
 * Starts a TypeScript module in a worker thread of this process. A thread does not run the
 * process's `--import tsx` hooks (Node 20), so its first lines register tsx's loader, then
 * import the entry. (The embedded reference API starts its thread the same way on its own side:
 * it imports nothing of the BFF's.)
 */
export function startTsWorker(entry: URL, workerData: unknown): Worker {
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}) })`
  return new Worker(boot, { eval: true, execArgv: [], workerData })
}
