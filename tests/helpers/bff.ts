import type { FastifyInstance } from 'fastify'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import { buildApp, type AppDeps } from '../../server/app'
import { loadConfig } from '../../server/config'
import request from 'supertest'
import { startFakeUpstream, type FakeUpstream } from './fake-upstream'

export const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
export const AGENTE = { username: 'agente@portal.test', password: 'Portal-Agente-2026!' }
/** The second GESTORACCESS account of the demo data: approves what admin@ asks (four-eyes). */
export const SUPERVISOR = { username: 'supervisor@portal.test', password: 'Portal-Supervisor-2026!' }
/** The one user of the fake upstream (tests/helpers/fake-upstream.ts). */
export const FAKE_USER = { username: 'prueba@portal.test', password: 'correcta' }

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

/** The calls of the fake upstream (tests/helpers/fake-upstream.ts), added as an operator adds a real upstream's. */
export const FAKE_UPSTREAM_CATALOGUE = path.join(import.meta.dirname, 'fake-upstream-catalogue.json')
/** The reference API's fault controls (tests only): the test BFFs and test portals forward them. */
export const TEST_CONTROL_CATALOGUE = path.join(import.meta.dirname, 'test-control-catalogue.json')

/** Builds the BFF in-process against `upstreamUrl`, with its own data folder and captured logs. */
export async function buildTestBff(upstreamUrl: string, env: Record<string, string> = {}, deps: AppDeps = {}): Promise<TestBff> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bff-'))
  const logs = new LogCapture()
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, UPSTREAM_URL: upstreamUrl, LOG_LEVEL: 'info', CLIENT_DIST: path.join(dataDir, 'no-client'), CATALOGUE_FILES: `${FAKE_UPSTREAM_CATALOGUE},${TEST_CONTROL_CATALOGUE}`, ...env })
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

export interface SignedInBff {
  upstream: FakeUpstream
  bff: TestBff
  /** The session cookie pair of one signed-in user of the fake upstream. */
  cookie: string
  close(): Promise<void>
}

/** A BFF in front of a fresh fake upstream, with one user signed in through it. */
export async function signedInBffOverFake(env: Record<string, string> = {}): Promise<SignedInBff> {
  const upstream = await startFakeUpstream()
  const bff = await buildTestBff(upstream.url, env)
  const res = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(FAKE_USER).expect(200)
  return {
    upstream,
    bff,
    cookie: sessionCookie(res.headers['set-cookie']),
    close: async () => {
      await bff.close()
      await upstream.close()
    },
  }
}
