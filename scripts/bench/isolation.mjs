// npm run bench:isolation — does one user's big export slow everyone else (issue 19)? Starts
// the portal (BFF and its embedded reference API, as `npm start` runs them) over a data folder
// whose brands hold --contracts contracts each (100 000), signs in two sessions, and measures,
// at a steady few requests per second, the latency of `/healthz` and of a proxied page of
// contracts: first idle, then while the first session exports the whole contract list (as the
// browser asks for it; the BFF builds the file). Target: during the export, each p99 within 2×
// its idle p99. Every round is printed; bench/results/isolation-latest.json keeps them.
//
//   node scripts/bench/isolation.mjs [--contracts 100000] [--rounds 3] [--data-dir <seeded folder to reuse>]
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Worker } from 'node:worker_threads'
import { percentile } from './measure.mjs'

const ROOT = path.resolve(import.meta.dirname, '../..')
const READY_TIMEOUT_MS = 30 * 60_000
const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
/** Requests per second of each probe: a light, steady load, so the figures are the latency one request meets. */
const PROBE_RATE = 20
const IDLE_S = 10
const MAX_RATIO = 2
const PROBES = [
  { name: '/healthz', path: '/healthz', session: false },
  { name: 'contract page (proxied)', path: '/api/contract?pageIndex=0&pageSize=10', session: true },
]

const { values: opts } = parseArgs({
  options: {
    contracts: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    'data-dir': { type: 'string' },
    out: { type: 'string', default: 'bench/results/isolation-latest.json' },
  },
})
const contracts = Number(opts.contracts)
const rounds = Number(opts.rounds)
const log = (...a) => console.error('[bench:isolation]', ...a)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

async function startPortal(port, dataDir) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, CLIENT_DIST: path.join(dataDir, 'no-client'), LOG_LEVEL: 'warn', SEED_CONTRACTS: String(contracts), UPSTREAM_URL: '' },
  })
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (!(await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the portal exited while starting (code ${child.exitCode})`)
    if (Date.now() > deadline) throw new Error('the portal was not ready in time')
    await sleep(500)
  }
  return child
}

async function signIn(base) {
  const res = await fetch(`${base}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(ADMIN) })
  if (!res.ok) throw new Error(`sign-in: ${res.status}`)
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

/** Sends `rate` requests a second to `path` until `stop()` resolves; the latencies in ms. */
async function probe(base, path, headers, stop) {
  const latencies = []
  let failures = 0
  const inFlight = new Set()
  let done = false
  void stop.then(() => (done = true))
  while (!done) {
    const started = performance.now()
    const request = fetch(`${base}${path}`, { headers }).then(
      async (res) => {
        await res.arrayBuffer()
        if (!res.ok) failures++
        latencies.push(performance.now() - started)
      },
      () => failures++,
    )
    inFlight.add(request)
    void request.finally(() => inFlight.delete(request))
    await sleep(1000 / PROBE_RATE)
  }
  await Promise.all(inFlight)
  return { latencies: latencies.sort((a, b) => a - b), failures }
}

const figures = ({ latencies, failures }) => ({ requests: latencies.length, failures, p50Ms: round1(percentile(latencies, 50)), p99Ms: round1(percentile(latencies, 99)), maxMs: round1(latencies[latencies.length - 1]) })
const round1 = (v) => Math.round(v * 10) / 10

/** Every probe at once while `during` runs (or for IDLE_S seconds). */
async function measureProbes(base, cookie, during) {
  let failed
  // The probes stop when the export ends, well or not; its failure is the run's.
  const stop = (during ?? sleep(IDLE_S * 1000)).catch((err) => {
    failed = err
  })
  const results = await Promise.all(PROBES.map((p) => probe(base, p.path, p.session ? { cookie, accept: 'application/json' } : {}, stop)))
  if (failed) throw failed
  return PROBES.map((p, i) => ({ probe: p.name, ...figures(results[i]) }))
}

/**
 * The first session's export of the whole contract list, downloaded on a thread of its own: the
 * exporting user is another client, so reading its 20 MB must not delay the probes' own timing.
 */
function exportAll(base, cookie) {
  const download = `
    const { parentPort, workerData: { base, cookie } } = require('node:worker_threads')
    ;(async () => {
      const started = performance.now()
      const res = await fetch(base + '/api/contract/export', { headers: { cookie, accept: '*/*' } })
      if (!res.ok) throw new Error('export: ' + res.status + ' ' + (await res.text()))
      let bytes = 0
      for await (const chunk of res.body) bytes += chunk.length
      parentPort.postMessage({ ms: performance.now() - started, bytes })
    })().catch((err) => { throw err })`
  return new Promise((resolve, reject) => {
    const worker = new Worker(download, { eval: true, workerData: { base, cookie } })
    worker.once('message', ({ ms, bytes }) => resolve({ seconds: round1(ms / 1000), mb: round1(bytes / 1024 / 1024) }))
    worker.once('error', reject)
    worker.once('exit', (code) => code !== 0 && reject(new Error(`the export's download stopped (exit code ${code})`)))
  })
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-isolation-'))
  const dataDir = opts['data-dir'] ? path.resolve(opts['data-dir']) : path.join(work, 'data')
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  log(`portal over ${contracts.toLocaleString('en')} contracts per brand in ${dataDir} (a new folder is seeded first: minutes)…`)
  const portal = await startPortal(port, dataDir)
  const runs = []
  try {
    const probeCookie = await signIn(base)
    const exportCookie = await signIn(base)
    await measureProbes(base, probeCookie) // warm-up, not kept
    for (let round = 1; round <= rounds; round++) {
      const idle = await measureProbes(base, probeCookie)
      let exported
      const during = await measureProbes(base, probeCookie, exportAll(base, exportCookie).then((e) => (exported = e)))
      const rows = PROBES.map((p, i) => ({ probe: p.name, idle: idle[i], during: during[i], ratioP99: round1(during[i].p99Ms / idle[i].p99Ms) }))
      for (const r of rows) r.met = r.ratioP99 <= MAX_RATIO && r.during.failures === 0
      runs.push({ round, export: exported, probes: rows })
      for (const r of rows) log(`round ${round}: ${r.probe} p99 idle ${r.idle.p99Ms} ms, during the export ${r.during.p99Ms} ms (max ${r.during.maxMs}) = ${r.ratioP99}× (target ≤ ${MAX_RATIO}×): ${r.met ? 'met' : 'NOT MET'}`)
      log(`round ${round}: export of ${exported.mb} MB in ${exported.seconds} s`)
    }
  } finally {
    const exited = new Promise((r) => portal.once('exit', r))
    portal.kill('SIGTERM')
    await exited
    if (!opts['data-dir']) fs.rmSync(work, { recursive: true, force: true })
  }
  const lines = [
    `| round | probe | idle p99 ms | during export p99 ms | max ms | ratio | target ≤ ${MAX_RATIO}× |`,
    '|---:|---|---:|---:|---:|---:|---|',
    ...runs.flatMap((r) => r.probes.map((p) => `| ${r.round} | ${p.probe} | ${p.idle.p99Ms} | ${p.during.p99Ms} | ${p.during.maxMs} | ${p.ratioP99} | ${p.met ? 'met' : 'NOT MET'} |`)),
  ]
  console.log(lines.join('\n'))
  const met = runs.every((r) => r.probes.every((p) => p.met))
  const cpus = os.cpus()
  fs.mkdirSync(path.dirname(path.resolve(ROOT, opts.out)), { recursive: true })
  fs.writeFileSync(
    path.resolve(ROOT, opts.out),
    `${JSON.stringify({ date: new Date().toISOString(), machine: `${cpus.length} vCPU (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`, contractsPerBrand: contracts, probeRate: PROBE_RATE, runs, met }, null, 2)}\n`,
  )
  if (!met) process.exitCode = 1
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
