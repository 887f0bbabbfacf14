// `npm run cluster`: the production topology as processes on loopback, for trying scale-out
// without Docker and for the cross-replica tests. Redis (unless REDIS_URL names one), the
// reference API as its own process, two BFF replicas sharing Redis, and a round-robin
// reverse proxy in front that marks which replica answered (`X-Portal-Replica`).
//
//   node scripts/cluster-local.mjs [--port 3000] [--replica-ports 3001,3002] [--api-port 4000]
//                                  [--redis-port 6380] [--data-dir data/cluster] [--no-build]
//
// The same settings come from CLUSTER_PORT, CLUSTER_REPLICA_PORTS, CLUSTER_API_PORT,
// CLUSTER_REDIS_PORT and CLUSTER_DATA_DIR; a port of 0 means any free one.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { pathToFileURL } from 'node:url'

const ROOT = path.resolve(import.meta.dirname, '..')
const STARTUP_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 10_000
const REPLICA_HEADER = 'x-portal-replica'
const UNAVAILABLE = JSON.stringify({
  statusCode: 502,
  error: 'Bad Gateway',
  message: 'El portal no está disponible en este momento. Inténtalo de nuevo en unos segundos.',
})

/** A free loopback port (the kernel's pick; taken again by the caller right after). */
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts a child process, its output to `output` ('inherit': prefixed lines on ours; a file path; 'ignore'). */
function startChild(name, command, args, { env, output }) {
  const toFile = output !== 'inherit' && output !== 'ignore'
  const fd = toFile ? fs.openSync(output, 'a') : null
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', toFile ? fd : output === 'inherit' ? 'pipe' : 'ignore', toFile ? fd : output === 'inherit' ? 'pipe' : 'ignore'],
  })
  if (fd !== null) fs.closeSync(fd)
  if (output === 'inherit') {
    for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`))
  }
  let stopping = false
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  // A piece that dies on its own is said out loud; the others keep running.
  if (output === 'inherit') void exited.then(({ code, signal }) => stopping || process.stdout.write(`[${name}] exited (${signal ?? code})\n`))
  return {
    name,
    child,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    /** The end of its log file, for a start that failed. */
    logTail: () => (toFile && fs.existsSync(output) ? `\n--- ${name} (${output}) ---\n${fs.readFileSync(output, 'utf8').split('\n').slice(-20).join('\n')}` : ''),
    async stop(signal = 'SIGTERM') {
      stopping = true
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      await exited
      clearTimeout(timer)
    },
  }
}

async function waitFor(what, check, child) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child && !child.running()) throw new Error(`${what} exited while starting${child.logTail()}`)
    if (await check().catch(() => false)) return
    await sleep(100)
  }
  throw new Error(`${what} did not start within ${STARTUP_TIMEOUT_MS / 1000} s${child ? child.logTail() : ''}`)
}

/** Whether a Redis answers PING (one raw RESP exchange, no client library). */
export function redisAnswers(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')))
  })
}

const httpOk = (url) => fetch(url, { signal: AbortSignal.timeout(2000) }).then((res) => res.ok)

/**
 * A throwaway redis-server on loopback: no persistence, so a restart starts empty. `stop` and
 * `start` take it down and up on the same port (store-loss tests); `pause` and `resume`
 * freeze it (a Redis that accepts connections but never answers).
 */
export async function startRedisServer({ host = '127.0.0.1', port = 0, dir, output = 'ignore', command = process.env.REDIS_SERVER ?? 'redis-server' } = {}) {
  const chosen = port || (await freePort(host))
  const workDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'portal-redis-'))
  fs.mkdirSync(workDir, { recursive: true })
  let proc = null
  const start = async () => {
    const args = ['--port', String(chosen), '--bind', host, '--save', '', '--appendonly', 'no', '--dir', workDir, '--protected-mode', 'yes']
    proc = startChild('redis', command, args, { env: process.env, output })
    proc.child.once('error', () => undefined)
    await waitFor(`redis-server on port ${chosen}`, () => redisAnswers(host, chosen), proc)
  }
  await start()
  return {
    url: `redis://${host}:${chosen}`,
    host,
    port: chosen,
    start,
    stop: () => proc.stop(),
    pause: () => proc.child.kill('SIGSTOP'),
    resume: () => proc.child.kill('SIGCONT'),
    async close() {
      if (proc.running()) proc.child.kill('SIGCONT')
      await proc.stop()
      if (!dir) fs.rmSync(workDir, { recursive: true, force: true })
    },
  }
}

/** Headers that belong to one connection and are not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade'])

function withoutHopByHop(headers) {
  const out = {}
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value
  return out
}

/**
 * The reverse proxy: round robin over the replicas, Host passed as is, X-Forwarded-For (the
 * socket's address, whatever the client sent) and -Proto set, and the answering replica named in X-Portal-Replica. A replica that refuses
 * the connection is skipped for requests without a body (as nginx does).
 */
export function startProxy({ host = '127.0.0.1', port = 0, replicas }) {
  const agent = new http.Agent({ keepAlive: true })
  let next = 0
  const server = http.createServer((req, res) => forward(req, res, 0))

  function forward(req, res, attempt) {
    const replica = replicas[next++ % replicas.length]
    const headers = withoutHopByHop(req.headers)
    const client = req.socket.remoteAddress ?? ''
    // Replaced, not appended to: the replicas trust its first entry as the client's address
    // (sign-in and recovery throttles), so a client must not be able to write it.
    headers['x-forwarded-for'] = client
    headers['x-forwarded-proto'] = 'http'
    const upstream = http.request({ host: replica.host, port: replica.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...withoutHopByHop(answer.headers), [REPLICA_HEADER]: replica.name })
      answer.pipe(res)
    })
    const bodyless = req.method === 'GET' || req.method === 'HEAD'
    upstream.on('error', (err) => {
      if (!res.headersSent && bodyless && err.code === 'ECONNREFUSED' && attempt < replicas.length - 1) return forward(req, res, attempt + 1)
      if (res.headersSent) return res.destroy()
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' }).end(UNAVAILABLE)
    })
    if (bodyless) upstream.end()
    else req.pipe(upstream)
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const address = server.address()
      resolve({
        url: `http://${host}:${address.port}`,
        port: address.port,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections()
            agent.destroy()
          }),
      })
    })
  })
}

/**
 * Starts the whole topology and resolves once every piece answers. `output`: 'inherit'
 * (prefixed lines on this process's stdout) or 'files' (`<dataDir>/logs/<piece>.log`).
 * `env` is added to every Node process's environment.
 */
export async function startCluster(options = {}) {
  const host = options.host ?? '127.0.0.1'
  const dataDir = path.resolve(ROOT, options.dataDir ?? 'data/cluster')
  const apiDataDir = path.resolve(ROOT, options.apiDataDir ?? path.join(dataDir, 'api'))
  const logsDir = path.join(dataDir, 'logs')
  for (const dir of [dataDir, apiDataDir, logsDir]) fs.mkdirSync(dir, { recursive: true })
  const outputOf = (name) => (options.output === 'files' ? path.join(logsDir, `${name}.log`) : options.output ?? 'inherit')
  const baseEnv = { ...process.env, ...options.env }
  const started = []
  const stop = async () => {
    for (const piece of started.reverse()) await piece.stop()
  }

  try {
    let redisUrl = options.redisUrl
    if (!redisUrl) {
      const redis = await startRedisServer({ host, port: options.redisPort ?? 6380, dir: path.join(dataDir, 'redis'), output: outputOf('redis') })
      started.push({ stop: () => redis.close() })
      redisUrl = redis.url
    }

    const apiPort = options.apiPort || (await freePort(host))
    const api = startChild('api', process.execPath, ['--import', 'tsx', 'server/reference-api/main.ts'], {
      env: { ...baseEnv, API_HOST: host, API_PORT: String(apiPort), DATA_DIR: apiDataDir },
      output: outputOf('api'),
    })
    started.push(api)
    const apiUrl = `http://${host}:${apiPort}`
    await waitFor('the reference API', () => httpOk(`${apiUrl}/healthz`), api)

    // Every replica must decrypt the tokens the others stored in Redis: one key for all, made
    // for this run unless SESSION_ENCRYPTION_KEY names one (sessions do not outlive the run).
    const sessionEncryptionKey = baseEnv.SESSION_ENCRYPTION_KEY || randomBytes(32).toString('base64')
    const replicaPorts = options.replicaPorts ?? [3001, 3002]
    const replicas = []
    for (const [i, wanted] of replicaPorts.entries()) {
      const name = String.fromCharCode(97 + i)
      const port = wanted || (await freePort(host))
      const proc = startChild(`bff-${name}`, process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...baseEnv,
          HOST: host,
          PORT: String(port),
          UPSTREAM_URL: apiUrl,
          REDIS_URL: redisUrl,
          SESSION_ENCRYPTION_KEY: sessionEncryptionKey,
          DATA_DIR: path.join(dataDir, `bff-${name}`),
          TRUST_PROXY: 'true',
        },
        output: outputOf(`bff-${name}`),
      })
      started.push(proc)
      replicas.push({ name, host, port, url: `http://${host}:${port}`, process: proc })
    }
    await Promise.all(replicas.map((r) => waitFor(`BFF replica ${r.name}`, () => httpOk(`${r.url}/healthz`), r.process)))

    const proxy = await startProxy({ host, port: options.port ?? 3000, replicas })
    started.push({ stop: () => proxy.close() })

    return {
      url: proxy.url,
      proxyUrl: proxy.url,
      apiUrl,
      redisUrl,
      dataDir,
      replicas: replicas.map(({ name, url }) => ({ name, url })),
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}

/** Flags win over CLUSTER_* variables, which win over the defaults. */
function parseArgs(argv, env) {
  const flags = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--no-build') flags.noBuild = true
    else if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2)
      flags[name] = inline ?? argv[++i]
    }
  }
  const port = (value, fallback) => {
    if (value === undefined || value === '') return fallback
    const n = Number(value)
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`Puerto no válido: «${value}».`)
    return n
  }
  return {
    port: port(flags.port ?? env.CLUSTER_PORT, 3000),
    replicaPorts: (flags['replica-ports'] ?? env.CLUSTER_REPLICA_PORTS ?? '3001,3002').split(',').map((p) => port(p.trim(), 0)),
    apiPort: port(flags['api-port'] ?? env.CLUSTER_API_PORT, 4000),
    redisPort: port(flags['redis-port'] ?? env.CLUSTER_REDIS_PORT, 6380),
    dataDir: flags['data-dir'] ?? env.CLUSTER_DATA_DIR ?? 'data/cluster',
    redisUrl: env.REDIS_URL || undefined,
    build: !flags.noBuild,
  }
}

async function main() {
  let options
  try {
    options = parseArgs(process.argv.slice(2), process.env)
  } catch (err) {
    console.error(err.message)
    process.exit(1)
  }
  if (options.build) {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/ensure-build.mjs')], { cwd: ROOT, stdio: 'inherit' })
    if (built.status !== 0) process.exit(built.status ?? 1)
  }
  const cluster = await startCluster({ ...options, output: 'inherit' })
  console.log(
    [
      '',
      `portal (proxy)   ${cluster.proxyUrl}`,
      ...cluster.replicas.map((r) => `BFF replica ${r.name}    ${r.url}`),
      `reference API    ${cluster.apiUrl}`,
      `Redis            ${cluster.redisUrl.replace(/\/\/[^@/]*@/, '//')}`,
      `data and logs    ${cluster.dataDir.startsWith(ROOT + path.sep) ? path.relative(ROOT, cluster.dataDir) : cluster.dataDir}`,
      'Ctrl+C stops everything.',
      '',
    ].join('\n'),
  )
  let stopping = false
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (stopping) return
      stopping = true
      cluster.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      )
    })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    console.error(err.message)
    process.exit(1)
  })
}
