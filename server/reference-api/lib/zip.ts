import type { Archiver, ArchiverOptions } from 'archiver'
import { createRequire } from 'node:module'

/**
 * archiver 7 (CommonJS) exports a factory, `archiver('zip', options)`; the installed typings
 * describe the class-based API of a later major, so the factory is loaded here once, typed
 * with the instance methods both share (append, finalize, abort, pointer, events).
 */
const require = createRequire(import.meta.url)
const archiver = require('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver

/** A streaming zip writer: append entries, call `finalize()`, send the archive as the body. */
export function createZip(options: ArchiverOptions = { zlib: { level: 6 } }): Archiver {
  return archiver('zip', options)
}
