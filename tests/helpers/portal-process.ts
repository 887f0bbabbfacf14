import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { freshDataDir, TEST_JWT_SECRET } from './reference-api'

const ROOT = path.resolve(import.meta.dirname, '../..')

export interface PortalProcess {
  port: number
  url: string
  child: ChildProcess
  dataDir: string
  /** Everything the process wrote, stdout and stderr. */
  output(): string
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Ends the process (SIGKILL if still running) and removes its data folder. */
  cleanup(): Promise<void>
}

/** A free loopback port: the server's own `PORT=0` would not tell the test which one it got. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/**
 * Starts the real portal (`node --import tsx [nodeArgs] server/main.ts`) with the embedded reference API
 * over a copy of the seeded data, and waits until `/healthz` answers.
 */
export async function startPortalProcess(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<PortalProcess> {
  const dataDir = freshDataDir()
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      CLIENT_DIST: path.join(dataDir, 'no-client'),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'info',
      CATALOGUE_FILES: path.join(ROOT, 'tests/helpers/test-control-catalogue.json'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  let ended = false
  void exited.then(() => (ended = true))

  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  for (;;) {
    if (ended) throw new Error(`the portal ended before answering:\n${output}`)
    const ok = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    )
    if (ok) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the portal did not answer /healthz within 60 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }

  return {
    port,
    url,
    child,
    dataDir,
    output: () => output,
    exited,
    cleanup: async () => {
      if (!ended) {
        child.kill('SIGKILL')
        await exited
      }
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
