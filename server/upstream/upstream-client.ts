import { Pool, errors as undiciErrors, type Dispatcher } from 'undici'

/** A failure to reach the upstream or a malformed answer from it, with the status the BFF answers. */
export class UpstreamError extends Error {
  constructor(
    readonly statusCode: 502 | 504,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message)
  }
}

export interface UpstreamCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  token?: string
  brandDomain: string
  requestId: string
  body?: unknown
  /** A shorter limit than the client's own (the palette's lookups). */
  timeoutMs?: number
  /** Host the browser used, so the upstream can build links back to this portal. */
  forwardedHost?: string
  forwardedProto?: string
  /** The record version the change is based on (`If-Match`): the upstream refuses a stale one with 412. */
  ifMatch?: string
}

export interface UpstreamAnswer<T = unknown> {
  status: number
  body: T
  /** The answer's `ETag` (a record's version), when it has one. */
  etag?: string
}

/** Who made an upstream call: the BFF itself (sign-in, session, refresh, health) or the `/api/*` proxy. */
export type UpstreamVia = 'bff' | 'proxy'

/** The upstream's status class, or `timeout` / `error` when no usable answer came. */
export type UpstreamOutcome = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'timeout' | 'error'

/** Told about every finished upstream call (metrics); must not throw. */
export type UpstreamObserver = (via: UpstreamVia, outcome: UpstreamOutcome, seconds: number) => void

export function outcomeOfStatus(status: number): UpstreamOutcome {
  return `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx` as UpstreamOutcome
}

/** The outcome of a failed call, by the status the BFF answers for it. */
export function outcomeOfError(err: UpstreamError): UpstreamOutcome {
  return err.statusCode === 504 ? 'timeout' : 'error'
}

/**
 * The one connection pool to the upstream API. The proxy and the BFF's own calls (sign-in,
 * session, refresh) share it, so keep-alive connections are reused by both.
 */
export class UpstreamClient {
  readonly pool: Pool

  constructor(
    readonly baseUrl: string,
    readonly timeoutMs: number,
    readonly observer?: UpstreamObserver,
    /** UPSTREAM_CONNECTIONS: at least the concurrent requests expected, or calls queue for a connection. */
    connections = 256,
  ) {
    this.pool = new Pool(baseUrl, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
  }

  async call<T = unknown>(call: UpstreamCall): Promise<UpstreamAnswer<T>> {
    return this.exchange(call, async (res) => {
      const text = await res.body.text()
      let body: unknown = text
      if (text && String(res.headers['content-type'] ?? '').includes('json')) {
        try {
          body = JSON.parse(text)
        } catch {
          throw new UpstreamError(502, 'El servicio ha devuelto una respuesta no válida.')
        }
      }
      const etag = res.headers.etag
      return { status: res.statusCode, body: body as T, ...(typeof etag === 'string' ? { etag } : {}) }
    })
  }

  /**
   * The call with its answer's bytes unread (an export's pages, parsed in the export's thread,
   * not on the event loop), and their content type.
   */
  async callBytes(call: UpstreamCall): Promise<{ status: number; bytes: Uint8Array; contentType: string }> {
    return this.exchange(call, async (res) => ({ status: res.statusCode, bytes: new Uint8Array(await res.body.arrayBuffer()), contentType: String(res.headers['content-type'] ?? '') }))
  }

  /** Sends the call and reads its answer with `read`, timed and observed, failures mapped to 502/504. */
  private async exchange<R>(call: UpstreamCall, read: (res: Dispatcher.ResponseData) => Promise<R>): Promise<R> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-brand-domain': call.brandDomain,
      'x-request-id': call.requestId,
    }
    if (call.token) headers.authorization = `Bearer ${call.token}`
    if (call.forwardedHost) headers['x-forwarded-host'] = call.forwardedHost
    if (call.forwardedProto) headers['x-forwarded-proto'] = call.forwardedProto
    if (call.ifMatch) headers['if-match'] = call.ifMatch
    let payload: string | undefined
    if (call.body !== undefined) {
      payload = JSON.stringify(call.body)
      headers['content-type'] = 'application/json'
    }
    const started = performance.now()
    try {
      const res = await this.pool.request({
        method: call.method,
        path: call.path,
        headers,
        body: payload,
        signal: AbortSignal.timeout(call.timeoutMs ?? this.timeoutMs),
      })
      const answer = await read(res)
      this.observer?.('bff', outcomeOfStatus(res.statusCode), (performance.now() - started) / 1000)
      return answer
    } catch (err) {
      const mapped = toUpstreamError(err)
      this.observer?.('bff', outcomeOfError(mapped), (performance.now() - started) / 1000)
      throw mapped
    }
  }

  async close(): Promise<void> {
    await this.pool.close()
  }
}

/** Maps network and timeout failures to the BFF's Spanish 502/504 answers. */
export function toUpstreamError(err: unknown): UpstreamError {
  if (err instanceof UpstreamError) return err
  const name = (err as { name?: string })?.name
  if (
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    name === 'TimeoutError' ||
    name === 'AbortError'
  ) {
    return new UpstreamError(504, 'El servicio no ha respondido a tiempo. Inténtalo de nuevo.', err)
  }
  return new UpstreamError(502, 'No se ha podido conectar con el servicio. Inténtalo de nuevo.', err)
}
