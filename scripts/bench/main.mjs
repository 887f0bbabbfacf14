// `npm run bench`: the BFF proxy benchmark (issue 8). On loopback and in one run: the
// reference API alone (direct), the BFF in front of it (session, brand, CSRF, headers, one
// info log line per request to a file), nginx (the ceiling) and Express +
// http-proxy-middleware. Saturation at 50 and 200 connections, runs interleaved
// (direct, BFF, nginx, Express, direct, …) for 3 rounds; in each round also 1 000 requests/s
// evenly spaced (paced-load.mjs) direct, through the BFF and through nginx, for latency.
// Prints a markdown table and writes bench/results/latest.json.
//
//   npm run bench                  the run
//   npm run bench:check            the run, then its ratios against bench/results/baseline.json
//                                  (exit 1 when one fell more than 20 %)
//   npm run bench -- --profile     the BFF alone under 50 connections with --cpu-prof; the
//                                  profile goes to bench/profiles/ and its summary is printed
//   npm run bench -- --perf        the same run sampled by Linux perf (cpu-clock: CPU time only,
//                                  kernel included), summarised by where the CPU ran and by
//                                  the JavaScript package that asked for it (needs Debian's
//                                  linux-perf)
//   npm run bench -- --governance  only the governance cost on the read path (governance.mjs),
//                                  which the full run also measures after its rounds
//
// BENCH_DURATION (seconds per run, 10), BENCH_ROUNDS (3), BENCH_PORT_BASE (four consecutive
// ports from there; unset: free ones). Needs Linux (/proc) and Debian's nginx (installed with
// apt-get when missing, as root).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { measure } from './measure.mjs'
import { ensureNginx } from './nginx.mjs'
import { ROOT } from './processes.mjs'
import { describePerfSummary, summarisePerfScript } from './perf-summary.mjs'
import { profileSummary } from './profile-summary.mjs'
import { describeGovernance, governanceCost } from './governance.mjs'
import { compareWithBaseline, describeComparison } from './regression-check.mjs'
import { markdown, summarise } from './summary.mjs'
import { BENCH_PATH, countLogLines, startTargets } from './targets.mjs'

const args = new Set(process.argv.slice(2))
const durationS = Number(process.env.BENCH_DURATION ?? 10)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const WARM_UP_S = Math.min(3, durationS)
const ORDER = ['direct', 'bff', 'nginx', 'express']
const CONNECTIONS = [50, 200]
const RATE = 1000
/** Latency at that rate: the BFF against direct, nginx as a control (a hop that costs almost nothing). */
const RATE_ORDER = ['direct', 'bff', 'nginx']
/** Seconds at the rate before each latency run, not measured. */
const SETTLE_S = Math.min(3, durationS)
/** Connections sharing the fixed rate: enough that none waits on another at the BFF's latency. */
const RATE_CONNECTIONS = 20
/** Browser sessions signed in through the BFF; connection i uses session i mod this. */
const SESSIONS = 20
const RESULTS = path.join(ROOT, 'bench/results')
/** Seconds between the end of the profiled run and the end of the profile (the shutdown). */
const PROFILE_STOP_S = 0.5

const line = (r) =>
  `${r.target.padEnd(8)} ${r.rate ? `${r.rate} req/s` : `${r.connections} conn`.padEnd(9)} ${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  max ${r.maxMs.toFixed(1)} ms  cpu ${Math.round(r.cpuUsPerRequest)} µs/req${r.non2xx + r.errors + r.timeouts ? `  FAILED ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` : ''}`

async function profile(dir) {
  const profiles = path.join(ROOT, 'bench/profiles')
  fs.mkdirSync(profiles, { recursive: true })
  const before = new Set(fs.readdirSync(profiles))
  const running = await startTargets({ dir, sessions: SESSIONS, bffNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] })
  try {
    await measure(running.targets.bff, { connections: 50, durationS: WARM_UP_S })
    console.log(line(await measure(running.targets.bff, { connections: 50, durationS })))
  } finally {
    await running.stop()
  }
  // One profile per thread; the main thread's is the largest (the other is the TypeScript loader's).
  const written = fs
    .readdirSync(profiles)
    .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
    .map((f) => path.join(profiles, f))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)
  if (written.length === 0) throw new Error('the BFF wrote no profile')
  console.log(`\n${written.join('\n')}\n`)
  // The measured run only: start-up, warm-up and shutdown left out.
  console.log(profileSummary(written[0], { lastSeconds: durationS, stopSeconds: PROFILE_STOP_S }))
}

/**
 * The BFF under 50 connections, sampled by `perf record -e cpu-clock` for the measured run.
 * V8's profiler (--profile) samples the wall clock: a thread preempted inside a system call
 * counts as that call. Node writes a map of its compiled functions (/tmp/perf-<pid>.map) for
 * perf to name them; it is removed afterwards.
 */
async function perfProfile(dir) {
  if (spawnSync('perf', ['--version']).status !== 0) throw new Error('perf not found: sudo apt-get install -y --no-install-recommends linux-perf')
  const data = path.join(dir, 'perf.data')
  const running = await startTargets({ dir, sessions: SESSIONS, bffNodeArgs: ['--perf-basic-prof-only-functions'] })
  const pid = running.bffProcess.pid
  try {
    await measure(running.targets.bff, { connections: 50, durationS: WARM_UP_S })
    const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(pid), '-o', data, '--', 'sleep', String(durationS)], { stdio: ['ignore', 'ignore', 'pipe'] })
    let perfErr = ''
    perf.stderr.on('data', (d) => (perfErr += d))
    const recorded = new Promise((resolve) => perf.on('exit', resolve))
    console.log(line(await measure(running.targets.bff, { connections: 50, durationS })))
    if ((await recorded) !== 0) throw new Error(`perf record failed: ${perfErr.slice(-500)}`)
    const script = spawnSync('perf', ['script', '-i', data, '-F', 'ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1 << 30 })
    if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr.slice(-500)}`)
    console.log(`\n${describePerfSummary(summarisePerfScript(script.stdout))}`)
  } finally {
    await running.stop()
    fs.rmSync(`/tmp/perf-${pid}.map`, { force: true })
  }
}

async function benchmark(dir) {
  const running = await startTargets({ dir, sessions: SESSIONS })
  const runs = []
  const upstreamOf = (name) => (name === 'direct' ? undefined : running.targets.direct)
  let bffServed = 0
  const record = (round, kind, r) => {
    runs.push({ round, kind, ...r })
    if (r.target === 'bff') bffServed += r.requests
    console.log(`round ${round}  ${line(r)}`)
  }
  try {
    console.log(`warming up (${WARM_UP_S} s each)`)
    for (const name of ORDER) {
      const warmUp = await measure(running.targets[name], { connections: 50, durationS: WARM_UP_S })
      if (name === 'bff') bffServed += warmUp.requests
    }
    for (let round = 1; round <= rounds; round++) {
      for (const connections of CONNECTIONS) {
        for (const name of ORDER) record(round, 'saturation', await measure(running.targets[name], { connections, durationS, upstream: upstreamOf(name) }))
      }
      for (const name of RATE_ORDER) {
        // Unmeasured first: the queues and garbage of the saturation runs just before must not count.
        const settle = await measure(running.targets[name], { connections: RATE_CONNECTIONS, durationS: SETTLE_S, rate: RATE })
        if (name === 'bff') bffServed += settle.requests
        record(round, 'rate', await measure(running.targets[name], { connections: RATE_CONNECTIONS, durationS, rate: RATE, upstream: upstreamOf(name) }))
      }
    }
  } finally {
    await running.stop()
  }
  // Stopped, so its asynchronous log is flushed: one line per request (requests cut off when a
  // run ends are logged but not counted by autocannon, so a few more lines than requests).
  const logLines = countLogLines(running.bffLog, 'request completed', BENCH_PATH)
  const cpus = os.cpus()
  return summarise(runs, {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus.length} vCPU (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}; load generator, reference API and proxies on the same machine`,
    durationS,
    rounds,
    sessions: SESSIONS,
    bff_requests_served: bffServed,
    bff_request_log_lines: logLines,
  })
}

function check(summary) {
  const baselineFile = path.join(RESULTS, 'baseline.json')
  if (!fs.existsSync(baselineFile)) {
    console.error(`no baseline at ${baselineFile}: copy a good run's latest.json there`)
    return false
  }
  const rows = compareWithBaseline(summary, JSON.parse(fs.readFileSync(baselineFile, 'utf8')))
  console.log(`\nagainst ${path.relative(ROOT, baselineFile)}:`)
  for (const text of describeComparison(rows)) console.log(text)
  return rows.every((r) => r.ok)
}

async function main() {
  ensureNginx()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-'))
  try {
    if (args.has('--profile')) return await profile(dir)
    if (args.has('--perf')) return await perfProfile(dir)
    if (args.has('--governance')) {
      for (const text of describeGovernance(await governanceCost(dir, { sessions: SESSIONS, durationS }))) console.log(text)
      return
    }
    const summary = await benchmark(dir)
    summary.governance_read_path = await governanceCost(dir, { sessions: SESSIONS, durationS })
    console.log(`\n${markdown(summary)}\n`)
    for (const text of describeGovernance(summary.governance_read_path)) console.log(text)
    console.log(`BFF: ${summary.bff_requests_served} requests of ${BENCH_PATH} served, ${summary.bff_request_log_lines} "request completed" log lines for them`)
    fs.mkdirSync(RESULTS, { recursive: true })
    fs.writeFileSync(path.join(RESULTS, 'latest.json'), `${JSON.stringify(summary, null, 2)}\n`)
    console.log(`written: ${path.relative(ROOT, path.join(RESULTS, 'latest.json'))}`)
    if (args.has('--check') && !check(summary)) process.exitCode = 1
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
