import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildReferenceApi, type ReferenceApiDeps } from '../../server/reference-api/app'
import { loadReferenceApiConfig } from '../../server/reference-api/config'

export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123'

/** A fresh data folder holding a copy of the seeded template database. */
export function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'))
  const template = process.env.PORTAL_TEMPLATE_DATA
  if (template) {
    for (const file of fs.readdirSync(template)) {
      if (file.endsWith('.db') || file.endsWith('.secret')) fs.copyFileSync(path.join(template, file), path.join(dir, file))
    }
  }
  return dir
}

export interface RunningReferenceApi {
  url: string
  dataDir: string
  close(): Promise<void>
  db: Awaited<ReturnType<typeof buildReferenceApi>>['db']
  routes: Awaited<ReturnType<typeof buildReferenceApi>>['routes']
}

/** Starts the reference API on a free loopback port over a copy of the seeded data. */
export async function startReferenceApi(env: Record<string, string> = {}, deps: ReferenceApiDeps = {}): Promise<RunningReferenceApi> {
  const dataDir = freshDataDir()
  const config = loadReferenceApiConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: TEST_JWT_SECRET, ...env })
  const { app, db, routes } = await buildReferenceApi(config, deps)
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return {
    url,
    dataDir,
    db,
    routes,
    close: async () => {
      await app.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
