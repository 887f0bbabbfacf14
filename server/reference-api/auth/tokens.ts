import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'
import { randomUUID } from 'node:crypto'

export interface TokenSettings {
  secret: Uint8Array
  accessTtlS: number
  refreshTtlS: number
  now: () => number
}

export interface IssuedRefresh {
  token: string
  jti: string
  iat: number
  exp: number
}

const ISSUER = 'portal-reference-api'
/** Verified tokens remembered at most; the oldest is forgotten first. */
const VERIFIED_CAPACITY = 10_000

/** `actorId`: the admin behind a read-only view-as token (its `act` claim, in the manner of RFC 8693). */
type Claims = { userId: number; jti: string; exp: number; actorId?: number }

/** Access and refresh tokens: HS256 JWTs with `exp` in seconds. */
export class TokenService {
  /**
   * Tokens whose signature and claims already checked out, with those claims. A browser
   * session sends the same access token on every call and the HMAC check through WebCrypto
   * was a third of the API's CPU per request; the expiry is still checked on every use.
   */
  private readonly verified = new Map<string, Claims & { typ: 'access' | 'refresh' }>()

  constructor(private readonly settings: TokenSettings) {}

  private nowS(): number {
    return Math.floor(this.settings.now() / 1000)
  }

  async access(userId: number): Promise<string> {
    const iat = this.nowS()
    return new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.settings.accessTtlS)
      .sign(this.settings.secret)
  }

  /**
   * A read-only access token of `userId` for the admin `actorId` (view-as): it names the admin in
   * an `act` claim and lasts `ttlS` (no refresh token: view-as ends with it).
   */
  async viewAs(userId: number, actorId: number, ttlS: number): Promise<{ token: string; exp: number }> {
    const iat = this.nowS()
    const exp = iat + ttlS
    const token = await new SignJWT({ typ: 'access', act: { sub: String(actorId) } })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setJti(randomUUID())
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.settings.secret)
    return { token, exp }
  }

  /** A refresh token; `reissue` re-signs an existing one (same claims give the same token). */
  async refresh(userId: number, reissue?: { jti: string; iat: number; exp: number }): Promise<IssuedRefresh> {
    const iat = reissue?.iat ?? this.nowS()
    const exp = reissue?.exp ?? iat + this.settings.refreshTtlS
    const jti = reissue?.jti ?? randomUUID()
    const token = await new SignJWT({ typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuer(ISSUER)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.settings.secret)
    return { token, jti, iat, exp }
  }

  /** The claims of a valid token of the given type, or null (bad signature, expired, wrong type). */
  async verify(token: string, typ: 'access' | 'refresh'): Promise<Claims | null> {
    const known = this.verified.get(token)
    if (known) {
      // jose's rule: expired once `exp` is not after now.
      if (known.exp <= this.nowS()) {
        this.verified.delete(token)
        return null
      }
      if (known.typ !== typ) return null
      return { userId: known.userId, jti: known.jti, exp: known.exp, ...(known.actorId !== undefined ? { actorId: known.actorId } : {}) }
    }
    const claims = await this.verifySignature(token, typ)
    if (claims) {
      if (this.verified.size >= VERIFIED_CAPACITY) this.verified.delete(this.verified.keys().next().value!)
      this.verified.set(token, { ...claims, typ })
    }
    return claims
  }

  private async verifySignature(token: string, typ: 'access' | 'refresh'): Promise<Claims | null> {
    try {
      const { payload } = await jwtVerify(token, this.settings.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(this.settings.now()),
      })
      if (payload.typ !== typ || !payload.sub || !payload.jti || typeof payload.exp !== 'number') return null
      const userId = Number(payload.sub)
      if (!Number.isInteger(userId)) return null
      if (payload.act === undefined) return { userId, jti: payload.jti, exp: payload.exp }
      // A view-as token: only access tokens carry an actor, and it must name a user.
      const actorId = Number((payload.act as { sub?: unknown } | null)?.sub)
      return typ === 'access' && Number.isInteger(actorId) ? { userId, jti: payload.jti, exp: payload.exp, actorId } : null
    } catch (err) {
      if (err instanceof joseErrors.JOSEError) return null
      throw err
    }
  }
}
