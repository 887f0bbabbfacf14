import http from 'node:http'

/** One event of a stream: its name and parsed data; comments are kept apart. */
export interface SseEvent {
  event: string
  data: any
}

export interface SseStream {
  status: number
  headers: http.IncomingHttpHeaders
  /** Milliseconds from the request to its first body bytes (-1 while none came). */
  firstBytesMs: number
  /** Everything read so far, as sent. */
  raw(): string
  events: SseEvent[]
  comments: string[]
  /** The JSON body of a refusal (non-200). */
  body: any
  ended: Promise<void>
  /** The first event (already come or coming) matching; rejects after `timeoutMs`. */
  next(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>
  close(): void
}

/**
 * Opens `GET /bff/events` with a plain http request (supertest buffers whole answers; fetch cannot
 * set Host, which picks the brand) and parses the stream as it comes.
 */
export function openEvents(base: string, opts: { cookie?: string; host?: string; headers?: Record<string, string> } = {}): Promise<SseStream> {
  const target = new URL('/bff/events', base)
  const headers: Record<string, string> = { host: opts.host ?? target.host, accept: 'text/event-stream', ...opts.headers }
  if (opts.cookie) headers.cookie = opts.cookie
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.get(target, { headers }, (res) => {
      let text = ''
      let pending = ''
      const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = []
      let endResolve: () => void = () => undefined
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        firstBytesMs: -1,
        raw: () => text,
        events: [],
        comments: [],
        body: undefined,
        ended: new Promise<void>((r) => (endResolve = r)),
        next(match, timeoutMs = 5_000) {
          const found = stream.events.find(match)
          if (found) return Promise.resolve(found)
          return new Promise((ok, fail) => {
            const waiter = { match, resolve: (e: SseEvent) => (clearTimeout(timer), ok(e)) }
            const timer = setTimeout(() => {
              waiters.splice(waiters.indexOf(waiter), 1)
              fail(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(stream.events)}`))
            }, timeoutMs)
            waiters.push(waiter)
          })
        },
        close: () => req.destroy(),
      }
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        if (stream.firstBytesMs < 0) stream.firstBytesMs = performance.now() - started
        text += chunk
        if (stream.status !== 200) return
        pending += chunk
        let cut: number
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut)
          pending = pending.slice(cut + 2)
          let name = 'message'
          const data: string[] = []
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim())
            else if (line.startsWith('event: ')) name = line.slice(7)
            else if (line.startsWith('data: ')) data.push(line.slice(6))
          }
          if (data.length === 0) continue
          const event = { event: name, data: JSON.parse(data.join('\n')) }
          stream.events.push(event)
          for (const w of [...waiters]) {
            if (!w.match(event)) continue
            waiters.splice(waiters.indexOf(w), 1)
            w.resolve(event)
          }
        }
      })
      const done = () => {
        if (stream.status !== 200 && text) stream.body = JSON.parse(text)
        endResolve()
      }
      res.on('end', done)
      res.on('close', done)
      // A refusal is read whole first; a stream is handed over as soon as its headers came.
      if (stream.status === 200) resolve(stream)
      else res.on('end', () => resolve(stream))
    })
    req.on('error', reject)
  })
}
