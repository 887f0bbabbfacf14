import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryAttemptCounter, type AttemptCounter } from '../../server/security/attempt-counter'
import { RedisAttemptCounter } from '../../server/security/redis-attempt-counter'
import { SignInThrottle } from '../../server/security/sign-in-throttle'
import { startTestRedis, type TestRedis } from '../helpers/redis'

let redis: TestRedis
beforeAll(async () => {
  redis = await startTestRedis()
})
afterAll(async () => {
  await redis?.close()
})

/** The sign-in throttle's counters: in memory for one BFF, in Redis shared by replicas; same behaviour. */
describe.each([
  ['memory', async () => [new MemoryAttemptCounter(), new MemoryAttemptCounter()] as AttemptCounter[], false],
  ['Redis', async () => (await Promise.all([RedisAttemptCounter.open(redis.url), RedisAttemptCounter.open(redis.url)])) as AttemptCounter[], true],
] as const)('attempt counter: %s', (_name, open, shared) => {
  it('counts within a window, tells when it resets, forgets on reset', async () => {
    const [counter] = await open()
    try {
      const key = `k-${Math.random()}`
      expect(await counter!.peek(key)).toEqual({ count: 0, resetInMs: 0 })
      expect((await counter!.hit(key, 60_000)).count).toBe(1)
      const second = await counter!.hit(key, 60_000)
      expect(second.count).toBe(2)
      expect(second.resetInMs).toBeGreaterThan(50_000)
      expect(second.resetInMs).toBeLessThanOrEqual(60_000)
      expect((await counter!.peek(key)).count).toBe(2)
      await counter!.reset(key)
      expect((await counter!.peek(key)).count).toBe(0)
    } finally {
      await counter!.close()
    }
  })

  it('starts a new window once the old one ends', async () => {
    const [counter] = await open()
    try {
      const key = `w-${Math.random()}`
      await counter!.hit(key, 150)
      await counter!.hit(key, 150)
      await new Promise((r) => setTimeout(r, 250))
      expect((await counter!.peek(key)).count).toBe(0)
      expect((await counter!.hit(key, 150)).count).toBe(1)
    } finally {
      await counter!.close()
    }
  })

  it(shared ? 'is shared by replicas: failures on one count on the other' : 'is per process', async () => {
    const [a, b] = await open()
    try {
      const limits = { maxPerAccount: 3, maxPerIp: 100, windowMs: 60_000 }
      const throttleA = new SignInThrottle(a!, limits)
      const throttleB = new SignInThrottle(b!, limits)
      const account = `u${Math.random()}@portal.test`
      for (let i = 0; i < 3; i++) await throttleA.failed('10.0.0.1', account)
      expect(await throttleA.refusal('10.0.0.1', account)).toBeGreaterThan(0)
      const onB = await throttleB.refusal('10.0.0.2', account)
      if (shared) expect(onB).toBeGreaterThan(0)
      else expect(onB).toBeNull()
    } finally {
      await a!.close()
      await b!.close()
    }
  })
})
