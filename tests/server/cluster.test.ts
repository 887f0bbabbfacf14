import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCluster, type RunningCluster } from '../../scripts/cluster-local.mjs'
import type { Manifest } from '../../schemas/manifest'
import type { MenuDefinition, ResolvedMenuEntry } from '../../schemas/menu'
import { ADMIN } from '../helpers/bff'
import { freshDataDir } from '../helpers/reference-api'

/**
 * The scale-out topology as processes (scripts/cluster-local.mjs): Redis, the reference API,
 * two BFF replicas and the round-robin proxy. A browser's session and an admin's menu change
 * must not depend on which replica answers.
 */
let cluster: RunningCluster
let root = ''
let apiDataDir = ''
let replicaA = ''
let replicaB = ''

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cluster-'))
  apiDataDir = freshDataDir()
  cluster = await startCluster({
    host: '127.0.0.1',
    port: 0,
    replicaPorts: [0, 0],
    apiPort: 0,
    redisPort: 0,
    dataDir: root,
    apiDataDir,
    output: 'files',
    env: { NODE_ENV: 'test', LOG_LEVEL: 'info', CLIENT_DIST: path.join(root, 'no-client') },
  })
  replicaA = cluster.replicas[0]!.url
  replicaB = cluster.replicas[1]!.url
}, 120_000)

afterAll(async () => {
  await cluster?.stop()
  for (const dir of [root, apiDataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

interface Answer<T = any> {
  status: number
  headers: Headers
  body: T
}

/** A plain HTTP call (fetch may not set Host, which picks the brand). */
function call<T = any>(base: string, method: string, url: string, opts: { cookie?: string; body?: unknown; host?: string } = {}): Promise<Answer<T>> {
  const target = new URL(url, base)
  const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body))
  const headers: Record<string, string> = { 'x-csrf': '1', host: opts.host ?? target.host }
  if (opts.cookie) headers.cookie = opts.cookie
  if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(payload.length) })
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        const answerHeaders = new Headers()
        for (const [name, value] of Object.entries(res.headers)) for (const v of [value ?? []].flat()) answerHeaders.append(name, v)
        const json = text && String(res.headers['content-type'] ?? '').includes('json')
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: json ? JSON.parse(text) : text })
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

async function signIn(base: string): Promise<string> {
  const res = await call(base, 'POST', '/bff/auth/login', { body: ADMIN })
  expect(res.status).toBe(200)
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('portal_session='))
  expect(cookie).toBeDefined()
  return cookie!.split(';')[0]!
}

const labels = (entries: ResolvedMenuEntry[]): string[] => entries.flatMap((e) => [e.label.es, ...labels(e.items ?? [])])

describe('two BFF replicas sharing Redis', () => {
  it('a session made on replica A works on replica B, for the BFF and for /api/*', async () => {
    const cookie = await signIn(replicaA)
    const session = await call(replicaB, 'GET', '/bff/auth/session', { cookie })
    expect(session.status).toBe(200)
    expect(session.body.user.Email).toBe(ADMIN.username)
    const api = await call(replicaB, 'GET', '/api/permission', { cookie })
    expect(api.status).toBe(200)
    expect(Array.isArray(api.body) || typeof api.body === 'object').toBe(true)
  })

  it('signing out on B ends the session on A', async () => {
    const cookie = await signIn(replicaA)
    expect((await call(replicaB, 'POST', '/bff/auth/logout', { cookie })).status).toBe(204)
    expect((await call(replicaA, 'GET', '/bff/auth/session', { cookie })).status).toBe(401)
  })

  it('a menu change saved on A reaches the manifest served by B', async () => {
    const cookie = await signIn(replicaA)
    const host = 'portal.grupoenergia.localhost'
    const before = await call<Manifest>(replicaB, 'GET', '/bff/manifest', { cookie, host })
    expect(labels(before.body.menu)).toContain('Facturas')
    const current = await call<{ version: number; menu: MenuDefinition }>(replicaA, 'GET', '/bff/admin/menu?brand=grupo', { cookie })
    expect(current.status).toBe(200)
    const edited = structuredClone(current.body.menu)
    const rename = (entries: MenuDefinition['sections']): boolean =>
      entries.some((e) => (e.key === 'facturas' ? ((e.label = { es: 'Facturas del grupo', en: 'Group invoices' }), true) : rename((e.items ?? []) as MenuDefinition['sections'])))
    expect(rename(edited.sections)).toBe(true)
    const saved = await call(replicaA, 'PUT', '/bff/admin/menu?brand=grupo', { cookie, body: { version: current.body.version, menu: edited } })
    expect(saved.status).toBe(200)
    await expect
      .poll(async () => labels((await call<Manifest>(replicaB, 'GET', '/bff/manifest', { cookie, host })).body.menu), { timeout: 5_000, interval: 100 })
      .toContain('Facturas del grupo')
    // B's menu manager sees the new version too, so a stale save there is a conflict.
    const stale = await call(replicaB, 'PUT', '/bff/admin/menu?brand=grupo', { cookie, body: { version: current.body.version, menu: current.body.menu } })
    expect(stale.status).toBe(409)
  })

  it('the proxy spreads requests over both replicas, passing Host, with one session for all', async () => {
    const cookie = await signIn(cluster.proxyUrl)
    const replicas = new Set<string>()
    for (let i = 0; i < 4; i++) {
      const res = await call<Manifest>(cluster.proxyUrl, 'GET', '/bff/manifest', { cookie, host: 'portal.energialimpia.localhost' })
      expect(res.status).toBe(200)
      expect(res.body.authenticated).toBe(true)
      expect(res.body.brand.key).toBe('limpia')
      replicas.add(res.headers.get('x-portal-replica') ?? '')
    }
    expect([...replicas].sort()).toEqual(['a', 'b'])
    expect((await call(cluster.proxyUrl, 'GET', '/readyz')).status).toBe(200)
  })
})
