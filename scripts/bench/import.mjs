// `npm run bench:import`: the bulk import's dry run over 10 000 contract sign-ups (issue 17:
// every row validated in under 10 s). Starts the whole portal (BFF and its embedded reference
// API) over a temporary data folder, signs in as the admin, builds a CSV of sign-ups with real
// check digits (a NIF, CUPS and IBAN of their own per row, one row in fifty wrong on purpose),
// then times the upload and the dry run as the browser makes them (wall time of the two HTTP
// calls, loopback; the 2 s the user spends on the mapping step between them are not counted). Prints the figure against the target, writes bench/results/import-latest.json
// and exits 1 when it is missed.
//
// BENCH_IMPORT_ROWS (10000), BENCH_IMPORT_TARGET_MS (10000), BENCH_IMPORT_PORT (3391).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { makeCups, makeDni, makeIban } from '../../schemas/business/identifiers.ts'
import { ROOT, sleep, startProcess } from './processes.mjs'

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000)
const TARGET_MS = Number(process.env.BENCH_IMPORT_TARGET_MS ?? 10_000)
const PORT = Number(process.env.BENCH_IMPORT_PORT ?? 3391)
const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
const RESULTS = path.join(ROOT, 'bench/results')
const MAPPING_PAUSE_MS = 2000

async function waitUntilReady(proc, base) {
  const deadline = Date.now() + 5 * 60_000
  while (Date.now() < deadline) {
    if (!proc.running()) throw new Error(`the portal exited while starting${proc.logTail()}`)
    if (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) return
    await sleep(500)
  }
  throw new Error(`the portal did not start within 5 min${proc.logTail()}`)
}

async function json(res, what) {
  if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`)
  return res.json()
}

/** The DNI with a check letter that is not its own. */
const wrongLetter = (dni) => dni.slice(0, 8) + (dni[8] === 'T' ? 'R' : 'T')

/** The template's example row with identifiers of its own; every 50th row has a wrong NIF letter. */
function csvOf(columns, agentId) {
  const lines = [columns.map((c) => c.name).join(';')]
  for (let i = 0; i < ROWS; i++) {
    const own = {
      'Cliente.Nif': i % 50 === 49 ? wrongLetter(makeDni(40_000_000 + i)) : makeDni(40_000_000 + i),
      'PuntoSuministro.Cups': makeCups('0021', String(500_000 + i).padStart(12, '0')),
      Iban: makeIban('2100', '0418', String(1_000_000 + i).padStart(10, '0')),
      AgenteId: String(agentId),
    }
    lines.push(columns.map((c) => own[c.name] ?? (/^\d+\.\d+$/.test(c.example) ? c.example.replace('.', ',') : c.example)).join(';'))
  }
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8')
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-import-'))
  const logFile = path.join(dataDir, 'portal.log')
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(PORT), LOG_LEVEL: 'warn' }
  delete env.REFERENCE_API_FAULTS
  delete env.UPSTREAM_URL
  const portal = startProcess('portal', process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, logFile })
  const base = `http://127.0.0.1:${PORT}`
  try {
    await waitUntilReady(portal, base)
    const login = await fetch(`${base}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(ADMIN) })
    if (!login.ok) throw new Error(`sign-in: ${login.status}`)
    const cookie = login.headers.getSetCookie().find((c) => c.includes('portal_session=')).split(';')[0]
    const headers = { cookie, 'x-csrf': '1' }
    const def = await json(await fetch(`${base}/bff/imports/contratos-altas`, { headers }), 'definition')
    const agents = await json(await fetch(`${base}/api/agentes?pageIndex=0&pageSize=1&sortColumn=Codigo&filterColumns[0]=Activo&filterQueries[0]=true`, { headers }), 'agents')
    const file = csvOf(def.columns, agents.Items[0].Id)
    console.log(`Dry run of ${ROWS.toLocaleString('en')} sign-ups (${(file.length / 1024 / 1024).toFixed(1)} MB CSV) against a target of ${TARGET_MS / 1000} s…`)

    const started = performance.now()
    const job = await json(await fetch(`${base}/bff/imports/contratos-altas/upload?name=bench.csv`, { method: 'POST', headers: { ...headers, 'content-type': 'application/octet-stream' }, body: file }), 'upload')
    const uploadedMs = Math.round(performance.now() - started)
    // The user reviews the column mapping between the two steps: not timed.
    await sleep(MAPPING_PAUSE_MS)
    const checkStarted = performance.now()
    const checked = await json(
      await fetch(`${base}/bff/imports/jobs/${job.id}/check`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ mapping: job.mapping }) }),
      'dry run',
    )
    const checkMs = Math.round(performance.now() - checkStarted)
    const totalMs = uploadedMs + checkMs
    const expectedInvalid = Math.floor(ROWS / 50)
    if (checked.check.invalidRows !== expectedInvalid || checked.check.valid !== ROWS - expectedInvalid) {
      throw new Error(`the dry run found ${checked.check.valid} valid and ${checked.check.invalidRows} invalid rows; expected ${ROWS - expectedInvalid} and ${expectedInvalid}`)
    }
    const met = totalMs < TARGET_MS
    console.log(`  upload and parse ${uploadedMs} ms; dry run ${checkMs} ms; together ${totalMs} ms (${Math.round((ROWS / totalMs) * 1000).toLocaleString('en')} rows/s): ${met ? 'met' : 'NOT met'} (< ${TARGET_MS} ms)`)
    const cpus = os.cpus()
    fs.mkdirSync(RESULTS, { recursive: true })
    fs.writeFileSync(
      path.join(RESULTS, 'import-latest.json'),
      `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), machine: `${cpus.length} vCPU (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}`, rows: ROWS, uploadMs: uploadedMs, checkMs, totalMs, targetMs: TARGET_MS, valid: checked.check.valid, invalid: checked.check.invalidRows, met }, null, 2)}\n`,
    )
    if (!met) process.exitCode = 1
  } finally {
    await portal.stop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
