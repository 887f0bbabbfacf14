// Times the client in Debian's Chromium (Playwright, headless) against a running portal:
// the sign-in form becoming usable, sign-in until the dashboard is drawn, and the contracts
// list going from page 1 to page 2. Times are taken inside the page (performance.now()), from
// the navigation start or the click's event time to the frame after the awaited state is on
// screen, so Playwright's polling adds nothing.
import { chromium } from 'playwright'

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
export const CONTRACTS_PATH = '/soluciones/contratos/listado'
const STEP_TIMEOUT_MS = 30_000

/** Runs in every page before its scripts: watches the DOM for the states the bench waits for. */
function pageProbe() {
  // The frame after the current one has been painted.
  const afterPaint = (done) => requestAnimationFrame(() => setTimeout(done, 0))
  const q = (sel, root = document) => root.querySelector(sel)
  const checks = {
    loginForm: () => !!q('#login-username') && !!q('form.auth-form button[type="submit"]'),
    // Every card in view has its content (cards below the fold load when scrolled to): no
    // skeleton or pending part, each chart on its canvas.
    dashboard: () => {
      const grid = q('.react-grid-layout')
      const cards = grid ? [...grid.querySelectorAll('.react-grid-item[data-widget]')] : []
      const inView = cards.filter((c) => c.getBoundingClientRect().top < window.innerHeight)
      if (inView.length === 0 || q('#main [aria-busy="true"]')) return false
      if (inView.some((c) => c.querySelector('.dash-panel-loading'))) return false
      return [...grid.querySelectorAll('.chart-frame')].every((f) => f.querySelector('canvas')?.getAttribute('width'))
    },
    // Page 2 is selected and its rows have replaced page 1's.
    page2: (before) => q('.p-paginator-page.p-highlight')?.textContent?.trim() === '2' && q('.p-datatable-tbody tr')?.textContent !== before,
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
  window.__bench = {
    // Watched from the very start of a sign-in page load (and only there).
    loginReady: location.pathname === '/auth/login' ? until(checks.loginForm) : null,
    /** Resolves with the time `name` first holds (no click involved). */
    when: (name) => until(checks[name]),
    /** Resolves with the ms from the next click to the moment `name` holds. */
    afterClick(name) {
      const before = q('.p-datatable-tbody tr')?.textContent ?? ''
      return new Promise((resolve) => {
        document.addEventListener(
          'click',
          (event) => {
            const start = event.timeStamp
            void until(checks[name], before).then((end) => resolve(end - start))
          },
          { capture: true, once: true },
        )
      })
    },
  }
}

/** A page-side wait that fails after STEP_TIMEOUT_MS instead of hanging the bench. */
function within(promise, what) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: sin respuesta en ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const round = (x) => Math.round(x)

export function summarize(values) {
  return { medianMs: round(median(values)), minMs: round(Math.min(...values)), maxMs: round(Math.max(...values)), runsMs: values.map(round) }
}

async function signIn(page, credentials) {
  await page.fill('#login-username', credentials.username)
  await page.fill('#login-password', credentials.password)
  const drawn = page.evaluate(() => window.__bench.afterClick('dashboard'))
  await page.click('form.auth-form button[type="submit"]')
  return within(drawn, 'panel tras iniciar sesión')
}

/** One pass over the three journeys, in a fresh browser context (empty cache, no session). */
async function oneRun(browser, baseUrl, credentials) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: 'es-ES' })
  context.setDefaultTimeout(STEP_TIMEOUT_MS)
  await context.addInitScript(pageProbe)
  try {
    const page = await context.newPage()
    await page.goto(`${baseUrl}/auth/login`)
    const loginInteractive = await within(page.evaluate(() => window.__bench.loginReady), 'formulario de inicio de sesión')
    const signInToDashboard = await signIn(page, credentials)

    await page.goto(`${baseUrl}${CONTRACTS_PATH}`)
    await page.locator('.p-datatable-tbody tr').first().waitFor()
    await page.locator('.p-paginator-page.p-highlight', { hasText: '1' }).waitFor()
    const page2 = page.evaluate(() => window.__bench.afterClick('page2'))
    await page.click('.p-paginator-next')
    const contractsPage1To2 = await within(page2, 'página 2 de contratos')
    return { loginInteractive, signInToDashboard, contractsPage1To2 }
  } finally {
    await context.close()
  }
}

/**
 * The JavaScript a fresh page load fetches before `state` holds, with its compressed size as
 * the browser received it (Resource Timing), and what it fetches afterwards (deferred code):
 * checks that the budget computed from the module graph is what a browser really loads.
 */
async function jsBeforeReady(browser, url, state, cookie) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 }, locale: 'es-ES' })
  context.setDefaultTimeout(STEP_TIMEOUT_MS)
  await context.addInitScript(pageProbe)
  // The session as a request header, as Lighthouse gets it (a __Host- cookie cannot be planted on http).
  if (cookie) await context.setExtraHTTPHeaders({ cookie: `${cookie.name}=${cookie.value}` })
  try {
    const page = await context.newPage()
    await page.goto(url)
    const readyAt = await within(page.evaluate((name) => window.__bench.when(name), state), `${url} lista`)
    await page.waitForLoadState('networkidle')
    const entries = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.endsWith('.js'))
        .map((e) => ({ file: new URL(e.name).pathname.slice(1), end: e.responseEnd, bytes: e.encodedBodySize })),
    )
    const kb = (bytes) => Math.round(bytes / 100) / 10
    const before = entries.filter((e) => e.end <= readyAt).sort((a, b) => a.file.localeCompare(b.file))
    return {
      files: before.map((e) => ({ file: e.file, transferredKb: kb(e.bytes) })),
      transferredKb: kb(before.reduce((n, e) => n + e.bytes, 0)),
      loadedAfterReady: entries.filter((e) => e.end > readyAt).map((e) => e.file).sort(),
    }
  } finally {
    await context.close()
  }
}

/** `runs` timed passes plus one pass recording what JavaScript each page really loads. */
export async function measureInBrowser({ baseUrl, runs, credentials, sessionCookie, chromiumPath, onRun }) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true })
  try {
    const samples = []
    for (let i = 0; i < runs; i++) {
      const sample = await oneRun(browser, baseUrl, credentials)
      samples.push(sample)
      onRun?.(i + 1, sample)
    }
    const loaded = {
      login: await jsBeforeReady(browser, `${baseUrl}/auth/login`, 'loginForm'),
      dashboard: await jsBeforeReady(browser, `${baseUrl}/`, 'dashboard', sessionCookie),
    }
    return {
      runs,
      loginInteractive: summarize(samples.map((s) => s.loginInteractive)),
      signInToDashboard: summarize(samples.map((s) => s.signInToDashboard)),
      contractsPage1To2: summarize(samples.map((s) => s.contractsPage1To2)),
      loaded,
    }
  } finally {
    await browser.close()
  }
}
