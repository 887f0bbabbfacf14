import type { FastifyBaseLogger } from 'fastify'
import type { FastifyChildLoggerFactory } from 'fastify/types/logger'

type Args = Parameters<FastifyBaseLogger['info']>

/** A request's logger, made from the app's logger the first time something is logged through it. */
class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined

  constructor(private readonly make: () => FastifyBaseLogger) {}

  private get log(): FastifyBaseLogger {
    return (this.made ??= this.make())
  }

  get level() {
    return this.log.level
  }
  set level(level: string) {
    this.log.level = level
  }
  fatal(...args: Args) {
    this.log.fatal(...args)
  }
  error(...args: Args) {
    this.log.error(...args)
  }
  warn(...args: Args) {
    this.log.warn(...args)
  }
  info(...args: Args) {
    this.log.info(...args)
  }
  debug(...args: Args) {
    this.log.debug(...args)
  }
  trace(...args: Args) {
    this.log.trace(...args)
  }
  silent(...args: Args) {
    this.log.silent(...args)
  }
  child(...args: Parameters<FastifyBaseLogger['child']>) {
    return this.log.child(...args)
  }
}

/**
 * Fastify gives every request a child logger bound to its id. Making one (its bindings
 * serialised and run through the redaction) cost ~2 µs on every proxied request, and most
 * requests log nothing through it (the request-completed line has its own writer): it is made
 * on first use instead, with the same bindings.
 */
export const lazyRequestLogger: FastifyChildLoggerFactory = function (logger, bindings, options) {
  return new LazyRequestLogger(() => logger.child(bindings, options)) as unknown as FastifyBaseLogger
}
