/**
 * Calls the reference API directly (not through the BFF), as a signed-in user of a brand.
 * For reference-API suites: `const api = await ApiCaller.signIn(url, ADMIN)`.
 */
export const BRAND_DOMAINS = { verde: 'energiaverde.es', grupo: 'grupoenergia.es', limpia: 'energialimpia.es' } as const

export interface ApiAnswer<T = unknown> {
  status: number
  headers: Headers
  body: T
  text: string
  bytes: Buffer
}

export class ApiCaller {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
    readonly brandDomain: string = BRAND_DOMAINS.verde,
  ) {}

  static async signIn(baseUrl: string, creds: { username: string; password: string }, brandDomain: string = BRAND_DOMAINS.verde): Promise<ApiCaller> {
    const res = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-brand-domain': brandDomain },
      body: JSON.stringify(creds),
    })
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
    const { token } = (await res.json()) as { token: string }
    return new ApiCaller(baseUrl, token, brandDomain)
  }

  /** The same user on another brand. */
  forBrand(brandDomain: string): ApiCaller {
    return new ApiCaller(this.baseUrl, this.token, brandDomain)
  }

  async call<T = unknown>(method: string, path: string, opts: { query?: Record<string, string | number | boolean>; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiAnswer<T>> {
    const qs = opts.query ? `?${new URLSearchParams(Object.entries(opts.query).map(([k, v]) => [k, String(v)])).toString()}` : ''
    const headers: Record<string, string> = { 'x-brand-domain': this.brandDomain, ...opts.headers }
    if (this.token) headers.authorization = `Bearer ${this.token}`
    let body: BodyInit | undefined
    if (opts.body instanceof FormData) body = opts.body
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(opts.body)
    }
    const res = await fetch(`${this.baseUrl}${path}${qs}`, { method, headers, body })
    const bytes = Buffer.from(await res.arrayBuffer())
    const text = bytes.toString('utf8')
    let parsed: unknown = text
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text)
    return { status: res.status, headers: res.headers, body: parsed as T, text, bytes }
  }

  get<T = unknown>(path: string, query?: Record<string, string | number | boolean>) {
    return this.call<T>('GET', path, { query })
  }
  post<T = unknown>(path: string, body?: unknown, query?: Record<string, string | number | boolean>) {
    return this.call<T>('POST', path, { body, query })
  }
  put<T = unknown>(path: string, body?: unknown, query?: Record<string, string | number | boolean>) {
    return this.call<T>('PUT', path, { body, query })
  }
  delete<T = unknown>(path: string, body?: unknown, query?: Record<string, string | number | boolean>) {
    return this.call<T>('DELETE', path, { body, query })
  }
}
