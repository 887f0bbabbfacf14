import type { Brand } from '../brand/brand-registry'
import type { Session } from '../session/session-store'

declare module 'fastify' {
  interface FastifyRequest {
    /** The brand picked from the Host header; set for every request. */
    brand: Brand
    /** Memo of the session lookup for this request (undefined = not looked up yet). */
    sessionMemo: Session | null | undefined
  }
}
