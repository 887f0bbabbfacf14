import { describe, expect, it } from 'vitest'
import { compareWithBaseline, describeComparison } from '../../scripts/bench/regression-check.mjs'

const baseline = { ratio_bff_nginx: 0.5, ratio_bff_express: 1.5, bff_rps: 5000, bff_cpu_us_per_req: 110 }

describe('npm run bench:check: the run\'s ratios against the baseline', () => {
  it('passes ratios that held, rose or fell by 20 % at most, and looks at ratios only', () => {
    const rows = compareWithBaseline({ ratio_bff_nginx: 0.4, ratio_bff_express: 1.9, bff_rps: 10, bff_cpu_us_per_req: 900 }, baseline)
    expect(rows.map((r) => r.key)).toEqual(['ratio_bff_nginx', 'ratio_bff_express'])
    expect(rows.every((r) => r.ok)).toBe(true)
  })

  it('fails a ratio that fell more than 20 %, or went missing', () => {
    const rows = compareWithBaseline({ ratio_bff_nginx: 0.39 }, baseline)
    expect(rows.map((r) => [r.key, r.ok])).toEqual([
      ['ratio_bff_nginx', false],
      ['ratio_bff_express', false],
    ])
    expect(rows[0]!.change).toBeCloseTo(-0.22, 5)
    expect(describeComparison(rows)[0]).toMatch(/^DROP ratio_bff_nginx .*-22\.0 %/)
  })
})
