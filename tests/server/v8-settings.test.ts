import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * A workload whose objects all survive young collections, the case in which V8 pretenures
 * their allocation site; `--trace-pretenuring-statistics` prints each site it weighs.
 */
const WORKLOAD = `
const keep = []
const make = (i) => ({ a: i, b: [i, i + 1] })
for (let r = 0; r < 20; r++) { for (let i = 0; i < 200000; i++) keep.push(make(i)); if (keep.length > 1e6) keep.length = 0 }
`

function sitesWeighed(importSettings: boolean): number {
  const script = `${importSettings ? "await import('./server/ops/v8-settings.ts');" : ''}${WORKLOAD}`
  const run = spawnSync(process.execPath, ['--trace-pretenuring-statistics', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout.split('\n').filter((line) => /pretenuring: AllocationSite/.test(line)).length
}

describe('V8 settings of the portal process (server/ops/v8-settings.ts, first import of main.ts)', () => {
  it('turns allocation-site pretenuring off at run time', () => {
    expect(sitesWeighed(false)).toBeGreaterThan(0)
    expect(sitesWeighed(true)).toBe(0)
  })

  it('is the first module main.ts loads', () => {
    const firstImport = readFileSync(path.join(ROOT, 'server/main.ts'), 'utf8').match(/^import .*$/m)?.[0]
    expect(firstImport).toBe("import './ops/v8-settings'")
  })
})
