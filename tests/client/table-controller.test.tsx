// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { TableNode } from '../../schemas/screen'
import type { ViewForUser } from '../../schemas/view'
import { MANIFEST_KEY } from '../../client/api/manifest'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
import { RenderContext } from '../../client/renderer/context'
import { useTableController } from '../../client/renderer/table/use-table-controller'

/** The table as a screen declares it: URL state, a default sort, filters, export, a row link and a bulk action. */
const node: TableNode = {
  type: 'table',
  id: 'contratos',
  urlState: true,
  source: { endpoint: 'api/contract' },
  dataKey: 'CodigoContrato',
  rowLink: '/soluciones/contratos/{row.CodigoContrato}',
  defaultSort: { field: 'FechaAlta', order: 'desc' },
  export: { endpoint: 'api/contract/export' },
  bulkActions: [{ id: 'firma', label: 'Enviar a firma', kind: 'call', call: { method: 'PUT', endpoint: 'api/contract/update/situacion-firma' } }],
  columns: [
    { field: 'CodigoContrato', header: 'Código', sortable: true, filter: { input: 'text' } },
    { field: 'Titular', header: 'Titular', sortable: true, filter: { input: 'text' } },
    { field: 'FechaAlta', header: 'Fecha de alta', format: 'date', sortable: true },
    { field: 'Provincia', header: 'Provincia', hidden: true },
  ],
}

/** A view as the BFF answers it. */
const view = (v: Partial<ViewForUser> & Pick<ViewForUser, 'id' | 'name' | 'owner'>): ViewForUser => ({
  screen: '',
  table: 'contratos',
  filters: {},
  sort: null,
  visibility: 'private',
  brand: 'verde',
  version: 1,
  updatedAt: '2026-11-29T10:00:00.000Z',
  editable: false,
  ...v,
})

const TOTAL = 1203
const contract = (i: number) => ({ CodigoContrato: `EV-2026-${String(i).padStart(6, '0')}`, Titular: `Titular ${i}`, FechaAlta: '2026-01-01' })

/** The upstream as the table sees it: one page of 1 203 contracts per call, the export, the user's preferences. */
function upstream(saved: unknown[] = []) {
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://portal.test')
    if (url.pathname === '/api/usuarios/preferences') return Response.json(saved)
    if (url.pathname === '/api/usuarios/preference' && init?.method === 'POST') {
      const { Clave, Valor } = JSON.parse(String(init.body)) as { Clave: string; Valor: unknown }
      saved.splice(0, saved.length, { Id: 1, Clave, Valor })
      return Response.json({})
    }
    if (url.pathname === '/api/contract/export') return new Response('xlsx', { headers: { 'content-disposition': 'attachment; filename="contratos.xlsx"' } })
    if (url.pathname === '/api/contract') {
      const page = Number(url.searchParams.get('pageIndex'))
      const size = Number(url.searchParams.get('pageSize'))
      const from = page * size
      const items = Array.from({ length: Math.max(0, Math.min(size, TOTAL - from)) }, (_, i) => contract(from + i))
      return Response.json({ Items: items, TotalCount: TOTAL })
    }
    return new Response('', { status: 404 })
  })
  return { fetchMock, saved }
}

const calls = (fetchMock: ReturnType<typeof upstream>['fetchMock'], path: string) =>
  fetchMock.mock.calls.map(([input]) => new URL(input, 'http://portal.test')).filter((u) => u.pathname === path)

function harness(at: string, permissions: string[] = [], screenId = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  client.setQueryData(MANIFEST_KEY, { authenticated: true, user: { id: 7, name: 'Ana', email: 'ana@example.es', permissions, agent: null } } as unknown as Manifest)
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <RenderContext value={{ screenId }}>{children}</RenderContext>
      </MemoryRouter>
    </QueryClientProvider>
  )
  return renderHook(() => ({ table: useTableController(node), location: useLocation() }), { wrapper })
}

let toasts: ToastMessage[] = []
beforeEach(() => {
  toasts = []
  registerToastSink((m) => toasts.push(m))
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  registerToastSink(null)
})

describe('useTableController', () => {
  it('reads page, size, sort and filters from the URL and asks the upstream for exactly that page', async () => {
    const { fetchMock } = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness('/contratos?page=3&size=25&sort=Titular:asc&f.Titular=garc%C3%ADa')
    expect(result.current.table.state).toEqual({ page: 2, size: 25, sort: { field: 'Titular', order: 'asc' }, filters: { Titular: 'garcía' } })
    await waitFor(() => expect(result.current.table.rows).toHaveLength(25))
    expect(result.current.table.total).toBe(TOTAL)
    expect(result.current.table.rows[0]).toEqual(contract(50))
    const [call] = calls(fetchMock, '/api/contract')
    expect(Object.fromEntries(call!.searchParams)).toEqual({
      pageIndex: '2',
      pageSize: '25',
      sortColumn: 'Titular',
      sortOrder: 'asc',
      'filterColumns[0]': 'Titular',
      'filterQueries[0]': 'garcía',
    })
    // Hidden columns stay out until the user chooses them.
    expect(result.current.table.columns.map((c) => c.field)).toEqual(['CodigoContrato', 'Titular', 'FechaAlta'])
    expect(result.current.table.rowHref(contract(1))).toBe('/soluciones/contratos/EV-2026-000001')
  })

  it('says when the data could not be loaded, with no rows rather than stale ones', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: string) => (input.startsWith('/api/contract') ? new Response('', { status: 503 }) : Response.json([]))))
    const { result } = harness('/contratos')
    await waitFor(() => expect(result.current.table.failed).toBe(true))
    expect(result.current.table.rows).toEqual([])
    expect(result.current.table.total).toBe(0)
  })

  it('writes paging, sorting and filtering to the URL, back to the first page on a new sort or filter', async () => {
    const { fetchMock } = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness('/contratos')
    expect(result.current.table.state).toEqual({ page: 0, size: 10, sort: { field: 'FechaAlta', order: 'desc' }, filters: {} })
    act(() => result.current.table.setPage(4, 50))
    expect(new URLSearchParams(result.current.location.search).toString()).toBe('page=5&size=50')
    act(() => result.current.table.setSort({ field: 'Titular', order: 'desc' }))
    expect(new URLSearchParams(result.current.location.search).toString()).toBe('size=50&sort=Titular%3Adesc')
    act(() => result.current.table.setPage(2, 50))
    act(() => result.current.table.setFilters({ Titular: 'Pérez', CodigoContrato: '' }))
    const search = new URLSearchParams(result.current.location.search)
    expect([...search]).toEqual([
      ['size', '50'],
      ['sort', 'Titular:desc'],
      ['f.Titular', 'Pérez'],
    ])
    // And back: the URL is the state.
    expect(result.current.table.state).toEqual({ page: 0, size: 50, sort: { field: 'Titular', order: 'desc' }, filters: { Titular: 'Pérez' } })
    await waitFor(() => expect(calls(fetchMock, '/api/contract').some((u) => u.searchParams.get('filterQueries[0]') === 'Pérez')).toBe(true))
  })

  it('selects rows of the page, then every matching row, and drops the selection when the view changes', async () => {
    const { fetchMock } = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness('/contratos?f.Titular=Titular')
    await waitFor(() => expect(result.current.table.rows).toHaveLength(10))
    const page = result.current.table.rows
    act(() => result.current.table.select(page.slice(0, 3)))
    expect(result.current.table.selectedCount).toBe(3)
    expect(result.current.table.canSelectAllMatching).toBe(false)
    expect(await result.current.table.selectedRows()).toEqual(page.slice(0, 3))

    act(() => result.current.table.select(page))
    expect(result.current.table.canSelectAllMatching).toBe(true)
    act(() => result.current.table.selectAllMatching())
    expect(result.current.table.allMatching).toBe(true)
    expect(result.current.table.selectedCount).toBe(TOTAL)
    const all = await result.current.table.selectedRows()
    expect(all).toHaveLength(TOTAL)
    // Gathered page by page at the largest size the upstream serves, with the same filter.
    const gathered = calls(fetchMock, '/api/contract').filter((u) => u.searchParams.get('pageSize') === '500')
    expect(gathered.map((u) => u.searchParams.get('pageIndex'))).toEqual(['0', '1', '2'])
    expect(gathered.every((u) => u.searchParams.get('filterQueries[0]') === 'Titular')).toBe(true)

    act(() => result.current.table.setPage(1, 10))
    expect(result.current.table.selection).toEqual([])
    expect(result.current.table.allMatching).toBe(false)
    expect(result.current.table.selectedCount).toBe(0)
  })

  it('exports with the sort and filters on screen, every row', async () => {
    const { fetchMock } = upstream()
    vi.stubGlobal('fetch', fetchMock)
    const createObjectURL = vi.fn(() => 'blob:contratos')
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() })
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined)
    const { result } = harness('/contratos?page=4&sort=CodigoContrato:asc&f.Titular=Ruiz')
    let done: Promise<void> = Promise.resolve()
    act(() => {
      done = result.current.table.exportFile()
    })
    expect(result.current.table.exporting).toBe(true)
    await act(() => done)
    expect(result.current.table.exporting).toBe(false)
    const [call] = calls(fetchMock, '/api/contract/export')
    expect(Object.fromEntries(call!.searchParams)).toEqual({
      pageIndex: '0',
      pageSize: '-1',
      sortColumn: 'CodigoContrato',
      sortOrder: 'asc',
      'filterColumns[0]': 'Titular',
      'filterQueries[0]': 'Ruiz',
      // The BFF builds this export from the list's pages: the columns shown, headed as shown.
      'columns[0]': 'CodigoContrato',
      'columns[1]': 'Titular',
      'columns[2]': 'FechaAlta',
      'labels[0]': 'Código',
      'labels[1]': 'Titular',
      'labels[2]': 'Fecha de alta',
    })
    expect(new Headers(fetchMock.mock.calls.find(([input]) => String(input).startsWith('/api/contract/export'))![1]!.headers).has('x-export-reason')).toBe(false)
    expect(result.current.table.clearExport).toBe(false)
    expect(createObjectURL).toHaveBeenCalledTimes(1)
    expect(toasts).toEqual([])
  })

  it('offers the export with personal data to a user holding VERDATOSPERSONALES, and sends the reason in a header', async () => {
    const { fetchMock } = upstream()
    vi.stubGlobal('fetch', fetchMock)
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:contratos'), revokeObjectURL: vi.fn() })
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined)
    const { result } = harness('/contratos', ['VERDATOSPERSONALES'])
    await waitFor(() => expect(result.current.table.clearExport).toBe(true))
    await act(() => result.current.table.exportFile({ reason: 'Revisión de cartera €' }))
    const [input, init] = fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/contract/export'))!
    expect(new URL(input, 'http://portal.test').searchParams.get('columns[0]')).toBe('CodigoContrato')
    expect(decodeURIComponent(new Headers(init!.headers).get('x-export-reason')!)).toBe('Revisión de cartera €')
    expect(toasts).toEqual([])
  })

  it('keeps the column choice as the user’s preference', async () => {
    const { fetchMock } = upstream([{ Id: 1, Clave: 'tabla::contratos', Valor: { filters: [{ name: 'Madrid', filters: { Titular: 'Madrid' }, sort: null }] } }])
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness('/contratos')
    // The preferences are read: the old saved filter is listed.
    await waitFor(() => expect(result.current.table.views.mine.map((e) => e.name)).toEqual(['Madrid']))
    await act(() => result.current.table.saveColumns(['Provincia', 'Titular']))
    await waitFor(() => expect(result.current.table.columns.map((c) => c.field)).toEqual(['Provincia', 'Titular']))
    await act(() => result.current.table.saveColumns(undefined))
    await waitFor(() => expect(result.current.table.columns.map((c) => c.field)).toEqual(['CodigoContrato', 'Titular', 'FechaAlta']))
  })

  it('views: old saved filters show among the user’s own; a view applies its filters, sort and columns; a removed column is dropped and named', async () => {
    const older = { name: 'Madrid', filters: { Titular: 'Madrid', Antigua: 'x' }, sort: null }
    const { fetchMock, saved } = upstream([{ Id: 1, Clave: 'tabla:contratos-listado:contratos', Valor: { filters: [older] } }])
    const stored: ViewForUser[] = [
      view({ id: 'a0000000-0000-4000-8000-000000000001', name: 'De Ana', owner: { id: 9, name: 'Ana Administradora Portal' }, visibility: 'group', groupId: 1, groupName: 'Administradores', filters: { Titular: 'Ruiz', Retirada: 'sí' }, sort: { field: 'Titular', order: 'asc' }, columns: ['Titular', 'Borrada', 'CodigoContrato'] }),
      view({ id: 'a0000000-0000-4000-8000-000000000002', name: 'Para todos', owner: { id: 9, name: 'Ana Administradora Portal' }, visibility: 'brand' }),
      view({ id: 'a0000000-0000-4000-8000-000000000003', name: 'Mía', owner: { id: 7, name: 'Ana' }, editable: true }),
    ]
    const posted: unknown[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const url = new URL(input, 'http://portal.test')
        if (url.pathname === '/bff/views' && init?.method === 'POST') {
          const body = JSON.parse(String(init.body)) as ViewForUser
          posted.push(body)
          const made = view({ ...body, id: `b0000000-0000-4000-8000-00000000000${posted.length}`, owner: { id: 7, name: 'Ana' }, editable: true })
          stored.push(made)
          return Response.json(made, { status: 201 })
        }
        if (url.pathname === '/bff/views') return Response.json({ views: stored, groups: [{ id: 1, name: 'Administradores' }], canPublish: false })
        return fetchMock(input, init)
      }),
    )
    const { result } = harness('/contratos', [], 'contratos-listado')
    const views = () => result.current.table.views
    await waitFor(() => expect(views().status).toBe('ready'))
    expect(views().mine.map((e) => e.name)).toEqual(['Mía', 'Madrid'])
    expect(views().shared.map((e) => [e.name, e.view?.owner.name])).toEqual([['De Ana', 'Ana Administradora Portal']])
    expect(views().published.map((e) => e.name)).toEqual(['Para todos'])

    // A shared view naming columns the table no longer has: the rest applies, the notice names what was dropped.
    act(() => views().apply(views().shared[0]!))
    expect(new URLSearchParams(result.current.location.search).toString()).toBe('sort=Titular%3Aasc&f.Titular=Ruiz')
    expect(result.current.table.columns.map((c) => c.field)).toEqual(['Titular', 'CodigoContrato'])
    expect(toasts).toEqual([expect.objectContaining({ severity: 'warn', detail: 'Esta vista ya no incluye: Retirada, Borrada.' })])
    expect(views().active).toBe('a0000000-0000-4000-8000-000000000001')

    // An old saved filter applies the same way, and says what it lost too.
    act(() => views().apply(views().mine[1]!))
    expect(new URLSearchParams(result.current.location.search).toString()).toBe('f.Titular=Madrid')
    expect(toasts[1]).toMatchObject({ severity: 'warn', detail: 'Esta vista ya no incluye: Antigua.' })

    // The first save moves the old saved filters into the store (without what no longer fits), then saves the new view.
    await act(async () => {
      expect(await views().save('Los Madrid', { visibility: 'group', groupId: 1 })).toBe(true)
    })
    expect(posted).toEqual([
      { screen: 'contratos-listado', table: 'contratos', name: 'Madrid', filters: { Titular: 'Madrid' }, sort: null, visibility: 'private' },
      { screen: 'contratos-listado', table: 'contratos', name: 'Los Madrid', filters: { Titular: 'Madrid' }, sort: { field: 'FechaAlta', order: 'desc' }, columns: ['CodigoContrato', 'Titular', 'FechaAlta'], visibility: 'group', groupId: 1 },
    ])
    expect(saved).toEqual([{ Id: 1, Clave: 'tabla:contratos-listado:contratos', Valor: {} }])
    await waitFor(() => expect(views().mine.map((e) => e.name)).toEqual(['Mía', 'Madrid', 'Los Madrid']))
  })
})
