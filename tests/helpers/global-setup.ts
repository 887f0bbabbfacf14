import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildReferenceApi } from '../../server/reference-api/app'
import { loadReferenceApiConfig } from '../../server/reference-api/config'

/**
 * Seeds the reference API once per test run into a template folder; each test copies it
 * (tests/helpers/reference-api.ts) instead of seeding again.
 */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-template-'))
  const { app } = await buildReferenceApi(loadReferenceApiConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', JWT_SECRET: 'test-secret-test-secret-test-secret-0123' }), {
    seedDate: new Date('2026-11-01T10:00:00Z'),
  })
  await app.close()
  process.env.PORTAL_TEMPLATE_DATA = dir
  return () => fs.rmSync(dir, { recursive: true, force: true })
}
