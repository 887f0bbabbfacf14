// `npm run bench:data`: the contract list of the reference API at scale (issue 8). Seeds
// SEED_CONTRACTS contracts per brand (100 000) into a temporary data folder, starts the
// reference API alone, signs in, and measures the API's own time (its Server-Timing header:
// the first call, and the median of several after it) for page 0, a deep page, every sortable column
// both ways, and a text, a select and a date-range filter; then the export of the whole list
// while sampling the API process's memory (/proc). Prints a markdown table, writes
// bench/results/data-latest.json, and exits 1 when a median is over the budget or the export
// held the file (its first byte only came after half the download time: built, then sent).
//
// BENCH_DATA_CONTRACTS (per brand, 100000), BENCH_DATA_RUNS (timed calls per case, 7),
// BENCH_DATA_BUDGET_MS (50), BENCH_DATA_PORT (unset: a free one), BENCH_DATA_DIR (reuse a data
// folder seeded by an earlier run with BENCH_DATA_KEEP=1, instead of seeding again). Linux only.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
// The sortable columns from the endpoint catalogue, not the API's code: the bench is a client
// of the API over HTTP, as the BFF is.
import contracts from '../../schemas/catalogue/contracts.json' with { type: 'json' }
import { ROOT, sleep, startProcess } from './processes.mjs'

const CONTRACTS = Number(process.env.BENCH_DATA_CONTRACTS ?? 100_000)
const RUNS = Number(process.env.BENCH_DATA_RUNS ?? 7)
const BUDGET_MS = Number(process.env.BENCH_DATA_BUDGET_MS ?? 50)
const PORT = Number(process.env.BENCH_DATA_PORT ?? 0)
const READY_TIMEOUT_MS = 15 * 60_000
const BRAND = 'energiaverde.es'
const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
const RESULTS = path.join(ROOT, 'bench/results')

/** The cases: query parameters of `GET /api/contract`. */
function cases(total) {
  const filter = (column, query) => ({ 'filterColumns[0]': column, 'filterQueries[0]': query })
  const list = [
    { name: 'page 0 (default order)', query: {} },
    { name: `deep page (${Math.floor(total / 20)} of ${Math.ceil(total / 10)})`, query: { pageIndex: Math.floor(total / 20) } },
  ]
  for (const column of contracts.calls.find((call) => call.id === 'contract.list').list.sortable) {
    for (const sortOrder of ['asc', 'desc']) list.push({ name: `sort ${column} ${sortOrder}`, query: { sortColumn: column, sortOrder } })
  }
  list.push(
    { name: 'filter text: Titular contains «garcia»', query: filter('Titular', 'garcia') },
    { name: 'filter select: Estado activo, baja', query: filter('Estado', 'activo,baja') },
    { name: 'filter select: Provincia 28 (Madrid)', query: filter('ProvinciaId', '28') },
    { name: 'filter date range: FechaAlta 2026-01-01|2026-03-31', query: filter('FechaAlta', '2026-01-01|2026-03-31') },
    { name: 'filter date range + sort Titular desc', query: { ...filter('FechaAlta', '2026-01-01|2026-03-31'), sortColumn: 'Titular', sortOrder: 'desc' } },
  )
  return list
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const round1 = (v) => Math.round(v * 10) / 10

/** Resident and anonymous (heap, buffers: not the mapped database file) memory of a process, MB. */
function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN)
  return { rssMb: kb('VmRSS') / 1024, anonMb: kb('RssAnon') / 1024 }
}

async function waitUntilReady(proc, logFile) {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (!proc.running()) throw new Error(`the reference API exited while starting${proc.logTail()}`)
    const listening = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(fs.readFileSync(logFile, 'utf8'))
    if (listening) {
      const ok = await fetch(`${listening[1]}/healthz`).then((r) => r.ok, () => false)
      if (ok) return listening[1]
    }
    await sleep(250)
  }
  throw new Error(`the reference API did not start within ${READY_TIMEOUT_MS / 60_000} min${proc.logTail()}`)
}

async function signIn(url) {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-brand-domain': BRAND }, body: JSON.stringify(ADMIN) })
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`)
  return (await res.json()).token
}

/** One call: the API's Server-Timing duration and the answer. */
async function timedCall(url, token, query) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))
  const res = await fetch(`${url}/api/contract?${qs}`, { headers: { 'x-brand-domain': BRAND, authorization: `Bearer ${token}` } })
  const body = await res.text()
  if (res.status !== 200) throw new Error(`GET /api/contract?${qs}: ${res.status} ${body}`)
  const dur = /app;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')
  if (!dur) throw new Error('the reference API sent no Server-Timing header')
  return { ms: Number(dur[1]), page: JSON.parse(body) }
}

/** Downloads the whole export while sampling the API's memory every 20 ms. */
async function measureExport(url, token, pid) {
  const idle = []
  for (let i = 0; i < 10; i++) {
    idle.push(memoryOf(pid))
    await sleep(30)
  }
  const before = { rssMb: median(idle.map((m) => m.rssMb)), anonMb: median(idle.map((m) => m.anonMb)) }
  const peak = { ...before }
  const sampler = setInterval(() => {
    const m = memoryOf(pid)
    peak.rssMb = Math.max(peak.rssMb, m.rssMb)
    peak.anonMb = Math.max(peak.anonMb, m.anonMb)
  }, 20)
  const started = performance.now()
  const res = await fetch(`${url}/api/contract/export?pageSize=-1`, { headers: { 'x-brand-domain': BRAND, authorization: `Bearer ${token}` } })
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`)
  let bytes = 0
  let firstByteMs = null
  for await (const chunk of res.body) {
    firstByteMs ??= performance.now() - started
    bytes += chunk.length
  }
  const totalMs = performance.now() - started
  clearInterval(sampler)
  const fileMb = bytes / 1024 / 1024
  const anonGrowthMb = peak.anonMb - before.anonMb
  return {
    fileName: /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null,
    contentLength: res.headers.get('content-length'),
    transferEncoding: res.headers.get('transfer-encoding'),
    fileMb: round1(fileMb),
    firstByteMs: Math.round(firstByteMs ?? totalMs),
    totalMs: Math.round(totalMs),
    rssBeforeMb: round1(before.rssMb),
    rssPeakMb: round1(peak.rssMb),
    anonBeforeMb: round1(before.anonMb),
    anonPeakMb: round1(peak.anonMb),
    anonGrowthMb: round1(anonGrowthMb),
    // Built whole before sending, the first byte would come at the end; streamed, right away.
    streamed: res.headers.get('content-length') === null && (firstByteMs ?? totalMs) < totalMs / 2,
  }
}

function machine() {
  const cpus = os.cpus()
  return `${cpus.length} vCPU (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ${Math.round(os.totalmem() / 1024 ** 3)} GB; client and reference API on the same machine`
}

async function main() {
  const reuse = process.env.BENCH_DATA_DIR
  const dataDir = reuse ? path.resolve(reuse) : fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-data-'))
  const logFile = path.join(dataDir, 'reference-api.log')
  fs.rmSync(logFile, { force: true })
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, SEED_CONTRACTS: String(CONTRACTS), API_HOST: '127.0.0.1', API_PORT: String(PORT), LOG_LEVEL: 'info' }
  delete env.REFERENCE_API_FAULTS
  console.log(`Reference API over ${CONTRACTS.toLocaleString('en')} contracts per brand in ${dataDir}${reuse ? ' (reused)' : ''}; seeding a new database takes a while…`)
  const startedAt = performance.now()
  const api = startProcess('reference-api', process.execPath, ['--import', 'tsx', 'server/reference-api/main.ts'], { env, logFile })
  let failed = false
  try {
    const url = await waitUntilReady(api, logFile)
    const readySeconds = (performance.now() - startedAt) / 1000
    const token = await signIn(url)
    const first = await timedCall(url, token, {})
    const total = first.page.TotalCount
    console.log(`Ready in ${readySeconds.toFixed(1)} s; the list holds ${total.toLocaleString('en')} contracts. ${RUNS} timed calls per case after one warm-up.`)

    const results = []
    let initial = first
    for (const c of cases(total)) {
      // The first call of a filter counts the matching rows and their totals; the next ones find
      // them kept (the database unchanged). Both are reported; the budget is on the median. Page
      // 0's first call is the one made above, the first of the unfiltered list.
      const firstCall = initial && Object.keys(c.query).length === 0 ? initial : await timedCall(url, token, c.query)
      initial = null
      const times = []
      let page
      for (let i = 0; i < RUNS; i++) {
        const r = await timedCall(url, token, c.query)
        times.push(r.ms)
        page = r.page
      }
      const result = { name: c.name, query: c.query, firstMs: round1(firstCall.ms), medianMs: round1(median(times)), minMs: round1(Math.min(...times)), maxMs: round1(Math.max(...times)), rows: page.Items.length, totalCount: page.TotalCount }
      results.push(result)
      console.log(`  ${result.medianMs.toFixed(1).padStart(6)} ms  (first ${result.firstMs.toFixed(1)} ms)  ${c.name} (${result.totalCount} rows)`)
    }
    const exported = await measureExport(url, token, api.pid)
    const slow = results.filter((r) => r.medianMs > BUDGET_MS)
    failed = slow.length > 0 || !exported.streamed

    const lines = [
      `### Contract list, ${total.toLocaleString('en')} contracts in the brand (${(CONTRACTS * 3).toLocaleString('en')} in the database)`,
      '',
      `API's own time (Server-Timing): the first call of each case (it counts the matching rows and their totals, unless an earlier case had the same filters) and the median of the ${RUNS} after it (which find them kept); budget ${BUDGET_MS} ms for the median. A first call also meets pages of the database not yet in memory.`,
      '',
      '| case | first call ms | median ms | min | max | matching rows |',
      '|---|---:|---:|---:|---:|---:|',
      ...results.map((r) => `| ${r.name.replaceAll('|', '\\|')} | ${r.firstMs.toFixed(1)} | ${r.medianMs.toFixed(1)} | ${r.minMs.toFixed(1)} | ${r.maxMs.toFixed(1)} | ${r.totalCount} |`),
      '',
      `Export of the whole list (\`${exported.fileName}\`): ${exported.fileMb} MB in ${(exported.totalMs / 1000).toFixed(1)} s, first byte after ${exported.firstByteMs} ms, ` +
        `${exported.contentLength === null ? `no Content-Length (${exported.transferEncoding})` : `Content-Length ${exported.contentLength}`}; ` +
        `API process memory: resident ${exported.rssBeforeMb} → peak ${exported.rssPeakMb} MB, anonymous ${exported.anonBeforeMb} → peak ${exported.anonPeakMb} MB (+${exported.anonGrowthMb} MB) — ${exported.streamed ? 'streamed' : 'HELD IN MEMORY'}.`,
      '',
      slow.length
        ? `Over budget: ${slow.map((r) => `${r.name} (${r.medianMs} ms)`).join(', ')}.`
        : `Every median within ${BUDGET_MS} ms (slowest: ${Math.max(...results.map((r) => r.medianMs)).toFixed(1)} ms; slowest first call: ${Math.max(...results.map((r) => r.firstMs)).toFixed(1)} ms).`,
    ]
    console.log(`\n${lines.join('\n')}`)

    fs.mkdirSync(RESULTS, { recursive: true })
    const json = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      contractsPerBrand: CONTRACTS,
      listTotal: total,
      readySeconds: round1(readySeconds),
      databaseMb: round1(fs.statSync(path.join(dataDir, 'reference-api.db')).size / 1024 / 1024),
      runsPerCase: RUNS,
      budgetMs: BUDGET_MS,
      slowestMedianMs: Math.max(...results.map((r) => r.medianMs)),
      slowestFirstMs: Math.max(...results.map((r) => r.firstMs)),
      cases: results,
      export: exported,
      ok: !failed,
    }
    fs.writeFileSync(path.join(RESULTS, 'data-latest.json'), `${JSON.stringify(json, null, 2)}\n`)
    console.log(`\nWritten to bench/results/data-latest.json`)
  } finally {
    await api.stop()
    if (!reuse && !process.env.BENCH_DATA_KEEP) fs.rmSync(dataDir, { recursive: true, force: true })
    else console.log(`Data kept in ${dataDir} (BENCH_DATA_DIR=${dataDir} reuses it).`)
  }
  process.exitCode = failed ? 1 : 0
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
