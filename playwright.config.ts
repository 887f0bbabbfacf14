import { defineConfig } from '@playwright/test'

export const E2E_PORT = Number(process.env.E2E_PORT ?? 4321)
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? 'test-results/e2e-data'

const clientDist: Record<string, string> = process.env.E2E_CLIENT_DIST ? { E2E_CLIENT_DIST: process.env.E2E_CLIENT_DIST } : {}

/** Debian's Chromium, never a downloaded browser (see README). */
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e-output',
  // A whole flow's budget (the sign-up wizard's six steps, a sign-out and a second browser):
  // on a slow day of this shared 2-core machine such flows pass every check (10 s each, below)
  // and still outrun 60 s.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  // On CI one retry absorbs a timing flake of a loaded machine; a test that fails twice fails the run,
  // and the report lists every retried test as flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    viewport: { width: 1366, height: 850 },
    // A trace records every action with DOM snapshots and a screencast: measured on one flow,
    // it more than doubled the browser's CPU time (17 s without, 36 s with). It is recorded
    // when a test runs again after a failure, which CI does once; `--trace on` records always.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'portal', testIgnore: /(menu-manager|screen-studio|log-scan)\.spec\.ts$/ },
    // Menu, column and screen changes reach every user: these suites get a portal of their own so the others never see them.
    { name: 'menu-manager', testMatch: /menu-manager\.spec\.ts$/, use: { baseURL: `http://localhost:${E2E_PORT + 1}` } },
    // The studio publishes a screen into the group brand's menu: after the menu manager's suite, which asserts that menu, on the same portal.
    { name: 'screen-studio', testMatch: /screen-studio\.spec\.ts$/, dependencies: ['menu-manager'], use: { baseURL: `http://localhost:${E2E_PORT + 1}` } },
    // Last: reads what both portals logged during the whole run.
    { name: 'log-scan', testMatch: /log-scan\.spec\.ts$/, dependencies: ['portal', 'menu-manager', 'screen-studio'] },
  ],
  // Started one after the other: the second reuses the first one's client build.
  webServer: [
    {
      command: 'node scripts/e2e-server.mjs',
      url: `http://127.0.0.1:${E2E_PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(E2E_PORT), E2E_DATA_DIR, ...clientDist },
    },
    {
      command: 'node scripts/e2e-server.mjs',
      url: `http://127.0.0.1:${E2E_PORT + 1}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(E2E_PORT + 1), E2E_DATA_DIR: `${E2E_DATA_DIR}-menus`, E2E_SKIP_BUILD: '1', ...clientDist },
    },
  ],
})
