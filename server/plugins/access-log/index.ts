import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import os from 'node:os'
import pino, { type DestinationStream, type LevelWithSilentOrString } from 'pino'
import { maskUrl } from '../../lib/log-redaction'

const INFO = pino.levels.values.info!

/**
 * The one line logged per request, "request completed", in the main logger's JSON shape
 * (level, time, pid, hostname, reqId, msg). It holds fixed fields only (method, URL with
 * query values masked as the endpoint catalogue says, host, address, status, time), so it is composed here and
 * written to the same destination, skipping the logger's redaction and object walk: on every
 * proxied request those were a tenth of its CPU. Strings go through JSON.stringify, so a URL
 * or host holding quotes or control characters still gives valid JSON.
 */
export function requestCompletedLogger(level: LevelWithSilentOrString, destination: DestinationStream) {
  if (!((pino.levels.values[level] ?? Number.POSITIVE_INFINITY) <= INFO)) return () => undefined
  const process_ = `,"pid":${process.pid},"hostname":${JSON.stringify(os.hostname())},"reqId":`
  return (request: FastifyRequest, reply: FastifyReply) => {
    destination.write(
      `{"level":${INFO},"time":${Date.now()}${process_}${JSON.stringify(String(request.id))},"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(maskUrl(request.url, request.apiCall?.personalQuery ?? null))},"host":${JSON.stringify(request.host)},"remoteAddress":${JSON.stringify(request.ip)}},"res":{"statusCode":${reply.statusCode}},"responseTime":${Math.round(reply.elapsedTime * 10) / 10},"msg":"request completed"}\n`,
    )
  }
}

/**
 * Writes the request-completed line when each answer has gone (onResponse), whatever hook or
 * route answered it. Fastify's own request logging is off (`disableRequestLogging` on the
 * constructor). After the request id: the line names the id the answer echoed.
 */
export const accessLogPlugin = fp<{ level: LevelWithSilentOrString; destination: DestinationStream }>(
  async function accessLog(app, opts) {
    const logRequestCompleted = requestCompletedLogger(opts.level, opts.destination)
    app.addHook('onResponse', (request, reply, done) => {
      logRequestCompleted(request, reply)
      done()
    })
  },
  { name: 'access-log', fastify: '5.x', dependencies: ['request-id'] },
)
