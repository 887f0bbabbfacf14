import type { FastifyInstance } from 'fastify'
import { LoginBody, PENDING_APPROVAL_MESSAGE } from '../../schemas/auth'
import { MESSAGES, sendError } from '../lib/errors'
import { throttleMessage, type SignInThrottle } from '../security/sign-in-throttle'
import { BadCredentialsError, PendingApprovalError, type AuthService } from './auth-service'
import type { SessionGate } from './session-gate'
import type { SessionStore } from './session-store'

/** Sign-in, sign-out, session and refresh, as the BFF offers them to the browser. */
export async function authRoutes(app: FastifyInstance, opts: { gate: SessionGate; auth: AuthService; store: SessionStore; throttle: SignInThrottle }) {
  const { gate, auth, store, throttle } = opts

  app.post<{ Body: LoginBody }>('/bff/auth/login', { schema: { body: LoginBody } }, async (request, reply) => {
    const previous = request.cookies[gate.cookieName]
    const username = request.body.username.trim()
    const wait = await throttle.refusal(request.ip, username)
    if (wait !== null) {
      request.log.warn({ event: 'login_throttled', retryAfterS: wait }, 'sign-in refused: too many failures')
      reply.header('retry-after', String(wait))
      return sendError(reply, 429, throttleMessage(wait))
    }
    let session
    try {
      session = await auth.login(username, request.body.password, gate.context(request))
    } catch (err) {
      // The password was right: nothing to count, and the owner is told why they cannot get in.
      if (err instanceof PendingApprovalError) {
        request.log.info({ event: 'login_pending_approval' }, 'sign-in refused: sign-up not approved yet')
        return sendError(reply, 403, PENDING_APPROVAL_MESSAGE)
      }
      if (err instanceof BadCredentialsError) {
        await throttle.failed(request.ip, username)
        request.log.info({ event: 'login_failed' }, 'sign-in refused')
        return sendError(reply, 401, MESSAGES.badCredentials)
      }
      throw err
    }
    await throttle.succeeded(request.ip, username)
    // A new id on every sign-in; the browser's old session, if any, ends here.
    if (previous) await store.delete(previous)
    gate.setCookie(reply, request, session.id)
    request.log.info({ event: 'login', userId: session.userId }, 'signed in')
    return { user: session.user }
  })

  app.post('/bff/auth/logout', async (request, reply) => {
    const session = await gate.current(request, reply)
    // Signing out while viewing as someone ends both: the view, then the admin's own session.
    const own = request.actorSession ?? session
    if (session?.actor) await store.delete(session.id)
    if (own) {
      await auth.logout(own, gate.context(request))
      request.log.info({ event: 'logout', userId: own.userId }, 'signed out')
    }
    gate.clearCookie(reply, request)
    gate.clearViewAsCookie(reply, request)
    return reply.code(204).send()
  })

  app.get('/bff/auth/session', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const session = await gate.current(request, reply)
    const fresh = session && (await auth.reloadUser(session, gate.context(request)))
    if (!fresh) {
      gate.clearCookie(reply, request)
      return sendError(reply, 401, MESSAGES.unauthenticated)
    }
    return { user: fresh.user }
  })

  app.post('/bff/auth/refresh', async (request, reply) => {
    const session = await gate.current(request, reply)
    const fresh = session && (await auth.refresh(session, gate.context(request)))
    if (!fresh) {
      gate.clearCookie(reply, request)
      return sendError(reply, 401, MESSAGES.unauthenticated)
    }
    return { user: fresh.user }
  })
}
