// @vitest-environment jsdom
import { QueryClient, QueryObserver } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { ScreenFile } from '../../schemas/screen'
import type { WidgetRegistry } from '../../client/renderer/node-renderer'
import { INIT_WAIT_MS, screenQuery } from '../../client/renderer/screen-query'
import { lazyComponent } from '../../client/ui/lazy-component'
import { omieLastDayQuery, prefetchDashboard, renewalsQuery, summaryQuery } from '../../client/widgets/dashboard/queries'
import { createQueryClient } from '../../client/api/query-client'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
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

  it('asks only for the panels the user’s layout shows: a removed panel is not asked for', async () => {
    const base = upstream()
    const fetchMock = vi.fn(async (input: string) =>
      new URL(input, 'http://portal.test').pathname === '/api/usuarios/preferences'
        ? Response.json([{ Id: 1, Clave: 'dashboard:layouts', Valor: { version: 1, widgets: ['resumen', 'situacion'], layouts: {} } }])
        : base(input),
    )
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    await prefetchDashboard(client, manifest(['VERRENOVACIONES']))
    const paths = fetchMock.mock.calls.map(([input]) => new URL(input, 'http://portal.test').pathname)
    expect(paths).toContain('/api/utility/dashboard/resumen')
    expect(paths).toContain('/api/contract/situacion-contratos')
    for (const removed of ['/api/energia/ultima-fecha', '/api/contract/cantidad-por-mes', '/api/renovaciones']) expect(paths).not.toContain(removed)
  })

  it('a panel’s failed load in the init step is toasted once, titled by its area, and not asked for again when the panel mounts', async () => {
    const base = upstream()
    const fetchMock = vi.fn(async (input: string) => (new URL(input, 'http://portal.test').pathname === '/api/energia/ultima-fecha' ? new Response('', { status: 500 }) : base(input)))
    vi.stubGlobal('fetch', fetchMock)
    const toasts: ToastMessage[] = []
    registerToastSink((m) => toasts.push(m))
    try {
      const client = createQueryClient()
      await prefetchDashboard(client, manifest([]))
      await vi.waitFor(() => expect(toasts.filter((t) => t.severity === 'error')).toHaveLength(1))
      expect(toasts[0]!.summary).toBe('OMIE')
      const calls = () => fetchMock.mock.calls.filter(([input]) => new URL(input, 'http://portal.test').pathname === '/api/energia/ultima-fecha').length
      // One call and the client's one retry (spec §9).
      expect(calls()).toBe(2)
      // The panel's own query (same options) finds the failure and does not ask again.
      const observer = new QueryObserver(client, omieLastDayQuery())
      const unsubscribe = observer.subscribe(() => undefined)
      expect(observer.getCurrentResult().isError).toBe(true)
      await new Promise((r) => setTimeout(r, 20))
      unsubscribe()
      expect(calls()).toBe(2)
      expect(toasts.filter((t) => t.severity === 'error')).toHaveLength(1)
    } finally {
      registerToastSink(null)
    }
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
