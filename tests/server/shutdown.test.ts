import http from 'node:http'
import net from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN } from '../helpers/bff'
import { startPortalProcess, type PortalProcess } from '../helpers/portal-process'

let portal: PortalProcess | undefined

afterAll(async () => {
  await portal?.cleanup()
})

interface Answer {
  status: number
  body: string
}

/** Reads an answer to the end (no keep-alive: the connection closes with it). */
function answerOf(req: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.once('error', reject)
    req.once('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }))
      res.once('error', reject)
    })
  })
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'))
  })
}

async function until(what: string, check: () => Promise<boolean>, limitMs = 8000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting for: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('graceful shutdown of the real process', () => {
  it('on SIGTERM refuses new connections, finishes a slow call and a streaming upload, and exits 0 within 10 s', { timeout: 90_000 }, async () => {
    // The reference API holds both calls: the list for 3 s, the upload 2 s before reading its body.
    portal = await startPortalProcess({ REFERENCE_API_FAULTS: 'GET /api/facturas=0:3000;POST /api/contract/insert-documents=0:2000' })
    const { url, port } = portal

    const login = await fetch(`${url}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(ADMIN) })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')
    const list = await fetch(`${url}/api/contract?pageSize=1&filterColumns[0]=Estado&filterQueries[0]=activo`, { headers: { cookie } })
    expect(list.status).toBe(200)
    const codigo = ((await list.json()) as { Items: { CodigoContrato: string }[] }).Items[0]!.CodigoContrato

    // An upload whose body is only half sent when the signal arrives.
    const boundary = 'portal-shutdown-test'
    const fileBytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(256 * 1024, 0x20), Buffer.from('\n%%EOF\n')])
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="CodigoContrato"\r\n\r\n${codigo}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="Tipo"\r\n\r\notro\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="Archivos"; filename="nota-cierre.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      fileBytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const half = Math.floor(body.length / 2)
    const upload = http.request(`${url}/api/contract/insert-documents`, {
      method: 'POST',
      agent: false,
      headers: { cookie, 'x-csrf': '1', 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
    })
    const uploadAnswer = answerOf(upload)
    upload.write(body.subarray(0, half))

    const slowList = http.get(`${url}/api/facturas?pageSize=5`, { agent: false, headers: { cookie } })
    const slowAnswer = answerOf(slowList)

    // Both calls are in flight once the reference API has applied their delays.
    await until('both calls to reach the upstream', async () => {
      const res = await fetch(`${url}/api/__test/faults`, { headers: { cookie } })
      const faults = (await res.json()) as { Path: string; Aplicados: number }[]
      return faults.length === 2 && faults.every((f) => f.Aplicados >= 1)
    })

    const signalledAt = Date.now()
    portal.child.kill('SIGTERM')
    await until('the listening socket to close', () => refused(port))

    // The rest of the upload arrives after the signal.
    upload.end(body.subarray(half))

    const [uploaded, slow] = await Promise.all([uploadAnswer, slowAnswer])
    expect(slow.status).toBe(200)
    expect((JSON.parse(slow.body) as { Items: unknown[] }).Items.length).toBeGreaterThan(0)
    expect(uploaded.status).toBe(201)
    const stored = JSON.parse(uploaded.body) as { Nombre: string; Tamano: number }[]
    expect(stored).toHaveLength(1)
    expect(stored[0]!.Nombre).toBe('nota-cierre.pdf')
    expect(stored[0]!.Tamano).toBe(fileBytes.length)

    const { code, signal } = await portal.exited
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    expect(Date.now() - signalledAt).toBeLessThan(10_000)
    expect(portal.output()).toMatch(/"event":"shutdown","signal":"SIGTERM"/)
    expect(portal.output()).toMatch(/"event":"stopped"/)
  })
})
