import { afterEach, describe, expect, it, vi } from 'vitest'
import { api } from '../../client/api/client'
import { fetchManifest } from '../../client/api/manifest'

/**
 * Issue 19: index.html preloads the manifest, and a browser hands that answer to the app's own
 * request only when the two match. Chromium compares the credentials mode; WebKit compares the
 * headers too. So the manifest request sends none of the client's own headers; every other
 * call keeps them (the CSRF header on changes, JSON asked for).
 */

const asJson = () => new Response(JSON.stringify({ authenticated: false }), { status: 200, headers: { 'content-type': 'application/json' } })

afterEach(() => vi.unstubAllGlobals())

describe('the manifest request', () => {
  it('is sent as the page preloads it: same-origin credentials, no headers of the client’s own', async () => {
    const fetchMock = vi.fn(async () => asJson())
    vi.stubGlobal('fetch', fetchMock)
    await expect(fetchManifest()).resolves.toEqual({ authenticated: false })
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/bff/manifest')
    expect(init).toMatchObject({ method: 'GET', credentials: 'same-origin' })
    expect(init.headers).toEqual({})
  })

  it('leaves every other call as it was', async () => {
    const fetchMock = vi.fn(async () => asJson())
    vi.stubGlobal('fetch', fetchMock)
    await api.get('/bff/notices')
    await api.post('/bff/auth/logout', {})
    const [, read] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    const [, change] = fetchMock.mock.calls[1] as unknown as [string, RequestInit]
    expect(read.headers).toEqual({ 'X-CSRF': '1', Accept: 'application/json' })
    expect(change.headers).toMatchObject({ 'X-CSRF': '1', Accept: 'application/json', 'Content-Type': 'application/json' })
  })

  it('keeps its headers when asked to change something, whatever the option says', async () => {
    const fetchMock = vi.fn(async () => asJson())
    vi.stubGlobal('fetch', fetchMock)
    await api.post('/bff/auth/logout', {}, { preloaded: true })
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect((init.headers as Record<string, string>)['X-CSRF']).toBe('1')
  })
})
