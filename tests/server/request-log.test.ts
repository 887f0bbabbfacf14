import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN } from '../helpers/bff'
import { startPortalProcess, type PortalProcess } from '../helpers/portal-process'

let portal: PortalProcess | undefined

afterAll(async () => {
  await portal?.cleanup()
})

/** The "request completed" lines the process has written so far, parsed. */
function completedLines(output: string): { reqId: string; req: { url: string }; res: { statusCode: number } }[] {
  return output
    .split('\n')
    .filter((line) => line.includes('"msg":"request completed"'))
    .map((line) => JSON.parse(line))
}

describe('the running portal\'s request log (written asynchronously)', () => {
  it('has one line per request with its id, written while running and the last ones on shutdown', { timeout: 90_000 }, async () => {
    portal = await startPortalProcess()
    const { url } = portal
    const login = await fetch(`${url}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(ADMIN) })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

    const call = async () => {
      const res = await fetch(`${url}/api/utility/prueba-carga`, { headers: { cookie } })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
      return res.headers.get('x-request-id')!
    }
    const ids: string[] = []
    for (let i = 0; i < 30; i++) ids.push(await call())

    // A quiet portal's lines reach the output without waiting for 4 KB more of them.
    await expect.poll(() => completedLines(portal!.output()).filter((l) => ids.includes(l.reqId)).length, { timeout: 10_000, interval: 100 }).toBe(30)

    // Lines still buffered when the signal comes are written before the process ends.
    const last: string[] = []
    for (let i = 0; i < 5; i++) last.push(await call())
    portal.child.kill('SIGTERM')
    expect((await portal.exited).code).toBe(0)

    const lines = completedLines(portal.output())
    for (const id of [...ids, ...last]) {
      const mine = lines.filter((l) => l.reqId === id)
      expect(mine, id).toHaveLength(1)
      expect(mine[0]!.req.url).toBe('/api/utility/prueba-carga')
      expect(mine[0]!.res.statusCode).toBe(200)
    }
  })
})
