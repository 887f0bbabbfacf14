// Lighthouse (desktop preset, Debian's Chromium) on a page of a running portal: performance,
// accessibility and best-practices scores and the timing metrics behind the first.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CHROMIUM_ARGS } from './client-browser.mjs'

const LIGHTHOUSE_CLI = fileURLToPath(new URL('../../node_modules/lighthouse/cli/index.js', import.meta.url))
export const CATEGORIES = ['performance', 'accessibility', 'best-practices']
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'speed-index', 'total-blocking-time', 'cumulative-layout-shift']

function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse terminó con código ${code}: ${stderr.slice(-2000)}`))))
  })
}

/**
 * One Lighthouse run. A signed-in page gets the session cookie as an extra request header
 * (Lighthouse's documented way for authenticated pages); the header goes through a file
 * readable only by this user, never on a command line.
 */
export async function lighthouseOnce({ url, chromiumPath, cookieHeader }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-lighthouse-'))
  try {
    const report = path.join(dir, 'report.json')
    const args = [
      LIGHTHOUSE_CLI,
      url,
      '--preset=desktop',
      `--only-categories=${CATEGORIES.join(',')}`,
      `--chrome-flags=${[...CHROMIUM_ARGS, '--headless=new'].join(' ')}`,
      '--output=json',
      `--output-path=${report}`,
      '--quiet',
    ]
    if (cookieHeader) {
      const headers = path.join(dir, 'headers.json')
      fs.writeFileSync(headers, JSON.stringify({ Cookie: cookieHeader }), { mode: 0o600 })
      args.push(`--extra-headers=${headers}`)
    }
    await run(process.execPath, args, { ...process.env, CHROME_PATH: chromiumPath })
    const lhr = JSON.parse(fs.readFileSync(report, 'utf8'))
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]))
    const metrics = Object.fromEntries(METRICS.map((m) => [m, lhr.audits[m]?.numericValue === undefined ? null : Math.round(lhr.audits[m].numericValue * 1000) / 1000]))
    // What keeps a category from 100, to act on.
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && (a.scoreDisplayMode === 'binary' || a.scoreDisplayMode === 'numeric' || a.scoreDisplayMode === 'metricSavings'))
      .map((a) => a.id)
    return { finalUrl: lhr.finalDisplayedUrl, lighthouseVersion: lhr.lighthouseVersion, scores, metrics, failing }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
