import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN } from '../helpers/bff'
import { startPortalProcess, type PortalProcess } from '../helpers/portal-process'

let portal: PortalProcess | undefined

afterAll(async () => {
  await portal?.cleanup()
})

/**
 * The embedded reference API runs in its own worker thread (server/reference-api/embedded.ts):
 * while it computes (here a call held busy 6 s, as a 100 000-row export would be), the BFF's
 * own event loop keeps answering. In one thread, /healthz would wait for the whole 6 s.
 */
describe('the embedded reference API cannot stall the BFF', () => {
  it('answers /healthz and the manifest while the reference API is busy computing', { timeout: 90_000 }, async () => {
    const busyMs = 6000
    portal = await startPortalProcess({ REFERENCE_API_FAULTS: `GET /api/facturas=0:0:${busyMs}` })
    const { url } = portal
    const login = await fetch(`${url}/bff/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf': '1' }, body: JSON.stringify(ADMIN) })
    expect(login.status).toBe(200)
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')

    const started = Date.now()
    let busyAnswered = false
    const busy = fetch(`${url}/api/facturas?pageSize=1`, { headers: { cookie } }).then((res) => {
      busyAnswered = true
      return res.status
    })
    // Let the busy call reach the reference API's thread before asking the BFF.
    await new Promise((resolve) => setTimeout(resolve, 1000))

    const health = await fetch(`${url}/healthz`)
    const manifest = await fetch(`${url}/bff/manifest`, { headers: { cookie } })
    const answeredAfter = Date.now() - started
    expect(health.status).toBe(200)
    expect(manifest.status).toBe(200)
    expect(busyAnswered).toBe(false)
    // Well inside the busy window (the margin is seconds, not a speed target).
    expect(answeredAfter).toBeLessThan(busyMs - 2000)

    // And the busy call itself still completes normally.
    expect(await busy).toBe(200)
  })
})
