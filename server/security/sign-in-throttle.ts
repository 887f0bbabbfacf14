import { createHash } from 'node:crypto'
import type { AttemptCounter } from './attempt-counter'

export interface ThrottleLimits {
  /** Counted attempts of one account from one address within the window before that pair is refused. */
  maxPerAccountIp: number
  /** Counted attempts from one address, any account, within the window before it is refused. */
  maxPerIp: number
  /** Counted attempts of one account from all addresses within the window before each further one imposes a wait. */
  accountBackoffAfter: number
  /** The first of those waits; each further attempt doubles it, up to the window. */
  accountBackoffMs: number
  windowMs: number
}

/** Counter keys hold no e-mail address: a hash of the normalised one is enough to count. */
const accountHash = (account: string) => createHash('sha256').update(account.trim().toLowerCase()).digest('hex').slice(0, 32)

const seconds = (ms: number) => Math.ceil(ms / 1000)

/**
 * Limits attempts on accounts, refusing them (the caller answers 429 with Retry-After) before
 * the upstream is asked. An account is never locked for everyone: the pair account+address is
 * limited (the guesser's address), each address is limited across accounts, and an account
 * attacked from many addresses gets growing waits instead of a lockout, so its owner signing
 * in from elsewhere waits seconds, not the whole window. `scope` keeps each flow's counts apart.
 */
export class AttemptThrottle {
  constructor(
    private readonly counter: AttemptCounter,
    readonly limits: ThrottleLimits,
    private readonly scope: string,
  ) {}

  private keys(ip: string, account: string) {
    const hash = accountHash(account)
    return {
      pair: `${this.scope}:pair:${hash}:${ip}`,
      ip: `${this.scope}:ip:${ip}`,
      account: `${this.scope}:account:${hash}`,
      wait: `${this.scope}:wait:${hash}`,
    }
  }

  /** The wait the account's n-th counted attempt imposes on the next one, or 0. */
  backoffMs(n: number): number {
    const over = n - this.limits.accountBackoffAfter
    if (over <= 0) return 0
    return Math.min(this.limits.windowMs, this.limits.accountBackoffMs * 2 ** Math.min(over - 1, 40))
  }

  /** Seconds to wait when this attempt must be refused, else null. Counts nothing (sign-in counts failures only). */
  async refusal(ip: string, account: string): Promise<number | null> {
    const k = this.keys(ip, account)
    const [pair, byIp, wait] = await Promise.all([this.counter.peek(k.pair), this.counter.peek(k.ip), this.counter.peek(k.wait)])
    const longest = Math.max(
      pair.count >= this.limits.maxPerAccountIp ? pair.resetInMs : 0,
      byIp.count >= this.limits.maxPerIp ? byIp.resetInMs : 0,
      wait.resetInMs,
    )
    return longest > 0 ? seconds(longest) : null
  }

  /** Counts one failed attempt against the pair, the address and the account (whose backoff may start or grow). */
  async failed(ip: string, account: string): Promise<void> {
    const k = this.keys(ip, account)
    const [, , byAccount] = await Promise.all([
      this.counter.hit(k.pair, this.limits.windowMs),
      this.counter.hit(k.ip, this.limits.windowMs),
      this.counter.hit(k.account, this.limits.windowMs),
    ])
    const wait = this.backoffMs(byAccount.count)
    if (wait > 0) await this.counter.hold(k.wait, wait)
  }

  /**
   * Counts one attempt, whatever its outcome, and answers the seconds to wait when it is over a
   * limit, else null. Increments come first, so concurrent requests cannot all slip under a
   * limit; one refused by the pair does not spend the address's allowance, and one refused by
   * the backoff counts nowhere (it would only lengthen the wait the owner suffers).
   */
  async take(ip: string, account: string): Promise<number | null> {
    const k = this.keys(ip, account)
    const wait = await this.counter.peek(k.wait)
    if (wait.resetInMs > 0) return seconds(wait.resetInMs)
    const pair = await this.counter.hit(k.pair, this.limits.windowMs)
    if (pair.count > this.limits.maxPerAccountIp) return seconds(pair.resetInMs)
    const byIp = await this.counter.hit(k.ip, this.limits.windowMs)
    if (byIp.count > this.limits.maxPerIp) return seconds(byIp.resetInMs)
    const byAccount = await this.counter.hit(k.account, this.limits.windowMs)
    const next = this.backoffMs(byAccount.count)
    if (next > 0) await this.counter.hold(k.wait, next)
    return null
  }

  /** The owner got in: the pair and the account's count and backoff start afresh (the address's count stays). */
  async succeeded(ip: string, account: string): Promise<void> {
    const k = this.keys(ip, account)
    await Promise.all([this.counter.reset(k.pair), this.counter.reset(k.account), this.counter.reset(k.wait)])
  }
}

/** Sign-in: only failures count, so people who sign in often are never slowed down. */
export class SignInThrottle extends AttemptThrottle {
  constructor(counter: AttemptCounter, limits: ThrottleLimits) {
    super(counter, limits, 'signin')
  }
}

/** «15 minutos», rounded up to whole minutes; under a minute (backoff waits), in seconds. */
export function waitText(seconds: number): string {
  if (seconds < 60) {
    const s = Math.max(1, Math.ceil(seconds))
    return `${s} ${s === 1 ? 'segundo' : 'segundos'}`
  }
  const minutes = Math.ceil(seconds / 60)
  return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`
}

/** «Vuelve a intentarlo en 15 minutos». */
export function throttleMessage(seconds: number): string {
  return `Demasiados intentos de acceso fallidos. Vuelve a intentarlo en ${waitText(seconds)}.`
}
