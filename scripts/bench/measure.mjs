// One measured run against a target: the target's CPU time before and after, and every
// response time kept (autocannon's own histogram rounds to whole milliseconds).
import autocannon from 'autocannon'
import { pacedLoad } from './paced-load.mjs'
import { BENCH_PATH } from './targets.mjs'

/** The p-th percentile (0–100) of sorted values, nearest rank. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

/**
 * One run against a target: `connections` connections as fast as they go for `durationS`
 * seconds (autocannon), or, with `rate`, that many requests per second evenly spaced. Reports
 * requests/s, latencies in ms, failures and the CPU microseconds per request served of the
 * target, of `upstream` (the reference API behind a proxy) and of the load generator.
 */
export async function measure(target, { connections, durationS, rate, upstream, path = BENCH_PATH }) {
  const cpuBefore = target.cpuMicros()
  const upstreamBefore = upstream?.cpuMicros()
  const ownBefore = process.cpuUsage()
  const run = rate ? await paced(target, { connections, durationS, rate, path }) : await saturate(target, { connections, durationS, path })
  const cpuMicros = target.cpuMicros() - cpuBefore
  const upstreamMicros = upstream ? upstream.cpuMicros() - upstreamBefore : NaN
  const own = process.cpuUsage(ownBefore)
  const latencies = run.latencies.sort((a, b) => a - b)
  const served = latencies.length
  const perRequest = (micros) => (served > 0 ? micros / served : NaN)
  return {
    target: target.name,
    connections,
    rate: rate ?? null,
    durationS: run.durationS,
    requests: served,
    rps: served / run.durationS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: served ? latencies[served - 1] : NaN,
    /** Saturation runs: the slowest first request of a connection, and the slowest of the requests after a connection's first. */
    maxFirstRequestMs: run.maxFirstMs ?? null,
    maxLaterRequestMs: run.maxLaterMs ?? null,
    non2xx: run.non2xx,
    errors: run.errors,
    timeouts: run.timeouts,
    cpuUsPerRequest: perRequest(cpuMicros),
    /** The reference API behind a proxy, and this process (the load generator): where the rest of the machine went. */
    upstreamCpuUsPerRequest: perRequest(upstreamMicros),
    loadGeneratorCpuUsPerRequest: perRequest(own.user + own.system),
  }
}

async function saturate(target, { connections, durationS, path }) {
  const latencies = []
  let client = 0
  const instance = autocannon({
    url: target.url,
    connections,
    duration: durationS,
    requests: [{ method: 'GET', path }],
    setupClient: (c) => {
      c.setHeaders(target.headersFor(client++))
    },
  })
  // The slowest first request of a connection, apart from the slowest later one: a burst of new
  // connections is accepted one per event-loop iteration (libuv), so its last connections wait.
  const answered = new WeakSet()
  let maxFirstMs = 0
  let maxLaterMs = 0
  instance.on('response', (client, _status, _bytes, responseTime) => {
    latencies.push(responseTime)
    if (answered.has(client)) maxLaterMs = Math.max(maxLaterMs, responseTime)
    else {
      answered.add(client)
      maxFirstMs = Math.max(maxFirstMs, responseTime)
    }
  })
  const result = await instance
  return { latencies, durationS: result.duration, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, maxFirstMs, maxLaterMs }
}

async function paced(target, { connections, durationS, rate, path }) {
  const run = await pacedLoad({ url: target.url, path, headersFor: target.headersFor, rate, durationS, connections })
  return { ...run, timeouts: 0 }
}
