// Requests at a steady rate, evenly spaced, whatever the answers take (open loop), for the
// latency figures. autocannon's `-R` lets each connection send its share of every second
// back to back at the start of that second, so its latencies at "1 000 req/s" measure the
// queue of a burst of 20 concurrent requests rather than what one request costs.
import { Pool } from 'undici'

const TICK_MS = 1

/**
 * Sends `rate` requests per second for `durationS` seconds over up to `connections`
 * keep-alive connections; returns the response times in ms and the failures.
 */
export async function pacedLoad({ url, path, headersFor, rate, durationS, connections }) {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 })
  const latencies = []
  let non2xx = 0
  let errors = 0
  const inFlight = new Set()
  const send = (n) => {
    const started = performance.now()
    const call = pool
      .request({ method: 'GET', path, headers: headersFor(n % connections) })
      .then(async (res) => {
        await res.body.dump()
        latencies.push(performance.now() - started)
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx++
      })
      .catch(() => errors++)
      .finally(() => inFlight.delete(call))
    inFlight.add(call)
  }
  const start = performance.now()
  const end = start + durationS * 1000
  let sent = 0
  for (let now = start; now < end; now = performance.now()) {
    const due = Math.min(Math.floor(((now - start) * rate) / 1000) + 1, Math.ceil(durationS * rate))
    while (sent < due) send(sent++)
    await new Promise((resolve) => setTimeout(resolve, TICK_MS))
  }
  await Promise.all(inFlight)
  await pool.close()
  return { latencies, sent, non2xx, errors, durationS: (performance.now() - start) / 1000 }
}
