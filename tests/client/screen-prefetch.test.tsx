// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { DetailNode, ScreenFile, TableNode } from '../../schemas/screen'
import { MANIFEST_KEY } from '../../client/api/manifest'
import { routeCheckQuery } from '../../client/app/route-checks'
import { useRouteIntent } from '../../client/app/use-route-intent'
import { detailQuery } from '../../client/renderer/nodes/detail-query'
import { templateUser } from '../../client/renderer/template'
import { INTENT_REST_MS, LinkIntentProvider, useLinkIntent } from '../../client/ui/link-intent'
import { firstPageQuery, prefetchScreen } from '../../client/renderer/screen-query'
import { useTableController } from '../../client/renderer/table/use-table-controller'

/**
 * Issue 19: the screen JSON and the first page are prefetched on intent (a menu entry hovered or
 * focused), so the click paints rows from the cache: the table asks for exactly what was fetched.
 */
const table: TableNode = {
  type: 'table',
  id: 'contratos',
  urlState: true,
  source: { endpoint: 'api/contract', params: { soloActivos: true } },
  dataKey: 'CodigoContrato',
  defaultSort: { field: 'FechaAlta', order: 'desc' },
  columns: [
    { field: 'CodigoContrato', header: 'Código', sortable: true, filter: { input: 'text' } },
    { field: 'FechaAlta', header: 'Fecha de alta', format: 'date', sortable: true },
  ],
}
const screen = { schemaVersion: 2, id: 'contratos-listado', title: 'Contratos', root: { type: 'page', children: [{ type: 'markdown', content: 'Contratos' }, table] } } as ScreenFile

function upstream() {
  return vi.fn(async (input: string) => {
    const url = new URL(input, 'http://portal.test')
    if (url.pathname === '/bff/screens/contratos-listado') return Response.json(screen)
    if (url.pathname === '/api/usuarios/preferences') return Response.json([])
    if (url.pathname === '/api/contract') {
      const size = Number(url.searchParams.get('pageSize'))
      return Response.json({ Items: Array.from({ length: size }, (_, i) => ({ CodigoContrato: `EV-${i}`, FechaAlta: '2026-01-01' })), TotalCount: 120 })
    }
    return new Response('', { status: 404 })
  })
}

const paths = (fetchMock: ReturnType<typeof upstream>, path: string) =>
  fetchMock.mock.calls.map(([input]) => new URL(input, 'http://portal.test')).filter((u) => u.pathname === path)

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('prefetch on intent', () => {
  it('fetches the screen and its main table’s first page; the table then draws them from the cache at once', async () => {
    const fetchMock = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    client.setQueryData(MANIFEST_KEY, { authenticated: true, user: { id: 7, name: 'Ana', email: 'ana@example.es', permissions: [], agent: null } } as unknown as Manifest)

    await prefetchScreen(client, 'contratos-listado', {})
    expect(paths(fetchMock, '/bff/screens/contratos-listado')).toHaveLength(1)
    const [page] = paths(fetchMock, '/api/contract')
    expect(page?.searchParams.get('pageIndex')).toBe('0')
    expect(page?.searchParams.get('soloActivos')).toBe('true')

    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/soluciones/contratos']}>{children}</MemoryRouter>
      </QueryClientProvider>
    )
    const { result } = renderHook(() => useTableController(table), { wrapper })
    // First render, no waiting: the rows are the prefetched page.
    expect(result.current.rows).toHaveLength(10)
    expect(result.current.total).toBe(120)
    expect(paths(fetchMock, '/api/contract')).toHaveLength(1)
    // A second intent within the freshness window fetches nothing again.
    await prefetchScreen(client, 'contratos-listado', {})
    expect(paths(fetchMock, '/bff/screens/contratos-listado')).toHaveLength(1)
    expect(paths(fetchMock, '/api/contract')).toHaveLength(1)
  })

  it('leaves alone tables whose call needs the route or a record', () => {
    expect(firstPageQuery({ ...table, source: { endpoint: 'api/contract/{params.id}' } })).toBeNull()
    expect(firstPageQuery({ ...table, source: { endpoint: 'api/contract', params: { agente: '{user.agentId}' } } })).toBeNull()
    expect(firstPageQuery({ ...table, source: { fromData: 'data.Contratos' } })).toBeNull()
    expect(firstPageQuery(table)?.queryKey).toEqual(['node', 'contratos', '/api/contract', expect.objectContaining({ soloActivos: true, pageIndex: 0 })])
  })
})

/**
 * Issue 19, a contract's detail: a row's link prefetches on intent too. The route's check runs
 * ahead (its answer stands a few seconds, so the page does not ask again), then the record its
 * address names, under the key the detail node reads: the click draws the record at once.
 */
describe('prefetch of a record on a link’s intent', () => {
  const detail: DetailNode = {
    type: 'detail',
    id: 'contrato',
    source: { endpoint: 'api/contract/id', params: { codigo: '{params.referencia}' } },
    sections: [{ title: 'Contrato', fields: [{ field: 'CodigoContrato', label: 'Código' }] }],
  }
  const detailScreen = { schemaVersion: 2, id: 'contrato-detalle', title: 'Contrato', root: { type: 'page', children: [detail] } } as ScreenFile
  const manifest = {
    authenticated: true,
    user: { id: 7, name: 'Ana', email: 'ana@example.es', permissions: [], agent: null },
    permissions: [],
    routes: [{ path: '/soluciones/contratos/{referencia}', screen: 'contrato-detalle', check: 'contract-detail' }],
  } as unknown as Manifest

  function recordApi(exists: boolean) {
    return vi.fn(async (input: string) => {
      const url = new URL(input, 'http://portal.test')
      if (url.pathname === '/bff/screens/contrato-detalle') return Response.json(detailScreen)
      if (url.pathname === '/api/contract/id') return exists ? Response.json({ CodigoContrato: url.searchParams.get('codigo') }) : Response.json({ message: 'No existe.' }, { status: 404 })
      return new Response('', { status: 404 })
    })
  }

  function withClient(client: QueryClient) {
    return ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    )
  }

  /** A signed-in client over an API where the contract exists or not, and the intent of a link to `path`. */
  function intentOn(exists: boolean, path: string) {
    const fetchMock = recordApi(exists)
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    client.setQueryData(MANIFEST_KEY, manifest)
    renderHook(() => useRouteIntent(), { wrapper: withClient(client) }).result.current(path)
    return { fetchMock, client }
  }

  it('runs the check, then fetches the record; the check and the detail then read them from the cache', async () => {
    const { fetchMock, client } = intentOn(true, '/soluciones/contratos/EV-2026-000042')
    // The check's read, then the detail's: the same call twice, as the page itself makes it.
    await waitFor(() => expect(paths(fetchMock, '/api/contract/id')).toHaveLength(2))
    expect(paths(fetchMock, '/api/contract/id').map((u) => u.searchParams.get('codigo'))).toEqual(['EV-2026-000042', 'EV-2026-000042'])
    expect(paths(fetchMock, '/bff/screens/contrato-detalle')).toHaveLength(1)

    const check = routeCheckQuery('contract-detail', { referencia: 'EV-2026-000042' }, '/soluciones/contratos/EV-2026-000042', '')
    expect(client.getQueryData(check.queryKey)).toBe(true)
    const record = detailQuery(detail, { params: { referencia: 'EV-2026-000042' }, query: {}, user: templateUser(manifest) })
    expect(client.getQueryData(record.options.queryKey)).toEqual({ CodigoContrato: 'EV-2026-000042' })
    // The page on arrival: its check and its detail find fresh answers and ask for nothing.
    const wrapper = withClient(client)
    const page = renderHook(() => [useQuery(check), useQuery(record.options)] as const, { wrapper })
    expect(page.result.current[0].data).toBe(true)
    expect(page.result.current[1].data).toEqual({ CodigoContrato: 'EV-2026-000042' })
    await new Promise((r) => setTimeout(r, 50))
    expect(paths(fetchMock, '/api/contract/id')).toHaveLength(2)
  })

  it('fetches no record when the check fails (an unknown contract gets the 404 page, not a fetched error)', async () => {
    const { fetchMock } = intentOn(false, '/soluciones/contratos/EV-2026-999999')
    await waitFor(() => expect(paths(fetchMock, '/bff/screens/contrato-detalle')).toHaveLength(1))
    await new Promise((r) => setTimeout(r, 50))
    // One read: the check's, which said no.
    expect(paths(fetchMock, '/api/contract/id')).toHaveLength(1)
  })

  it('leaves alone a detail whose call needs what the page draws (a row, a form, another record)', async () => {
    const fetchMock = recordApi(true)
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    client.setQueryData(MANIFEST_KEY, manifest)
    const needsData = { ...detail, source: { endpoint: 'api/contract/id', params: { codigo: '{data.Codigo}' } } }
    fetchMock.mockImplementation(async (input: string) => {
      const url = new URL(input, 'http://portal.test')
      if (url.pathname === '/bff/screens/contrato-detalle') return Response.json({ ...detailScreen, root: { type: 'page', children: [needsData] } })
      return new Response('', { status: 404 })
    })
    await prefetchScreen(client, 'contrato-detalle', {}, { params: { referencia: 'EV-2026-000042' } })
    expect(paths(fetchMock, '/bff/screens/contrato-detalle')).toHaveLength(1)
    expect(paths(fetchMock, '/api/contract/id')).toHaveLength(0)
  })
})

describe('a link’s intent', () => {
  function linkHandlers(intent: (path: string) => void) {
    const wrapper = ({ children }: { children: ReactNode }) => <LinkIntentProvider value={intent}>{children}</LinkIntentProvider>
    return renderHook(() => useLinkIntent('/soluciones/contratos/EV-2026-000042'), { wrapper }).result
  }

  it('is the pointer resting on the link, or the focus reaching it; a pointer crossing the rows asks nothing', () => {
    vi.useFakeTimers()
    try {
      const intent = vi.fn()
      const handlers = linkHandlers(intent)
      handlers.current.onMouseEnter!()
      vi.advanceTimersByTime(INTENT_REST_MS - 10)
      handlers.current.onMouseLeave!()
      vi.advanceTimersByTime(INTENT_REST_MS)
      expect(intent).not.toHaveBeenCalled()
      handlers.current.onMouseEnter!()
      vi.advanceTimersByTime(INTENT_REST_MS)
      expect(intent).toHaveBeenCalledWith('/soluciones/contratos/EV-2026-000042')
      handlers.current.onFocus!()
      expect(intent).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
})
