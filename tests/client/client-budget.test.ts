import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { measureBudgets, ROUTE_BUDGETS, type RouteMeasure } from '../../scripts/bench/client-budget.mjs'

/**
 * The client's JavaScript budget per route (issue 19): the sign-in page and the dashboard stay
 * under their budgets of scripts/bench/client-budget.mjs and hold none of the packages they must
 * not load. It measures dist/client when that build is newer than every source it is made of,
 * else it builds the client into a temporary folder (dist/client is left alone).
 */

const ROOT = path.resolve(import.meta.dirname, '../..')
const DIST = path.join(ROOT, 'dist/client')
/** What the client build is made of. */
const SOURCES = ['client', 'schemas', 'vite.config.ts', 'package-lock.json']

function newestMtime(p: string): number {
  const stat = fs.statSync(p)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)))
  return newest
}

/** dist/client when its manifest was written after the last change to any source, else null. */
function currentDist(): string | null {
  const manifest = path.join(DIST, '.vite/manifest.json')
  if (!fs.existsSync(manifest)) return null
  const built = fs.statSync(manifest).mtimeMs
  return SOURCES.every((s) => newestMtime(path.join(ROOT, s)) < built) ? DIST : null
}

let temp: string | null = null
let dist = ''
let measures: RouteMeasure[] = []

beforeAll(() => {
  const reuse = currentDist()
  if (reuse) dist = reuse
  else {
    temp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-budget-'))
    dist = path.join(temp, 'dist')
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], {
      cwd: ROOT,
      stdio: 'inherit',
      // Vitest sets NODE_ENV=test, which would bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    })
  }
  measures = measureBudgets(dist)
}, 300_000)

afterAll(() => {
  if (temp) fs.rmSync(temp, { recursive: true, force: true })
})

const measureOf = (route: string) => {
  const m = measures.find((r) => r.route === route)
  if (!m) throw new Error(`no measure for ${route}`)
  return m
}

describe('client JavaScript budget per route (build output)', () => {
  it('sets the budgets of issue 19: sign-in ≤ 120 kB gzip, dashboard ≤ 250 kB', () => {
    expect(ROUTE_BUDGETS.map((b) => [b.route, b.budgetKb])).toEqual([
      ['login', 120],
      ['dashboard', 250],
    ])
  })

  it.each(['login', 'dashboard'])('%s: initial JavaScript within its budget', (route) => {
    const m = measureOf(route)
    expect(m.files.length).toBeGreaterThan(0)
    expect(m.jsGzipKb, `${route}: ${m.jsGzipKb} kB gzip in ${m.files.join(', ')}`).toBeLessThanOrEqual(m.budgetKb)
    expect(m.withinBudget).toBe(true)
  })

  it('the sign-in page loads no PrimeReact and no Chart.js; the dashboard no Chart.js before its first paint', () => {
    expect(measureOf('login').excludedFound).toEqual([])
    expect(measureOf('dashboard').excludedFound).toEqual([])
  })

  it('fails a route over its budget or holding a package it must not load', () => {
    const login = measureOf('login')
    const [tight] = measureBudgets(dist, [{ ...ROUTE_BUDGETS[0]!, budgetKb: login.jsGzipKb - 1 }])
    expect(tight!.withinBudget).toBe(false)
    // React is in every route's entry chunk: a route told not to load it fails.
    const [forbidden] = measureBudgets(dist, [{ ...ROUTE_BUDGETS[0]!, excludes: ['react-dom'] }])
    expect(forbidden!.excludedFound).toEqual(['react-dom'])
    expect(forbidden!.withinBudget).toBe(false)
  })
})
