// npm run bench:client — the client budget: initial JavaScript per route from the build's
// module graph, timings in Debian's Chromium against the production build on loopback (medians
// of --runs runs), and Lighthouse (desktop) on the sign-in page and the dashboard. Writes
// bench/results/client-latest.json, prints a Markdown table, exits 1 when a budget is missed.
//
//   node scripts/bench/client.mjs [--dist <built client>] [--runs 10] [--lighthouse-runs 3] [--port <n>]
//
// Without --dist it builds the client into a temporary folder (dist/client is left alone).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { measureBudgets } from './client-budget.mjs'
import { measureInBrowser } from './client-browser.mjs'
import { CATEGORIES, lighthouseOnce } from './client-lighthouse.mjs'

const LIGHTHOUSE_MIN = 95
const CREDENTIALS = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const log = (...a) => console.error('[bench:client]', ...a)

const { values: opts } = parseArgs({
  options: {
    dist: { type: 'string' },
    runs: { type: 'string', default: '10' },
    'lighthouse-runs': { type: 'string', default: '3' },
    port: { type: 'string' },
    out: { type: 'string', default: 'bench/results/client-latest.json' },
  },
})
const runs = Number(opts.runs)
const lighthouseRuns = Number(opts['lighthouse-runs'])

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

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

function build(outDir) {
  log(`compilando el cliente en ${outDir}…`)
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { stdio: 'inherit' })
}

/** The portal as production runs it (NODE_ENV=production, its own data folder), on loopback. */
async function startPortal({ port, dist, dataDir }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, CLIENT_DIST: dist, ALLOWED_HOSTS: 'localhost,127.0.0.1', LOG_LEVEL: 'warn' },
  })
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`el portal terminó al arrancar (código ${child.exitCode})`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`)
      if (res.ok) return child
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error('el portal no estuvo listo en 120 s')
    }
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** A session cookie for the demo admin, signed in through the BFF as the browser would. */
async function signIn(baseUrl) {
  const res = await fetch(`${baseUrl}/bff/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf': '1' },
    body: JSON.stringify(CREDENTIALS),
  })
  if (!res.ok) throw new Error(`inicio de sesión del banco de pruebas: ${res.status}`)
  const [name, value] = (res.headers.getSetCookie()[0] ?? '').split(';', 1)[0].split('=')
  if (!name || !value) throw new Error('el inicio de sesión no devolvió cookie')
  return { name, value }
}

function chromiumVersion() {
  try {
    return execFileSync(chromiumPath, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()
  } catch {
    return 'unknown'
  }
}

async function lighthousePages(baseUrl, cookie) {
  const pages = [
    { page: 'login', url: `${baseUrl}/auth/login` },
    { page: 'dashboard', url: `${baseUrl}/`, cookieHeader: `${cookie.name}=${cookie.value}` },
  ]
  const results = []
  for (const p of pages) {
    const reports = []
    for (let i = 0; i < lighthouseRuns; i++) {
      const r = await lighthouseOnce({ url: p.url, chromiumPath, cookieHeader: p.cookieHeader })
      // A dashboard report that ended on the sign-in page measured the wrong page.
      if (new URL(r.finalUrl).pathname !== new URL(p.url).pathname) throw new Error(`Lighthouse acabó en ${r.finalUrl} en vez de ${p.url}`)
      log(`lighthouse ${p.page} ${i + 1}/${lighthouseRuns}: ${CATEGORIES.map((c) => `${c} ${r.scores[c]}`).join(', ')}`)
      reports.push(r)
    }
    const medianScores = Object.fromEntries(CATEGORIES.map((c) => [c, median(reports.map((r) => r.scores[c]))]))
    results.push({
      page: p.page,
      path: new URL(p.url).pathname,
      runs: reports.map(({ scores, metrics, failing }) => ({ scores, metrics, failing })),
      medianScores,
      pass: CATEGORIES.every((c) => medianScores[c] >= LIGHTHOUSE_MIN),
      lighthouseVersion: reports[0]?.lighthouseVersion,
    })
  }
  return results
}

function markdown(result) {
  const lines = ['| measure | result | target |', '|---|---|---|']
  for (const b of result.budgets) {
    lines.push(`| ${b.route} (\`${b.path}\`): initial JS, gzip | ${b.jsGzipKb} kB (${b.jsBrotliKb} kB brotli, ${b.files.length} files) | < ${b.budgetKb} kB |`)
  }
  const t = result.browser
  lines.push(`| sign-in form interactive (cold cache), median of ${t.runs} | ${t.loginInteractive.medianMs} ms (${t.loginInteractive.minMs}–${t.loginInteractive.maxMs}) | |`)
  lines.push(`| sign-in → dashboard drawn, median of ${t.runs} | ${t.signInToDashboard.medianMs} ms (${t.signInToDashboard.minMs}–${t.signInToDashboard.maxMs}) | |`)
  lines.push(`| contracts list page 1 → page 2, median of ${t.runs} | ${t.contractsPage1To2.medianMs} ms (${t.contractsPage1To2.minMs}–${t.contractsPage1To2.maxMs}) | |`)
  for (const l of result.lighthouse) {
    lines.push(`| Lighthouse ${l.page}, median of ${l.runs.length} | ${CATEGORIES.map((c) => `${c} ${l.medianScores[c]}`).join(' · ')} | ≥ ${LIGHTHOUSE_MIN} each |`)
  }
  return lines.join('\n')
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-client-'))
  let portal
  try {
    const dist = opts.dist ? path.resolve(opts.dist) : path.join(work, 'dist')
    if (!opts.dist) build(dist)
    const budgets = measureBudgets(dist)
    for (const b of budgets) log(`${b.route}: ${b.jsGzipKb} kB gzip (presupuesto ${b.budgetKb} kB)`)

    const port = opts.port ? Number(opts.port) : await freePort()
    const baseUrl = `http://localhost:${port}`
    const loadBefore = os.loadavg()[0]
    portal = await startPortal({ port, dist, dataDir: path.join(work, 'data') })
    const cookie = await signIn(baseUrl)

    log(`${runs} pasadas en Chromium…`)
    const browser = await measureInBrowser({
      baseUrl,
      runs,
      credentials: CREDENTIALS,
      sessionCookie: cookie,
      chromiumPath,
      onRun: (i, s) => log(`pasada ${i}: formulario ${Math.round(s.loginInteractive)} ms, panel ${Math.round(s.signInToDashboard)} ms, página 2 ${Math.round(s.contractsPage1To2)} ms`),
    })
    // What the browser fetched before each page was ready, against what the budget counted:
    // code deferred until after the first paint (the toasts) shows up here, anything else is a
    // budget that misses part of the page.
    const budgetByRoute = Object.fromEntries(budgets.map((b) => [b.route, b]))
    for (const [route, loaded] of Object.entries(browser.loaded)) {
      const counted = new Set(budgetByRoute[route]?.files ?? [])
      loaded.notCounted = loaded.files.filter((f) => !counted.has(f.file))
      loaded.countedButNotLoaded = [...counted].filter((f) => !loaded.files.some((l) => l.file === f))
      log(`${route}: el navegador recibió ${loaded.transferredKb} kB de JS (comprimido) hasta tenerla lista`)
      for (const f of loaded.notCounted) log(`  además, fuera del presupuesto inicial: ${f.file} (${f.transferredKb} kB)`)
      for (const f of loaded.countedButNotLoaded) log(`  contado pero no cargado: ${f}`)
    }

    const lighthouse = await lighthousePages(baseUrl, cookie)
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadAverage1m: { before: loadBefore, after: os.loadavg()[0] }, node: process.version, chromium: chromiumVersion() },
      build: { dist: opts.dist ? dist : '(temporary build)', buildId: JSON.parse(fs.readFileSync(path.join(dist, 'build.json'), 'utf8')).buildId },
      budgets,
      browser,
      lighthouse,
    }
    result.pass = budgets.every((b) => b.withinBudget) && lighthouse.every((l) => l.pass)

    fs.mkdirSync(path.dirname(path.resolve(opts.out)), { recursive: true })
    fs.writeFileSync(path.resolve(opts.out), `${JSON.stringify(result, null, 2)}\n`)
    console.log(markdown(result))
    console.log(`\n${result.pass ? 'Dentro del presupuesto.' : 'FUERA DEL PRESUPUESTO.'} Detalle en ${opts.out}`)
    if (!result.pass) process.exitCode = 1
  } finally {
    if (portal && portal.exitCode === null) {
      const exited = new Promise((r) => portal.once('exit', r))
      portal.kill('SIGTERM')
      await exited
    }
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
