import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { measure } from './measure.mjs'
import { startTargets } from './targets.mjs'
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perfb-'))
const running = await startTargets({ dir, sessions: 20, bffNodeArgs: ['--perf-basic-prof-only-functions'] })
try {
  const bff = running.targets.bff
  await measure(bff, { connections: 50, durationS: 3 })
  const pid = running.bffProcess.pid
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(pid), '-o', '/tmp/perf.data', '--', 'sleep', '12'], { stdio: 'inherit' })
  console.log(await measure(bff, { connections: 50, durationS: 10 }))
  await new Promise((r) => perf.on('exit', r))
} finally { await running.stop() }
