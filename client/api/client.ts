import { loadCallIndex } from './call-catalogue'

/**
 * The one api client. Same-origin calls to the BFF (`/bff/*`) and the proxied upstream
 * (`/api/*`): always `X-CSRF: 1`, GET retried once on transient statuses (spec §9), mutations
 * never; failures become ApiError with the server's message.
 */

export const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504])
const GET_RETRIES = 1

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's own message (text body, or `message` of a JSON body), when it sent one. */
    readonly serverMessage: string | null,
    readonly path: string,
    /** The HTTP method of the failed call: with the path, it names the call in the endpoint catalogue (its toast's area and message). */
    readonly method: string,
    /** The parsed JSON body of the failure, for answers that carry more than a message (a 409 with the current version). */
    readonly body: unknown = null,
  ) {
    super(serverMessage ?? `HTTP ${status}`)
  }
}

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[]
export type QueryParams = Record<string, QueryValue>

/** Query string with arrays as indexed parameters: `filterColumns[0]=a&filterColumns[1]=b` (spec §7). */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return ''
  const parts: string[] = []
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue
    if (Array.isArray(value)) {
      value.forEach((v, i) => parts.push(`${encodeURIComponent(key)}[${i}]=${encodeURIComponent(String(v))}`))
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    }
  }
  return parts.length ? `?${parts.join('&')}` : ''
}

export interface RequestOptions {
  params?: QueryParams
  body?: unknown
  signal?: AbortSignal
  headers?: Record<string, string>
  /** Sent even if the page is being left (a last draft save); the body must stay under 64 KB. */
  keepalive?: boolean
  /**
   * A 401 is not reported to the app: a background call (a draft save) must not take the user
   * away from what they are typing; their next real action meets the ended session.
   */
  quietUnauthenticated?: boolean
  /**
   * A read the page preloads (index.html): sent with no headers of the client's own, as the
   * page's `<link rel="preload">` sends it. WebKit takes a preloaded answer only for a request
   * with the same headers (Chromium ignores them); a read needs no CSRF header anyway.
   */
  preloaded?: boolean
}

type UnauthenticatedHandler = (path: string) => void
let onUnauthenticated: UnauthenticatedHandler = () => undefined

/** The app tells the client what to do when the session turns out to have ended (401). */
export function setUnauthenticatedHandler(handler: UnauthenticatedHandler): void {
  onUnauthenticated = handler
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * A read-only page (the screen studio's preview) draws real screens over real data but must not
 * change anything: while set, every call that is not a catalogued read, nor one the page itself
 * allows, is refused here, before it leaves the browser, with the page's message.
 */
let readOnly: { message: string; allows: (method: string, path: string) => boolean } | null = null

export function setReadOnly(mode: typeof readOnly): void {
  readOnly = mode
}

async function refusedReadOnly(method: string, path: string): Promise<boolean> {
  if (!readOnly || method === 'GET' || method === 'HEAD' || readOnly.allows(method, path)) return false
  if (!/^\/?api\//.test(path)) return true
  const call = (await loadCallIndex())?.find(method, path.replace(/^\//, ''))?.call
  return call?.effect !== 'read'
}

/** Sends a request and returns the raw Response when it succeeded; throws ApiError otherwise. */
export async function send(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const url = `${path.startsWith('/') ? path : `/${path}`}${buildQuery(opts.params)}`
  if (readOnly && (await refusedReadOnly(method, path))) throw new ApiError(409, readOnly.message, path, method)
  const headers: Record<string, string> = opts.preloaded && method === 'GET' ? {} : { 'X-CSRF': '1', Accept: 'application/json', ...opts.headers }
  let body: BodyInit | undefined
  if (opts.body instanceof FormData || opts.body instanceof Blob) body = opts.body
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(opts.body)
  }
  const retries = method === 'GET' ? GET_RETRIES : 0
  for (let attempt = 0; ; attempt++) {
    let res: Response
    try {
      res = await fetch(url, { method, headers, body, credentials: 'same-origin', signal: opts.signal, keepalive: opts.keepalive })
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err
      if (attempt < retries) {
        await sleep(250)
        continue
      }
      throw new ApiError(0, null, path, method)
    }
    // A mutation held for a second person's approval (202 from the BFF) is neither a success nor
    // an error: it becomes an ApiError of status 202, which reportError shows as information.
    if (res.status === 202 && res.headers.has('x-approval-pending')) {
      const held = await readFailure(res)
      throw new ApiError(202, held.message, path, method, held.body)
    }
    if (res.ok) return res
    if (attempt < retries && RETRY_STATUSES.has(res.status)) {
      await sleep(250)
      continue
    }
    const failure = await readFailure(res)
    if (res.status === 401 && !path.startsWith('/bff/auth/login') && !opts.quietUnauthenticated) onUnauthenticated(path)
    throw new ApiError(res.status, failure.message, path, method, failure.body)
  }
}

async function readFailure(res: Response): Promise<{ message: string | null; body: unknown }> {
  let text: string
  try {
    text = (await res.text()).trim()
  } catch {
    return { message: null, body: null }
  }
  if (!text) return { message: null, body: null }
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      const parsed = JSON.parse(text) as unknown
      if (typeof parsed === 'string') return { message: parsed, body: parsed }
      const message = (parsed as { message?: unknown; Message?: unknown })?.message ?? (parsed as { Message?: unknown })?.Message
      return { message: typeof message === 'string' && message ? message : null, body: parsed }
    } catch {
      return { message: null, body: null }
    }
  }
  // A text body is shown as the server wrote it (spec §8), but never a whole HTML page.
  return { message: /^</.test(text) ? null : text.slice(0, 500), body: null }
}

async function json<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T
  const text = await res.text()
  if (!text) return undefined as T
  return (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text) as T) : (text as T)
}

/** A downloaded file with the server's file name (Content-Disposition). */
export interface DownloadedFile {
  blob: Blob
  fileName: string
}

export function fileNameFrom(res: Response, fallback: string): string {
  const cd = res.headers.get('content-disposition') ?? ''
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd)
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1])
    } catch {
      // fall through
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(cd)
  return plain?.[1] ?? fallback
}

export const api = {
  get: async <T>(path: string, opts?: RequestOptions) => json<T>(await send('GET', path, opts)),
  post: async <T>(path: string, body?: unknown, opts?: RequestOptions) => json<T>(await send('POST', path, { ...opts, body })),
  put: async <T>(path: string, body?: unknown, opts?: RequestOptions) => json<T>(await send('PUT', path, { ...opts, body })),
  patch: async <T>(path: string, body?: unknown, opts?: RequestOptions) => json<T>(await send('PATCH', path, { ...opts, body })),
  delete: async <T>(path: string, body?: unknown, opts?: RequestOptions) => json<T>(await send('DELETE', path, { ...opts, body })),
  /** Fetches a file (GET, or POST with a body) and returns it with the server's file name. */
  download: async (path: string, opts: RequestOptions & { method?: 'GET' | 'POST'; fallbackName?: string } = {}): Promise<DownloadedFile> => {
    const res = await send(opts.method ?? 'GET', path, opts)
    return { blob: await res.blob(), fileName: fileNameFrom(res, opts.fallbackName ?? 'descarga') }
  },
}

/** Hands a downloaded file to the browser as a save. */
export function saveFile(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob)
  const a = document.createElement('a')
  a.href = url
  a.download = file.fileName
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
