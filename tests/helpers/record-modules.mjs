// Records every module URL a process resolves into the file named by RECORD_MODULES_TO
// (one a line), so a test can tell which packages a start-up loaded. Used with
// `node --import ./tests/helpers/record-modules.mjs`.
import { appendFileSync } from 'node:fs'
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

// Loaded twice: as the --import entry (main thread), which registers this same file as the
// module hooks that run on the loader thread.
if (isMainThread && process.env.RECORD_MODULES_TO) register(import.meta.url)

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  if (process.env.RECORD_MODULES_TO) appendFileSync(process.env.RECORD_MODULES_TO, `${result.url}\n`)
  return result
}
