/**
 * Counts events per key in a fixed window (failed sign-ins and recovery requests per account,
 * per address and per both). The in-memory adapter serves one BFF; with REDIS_URL the Redis
 * adapter shares counts between replicas, so an attacker cannot multiply attempts by the
 * number of instances.
 */
export interface AttemptCounter {
  /** Records one event; answers the count in the current window and when it resets. */
  hit(key: string, windowMs: number): Promise<WindowCount>
  peek(key: string): Promise<WindowCount>
  /**
   * Makes the key's window last at least `ms` from now (counted once when new), keeping its
   * count; a longer window is left as it is. Backoff waits: the wait is the window's rest.
   */
  hold(key: string, ms: number): Promise<WindowCount>
  reset(key: string): Promise<void>
  close(): Promise<void> | void
}

export interface WindowCount {
  count: number
  /** Milliseconds until the window ends (0 when nothing is counted). */
  resetInMs: number
}

/** One process's counters; expired windows are swept as they are met and on a timer. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>()
  private readonly sweep: NodeJS.Timeout

  constructor(private readonly now: () => number = Date.now) {
    this.sweep = setInterval(() => {
      const t = this.now()
      for (const [k, w] of this.windows) if (w.endsAt <= t) this.windows.delete(k)
    }, 60_000)
    this.sweep.unref()
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const t = this.now()
    let w = this.windows.get(key)
    if (!w || w.endsAt <= t) {
      w = { count: 0, endsAt: t + windowMs }
      this.windows.set(key, w)
    }
    w.count++
    return { count: w.count, resetInMs: w.endsAt - t }
  }

  async peek(key: string): Promise<WindowCount> {
    const t = this.now()
    const w = this.windows.get(key)
    return w && w.endsAt > t ? { count: w.count, resetInMs: w.endsAt - t } : { count: 0, resetInMs: 0 }
  }

  async hold(key: string, ms: number): Promise<WindowCount> {
    const t = this.now()
    let w = this.windows.get(key)
    if (!w || w.endsAt <= t) {
      w = { count: 1, endsAt: t + ms }
      this.windows.set(key, w)
    } else if (w.endsAt < t + ms) w.endsAt = t + ms
    return { count: w.count, resetInMs: w.endsAt - t }
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key)
  }

  close(): void {
    clearInterval(this.sweep)
  }
}
