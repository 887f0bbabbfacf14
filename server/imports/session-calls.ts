import type { FastifyInstance } from 'fastify'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { INTERNAL_CALL_HEADER, INTERNAL_CALL_TOKEN } from '../ops/overload'

/**
 * Catalogued calls made for a user by the BFF itself, through its own `/api` route (in-process,
 * `inject`): the proxy checks the call, the user's permission and the brand, writes the audit,
 * and four-eyes policies hold what they name, exactly as when the browser makes the call. The
 * identity is the user's session cookie of the request that started the work.
 */

export interface CallAnswer {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  /** The JSON answer, or undefined. */
  json: unknown
  /** A failure's message (JSON `message` or the text), in Spanish. */
  message: string
}

export interface SessionIdentity {
  cookie: string
  host: string
}

export type SessionCalls = (call: Endpoint, opts: { query?: Record<string, string | number | undefined>; body?: unknown; ifMatch?: string }) => Promise<CallAnswer>

/** The query of a call as the proxy takes it (array parameters as `name[i]`). */
export function callUrl(call: Endpoint, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.append(k, String(v))
  const qs = params.toString()
  return `/${call.path}${qs ? `?${qs}` : ''}`
}

export function sessionCalls(app: FastifyInstance, who: SessionIdentity): SessionCalls {
  return async (call, opts) => {
    const headers: Record<string, string> = { cookie: who.cookie, host: who.host, 'x-csrf': '1', [INTERNAL_CALL_HEADER]: INTERNAL_CALL_TOKEN }
    if (opts.ifMatch) headers['if-match'] = opts.ifMatch
    const res = await app.inject({
      method: call.method,
      url: callUrl(call, opts.query),
      headers,
      ...(opts.body === undefined ? {} : { payload: JSON.stringify(opts.body), headers: { ...headers, 'content-type': 'application/json' } }),
    })
    let json: unknown
    const type = String(res.headers['content-type'] ?? '')
    if (/json/i.test(type) && res.body.length > 0) {
      try {
        json = JSON.parse(res.body)
      } catch {
        json = undefined
      }
    }
    const jsonMessage = json && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string' ? (json as { message: string }).message : undefined
    const message = res.statusCode < 400 ? '' : (jsonMessage ?? (res.body.trim().slice(0, 300) || 'Ha ocurrido un error en la solicitud.'))
    return { status: res.statusCode, headers: res.headers, json, message }
  }
}
