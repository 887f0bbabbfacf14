import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthService, CallContext } from './auth-service'
import { looksLikeSessionId, type Session, type SessionStore } from './session-store'

export interface SessionGateOptions {
  store: SessionStore
  auth: AuthService
  production: boolean
  absoluteTimeoutMs: number
}

/**
 * Finds the browser's session from its cookie, keeps its access token fresh, and writes or
 * clears the cookie. The cookie holds only the opaque id.
 */
export class SessionGate {
  /** `__Host-` pins the cookie to this exact host over https, with Path=/ and no Domain. */
  readonly cookieName: string

  constructor(private readonly opts: SessionGateOptions) {
    this.cookieName = opts.production ? '__Host-portal_session' : 'portal_session'
  }

  context(request: FastifyRequest): CallContext {
    return { brandDomain: request.brand.Domain, brandKey: request.brand.key, requestId: String(request.id) }
  }

  /**
   * The request's session when it is known without waiting: already looked up for this
   * request, or fresh in the store's memory. Undefined when `current` has to ask the store.
   * Most proxied requests end here, sparing them the promises of the full lookup.
   */
  known(request: FastifyRequest): Session | null | undefined {
    if (request.sessionMemo !== undefined) return request.sessionMemo
    const id = request.cookies[this.cookieName]
    const session = looksLikeSessionId(id) ? this.opts.store.peek?.(id) : undefined
    if (session) request.sessionMemo = session
    return session
  }

  /** The request's session with a usable token, or null (the cookie is then cleared). */
  async current(request: FastifyRequest, reply: FastifyReply): Promise<Session | null> {
    const known = this.known(request)
    if (known !== undefined) return known
    const id = request.cookies[this.cookieName]
    let session: Session | null = null
    if (looksLikeSessionId(id)) {
      const stored = await this.opts.store.get(id)
      session = stored ? await this.opts.auth.ensureFresh(stored, this.context(request)) : null
      if (!session) this.clearCookie(reply, request)
    }
    request.sessionMemo = session
    return session
  }

  setCookie(reply: FastifyReply, request: FastifyRequest, id: string): void {
    reply.setCookie(this.cookieName, id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure(request),
      maxAge: Math.floor(this.opts.absoluteTimeoutMs / 1000),
    })
  }

  clearCookie(reply: FastifyReply, request: FastifyRequest): void {
    reply.clearCookie(this.cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure(request) })
  }

  /** Secure in production (always behind TLS) and whenever the request itself came over https. */
  private secure(request: FastifyRequest): boolean {
    return this.opts.production || request.protocol === 'https'
  }
}
