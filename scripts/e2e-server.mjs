// Starts the portal for the end-to-end suite: a fresh data folder, a fresh client build, the
// embedded reference API, logs kept in the data folder for the log-scanning test.
// E2E_PORT, E2E_DATA_DIR and E2E_CLIENT_DIST let several runs share a machine; E2E_SKIP_BUILD
// serves an existing build.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const port = process.env.E2E_PORT ?? '4321'
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data')
const clientDist = path.resolve(process.env.E2E_CLIENT_DIST ?? 'dist/client')
fs.rmSync(dataDir, { recursive: true, force: true })
fs.mkdirSync(dataDir, { recursive: true })

// E2E_SKIP_BUILD: a second portal of the same run serves the build the first one made.
if (!process.env.E2E_SKIP_BUILD) {
  const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--outDir', clientDist, '--emptyOutDir'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}

const log = fs.openSync(path.join(dataDir, 'portal.log'), 'a')
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  stdio: ['ignore', log, 'inherit'],
  env: { ...process.env, NODE_ENV: 'development', PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, CLIENT_DIST: clientDist, LOG_LEVEL: 'info',
    // The reference API's fault controls, which the suite drives through the BFF like any call.
    CATALOGUE_FILES: path.resolve('tests/helpers/test-control-catalogue.json'),
    // One user's browser failing on a studio screen is enough for the fallback test.
    SCREEN_FAILURE_THRESHOLD: '1',
    // Self sign-up is off by default; the suite signs up, approves and signs in (signup.spec.ts).
    SIGNUP_ENABLED: 'true' },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
