import type { FastifyReply, FastifyRequest } from 'fastify'
import { sendError } from '../lib/errors'
import type { AttemptCounter } from './attempt-counter'
import { AttemptThrottle, waitText, type ThrottleLimits } from './sign-in-throttle'

export function recoveryThrottleMessage(seconds: number): string {
  return `Demasiadas solicitudes de cambio de contraseña. Vuelve a intentarlo en ${waitText(seconds)}.`
}

/**
 * Limits the public password-recovery calls (request a link, set the new password), against
 * mail flooding and reset-code guessing. Every request counts, not only failures: asking for
 * a link always "succeeds" so that it does not reveal which addresses have an account. Both
 * calls share the counts; the account is the body's e-mail, normalised and hashed.
 */
export class RecoveryThrottle {
  private readonly attempts: AttemptThrottle

  constructor(counter: AttemptCounter, limits: ThrottleLimits) {
    this.attempts = new AttemptThrottle(counter, limits, 'recovery')
  }

  /**
   * Counts this request; over a limit it answers 429 with Retry-After and returns true, and
   * the caller must stop there, before the upstream is asked.
   */
  async check(request: FastifyRequest, reply: FastifyReply, email: string): Promise<boolean> {
    const wait = await this.attempts.take(request.ip, email)
    if (wait === null) return false
    request.log.warn({ event: 'recovery_throttled', retryAfterS: wait }, 'password recovery refused: too many requests')
    reply.header('retry-after', String(wait))
    sendError(reply, 429, recoveryThrottleMessage(wait))
    return true
  }

  /** A new password was set with a valid code: that account and address start afresh. */
  async succeeded(request: FastifyRequest, email: string): Promise<void> {
    await this.attempts.succeeded(request.ip, email)
  }
}
