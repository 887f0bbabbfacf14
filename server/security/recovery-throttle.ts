import type { FastifyReply, FastifyRequest } from 'fastify'
import { sendError } from '../lib/errors'
import type { AttemptCounter } from './attempt-counter'
import { AttemptThrottle, waitText, type ThrottleLimits } from './sign-in-throttle'

export function recoveryThrottleMessage(seconds: number): string {
  return `Demasiadas solicitudes de cambio de contraseña. Vuelve a intentarlo en ${waitText(seconds)}.`
}

export function signUpThrottleMessage(seconds: number): string {
  return `Demasiadas solicitudes de alta. Vuelve a intentarlo en ${waitText(seconds)}.`
}

/**
 * A public flow where every request counts, not only failures, with sign-in's limits and
 * counter (`AttemptThrottle`) under a scope of its own. The account is the body's e-mail,
 * normalised and hashed.
 */
export class EveryRequestThrottle {
  private readonly attempts: AttemptThrottle

  constructor(
    counter: AttemptCounter,
    limits: ThrottleLimits,
    private readonly flow: { scope: string; event: string; message: (seconds: number) => string },
  ) {
    this.attempts = new AttemptThrottle(counter, limits, flow.scope)
  }

  /**
   * Counts this request; over a limit it answers 429 with Retry-After and returns true, and
   * the caller must stop there, before the upstream is asked.
   */
  async check(request: FastifyRequest, reply: FastifyReply, email: string): Promise<boolean> {
    const wait = await this.attempts.take(request.ip, email)
    if (wait === null) return false
    request.log.warn({ event: this.flow.event, retryAfterS: wait }, `${this.flow.scope} refused: too many requests`)
    reply.header('retry-after', String(wait))
    sendError(reply, 429, this.flow.message(wait))
    return true
  }

  /** The flow ended well for that account: it and the address start afresh. */
  async succeeded(request: FastifyRequest, email: string): Promise<void> {
    await this.attempts.succeeded(request.ip, email)
  }
}

/**
 * The public password-recovery calls (request a link, set the new password), against mail
 * flooding and reset-code guessing. Asking for a link always "succeeds" so that it does not
 * reveal which addresses have an account: hence every request counts. Both calls share the counts.
 */
export class RecoveryThrottle extends EveryRequestThrottle {
  constructor(counter: AttemptCounter, limits: ThrottleLimits) {
    super(counter, limits, { scope: 'recovery', event: 'recovery_throttled', message: recoveryThrottleMessage })
  }
}

/** Self sign-up: every request may create an account, so every one counts (per address, and per e-mail and address). */
export class SignUpThrottle extends EveryRequestThrottle {
  constructor(counter: AttemptCounter, limits: ThrottleLimits) {
    super(counter, limits, { scope: 'signup', event: 'signup_throttled', message: signUpThrottleMessage })
  }
}
