// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { ScreenFile, TableNode } from '../../schemas/screen'
import { MANIFEST_KEY } from '../../client/api/manifest'
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
