// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isStaleChunkError } from '../../client/api/render-errors'
import { BUILD_CHECK_INTERVAL_MS, isOutdated, RELOAD_GUARD_TTL_MS, reloadTo, startBuildCheck } from '../../client/app/build-check'

describe('build check and reload guard (spec §8, §9)', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    sessionStorage.clear()
  })

  it('checks the build id every 3,600,000 ms and flags a new build', async () => {
    expect(BUILD_CHECK_INTERVAL_MS).toBe(3_600_000)
    vi.useFakeTimers()
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ buildId: 'nuevo' }), { headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetchMock)
    const stop = startBuildCheck('viejo')
    await vi.advanceTimersByTimeAsync(BUILD_CHECK_INTERVAL_MS - 1)
    expect(fetchMock).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(fetchMock).toHaveBeenCalledWith('/bff/build', expect.anything())
    expect(isOutdated()).toBe(true)
    stop()
  })

  it('reloads to the target path, but not twice within 10 s', () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const t0 = 1_000_000
    expect(reloadTo('/soluciones/facturas', t0)).toBe(true)
    expect(assign).toHaveBeenCalledWith('/soluciones/facturas')
    expect(reloadTo('/soluciones/facturas', t0 + RELOAD_GUARD_TTL_MS - 1)).toBe(false)
    expect(assign).toHaveBeenCalledTimes(1)
    expect(reloadTo('/', t0 + RELOAD_GUARD_TTL_MS)).toBe(true)
    expect(assign).toHaveBeenCalledTimes(2)
  })

  it('recognises a failed chunk load as a stale build', () => {
    expect(isStaleChunkError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isStaleChunkError(new Error('otra cosa'))).toBe(false)
  })
})
