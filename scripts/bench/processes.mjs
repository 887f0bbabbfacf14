// Child processes of the benchmark: started with their output in a file, waited for, stopped,
// and their CPU time read from /proc (Linux).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const ROOT = path.resolve(import.meta.dirname, '../..')
const STARTUP_TIMEOUT_MS = 120_000
const STOP_TIMEOUT_MS = 15_000

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts `command args` with stdout and stderr appended to `logFile`. */
export function startProcess(name, command, args, { env, logFile }) {
  const fd = fs.openSync(logFile, 'a')
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', fd, fd] })
  fs.closeSync(fd)
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  child.once('error', () => undefined)
  return {
    name,
    pid: child.pid,
    exited,
    logFile,
    running: () => child.exitCode === null && child.signalCode === null,
    logTail: () => `\n--- ${name} (${logFile}) ---\n${fs.readFileSync(logFile, 'utf8').split('\n').slice(-25).join('\n')}`,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return exited
      child.kill(signal)
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      const result = await exited
      clearTimeout(timer)
      return result
    },
  }
}

/** Waits until `url` answers 2xx, failing early when the process ends. */
export async function waitForHttp(proc, url) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (!proc.running()) throw new Error(`${proc.name} exited while starting${proc.logTail()}`)
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then((res) => res.ok, () => false)
    if (ok) return
    await sleep(200)
  }
  throw new Error(`${proc.name} did not answer ${url} within ${STARTUP_TIMEOUT_MS / 1000} s${proc.logTail()}`)
}

// USER_HZ: the unit of /proc's CPU times, 100 on every Linux architecture (it is ABI).
const CLOCK_TICKS_PER_S = 100

/** User + system CPU time of a process, in microseconds (/proc/<pid>/stat, all threads). */
export function cpuMicros(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return (ticks * 1e6) / CLOCK_TICKS_PER_S
}

/** The process and its direct children (nginx: the master and its workers). */
export function withChildren(pid) {
  const pids = [pid]
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) pids.push(Number(entry))
    } catch {
      // ended meanwhile
    }
  }
  return pids
}

/** CPU time of a set of processes, in microseconds. */
export function cpuMicrosOf(pids) {
  return pids.reduce((sum, pid) => sum + cpuMicros(pid), 0)
}
