// Load and soak runs against /api/* through the BFF, with real sessions: reads and mutations.
//
//   npm run load   20 s as fast as 20 connections go: throughput, p50/p99 latency, errors.
//   npm run soak   30 minutes at a steady 300 requests/s through the production topology on
//                  loopback (npm run cluster: two BFF replicas sharing Redis, the reference API
//                  as its own process, a round-robin proxy); each replica's memory sampled from
//                  its /metrics every 10 s and reported each minute; fails on any error, or when
//                  a replica's memory after the first (warm-up) minute grows more than 10 %.
//
// Both end with the audit check (issue 16): every mutation answered is in the audit exactly
// once (matched by the request id the BFF answered with), and no more entries than mutations
// sent (a request cut off when the run ends may land unanswered). A failed check fails the run.
//
// Without LOAD_URL it starts what it runs against (a portal with the embedded reference API for
// the load, the cluster for the soak; temporary data folders) and stops it at the end. Knobs:
// LOAD_URL, LOAD_DURATION_S, LOAD_CONNECTIONS, LOAD_RATE (requests/s for the soak),
// METRICS_TOKEN (when the target's /metrics needs it).
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { startCluster } from './cluster-local.mjs'

const soak = process.argv.includes('--soak')
const durationS = Number(process.env.LOAD_DURATION_S ?? (soak ? 1800 : 20))
const connections = Number(process.env.LOAD_CONNECTIONS ?? (soak ? 20 : 20))
const rate = soak ? Number(process.env.LOAD_RATE ?? 300) : undefined
const WARM_UP_S = 60
const SAMPLE_EVERY_S = 10
const MAX_GROWTH = 0.1

const USERS = [
  { username: 'admin@portal.test', password: 'Portal-Admin-2026!' },
  { username: 'agente@portal.test', password: 'Portal-Agente-2026!' },
]
/** Sessions signed in: each user twice, so connections share no single session. */
const SESSIONS = 4

/** What a back-office user's screens ask for: list pages, filters, the dashboard, the manifest. */
const READS = [
  '/api/contract?pageIndex=0&pageSize=10',
  '/api/contract?pageIndex=3&pageSize=25&sortColumn=FechaAlta&sortOrder=desc',
  '/api/contract?pageIndex=0&pageSize=10&filterColumns[0]=Estado&filterQueries[0]=activo',
  '/api/facturas?pageIndex=0&pageSize=10',
  '/api/facturas?pageIndex=2&pageSize=25',
  '/api/utility/dashboard/resumen',
  '/bff/manifest',
].map((p) => ({ method: 'GET', path: p }))

/** The catalogued mutations of the mix (the audit check looks for exactly these calls). */
const PREFERENCE_PATH = '/api/usuarios/preference'
const SUBSTATE_PATH = '/api/renovaciones/change-subestado'
const AUDITED_CALLS = [`POST ${PREFERENCE_PATH.slice(1)}`, `PUT ${SUBSTATE_PATH.slice(1)}`]
/** Sub-states a load may set (the reference API's ids): not 4 «Renovado» (the renew action's) nor 6 «Baja solicitada» (held for approval). */
const SUBSTATE_IDS = [1, 2, 3, 5]

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** A portal of our own: the embedded reference API over a fresh data folder. */
async function startPortal() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-load-'))
  const port = await freePort()
  let stderr = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, NODE_ENV: 'development', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, CLIENT_DIST: path.join(dataDir, 'no-client'), LOG_LEVEL: 'info', UPSTREAM_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  process.stdout.write('starting a portal with the embedded reference API (the first start seeds its data) ')
  while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the portal did not start:\n${stderr}`)
    process.stdout.write('.')
    await sleep(500)
  }
  process.stdout.write(' ready\n')
  return {
    url,
    memoryTargets: [{ name: 'portal', url }],
    async stop() {
      child.kill('SIGTERM')
      const code = await exited
      fs.rmSync(dataDir, { recursive: true, force: true })
      if (code !== 0) throw new Error(`the portal exited with ${code} on SIGTERM:\n${stderr}`)
    },
  }
}

/** The soak's target: the cluster of `npm run cluster`, on free ports, its logs to files. */
async function startSoakCluster() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-soak-'))
  process.stdout.write('starting the cluster (Redis, reference API, two BFF replicas, proxy; the first start seeds its data) … ')
  const cluster = await startCluster({ dataDir, port: 0, replicaPorts: [0, 0], apiPort: 0, redisPort: 0, output: 'files', env: { NODE_ENV: 'development', LOG_LEVEL: 'info', CLIENT_DIST: path.join(dataDir, 'no-client') } })
  console.log('ready')
  return {
    url: cluster.url,
    memoryTargets: cluster.replicas.map((r) => ({ name: `replica ${r.name}`, url: r.url })),
    async stop() {
      await cluster.stop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function signIn(url, user) {
  const res = await fetch(`${url}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(user) })
  if (res.status !== 200) throw new Error(`sign-in of ${user.username} answered ${res.status}: ${await res.text()}`)
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

/** The BFF's resident and heap memory, from its /metrics. */
async function memory(url) {
  const headers = process.env.METRICS_TOKEN ? { authorization: `Bearer ${process.env.METRICS_TOKEN}` } : {}
  const res = await fetch(`${url}/metrics`, { headers })
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`)
  const text = await res.text()
  const value = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
  return { rss: value('process_resident_memory_bytes'), heap: value('nodejs_heap_size_used_bytes') }
}

/** Contract codes of renewals a session may change (not yet renewed), at most 20. */
async function renewalCodes(url, cookie) {
  const res = await fetch(`${url}/api/renovaciones?pageIndex=0&pageSize=20`, { headers: { accept: 'application/json', cookie } })
  if (res.status === 403) return []
  if (res.status !== 200) throw new Error(`the renewal list answered ${res.status}`)
  const page = await res.json()
  return page.Items.filter((r) => r.SubestadoId !== 4 && r.SubestadoId !== 6).map((r) => r.CodigoContrato)
}

/**
 * The audit entries of the mix's calls since `since`, read page by page as an admin. A shared
 * (Redis) audit looks at a bounded part of its log per read and says so (`Partial`, with
 * `Continuar`); the read goes on from there (`antesDe`) until an answer is whole. Entries are
 * kept by their id, so a change recorded twice shows as two ids with one request id.
 */
async function auditEntries(url, cookie, since) {
  const byId = new Map()
  for (const call of AUDITED_CALLS) {
    // A shared (Redis) audit reads a bounded part of the log per query: a partial answer names
    // where it stopped (`Continuar`), and the same query from there (`antesDe`) reads on.
    let before
    for (let window = 0; ; window++) {
      let next
      for (let pageIndex = 0; ; pageIndex++) {
        const query = new URLSearchParams({ call, desde: since.toISOString(), pageIndex: String(pageIndex), pageSize: '500' })
        if (before !== undefined) query.set('antesDe', before)
        const res = await fetch(`${url}/bff/admin/audit?${query}`, { headers: { accept: 'application/json', cookie } })
        if (res.status !== 200) throw new Error(`the audit answered ${res.status}: ${await res.text()}`)
        const page = await res.json()
        if (page.Partial && !page.Continuar) throw new Error('the audit answered part of the log without saying where to read on')
        if (page.Partial) next = page.Continuar
        for (const e of page.Items) byId.set(e.id, e)
        if (page.Items.length === 0 || (pageIndex + 1) * page.PageSize >= page.TotalCount) break
      }
      if (next === undefined) break
      if (next === before || window > 10_000) return { entries: [...byId.values()], partial: true }
      before = next
    }
  }
  return { entries: [...byId.values()], partial: false }
}

/**
 * Every mutation answered is in the audit once, with the status it was answered with; no entry
 * is there twice; no more entries than mutations sent.
 */
async function checkAudit(url, adminCookie, since, mutations) {
  const { entries, partial } = await auditEntries(url, adminCookie, since)
  const seen = new Map()
  for (const e of entries) seen.set(e.requestId, (seen.get(e.requestId) ?? 0) + 1)
  const twice = [...seen.values()].filter((n) => n > 1).length
  const missing = [...mutations.answered.keys()].filter((id) => !seen.has(id))
  const wrongStatus = entries.filter((e) => mutations.answered.has(e.requestId) && mutations.answered.get(e.requestId) !== e.outcome.status).length
  const ok = !partial && twice === 0 && missing.length === 0 && wrongStatus === 0 && entries.length <= mutations.sent
  return {
    ok,
    lines: [
      `audit        ${mutations.sent} mutations sent, ${mutations.answered.size} answered, ${entries.length} audit entries${partial ? ' (the store looked at part of the log only)' : ''}`,
      `             missing ${missing.length}, twice ${twice}, with another status ${wrongStatus}, entries over mutations sent ${Math.max(0, entries.length - mutations.sent)}: ${ok ? 'ok' : 'FAILED'}`,
    ],
  }
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length

async function main() {
  const own = process.env.LOAD_URL ? null : soak ? await startSoakCluster() : await startPortal()
  const url = (process.env.LOAD_URL ?? own.url).replace(/\/+$/, '')
  const memoryTargets = own?.memoryTargets ?? [{ name: 'portal', url }]
  let failed = false
  try {
    const cookies = []
    for (let i = 0; i < SESSIONS; i++) cookies.push(await signIn(url, USERS[i % USERS.length]))

    // Memory samples every 10 s while the load runs (soak only).
    const samples = []
    let sampler
    if (soak) {
      const startedAt = Date.now()
      sampler = setInterval(() => {
        for (const target of memoryTargets) {
          memory(target.url).then(
            (m) => samples.push({ target: target.name, atS: Math.round((Date.now() - startedAt) / 1000), ...m }),
            (err) => console.error(`memory sample of ${target.name} failed: ${err.message}`),
          )
        }
      }, SAMPLE_EVERY_S * 1000)
    }

    // Renewals each session may change (its own hierarchy's, for an agent), asked before the run.
    const renewals = []
    for (const cookie of cookies) renewals.push(await renewalCodes(url, cookie))
    const mutations = { sent: 0, answered: new Map() }
    const requestsOf = (i) => {
      const cookie = cookies[i]
      const headers = { accept: 'application/json', cookie }
      const write = { ...headers, 'content-type': 'application/json', 'x-csrf': '1' }
      const codes = renewals[i]
      let n = 0
      const sent = (req) => {
        mutations.sent++
        n++
        return req
      }
      const answered = (status, _body, _context, answerHeaders) => {
        const id = answerHeaders?.['x-request-id']
        if (id) mutations.answered.set(id, status)
      }
      return [
        ...READS.map((r) => ({ ...r, headers })),
        {
          method: 'POST',
          path: PREFERENCE_PATH,
          headers: write,
          setupRequest: (req) => sent({ ...req, body: JSON.stringify({ Clave: `load.k${n % 20}`, Valor: { n, at: Date.now() } }) }),
          onResponse: answered,
        },
        ...(codes.length === 0
          ? []
          : [
              {
                method: 'PUT',
                path: SUBSTATE_PATH,
                headers: write,
                setupRequest: (req) => sent({ ...req, body: JSON.stringify({ CodigoContrato: codes[n % codes.length], SubestadoId: SUBSTATE_IDS[n % SUBSTATE_IDS.length] }) }),
                onResponse: answered,
              },
            ]),
      ]
    }
    const startedAt = new Date()

    console.log(`${soak ? 'soak' : 'load'}: ${url}, ${connections} connections, ${durationS} s${rate ? `, ${rate} requests/s` : ''}, ${SESSIONS} sessions, ${READS.length} kinds of GET and ${AUDITED_CALLS.length} of mutation`)
    let next = 0
    const result = await autocannon({
      url,
      connections,
      duration: durationS,
      overallRate: rate,
      requests: requestsOf(0),
      headers: { accept: 'application/json' },
      // Each connection its own copy of the requests, with one session's cookie.
      setupClient: (client) => client.setRequests(requestsOf(next++ % cookies.length)),
    })
    clearInterval(sampler)

    const errors = result.errors + result.timeouts
    console.log('')
    console.log(`requests     ${result.requests.total} in ${result.duration} s`)
    console.log(`throughput   ${result.requests.average.toFixed(0)} requests/s (mean), ${(result.throughput.average / 1024).toFixed(0)} KiB/s`)
    console.log(`latency      p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`)
    console.log(`non-2xx      ${result.non2xx}`)
    console.log(`statuses     ${Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ')}`)
    console.log(`errors       ${result.errors} (timeouts ${result.timeouts})`)
    if (errors > 0 || result.non2xx > 0) failed = soak

    const audit = await checkAudit(url, cookies[0], startedAt, mutations)
    console.log('')
    for (const text of audit.lines) console.log(text)
    if (!audit.ok) failed = true

    if (soak) {
      console.log('')
      for (const target of memoryTargets) {
        const mine = samples.filter((s) => s.target === target.name)
        console.log(`${target.name}: minute   rss (mean)   heap used (mean)`)
        for (let minute = 1; minute * 60 <= durationS; minute++) {
          const inMinute = mine.filter((s) => s.atS > (minute - 1) * 60 && s.atS <= minute * 60)
          if (inMinute.length === 0) continue
          console.log(`${String(minute).padStart(6 + target.name.length + 2)}   ${mb(mean(inMinute.map((s) => s.rss))).padStart(10)}   ${mb(mean(inMinute.map((s) => s.heap))).padStart(16)}`)
        }
        // Warm-up: the first minute fills caches and pools; growth counts from its end.
        const first = mine.filter((s) => s.atS > WARM_UP_S && s.atS <= WARM_UP_S + 60)
        const last = mine.filter((s) => s.atS > durationS - 60)
        if (first.length === 0 || last.length === 0) {
          console.log('too short to judge memory growth (needs more than two minutes)')
        } else {
          for (const key of ['rss', 'heap']) {
            const growth = mean(last.map((s) => s[key])) / mean(first.map((s) => s[key])) - 1
            const ok = growth <= MAX_GROWTH
            console.log(`${target.name}: ${key === 'rss' ? 'rss ' : 'heap'} growth after warm-up ${(growth * 100).toFixed(1)} % (target under ${MAX_GROWTH * 100} %): ${ok ? 'met' : 'NOT MET'}`)
            if (!ok) failed = true
          }
        }
      }
      console.log(`errors and non-2xx answers ${errors + result.non2xx} (target 0): ${errors + result.non2xx === 0 ? 'met' : 'NOT MET'}`)
      console.log(`audit entries equal to the mutations answered, none twice: ${audit.ok ? 'met' : 'NOT MET'}`)
      if (errors > 0 || result.non2xx > 0) console.log('soak failed: some requests did not succeed')
    }
  } finally {
    await own?.stop()
  }
  if (failed) process.exit(1)
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
