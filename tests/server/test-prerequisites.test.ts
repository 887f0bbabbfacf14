import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const SCRIPT = path.join(import.meta.dirname, '../../scripts/test-prerequisites.mjs')

/** Runs the check with a PATH of our choosing: a folder holding stand-ins for the commands it may see. */
function run(commands: string[], env: Record<string, string> = {}) {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bin-'))
  for (const c of commands) fs.writeFileSync(path.join(bin, c), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
  const started = Date.now()
  const result = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', env: { PATH: bin, ...env } })
  fs.rmSync(bin, { recursive: true, force: true })
  return { ...result, ms: Date.now() - started }
}

describe('npm test’s first step: what the suites need besides npm', () => {
  it('passes at once when Chromium and redis-server are there', () => {
    const result = run(['redis-server'], { CHROMIUM_PATH: process.execPath })
    expect(result.status).toBe(0)
    expect(result.stdout + result.stderr).toBe('')
  })

  it('names only what is missing', () => {
    const result = run([], { CHROMIUM_PATH: process.execPath })
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('apt-get install -y --no-install-recommends redis-server\n')
  })

  it('without a way to install them, stops within seconds naming the one command to run', () => {
    const result = run([], { CHROMIUM_PATH: '/nonexistent/chromium' })
    expect(result.status).toBe(1)
    expect(result.ms).toBeLessThan(5_000)
    expect(result.stderr).toContain('sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium redis-server')
  })

  it('can be skipped for a machine set up otherwise', () => {
    expect(run([], { CHROMIUM_PATH: '/nonexistent/chromium', TEST_PREREQUISITES: 'skip' }).status).toBe(0)
  })
})
