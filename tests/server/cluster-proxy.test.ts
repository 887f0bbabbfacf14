import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort, startProxy } from '../../scripts/cluster-local.mjs'

/** A stand-in replica that answers with what it received. */
async function echoReplica(name: string) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] })
      res.end(JSON.stringify({ name, method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { name, host: '127.0.0.1', port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) }
}

function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

describe('the cluster-local reverse proxy', () => {
  it('takes turns, keeps Host, adds X-Forwarded-For/-Proto, names the replica, passes bodies and every Set-Cookie', async () => {
    const a = await echoReplica('a')
    const b = await echoReplica('b')
    const proxy = await startProxy({ replicas: [a, b] })
    cleanup.push(a.close, b.close, proxy.close)

    const first = await send(`${proxy.url}/bff/manifest?x=1`, { headers: { host: 'portal.grupoenergia.localhost:3000', 'x-forwarded-for': '203.0.113.9' } })
    const second = await send(`${proxy.url}/api/insert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hola":"mundo"}' })
    expect([first.headers['x-portal-replica'], second.headers['x-portal-replica']]).toEqual(['a', 'b'])
    expect(first.body).toMatchObject({ name: 'a', method: 'GET', url: '/bff/manifest?x=1' })
    // The address a client claims is replaced by the socket's: the replicas' throttles count by it.
    expect(first.body.headers).toMatchObject({ host: 'portal.grupoenergia.localhost:3000', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'http' })
    expect(second.body).toMatchObject({ name: 'b', method: 'POST', body: '{"hola":"mundo"}' })
    expect(second.body.headers['x-forwarded-for']).toBe('127.0.0.1')
    expect(first.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/'])
  })

  it('skips a replica that refuses connections for a GET, and answers a Spanish 502 when none is left', async () => {
    const a = await echoReplica('a')
    const downPort = await freePort()
    const proxy = await startProxy({ replicas: [{ name: 'down', host: '127.0.0.1', port: downPort }, a] })
    cleanup.push(a.close, proxy.close)
    for (let i = 0; i < 3; i++) expect((await send(`${proxy.url}/healthz`)).headers['x-portal-replica']).toBe('a')

    await a.close()
    cleanup.splice(0, 1)
    const none = await send(`${proxy.url}/healthz`)
    expect(none.status).toBe(502)
    expect(none.body).toEqual({ statusCode: 502, error: 'Bad Gateway', message: 'El portal no está disponible en este momento. Inténtalo de nuevo en unos segundos.' })
  })
})
