// What governance costs on the BFF's read path (issue 16): the share of the BFF's CPU spent in
// the audit, personal-data masking and approval code, callees included, read from a CPU
// profile of the BFF serving one read under 50 connections. Attribution inside one profile is
// side by side by construction, so the figure holds on a noisy machine. Reported as the CPU
// each request costs on top of the rest: share / (1 − share); the target is at most 10 %.
import fs from 'node:fs'
import path from 'node:path'
import { measure } from './measure.mjs'
import { inclusiveShare } from './profile-summary.mjs'
import { BENCH_PATH, startTargets } from './targets.mjs'

/** The BFF's governance code: its audit, personal-data and approval modules, and the masking maps. */
export const GOVERNANCE_CODE = /\/(?:server\/(?:audit|personal|approvals)\/|schemas\/personal-[\w-]+\.ts)/
export const GOVERNANCE_MAX_EXTRA = 0.1

/** The reads profiled: the benchmark's own call, and a list page whose NIF and CUPS the BFF masks. */
export const GOVERNANCE_READS = [
  { read: 'benchmark call', path: BENCH_PATH },
  { read: 'contract page (25 rows, NIF and CUPS masked)', path: '/api/contract?pageIndex=0&pageSize=25' },
]

const WARM_UP_S = 3
/** Seconds between the end of the measured run and the end of the profile (the shutdown). */
const STOP_S = 0.5

/** One profiled BFF per read; returns `{ read, path, samples, share, extra, met }` for each. */
export async function governanceCost(dir, { sessions, durationS }) {
  const results = []
  for (const { read, path: readPath } of GOVERNANCE_READS) {
    const profiles = path.join(dir, `governance-profiles-${results.length}`)
    fs.mkdirSync(profiles, { recursive: true })
    const running = await startTargets({ dir, sessions, bffNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] })
    try {
      await measure(running.targets.bff, { connections: 50, durationS: WARM_UP_S, path: readPath })
      const run = await measure(running.targets.bff, { connections: 50, durationS, path: readPath })
      if (run.non2xx + run.errors + run.timeouts > 0) throw new Error(`governance run of ${readPath}: ${run.non2xx} non-2xx, ${run.errors} errors, ${run.timeouts} timeouts`)
    } finally {
      await running.stop()
    }
    // One profile per thread; the main thread's is the largest.
    const [profile] = fs
      .readdirSync(profiles)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(profiles, f))
      .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)
    if (!profile) throw new Error('the BFF wrote no profile')
    const { samples, share } = inclusiveShare(profile, GOVERNANCE_CODE, { lastSeconds: durationS, stopSeconds: STOP_S })
    const extra = share / (1 - share)
    results.push({ read, path: readPath, samples, share: Math.round(share * 1000) / 1000, extra: Math.round(extra * 1000) / 1000, met: extra <= GOVERNANCE_MAX_EXTRA })
  }
  return results
}

export const describeGovernance = (rows) =>
  rows.map(
    (r) =>
      `governance on the read path, ${r.read}: ${(r.share * 100).toFixed(1)} % of the BFF's CPU (${r.samples} samples), ${(r.extra * 100).toFixed(1)} % extra per request (target ≤ ${GOVERNANCE_MAX_EXTRA * 100} %): ${r.met ? 'met' : 'NOT MET'}`,
  )
