// npm run bench:screens — what staff feel when they move between screens (issue 19): in
// Debian's Chromium with its CPU throttled (4× by default, DevTools protocol), over a portal
// whose brands hold SEED_CONTRACTS contracts each (100 000), the time from a click on a side
// menu entry to the first rows of its list painted (contracts, invoices, renewals, agents),
// from a click on a contract's code to its detail painted, and the Interaction to Next Paint
// of typing in a list filter. Each click is preceded by the pointer resting on the entry
// (hover: the intent that prefetches the screen and its first page), as a person's click is.
// Times are taken inside the page, from the click event's timestamp to the frame after the
// awaited state is on screen. Prints p50/p95/max per measure against its target, met or not,
// every run, and writes bench/results/screens-latest.json.
//
//   node scripts/bench/screens.mjs [--dist <built client>] [--runs 20] [--throttle 4]
//                                  [--contracts 100000] [--data-dir <seeded folder to reuse>]
//                                  [--compare <another built client>]
//
// --compare walks a second portal serving another client build (the same data) turn about with
// the first, and prints both side by side: how a change to the client is measured.
//
// Without --dist it builds the client into a temporary folder. Seeding 100 000 contracts per
// brand takes minutes: --data-dir keeps the folder for the next run (it is reused when seeded).
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright'
import { CHROMIUM_ARGS } from './client-browser.mjs'
import { percentile } from './measure.mjs'

const ROOT = path.resolve(import.meta.dirname, '../..')
const CREDENTIALS = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const STEP_TIMEOUT_MS = 60_000
const READY_TIMEOUT_MS = 30 * 60_000
/** How long the pointer rests on a menu entry before the click (a person's hover). */
const HOVER_MS = 150
const log = (...a) => console.error('[bench:screens]', ...a)

const LISTS = [
  { name: 'contract list', path: '/soluciones/contratos/listado' },
  { name: 'invoice list', path: '/soluciones/facturas' },
  { name: 'renewal list', path: '/soluciones/renovaciones' },
  { name: 'agent list', path: '/agentes/listado' },
]
const TARGETS = { list: 300, detail: 400, inp: 200 }

const { values: opts } = parseArgs({
  options: {
    dist: { type: 'string' },
    runs: { type: 'string', default: '20' },
    throttle: { type: 'string', default: '4' },
    contracts: { type: 'string', default: '100000' },
    'data-dir': { type: 'string' },
    compare: { type: 'string' },
    out: { type: 'string', default: 'bench/results/screens-latest.json' },
  },
})
const runs = Number(opts.runs)
const throttle = Number(opts.throttle)
const contracts = Number(opts.contracts)

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

/** The portal as production runs it, over `dataDir` (seeded on its first start). */
async function startPortal({ port, dist, dataDir }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, CLIENT_DIST: dist, ALLOWED_HOSTS: 'localhost,127.0.0.1', LOG_LEVEL: 'warn', SEED_CONTRACTS: String(contracts), UPSTREAM_URL: '' },
  })
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal exited while starting (code ${child.exitCode})`)
    if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) return child
    if (Date.now() > deadline) {
      child.kill('SIGTERM')
      throw new Error(`the portal was not ready within ${READY_TIMEOUT_MS / 60_000} min`)
    }
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** Runs in every page before its scripts: resolves when a screen's content is on screen. */
function pageProbe() {
  const afterPaint = (done) => requestAnimationFrame(() => setTimeout(done, 0))
  const main = () => document.querySelector('main')
  const busy = (root) => !!root.querySelector('.p-skeleton, [aria-busy="true"], .p-datatable-loading-overlay')
  const checks = {
    // The list of `path` shows data rows (not a skeleton, not an empty or error state). The rows
    // must be its screen's: while the next screen renders, the one before it is still on screen
    // under the new address, rows and all.
    rows: ({ path, screen }) => {
      const m = main()
      if (location.pathname !== path || !m || busy(m)) return false
      const row = m.querySelector(`.screen[data-screen="${screen}"] .p-datatable-tbody tr:not(.p-datatable-emptymessage)`)
      return !!row && row.querySelectorAll('td').length > 1
    },
    // A contract's detail: its route, its detail sections drawn, nothing loading.
    detail: (code) => {
      const m = main()
      if (!m || busy(m) || !location.pathname.endsWith(`/${encodeURIComponent(code)}`)) return false
      return !!m.querySelector('.screen-detail .detail-section')
    },
  }
  const until = (check, arg) =>
    new Promise((resolve) => {
      const test = () => {
        if (!check(arg)) return
        observer.disconnect()
        afterPaint(() => resolve(performance.now()))
      }
      const observer = new MutationObserver(test)
      observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true })
      test()
    })
  // Interactions (keyboard, pointer) with their duration to the next paint, as INP counts them.
  const interactions = new Map()
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.interactionId) interactions.set(e.interactionId, Math.max(interactions.get(e.interactionId) ?? 0, e.duration))
  }).observe({ type: 'event', durationThreshold: 16, buffered: true })
  window.__screens = {
    /**
     * From the next click to `name` holding: `ms`, and `dataMs`, when the last answer the screen
     * waited for (screen definition, API page; a prefetch on hover included) had arrived: what
     * is left is the browser's own work.
     */
    afterClick(name, arg, hoverMs) {
      return new Promise((resolve) => {
        document.addEventListener(
          'click',
          (event) =>
            void until(checks[name], arg).then((end) => {
              const answers = performance
                .getEntriesByType('resource')
                .filter((e) => /\/(api|bff\/screens)\//.test(new URL(e.name).pathname) && e.startTime >= event.timeStamp - hoverMs - 50 && e.responseEnd <= end)
              const dataAt = Math.max(event.timeStamp, ...answers.map((e) => e.responseEnd))
              resolve({ ms: end - event.timeStamp, dataMs: dataAt - event.timeStamp })
            }),
          { capture: true, once: true },
        )
      })
    },
    startInteractions: () => interactions.clear(),
    /** The worst interaction since `startInteractions` (INP with fewer than 50 interactions). */
    worstInteraction: () => Math.max(0, ...interactions.values()),
  }
}

function within(promise, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

async function signIn(page, baseUrl) {
  await page.goto(`${baseUrl}/auth/login`)
  await page.fill('#login-username', CREDENTIALS.username)
  await page.fill('#login-password', CREDENTIALS.password)
  await page.click('form.auth-form button[type="submit"]')
  await page.waitForURL(`${baseUrl}/`)
}

/** The page's main-thread work so far, in ms (DevTools' TaskDuration): steadier than a wall time on a busy machine. */
async function mainThreadMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000
}

/** Hover, rest, click; the ms from the click to `check` holding, and the main thread's work in them. */
async function clickAndTime(page, cdp, locator, check, arg, what) {
  await locator.hover()
  await page.waitForTimeout(HOVER_MS)
  const done = page.evaluate(([n, a, h]) => window.__screens.afterClick(n, a, h), [check, arg, HOVER_MS])
  const before = await mainThreadMs(cdp)
  await locator.click()
  const time = await within(done, what)
  return { ...time, cpuMs: (await mainThreadMs(cdp)) - before }
}

/** One walk, in a fresh page of a signed-in context, with the CPU throttled. */
async function oneRun(context, baseUrl, screens) {
  const page = await context.newPage()
  try {
    await page.goto(`${baseUrl}/`)
    await page.locator('nav a[href="/soluciones/contratos/listado"]').waitFor()
    await page.waitForLoadState('networkidle')
    const cdp = await context.newCDPSession(page)
    await cdp.send('Performance.enable')
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle })
    const times = {}
    for (const list of LISTS) {
      times[list.name] = await clickAndTime(page, cdp, page.locator(`nav a[href="${list.path}"]`).first(), 'rows', { path: list.path, screen: screens.get(list.path) }, list.name)
      await page.waitForLoadState('networkidle')
    }
    // Back on the contracts: open the first one, then type in a filter.
    await page.locator(`nav a[href="${LISTS[0].path}"]`).first().click()
    const codeLink = page.locator('main .p-datatable-tbody tr').first().locator('a').first()
    await codeLink.waitFor()
    const code = (await codeLink.innerText()).trim()
    times['contract detail'] = await clickAndTime(page, cdp, codeLink, 'detail', code, 'contract detail')
    await page.goBack()
    const filter = page.locator('main .filter-bar input[type="text"], main .filter-bar input:not([type])').first()
    await filter.waitFor()
    await page.waitForLoadState('networkidle')
    await page.evaluate(() => window.__screens.startInteractions())
    await filter.focus()
    await page.keyboard.type('garcia l', { delay: 120 })
    await page.waitForTimeout(1500)
    times['filter typing INP'] = { ms: await page.evaluate(() => window.__screens.worstInteraction()) }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    return times
  } finally {
    await page.close()
  }
}

const round = (x) => Math.round(x)

const MEASURES = [...LISTS.map((l) => ({ measure: l.name, target: TARGETS.list })), { measure: 'contract detail', target: TARGETS.detail }, { measure: 'filter typing INP', target: TARGETS.inp }]

/** p50/p95/max of each measure over the runs, with met or not met; the main thread's work (p50) beside it. */
function summarize(samples) {
  return MEASURES.map(({ measure, target }) => {
    const values = samples.map((s) => s[measure].ms).sort((a, b) => a - b)
    const data = samples.map((s) => s[measure].dataMs).filter((v) => v !== undefined).sort((a, b) => a - b)
    const cpu = samples.map((s) => s[measure].cpuMs).filter((v) => v !== undefined).sort((a, b) => a - b)
    const p95 = percentile(values, 95)
    return {
      measure,
      target,
      p50Ms: round(percentile(values, 50)),
      p95Ms: round(p95),
      maxMs: round(values[values.length - 1]),
      dataP50Ms: data.length ? round(percentile(data, 50)) : null,
      mainThreadP50Ms: cpu.length ? round(percentile(cpu, 50)) : null,
      met: p95 <= target,
      runsMs: samples.map((s) => round(s[measure].ms)),
      runsDataMs: data.length ? samples.map((s) => round(s[measure].dataMs)) : undefined,
      runsMainThreadMs: cpu.length ? samples.map((s) => round(s[measure].cpuMs)) : undefined,
    }
  })
}

/** A portal over the data folder with one client build, and a signed-in browser context on it. */
async function openSide(browser, { label, dist, dataDir }) {
  const port = await freePort()
  const baseUrl = `http://localhost:${port}`
  const portal = await startPortal({ port, dist, dataDir })
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: 'es-ES' })
  context.setDefaultTimeout(STEP_TIMEOUT_MS)
  await context.addInitScript(pageProbe)
  const first = await context.newPage()
  await signIn(first, baseUrl)
  // Which screen each list's route draws (its rows are told from the previous screen's by it).
  const manifest = await (await first.request.get(`${baseUrl}/bff/manifest`)).json()
  const screens = new Map(manifest.routes.map((r) => [r.path, r.screen]))
  for (const list of LISTS) if (!screens.has(list.path)) throw new Error(`no route ${list.path} in the manifest`)
  await first.close()
  return { label, dist, portal, context, baseUrl, screens, samples: [] }
}

async function stopPortal(portal) {
  if (!portal || portal.exitCode !== null) return
  const exited = new Promise((r) => portal.once('exit', r))
  portal.kill('SIGTERM')
  await exited
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-screens-'))
  const dataDir = opts['data-dir'] ? path.resolve(opts['data-dir']) : path.join(work, 'data')
  const sides = []
  let browser
  try {
    const dist = opts.dist ? path.resolve(opts.dist) : path.join(work, 'dist')
    if (!opts.dist) {
      log(`building the client into ${dist}…`)
      execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' })
    }
    log(`portal over ${contracts.toLocaleString('en')} contracts per brand in ${dataDir} (a new folder is seeded first: minutes)…`)
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true })
    const loadBefore = os.loadavg()[0]
    sides.push(await openSide(browser, { label: 'this build', dist, dataDir }))
    // Side by side: the same walk over another client build, interleaved run by run (first one, then the other, then the other way round).
    if (opts.compare) sides.push(await openSide(browser, { label: 'compared build', dist: path.resolve(opts.compare), dataDir }))
    // One unmeasured walk each: the browser's caches hold the code, as on a person's second screen.
    for (const side of sides) await oneRun(side.context, side.baseUrl, side.screens)
    for (let i = 0; i < runs; i++) {
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        const times = await oneRun(side.context, side.baseUrl, side.screens)
        side.samples.push(times)
        log(`run ${i + 1}/${runs}${sides.length > 1 ? ` (${side.label})` : ''}: ${Object.entries(times).map(([k, v]) => `${k} ${round(v.ms)} ms${v.dataMs === undefined ? '' : ` (data ${round(v.dataMs)})`}`).join(', ')}`)
      }
    }
    const [results, compared] = sides.map((side) => summarize(side.samples))
    const lines = [
      `Chromium, CPU throttled ${throttle}×, ${contracts.toLocaleString('en')} contracts per brand, ${runs} runs (after one unmeasured):`,
      '',
      '| from the click to | p50 ms | p95 ms | max ms | data in (p50 ms) | main thread (p50 ms) | target (p95) | |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      ...results.map((r) => `| ${r.measure === 'filter typing INP' ? 'the worst keystroke painted (INP), typing in a filter' : `${r.measure} painted`} | ${r.p50Ms} | ${r.p95Ms} | ${r.maxMs} | ${r.dataP50Ms ?? '—'} | ${r.mainThreadP50Ms ?? '—'} | ${r.target} | ${r.met ? 'met' : 'NOT MET'} |`),
      '',
      '"data in": from the click to the last answer the screen waited for (its definition, its first page; a prefetch started on hover counts from the click); the rest is the browser building and painting the screen. "main thread": the page\'s main-thread work from the click to then (DevTools\' TaskDuration, throttled).',
    ]
    if (compared) {
      lines.push(
        '',
        `Side by side with ${opts.compare} (the same walk, interleaved run by run): p50 and main-thread p50, this build / the compared one.`,
        '',
        '| from the click to | p50 ms (this / compared) | ratio | main thread p50 ms (this / compared) | ratio |',
        '|---|---:|---:|---:|---:|',
        ...results
          .filter((r) => r.measure !== 'filter typing INP')
          .map((r, i) => {
            const c = compared[i]
            return `| ${r.measure} | ${r.p50Ms} / ${c.p50Ms} | ${(r.p50Ms / c.p50Ms).toFixed(2)} | ${r.mainThreadP50Ms} / ${c.mainThreadP50Ms} | ${(r.mainThreadP50Ms / c.mainThreadP50Ms).toFixed(2)} |`
          }),
      )
    }
    console.log(lines.join('\n'))
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadAverage1m: { before: loadBefore, after: os.loadavg()[0] }, node: process.version },
      throttle,
      contractsPerBrand: contracts,
      runs,
      hoverMs: HOVER_MS,
      results,
      ...(compared ? { compared: { dist: opts.compare, results: compared } } : {}),
      met: results.every((r) => r.met),
    }
    fs.mkdirSync(path.dirname(path.resolve(ROOT, opts.out)), { recursive: true })
    fs.writeFileSync(path.resolve(ROOT, opts.out), `${JSON.stringify(result, null, 2)}\n`)
    if (!result.met) process.exitCode = 1
  } finally {
    for (const side of sides) await side.context.close().catch(() => undefined)
    await browser?.close()
    for (const side of sides) await stopPortal(side.portal)
    fs.rmSync(work, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
