import type { Session } from '../session/session-store'

declare module 'fastify' {
  interface FastifyRequest {
    /** Memo of the session lookup for this request (undefined = not looked up yet). */
    sessionMemo: Session | null | undefined
    /** The admin's own session behind a view-as session (set with `sessionMemo`), else undefined. */
    actorSession: Session | undefined
  }
}
