import { Redis } from 'ioredis'
import { startRedisServer, type RunningRedis } from '../../scripts/cluster-local.mjs'

export type TestRedis = RunningRedis & {
  /** Empties it between tests. */
  flush(): Promise<void>
}

/** A real redis-server on a free loopback port, no persistence; `close` stops it and removes its folder. */
export async function startTestRedis(): Promise<TestRedis> {
  const server = await startRedisServer()
  return {
    ...server,
    flush: async () => {
      const client = new Redis(server.url, { maxRetriesPerRequest: 1 })
      try {
        await client.flushall()
      } finally {
        client.disconnect()
      }
    },
  }
}
