import type { FastifyInstance } from 'fastify'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { buildApp, type AppDeps } from '../../server/app'
import { loadConfig } from '../../server/config'

export const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
export const AGENTE = { username: 'agente@portal.test', password: 'Portal-Agente-2026!' }

/** Log lines the app wrote, parsed. */
export class LogCapture extends Writable {
  readonly lines: Record<string, unknown>[] = []
  readonly raw: string[] = []
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue
      this.raw.push(line)
      try {
        this.lines.push(JSON.parse(line))
      } catch {
        // not JSON: kept in raw
      }
    }
    done()
  }
}

export interface TestBff {
  app: FastifyInstance
  logs: LogCapture
  dataDir: string
  close(): Promise<void>
}

/** Builds the BFF in-process against `upstreamUrl`, with its own data folder and captured logs. */
export async function buildTestBff(upstreamUrl: string, env: Record<string, string> = {}, deps: AppDeps = {}): Promise<TestBff> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bff-'))
  const logs = new LogCapture()
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, UPSTREAM_URL: upstreamUrl, LOG_LEVEL: 'info', CLIENT_DIST: path.join(dataDir, 'no-client'), ...env })
  const app = await buildApp(config, { logStream: logs, ...deps })
  await app.ready()
  return {
    app,
    logs,
    dataDir,
    close: async () => {
      await app.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The session cookie pair (`name=value`) of a Set-Cookie answer. */
export function sessionCookie(setCookie: string[] | string | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []
  const found = list.find((c) => /portal_session=/.test(c))
  if (!found) throw new Error(`no session cookie in ${JSON.stringify(list)}`)
  return found.split(';')[0]!
}
