import { createHash } from 'node:crypto'
import type { AttemptCounter } from './attempt-counter'

export interface ThrottleLimits {
  /** Failed sign-ins of one account within the window before it is refused. */
  maxPerAccount: number
  /** Failed sign-ins from one address within the window before it is refused. */
  maxPerIp: number
  windowMs: number
}

/** Counter keys hold no e-mail address: a hash is enough to count. */
const accountKey = (account: string) => `signin:account:${createHash('sha256').update(account.trim().toLowerCase()).digest('hex').slice(0, 32)}`
const ipKey = (ip: string) => `signin:ip:${ip}`

/**
 * Slows password guessing: after too many failures for an account or from an address, sign-in
 * is refused (429 with Retry-After) until the window ends, before the upstream is asked. Only
 * failures count, so people who sign in often are never locked out; a success clears the
 * account's count.
 */
export class SignInThrottle {
  constructor(
    private readonly counter: AttemptCounter,
    readonly limits: ThrottleLimits,
  ) {}

  /** Seconds to wait when this attempt must be refused, else null. */
  async refusal(ip: string, account: string): Promise<number | null> {
    const [byAccount, byIp] = await Promise.all([this.counter.peek(accountKey(account)), this.counter.peek(ipKey(ip))])
    const waits = [
      byAccount.count >= this.limits.maxPerAccount ? byAccount.resetInMs : 0,
      byIp.count >= this.limits.maxPerIp ? byIp.resetInMs : 0,
    ]
    const wait = Math.max(...waits)
    return wait > 0 ? Math.ceil(wait / 1000) : null
  }

  async failed(ip: string, account: string): Promise<void> {
    await Promise.all([this.counter.hit(accountKey(account), this.limits.windowMs), this.counter.hit(ipKey(ip), this.limits.windowMs)])
  }

  async succeeded(account: string): Promise<void> {
    await this.counter.reset(accountKey(account))
  }
}

/** «Vuelve a intentarlo en 15 minutos», rounded up to whole minutes. */
export function throttleMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return `Demasiados intentos de acceso fallidos. Vuelve a intentarlo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`
}
