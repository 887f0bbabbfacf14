import type { Endpoint, HttpMethod } from './endpoint'

/**
 * Finding a call in the catalogue by method and path: static segments compare exactly, as the
 * upstream's and the BFF's own routers do (another spelling of a path the BFF serves itself must
 * not reach the proxy as the same call), `{name}` segments take any one non-empty segment.
 * Pure, shared by the BFF's proxy, the screen loader and the client.
 */

export interface CallMatch {
  call: Endpoint
  /** Path parameters, decoded. */
  pathParams: Record<string, string>
}

interface Template {
  call: Endpoint
  /** Static segments; `null` where a parameter goes. */
  segments: (string | null)[]
  names: string[]
}

const PARAM = /^\{([A-Za-z][A-Za-z0-9]*)\}$/

export class CallIndex {
  /** `METHOD path` of calls without path parameters. */
  private readonly exact = new Map<string, Endpoint>()
  /** Calls with path parameters, per method, the more static segments first. */
  private readonly templated = new Map<string, Template[]>()
  readonly calls: readonly Endpoint[]

  constructor(calls: readonly Endpoint[]) {
    this.calls = calls
    for (const call of calls) {
      const parts = call.path.split('/')
      const names: string[] = []
      const segments = parts.map((p) => {
        const m = PARAM.exec(p)
        if (!m) return p
        names.push(m[1]!)
        return null
      })
      const key = `${call.method} ${call.path}`
      if (names.length === 0) {
        if (this.exact.has(key)) throw new Error(`Llamada repetida en el catálogo: ${call.method} ${call.path}.`)
        this.exact.set(key, call)
        continue
      }
      const list = this.templated.get(call.method) ?? []
      if (list.some((t) => t.segments.length === segments.length && t.segments.every((s, i) => s === segments[i]))) {
        throw new Error(`Llamada repetida en el catálogo: ${call.method} ${call.path}.`)
      }
      list.push({ call, segments, names })
      list.sort((a, b) => b.segments.filter((s) => s !== null).length - a.segments.filter((s) => s !== null).length)
      this.templated.set(call.method, list)
    }
  }

  /**
   * The call a method and a path (`api/…`, no leading slash, no query, segments already
   * decoded) name, or null. A static call wins over a template (`api/agentes/export` is not
   * `api/agentes/{id}`).
   */
  match(method: string, segments: readonly string[]): CallMatch | null {
    const exact = this.exact.get(`${method} ${segments.join('/')}`)
    if (exact) return { call: exact, pathParams: {} }
    const list = this.templated.get(method)
    if (!list) return null
    for (const t of list) {
      if (t.segments.length !== segments.length) continue
      let ok = true
      for (let i = 0; i < segments.length && ok; i++) {
        const s = t.segments[i]
        ok = s === null ? segments[i] !== '' : s === segments[i]
      }
      if (!ok) continue
      const pathParams: Record<string, string> = {}
      let n = 0
      t.segments.forEach((s, i) => {
        if (s === null) pathParams[t.names[n++]!] = segments[i]!
      })
      return { call: t.call, pathParams }
    }
    return null
  }

  /** The call without path parameters spelt exactly `path` (`api/utility/tarifas`), or undefined: the proxy's common case, with no splitting. */
  exactCall(method: string, path: string): Endpoint | undefined {
    return this.exact.get(`${method} ${path}`)
  }

  /** The call of a relative path such as `api/contract/id` (or `/api/...`), for the client's toasts and the screen loader. */
  find(method: HttpMethod | string, path: string): CallMatch | null {
    const clean = path.replace(/^\/+/, '').split('?', 1)[0]!.replace(/\/+$/, '')
    return this.match(method.toUpperCase(), clean.split('/'))
  }

  /** Whether a path template written with `{placeholders}` (a screen's endpoint) names a catalogued call of this method. */
  findTemplate(method: string, template: string): Endpoint | null {
    const segments = template.replace(/^\/+/, '').split('?', 1)[0]!.split('/')
    // A placeholder segment stands for any value: try it as one, a static call must not depend on it.
    const probe = segments.map((s) => (/\{[^}]+\}/.test(s) ? '\u0000' : s))
    return this.match(method.toUpperCase(), probe)?.call ?? null
  }
}

/** `METHOD path` as audits and messages name a call: `POST api/grupousuarios/create-user-group`. */
export const callName = (call: Pick<Endpoint, 'method' | 'path'>) => `${call.method} ${call.path}`
