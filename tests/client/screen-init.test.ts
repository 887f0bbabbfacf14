// @vitest-environment jsdom
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { ScreenFile } from '../../schemas/screen'
import type { WidgetRegistry } from '../../client/renderer/node-renderer'
import { INIT_WAIT_MS, screenQuery } from '../../client/renderer/screen-query'
import { lazyComponent } from '../../client/ui/lazy-component'
import { prefetchDashboard, renewalsQuery, summaryQuery } from '../../client/widgets/dashboard/queries'
import { preferencesQuery } from '../../client/api/preferences'

/**
 * Spec §2: "/" runs an init step before the dashboard. Generally: a screen is handed over once
 * its widgets' data (those with an init step) is in the cache, or after INIT_WAIT_MS, so the
 * dashboard's panels arrive together rather than one by one.
 */
const dashboard = { schemaVersion: 2, id: 'dashboard', title: 'Inicio', root: { type: 'page', children: [{ type: 'widget', name: 'dashboard' }] } } as ScreenFile
const manifest = (permissions: string[]) => ({ authenticated: true, user: { id: 7, name: 'Ana', email: 'ana@example.es', permissions, agent: null } }) as unknown as Manifest

function upstream(delayMs = 0) {
  return vi.fn(async (input: string) => {
    const url = new URL(input, 'http://portal.test')
    if (delayMs && url.pathname.startsWith('/api/')) await new Promise((r) => setTimeout(r, delayMs))
    switch (url.pathname) {
      case '/bff/screens/dashboard': return Response.json(dashboard)
      case '/api/usuarios/preferences': return Response.json([])
      case '/api/utility/dashboard/resumen': return Response.json({ EnCurso: 3 })
      case '/api/contract/situacion-contratos': return Response.json([])
      case '/api/contract/cantidad-por-mes': return Response.json([])
      case '/api/energia/ultima-fecha': return Response.json({ Fecha: '2026-11-28' })
      case '/api/energia/historico-cierre/omie': return Response.json({ Puntos: [], Resumen: {} })
      case '/api/renovaciones': return Response.json({ Items: [], TotalCount: 0 })
      default: return new Response('', { status: 404 })
    }
  })
}
const pathsOf = (fetchMock: ReturnType<typeof upstream>) => fetchMock.mock.calls.map(([input]) => new URL(input, 'http://portal.test').pathname)

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('the init step of a screen', () => {
  it('hands the dashboard over with every panel’s data already in the cache, asked for at once', async () => {
    const fetchMock = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const widgets: WidgetRegistry = { dashboard: Object.assign(lazyComponent<Record<string, unknown>>(async () => () => null), { prefetchData: prefetchDashboard }) }
    const m = manifest(['VERRENOVACIONES'])
    const screen = await client.fetchQuery(screenQuery('dashboard', widgets, { client, manifest: m }))
    expect(screen.id).toBe('dashboard')
    expect(new Set(pathsOf(fetchMock))).toEqual(
      new Set(['/bff/screens/dashboard', '/api/usuarios/preferences', '/api/utility/dashboard/resumen', '/api/contract/situacion-contratos', '/api/contract/cantidad-por-mes', '/api/energia/ultima-fecha', '/api/energia/historico-cierre/omie', '/api/renovaciones']),
    )
    // The panels find their data: the same keys as their own queries.
    expect(client.getQueryData(summaryQuery().queryKey)).toEqual({ EnCurso: 3 })
    expect(client.getQueryData(preferencesQuery(7).queryKey)).toEqual([])
    expect(client.getQueryData(renewalsQuery().queryKey)).toEqual({ Items: [], TotalCount: 0 })
  })

  it('asks only for what the user may see', async () => {
    const fetchMock = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    await prefetchDashboard(client, manifest([]))
    expect(pathsOf(fetchMock)).not.toContain('/api/renovaciones')
    expect(pathsOf(fetchMock)).toContain('/api/utility/dashboard/resumen')
  })

  it('does not hold the screen back longer than INIT_WAIT_MS for a slow call', async () => {
    const fetchMock = upstream(INIT_WAIT_MS * 3)
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const widgets: WidgetRegistry = { dashboard: Object.assign(lazyComponent<Record<string, unknown>>(async () => () => null), { prefetchData: prefetchDashboard }) }
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let handed: ScreenFile | null = null
    void client.fetchQuery(screenQuery('dashboard', widgets, { client, manifest: manifest([]) })).then((s) => (handed = s))
    await vi.advanceTimersByTimeAsync(INIT_WAIT_MS - 10)
    expect(handed).toBeNull()
    await vi.advanceTimersByTimeAsync(20)
    expect(handed).toMatchObject({ id: 'dashboard' })
  })

  it('a screen without widgets with an init step waits for nothing more', async () => {
    const fetchMock = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    await client.fetchQuery(screenQuery('dashboard', { dashboard: lazyComponent<Record<string, unknown>>(async () => () => null) }, { client, manifest: manifest([]) }))
    expect(pathsOf(fetchMock)).toEqual(['/bff/screens/dashboard'])
  })
})
