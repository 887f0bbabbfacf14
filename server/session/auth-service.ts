import { decodeJwt } from 'jose'
import { SessionUser } from '../../schemas/session-user'
import { PENDING_APPROVAL_MESSAGE, TokenPair } from '../../schemas/auth'
import { Compile } from 'typebox/compile'
import { HttpError } from '../lib/errors'
import { UpstreamError, type UpstreamClient } from '../upstream/upstream-client'
import type { UserDetail } from '../../schemas/business/access'
import { fullName } from '../audit/audit-writer'
import { sessionKey, type Session, type SessionStore } from './session-store'

/** Where the upstream's own auth module lives; the proxy refuses these paths. */
export const UPSTREAM_AUTH_PATHS = {
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  session: '/api/auth/session',
  refresh: '/api/auth/refresh',
  impersonate: '/api/auth/impersonate',
} as const

/** A token this close to its `exp` is refreshed before use. */
export const EXPIRY_SKEW_S = 20

const isTokenPair = Compile(TokenPair)
const isSessionUser = Compile(SessionUser)

export class BadCredentialsError extends Error {}

/** Right credentials of an account whose sign-up still waits for approval (the upstream's 403 saying so). */
export class PendingApprovalError extends Error {}

/** A view-as the upstream refused: its status and message, passed on to the admin. */
export class ViewAsRefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Upstream answers that mean "no such call here": the upstream has no view-as. */
const NO_SUCH_CALL = new Set([404, 405, 501])

export interface CallContext {
  brandDomain: string
  brandKey: string
  requestId: string
}

/**
 * Sign-in, refresh, session reload and sign-out against the upstream's auth module. The
 * tokens it receives stay in the session store; callers only ever see the session user.
 */
export class AuthService {
  /** One refresh at a time per session: a rotating refresh token must not be spent twice. */
  private readonly refreshing = new Map<string, Promise<Session | null>>()

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly store: SessionStore,
    private readonly now: () => number = Date.now,
  ) {}

  async login(username: string, password: string, ctx: CallContext): Promise<Session> {
    const answer = await this.upstream.call({
      method: 'POST',
      path: UPSTREAM_AUTH_PATHS.login,
      body: { username, password },
      brandDomain: ctx.brandDomain,
      requestId: ctx.requestId,
    })
    if (answer.status === 403 && upstreamText(answer.body) === PENDING_APPROVAL_MESSAGE) throw new PendingApprovalError(PENDING_APPROVAL_MESSAGE)
    if (answer.status === 400 || answer.status === 401 || answer.status === 403) throw new BadCredentialsError()
    // The upstream throttles too: its refusal is passed on as such, not as a gateway failure.
    if (answer.status === 429) throw new HttpError(429, 'Demasiados intentos de acceso. Espera unos minutos.')
    const pair = this.tokenPair(answer)
    const user = await this.fetchUser(pair.token, ctx)
    if (!user) throw new UpstreamError(502, 'No se ha podido obtener la sesión del usuario.')
    return this.store.create({
      userId: user.Id,
      brand: ctx.brandKey,
      token: pair.token,
      refreshToken: pair.refreshToken ?? null,
      tokenExp: tokenExpiry(pair.token),
      user,
    })
  }

  /** The session with a usable access token, refreshing it when it is about to expire; null when it ended. */
  async ensureFresh(session: Session, ctx: CallContext): Promise<Session | null> {
    if (session.tokenExp - EXPIRY_SKEW_S > this.now() / 1000) return session
    if (!session.refreshToken) {
      await this.store.delete(session.id)
      return null
    }
    return this.refresh(session, ctx)
  }

  /** Exchanges the refresh token for a new pair and reloads the user; null when refresh is refused. */
  refresh(session: Session, ctx: CallContext): Promise<Session | null> {
    const running = this.refreshing.get(session.id)
    if (running) return running
    const work = this.doRefresh(session, ctx).finally(() => this.refreshing.delete(session.id))
    this.refreshing.set(session.id, work)
    return work
  }

  /** Re-reads the user from the upstream (permissions may have changed); null when the token is refused. */
  async reloadUser(session: Session, ctx: CallContext): Promise<Session | null> {
    // A permissions-only view holds the admin's token: reading the session would give the admin.
    if (session.actor?.mode === 'permissions') return session
    const user = await this.fetchUser(session.token, ctx)
    if (!user) {
      await this.store.delete(session.id)
      return null
    }
    await this.store.update(session.id, { user })
    return { ...session, user }
  }

  /**
   * A read-only session of user `userId` for the admin of `admin`: with the upstream's
   * view-as token when it has the call (it then decides what the user sees), else with the
   * admin's own token and only the user's permissions applied (`mode: 'permissions'`).
   */
  async startViewAs(admin: Session, userId: number, ctx: CallContext): Promise<Session> {
    const actor = { userId: admin.userId, name: fullName(admin.user) || admin.user.Email, email: admin.user.Email, actorKey: sessionKey(admin.id) }
    const answer = await this.upstream.call<{ token?: unknown; message?: unknown }>({
      method: 'POST',
      path: UPSTREAM_AUTH_PATHS.impersonate,
      token: admin.token,
      body: { UserId: userId },
      brandDomain: ctx.brandDomain,
      requestId: ctx.requestId,
    })
    if (answer.status === 200) {
      const token = (answer.body as { token?: unknown } | null)?.token
      if (typeof token !== 'string') throw new UpstreamError(502, 'El servicio de autenticación ha devuelto un token no válido.')
      const user = await this.fetchUser(token, ctx)
      if (!user || user.Id !== userId) throw new UpstreamError(502, 'No se ha podido obtener la sesión del usuario.')
      return this.store.create({ userId, brand: ctx.brandKey, token, refreshToken: null, tokenExp: tokenExpiry(token), user, actor: { ...actor, mode: 'token' } })
    }
    // A 404 may be of the call or of the user: reading the user below tells them apart.
    if (!NO_SUCH_CALL.has(answer.status)) throw new ViewAsRefusedError(answer.status >= 500 ? 502 : answer.status, upstreamText(answer.body) ?? 'No se ha podido ver el portal como ese usuario.')
    // No view-as upstream: the user's own permissions and groups, read with the admin's token.
    const detail = await this.upstream.call<UserDetail>({ method: 'GET', path: `/api/usuarios/${userId}`, token: admin.token, brandDomain: ctx.brandDomain, requestId: ctx.requestId })
    if (detail.status !== 200 || !detail.body) throw new ViewAsRefusedError(detail.status === 404 ? 404 : 502, upstreamText(detail.body) ?? `No existe el usuario ${userId}.`)
    const d = detail.body
    const user: SessionUser = {
      Id: d.Id,
      UserName: d.Email,
      Email: d.Email,
      Nombre: d.Nombre,
      Apellidos: d.Apellidos,
      Permisos: d.PermisosEfectivos.map((p) => ({ Id: p.Id, Nombre: p.Nombre, NombreNormalizado: p.NombreNormalizado })),
      Grupos: d.Grupos.map((g) => ({ Id: g.Id, Nombre: g.Nombre })),
      Agente: d.Agente ? { Id: d.Agente.Id, Nombre: d.Agente.Nombre } : null,
    }
    // The admin's token, never refreshed here: the preview ends when it would need one.
    return this.store.create({ userId, brand: ctx.brandKey, token: admin.token, refreshToken: null, tokenExp: admin.tokenExp, user, actor: { ...actor, mode: 'permissions' } })
  }

  async logout(session: Session, ctx: CallContext): Promise<void> {
    try {
      await this.upstream.call({
        method: 'POST',
        path: UPSTREAM_AUTH_PATHS.logout,
        token: session.token,
        body: { refreshToken: session.refreshToken },
        brandDomain: ctx.brandDomain,
        requestId: ctx.requestId,
      })
    } finally {
      // The local session ends even when the upstream cannot be told.
      await this.store.delete(session.id)
    }
  }

  private async doRefresh(session: Session, ctx: CallContext): Promise<Session | null> {
    const answer = await this.upstream.call({
      method: 'POST',
      path: UPSTREAM_AUTH_PATHS.refresh,
      token: session.token,
      body: { refreshToken: session.refreshToken },
      brandDomain: ctx.brandDomain,
      requestId: ctx.requestId,
    })
    if (answer.status === 400 || answer.status === 401 || answer.status === 403) {
      await this.store.delete(session.id)
      return null
    }
    const pair = this.tokenPair(answer)
    const patch = {
      token: pair.token,
      refreshToken: pair.refreshToken ?? session.refreshToken,
      tokenExp: tokenExpiry(pair.token),
    }
    await this.store.update(session.id, patch)
    return this.reloadUser({ ...session, ...patch }, ctx)
  }

  private tokenPair(answer: { status: number; body: unknown }): TokenPair {
    if (answer.status < 200 || answer.status >= 300) {
      throw new UpstreamError(502, 'El servicio de autenticación no está disponible.')
    }
    // A token that is not a string stops the flow (spec §8).
    if (!isTokenPair.Check(answer.body)) throw new UpstreamError(502, 'El servicio de autenticación ha devuelto un token no válido.')
    return answer.body
  }

  private async fetchUser(token: string, ctx: CallContext): Promise<SessionUser | null> {
    const answer = await this.upstream.call<unknown>({
      method: 'GET',
      path: UPSTREAM_AUTH_PATHS.session,
      token,
      brandDomain: ctx.brandDomain,
      requestId: ctx.requestId,
    })
    if (answer.status === 401 || answer.status === 403) return null
    if (answer.status !== 200 || !isSessionUser.Check(answer.body)) {
      throw new UpstreamError(502, 'No se ha podido obtener la sesión del usuario.')
    }
    return answer.body
  }
}

/** The access token's `exp` in seconds; a token without one is refused. */
export function tokenExpiry(token: string): number {
  let exp: unknown
  try {
    exp = decodeJwt(token).exp
  } catch {
    throw new UpstreamError(502, 'El servicio de autenticación ha devuelto un token no válido.')
  }
  if (typeof exp !== 'number') throw new UpstreamError(502, 'El token de acceso no indica su caducidad.')
  return exp
}

/** The upstream's own text of a refusal (a JSON `message` or a plain string), if short and present. */
function upstreamText(body: unknown): string | undefined {
  const text = typeof body === 'string' ? body : typeof (body as { message?: unknown } | null)?.message === 'string' ? (body as { message: string }).message : undefined
  return text && text.length <= 300 ? text : undefined
}
