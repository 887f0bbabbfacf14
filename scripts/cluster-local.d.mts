// Types of scripts/cluster-local.mjs for the tests that start the topology.

export interface RunningRedis {
  url: string
  host: string
  port: number
  /** Starts it again on the same port (empty: no persistence). */
  start(): Promise<void>
  stop(): Promise<void>
  /** Freezes it (SIGSTOP): connections stay open but nothing answers. */
  pause(): void
  resume(): void
  close(): Promise<void>
}

export function freePort(host?: string): Promise<number>
export function redisAnswers(host: string, port: number): Promise<boolean>
export function startRedisServer(options?: { host?: string; port?: number; dir?: string; output?: 'inherit' | 'ignore' | string; command?: string }): Promise<RunningRedis>

export interface Replica {
  name: string
  host: string
  port: number
}
export function startProxy(options: { host?: string; port?: number; replicas: Replica[] }): Promise<{ url: string; port: number; close(): Promise<void> }>

export interface ClusterOptions {
  host?: string
  /** The proxy's port (0: any free one). */
  port?: number
  replicaPorts?: number[]
  apiPort?: number
  redisPort?: number
  /** Use this Redis instead of starting one. */
  redisUrl?: string
  dataDir?: string
  apiDataDir?: string
  output?: 'inherit' | 'files'
  /** Added to every Node process's environment. */
  env?: Record<string, string>
}

export interface RunningCluster {
  url: string
  proxyUrl: string
  apiUrl: string
  redisUrl: string
  dataDir: string
  replicas: { name: string; url: string }[]
  stop(): Promise<void>
}

export function startCluster(options?: ClusterOptions): Promise<RunningCluster>
