import type { FastifyReply, FastifyRequest } from 'fastify'
import type { LiveEvent } from '../../schemas/events'
import type { Session } from '../session/session-store'
import { newConnectionId, type EventHub, type LiveConnection } from './event-hub'

export interface StreamOptions {
  /** A comment line this often keeps proxies and the browser from timing the stream out (~20 s). */
  heartbeatMs: number
  /** Asked at each heartbeat: an ended session (signed out elsewhere, ended by an admin) closes the stream. */
  stillSignedIn: () => Promise<boolean>
}

/** A stream whose client reads slower than this much is behind is dropped (it reconnects and refetches). */
const MAX_BUFFERED_BYTES = 1024 * 1024

const frame = (event: LiveEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`

/**
 * Turns the request into a server-sent event stream: status and headers go at once, with a first
 * comment so the browser (and any proxy) sees the stream open before any event. Written on the
 * raw response, past Fastify's send path: nothing compresses or buffers it.
 */
export function openStream(request: FastifyRequest, reply: FastifyReply, session: Session, hub: EventHub, opts: StreamOptions): void {
  reply.hijack()
  const res = reply.raw
  // What the plugins set before the route (security headers, request id), then the stream's own.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value)
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    // nginx and its kin: pass each event on as written.
    'x-accel-buffering': 'no',
  })
  res.flushHeaders()
  res.socket?.setNoDelay(true)
  res.socket?.setKeepAlive(true)

  let closed = false
  const write = (text: string) => {
    if (closed) return
    if (res.writableLength > MAX_BUFFERED_BYTES) return end('slow')
    res.write(text)
  }
  const connection: LiveConnection = {
    id: newConnectionId(),
    userId: session.userId,
    brand: request.brand.key,
    permissions: new Set(session.user.Permisos.map((p) => p.NombreNormalizado)),
    scoped: !!session.user.Agente,
    send: (event) => write(frame(event)),
    end: (reason) => end(reason),
  }
  const heartbeat = setInterval(() => {
    write(': ping\n\n')
    opts.stillSignedIn().then(
      (yes) => yes || end('signed-out'),
      () => undefined, // the store is down: keep the stream; the next beat asks again
    )
  }, opts.heartbeatMs)
  heartbeat.unref()

  const end = (reason: string) => {
    if (closed) return
    closed = true
    clearInterval(heartbeat)
    request.log.info({ event: 'events_stream_closed', reason, connections: hub.size - 1 }, 'events stream closed')
    void hub.remove(connection)
    res.end()
  }
  res.on('close', () => end('client'))
  res.on('error', () => end('error'))

  hub.add(connection)
  res.write(': stream open\n\n')
  connection.send({ type: 'hello', connection: connection.id })
  request.log.info({ event: 'events_stream_opened', connections: hub.size }, 'events stream opened')
}
