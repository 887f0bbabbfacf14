import type { FastifyReply, FastifyRequest } from 'fastify'
import type { AuthService, CallContext } from './auth-service'
import { looksLikeSessionId, sessionKey, type Session, type SessionStore } from './session-store'

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
  /**
   * A view-as session rides on a second cookie, beside the admin's own (kept, so leaving view-as
   * needs no new sign-in): it counts only with the admin session it was started from.
   */
  readonly viewAsCookieName: string

  constructor(private readonly opts: SessionGateOptions) {
    this.cookieName = opts.production ? '__Host-portal_session' : 'portal_session'
    this.viewAsCookieName = opts.production ? '__Host-portal_view_as' : 'portal_view_as'
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
    // Viewing as someone: two sessions to match, always through `current`.
    if (request.cookies[this.viewAsCookieName] !== undefined) return undefined
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
    if (request.cookies[this.viewAsCookieName] !== undefined) session = await this.viewedAs(request, reply, session)
    request.sessionMemo = session
    return session
  }

  /** The view-as session when it belongs to the admin `admin` and is still usable, else `admin` (the stale cookie cleared). */
  private async viewedAs(request: FastifyRequest, reply: FastifyReply, admin: Session | null): Promise<Session | null> {
    const id = request.cookies[this.viewAsCookieName]
    const stored = admin && looksLikeSessionId(id) ? await this.opts.store.get(id) : null
    const view = stored && stored.actor?.actorKey === sessionKey(admin!.id) ? await this.opts.auth.ensureFresh(stored, this.context(request)) : null
    if (view) {
      request.actorSession = admin!
      return view
    }
    this.clearViewAsCookie(reply, request)
    return admin
  }

  setViewAsCookie(reply: FastifyReply, request: FastifyRequest, id: string): void {
    reply.setCookie(this.viewAsCookieName, id, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure(request) })
  }

  clearViewAsCookie(reply: FastifyReply, request: FastifyRequest): void {
    reply.clearCookie(this.viewAsCookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure(request) })
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
