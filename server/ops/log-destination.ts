import pino from 'pino'

/** Bytes gathered before a write. */
const BUFFER_BYTES = 4096
/** A quiet portal's lines still reach the output within this. */
const FLUSH_EVERY_MS = 1000

/**
 * Where the running portal's log lines go: standard output, written asynchronously in chunks
 * of about 4 KB (and at least every second) instead of one blocking write per line, which
 * was a measurable share of each proxied request's CPU. What is still buffered is written
 * synchronously when the process exits (pino registers that for an asynchronous
 * destination), so the shutdown lines and a crash's last lines are kept.
 */
export function asyncStdout(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES, periodicFlush: FLUSH_EVERY_MS })
}
