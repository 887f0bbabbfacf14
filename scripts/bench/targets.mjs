// The four things measured, all on loopback: the reference API alone (direct), the BFF in
// front of it as production starts it, nginx, and Express + http-proxy-middleware.
import fs from 'node:fs'
import path from 'node:path'
import { freePort } from '../cluster-local.mjs'
import { startNginx } from './nginx.mjs'
import { ROOT, cpuMicrosOf, startProcess, waitForHttp, withChildren } from './processes.mjs'

/** The demo accounts the sessions belong to (seeded by the reference API). */
const USERS = [
  { username: 'admin@portal.test', password: 'Portal-Admin-2026!' },
  { username: 'agente@portal.test', password: 'Portal-Agente-2026!' },
]
export const BRAND_DOMAIN = 'energiaverde.es'
export const BENCH_PATH = '/api/utility/prueba-carga'

/** Ports: consecutive from BENCH_PORT_BASE when set, else any free ones. */
async function ports(count) {
  const base = Number(process.env.BENCH_PORT_BASE ?? 0)
  if (base) return Array.from({ length: count }, (_, i) => base + i)
  const picked = []
  for (let i = 0; i < count; i++) picked.push(await freePort())
  return picked
}

/** Env of a child: the machine's PATH and HOME, nothing else of ours, plus `extra`. */
const childEnv = (extra) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra })

async function signInToApi(apiUrl, user) {
  const res = await fetch(`${apiUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-brand-domain': BRAND_DOMAIN },
    body: JSON.stringify(user),
  })
  if (res.status !== 200) throw new Error(`sign-in of ${user.username} at the reference API answered ${res.status}`)
  return (await res.json()).token
}

async function signInToBff(bffUrl, user) {
  const res = await fetch(`${bffUrl}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(user) })
  if (res.status !== 200) throw new Error(`sign-in of ${user.username} through the BFF answered ${res.status}: ${await res.text()}`)
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
}

/** Checks a target answers the measured call with the 2 KB body before it is measured. */
async function expectBody(name, url, headers) {
  const res = await fetch(`${url}${BENCH_PATH}`, { headers })
  const body = Buffer.from(await res.arrayBuffer())
  if (res.status !== 200 || body.length !== 2048) throw new Error(`${name}: ${BENCH_PATH} answered ${res.status} with ${body.length} bytes`)
}

/**
 * Starts everything under `dir`. Each target has `url`, `headersFor(i)` (the headers of
 * connection i) and `cpuMicros()` (CPU time of its processes so far).
 */
export async function startTargets({ dir, sessions, bffNodeArgs = [] }) {
  const [apiPort, bffPort, nginxPort, expressPort] = await ports(4)
  const running = []
  const stopAll = async () => {
    for (const proc of running.reverse()) await proc.stop()
  }
  try {
    // The reference API on its own, long-lived tokens: nginx and Express hold one for the whole run.
    const api = startProcess('reference API', process.execPath, ['--import', 'tsx', 'server/reference-api/main.ts'], {
      env: childEnv({ NODE_ENV: 'production', API_HOST: '127.0.0.1', API_PORT: String(apiPort), DATA_DIR: path.join(dir, 'api-data'), LOG_LEVEL: 'warn', ACCESS_TOKEN_TTL_S: '86400' }),
      logFile: path.join(dir, 'reference-api.log'),
    })
    running.push(api)
    const apiUrl = `http://127.0.0.1:${apiPort}`
    process.stdout.write('starting the reference API (the first start seeds its data) … ')
    await waitForHttp(api, `${apiUrl}/healthz`)
    console.log('ready')

    // The BFF as production starts it, its log lines (info) going to a file.
    const bff = startProcess('BFF', process.execPath, ['--import', 'tsx', ...bffNodeArgs, 'server/main.ts'], {
      env: childEnv({
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(bffPort),
        UPSTREAM_URL: apiUrl,
        LOG_LEVEL: 'info',
        ALLOWED_HOSTS: '127.0.0.1',
        DATA_DIR: path.join(dir, 'bff-data'),
        CLIENT_DIST: path.join(ROOT, 'dist/client'),
      }),
      logFile: path.join(dir, 'bff.log'),
    })
    running.push(bff)
    const bffUrl = `http://127.0.0.1:${bffPort}`
    await waitForHttp(bff, `${bffUrl}/healthz`)

    const token = await signInToApi(apiUrl, USERS[0])
    const cookies = []
    for (let i = 0; i < sessions; i++) cookies.push(await signInToBff(bffUrl, USERS[i % USERS.length]))
    const browser = (i) => ({ accept: 'application/json', cookie: cookies[i % cookies.length] })

    const nginx = startNginx({ dir: path.join(dir, 'nginx'), port: nginxPort, upstreamPort: apiPort, token, brandDomain: BRAND_DOMAIN })
    running.push(nginx)
    const nginxUrl = `http://127.0.0.1:${nginxPort}`
    await waitForHttp(nginx, `${nginxUrl}${BENCH_PATH}`)

    const express = startProcess('express', process.execPath, [path.join(import.meta.dirname, 'express-proxy.mjs')], {
      env: childEnv({ PORT: String(expressPort), UPSTREAM_URL: apiUrl, UPSTREAM_TOKEN: token, BRAND_DOMAIN }),
      logFile: path.join(dir, 'express.log'),
    })
    running.push(express)
    const expressUrl = `http://127.0.0.1:${expressPort}`
    await waitForHttp(express, `${expressUrl}/healthz`)

    const targets = {
      direct: { name: 'direct', url: apiUrl, headersFor: () => ({ accept: 'application/json', authorization: `Bearer ${token}`, 'x-brand-domain': BRAND_DOMAIN }), pids: () => [api.pid] },
      bff: { name: 'bff', url: bffUrl, headersFor: browser, pids: () => [bff.pid] },
      nginx: { name: 'nginx', url: nginxUrl, headersFor: browser, pids: () => withChildren(nginx.pid) },
      express: { name: 'express', url: expressUrl, headersFor: browser, pids: () => [express.pid] },
    }
    for (const target of Object.values(targets)) {
      target.cpuMicros = () => cpuMicrosOf(target.pids())
      await expectBody(target.name, target.url, target.headersFor(0))
    }
    return { targets, bffLog: bff.logFile, stop: stopAll, bffProcess: bff }
  } catch (err) {
    await stopAll()
    throw err
  }
}

/** Log lines with this message about this path (the BFF logs one per request). */
export function countLogLines(file, msg, urlPath) {
  let n = 0
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (line.includes(`"msg":"${msg}"`) && line.includes(`"url":"${urlPath}`)) n++
  return n
}
