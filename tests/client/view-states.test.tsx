// @vitest-environment jsdom
import { QueryClientProvider, type UseQueryResult } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DetailNode, TableNode } from '../../schemas/screen'
import type { Manifest } from '../../schemas/manifest'
import { MANIFEST_KEY } from '../../client/api/manifest'
import { createQueryClient } from '../../client/api/query-client'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
import { ScreenRenderer } from '../../client/renderer/ScreenRenderer'
import { FilterBar } from '../../client/renderer/table/FilterBar'
import { viewStateOf } from '../../client/ui/states'
import { PanelState } from '../../client/widgets/dashboard/panels/PanelState'

/**
 * Issue 17, honest states: loading, error, empty and filtered-empty are four distinct states; a
 * failed load is never drawn as an empty list, and «Reintentar» asks again.
 */
const table: TableNode = {
  type: 'table',
  id: 'contratos',
  urlState: true,
  source: { endpoint: 'api/contract' },
  dataKey: 'CodigoContrato',
  errorArea: 'Contratos',
  columns: [
    { field: 'CodigoContrato', header: 'Código', filter: { input: 'text' } },
    { field: 'Titular', header: 'Titular', filter: { input: 'text' } },
  ],
}

const detail: DetailNode = {
  type: 'detail',
  id: 'contrato',
  source: { endpoint: 'api/contract/uno' },
  sections: [{ fields: [{ field: 'CodigoContrato', label: 'Código' }] }],
}

let toasts: ToastMessage[] = []
beforeEach(() => {
  toasts = []
  registerToastSink((m) => toasts.push(m))
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  registerToastSink(null)
})

/** The machine the suite runs on is shared: give answers time to arrive. */
const SLOW = { timeout: 5000 }

type Answer = () => Response
/** A fetch stub: the contract calls answer what `answers` holds at call time; everything else 404. */
function upstream(answers: { list?: Answer; detail?: Answer }) {
  return vi.fn(async (input: string) => {
    const url = new URL(input, 'http://portal.test')
    if (url.pathname === '/api/usuarios/preferences') return Response.json([])
    if (url.pathname === '/api/contract' && answers.list) return answers.list()
    if (url.pathname === '/api/contract/uno' && answers.detail) return answers.detail()
    return new Response('', { status: 404 })
  })
}
const calls = (fetchMock: ReturnType<typeof upstream>, path: string) =>
  fetchMock.mock.calls.map(([input]) => new URL(input, 'http://portal.test')).filter((u) => u.pathname === path)

const failing = () => new Response('', { status: 500 })
const page = (n: number) => () => Response.json({ Items: Array.from({ length: n }, (_, i) => ({ CodigoContrato: `EV-${i}`, Titular: `Titular ${i}` })), TotalCount: n })

function Location() {
  const loc = useLocation()
  return <div data-testid="search">{loc.search}</div>
}

function draw(ui: ReactNode, url = '/soluciones/contratos') {
  const client = createQueryClient()
  client.setQueryData(MANIFEST_KEY, { authenticated: true, user: { id: 7, name: 'Ana', email: 'ana@example.es', permissions: [], agent: null } } as unknown as Manifest)
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        {children}
        <Location />
      </MemoryRouter>
    </QueryClientProvider>
  )
  return render(ui, { wrapper })
}

describe('viewStateOf', () => {
  it('tells the four states apart: error over stale data, loading over empty, filtered-empty only under filters', () => {
    expect(viewStateOf({ loading: false, failed: true, empty: false })).toBe('error')
    expect(viewStateOf({ loading: true, failed: true, empty: true, filtered: true })).toBe('error')
    expect(viewStateOf({ loading: true, failed: false, empty: true })).toBe('loading')
    expect(viewStateOf({ loading: false, failed: false, empty: true })).toBe('empty')
    expect(viewStateOf({ loading: false, failed: false, empty: true, filtered: false })).toBe('empty')
    expect(viewStateOf({ loading: false, failed: false, empty: true, filtered: true })).toBe('filtered-empty')
    expect(viewStateOf({ loading: false, failed: false, empty: false, filtered: true })).toBe('ready')
  })
})

describe('a table', () => {
  it('whose load failed keeps an error state after the toast, no empty message and no pager; Reintentar loads again', async () => {
    const answers: { list: Answer } = { list: failing }
    const fetchMock = upstream(answers)
    vi.stubGlobal('fetch', fetchMock)
    const { container } = draw(<ScreenRenderer node={table} />)

    const box = await screen.findByRole('alert', {}, { timeout: 5000 })
    await waitFor(() => expect(box.textContent).toContain('No se han podido obtener los datos.'), SLOW)
    await waitFor(() => expect(toasts.filter((t) => t.severity === 'error')).toHaveLength(1), SLOW)
    expect(container.textContent).not.toContain('No hay resultados')
    expect(container.textContent).not.toContain('Todavía no hay registros')
    expect(container.textContent).not.toMatch(/0–0 de 0/)
    expect(container.querySelector('.p-paginator')).toBeNull()
    expect(container.querySelector('[data-table="contratos"]')).toBeNull()

    const before = calls(fetchMock, '/api/contract').length
    answers.list = page(3)
    fireEvent.click(within(box.closest<HTMLElement>('[data-state="error"]')!).getByRole('button', { name: 'Reintentar' }))
    await waitFor(() => expect(screen.getByText('EV-2')).toBeTruthy(), SLOW)
    expect(calls(fetchMock, '/api/contract').length).toBeGreaterThan(before)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(container.querySelector('.p-paginator-current')?.textContent).toBe('1–3 de 3')
  })

  it('shows the loading state (not an empty list) while the first answer is on its way', async () => {
    let release: (r: Response) => void = () => undefined
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) =>
        new URL(input, 'http://portal.test').pathname === '/api/contract' ? new Promise<Response>((r) => (release = r)) : Response.json([]),
      ),
    )
    const { container } = draw(<ScreenRenderer node={table} />)
    const busy = await screen.findByRole('status', {}, { timeout: 5000 })
    expect(busy.getAttribute('aria-busy')).toBe('true')
    expect(container.textContent).not.toContain('No hay resultados')
    expect(container.querySelector('.p-paginator')).toBeNull()
    release(page(2)())
    await waitFor(() => expect(screen.getByText('EV-1')).toBeTruthy(), SLOW)
    expect(container.querySelector('.loading-state')).toBeNull()
  })

  it('with nothing at all says there are no records, offers no «Quitar filtros» and shows no pager', async () => {
    vi.stubGlobal('fetch', upstream({ list: page(0) }))
    const { container } = draw(<ScreenRenderer node={table} />)
    await waitFor(() => expect(container.textContent).toContain('Todavía no hay registros.'), SLOW)
    expect(container.querySelector('[data-state="empty"]')).not.toBeNull()
    expect(screen.queryByRole('button', { name: 'Quitar filtros' })).toBeNull()
    expect(container.textContent).not.toContain('No hay resultados con estos filtros.')
    expect(container.querySelector('.p-paginator')).toBeNull()
  })

  it('with the screen’s own empty text uses it for the empty state', async () => {
    vi.stubGlobal('fetch', upstream({ list: page(0) }))
    const { container } = draw(<ScreenRenderer node={{ ...table, emptyMessage: { es: 'Aún no hay contratos.', en: 'No contracts yet.' } }} />)
    await waitFor(() => expect(container.textContent).toContain('Aún no hay contratos.'), SLOW)
  })

  it('filtered to nothing says nothing matches, and «Quitar filtros» clears the filters and loads again', async () => {
    const fetchMock = upstream({ list: () => Response.json({ Items: [], TotalCount: 0 }) })
    vi.stubGlobal('fetch', fetchMock)
    const { container } = draw(<ScreenRenderer node={table} />, '/soluciones/contratos?f.Titular=zzz')
    await waitFor(() => expect(container.querySelector('[data-state="filtered-empty"]')).not.toBeNull(), SLOW)
    expect(container.textContent).toContain('No hay resultados con estos filtros.')
    expect(container.textContent).not.toContain('Todavía no hay registros.')
    expect(calls(fetchMock, '/api/contract').at(-1)?.searchParams.get('filterQueries[0]')).toBe('zzz')

    fireEvent.click(screen.getByRole('button', { name: 'Quitar filtros' }))
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe(''), SLOW)
    await waitFor(() => expect(calls(fetchMock, '/api/contract').at(-1)?.searchParams.get('filterQueries[0]')).toBeNull(), SLOW)
    await waitFor(() => expect(container.querySelector('[data-state="empty"]')).not.toBeNull(), SLOW)
  })
})

describe('a detail', () => {
  it('whose load failed shows the error state; Reintentar loads it again', async () => {
    const answers: { detail: Answer } = { detail: failing }
    const fetchMock = upstream(answers)
    vi.stubGlobal('fetch', fetchMock)
    draw(<ScreenRenderer node={detail} />)
    const box = await screen.findByRole('alert', {}, { timeout: 5000 })
    await waitFor(() => expect(box.textContent).toContain('No se han podido obtener los datos.'), SLOW)
    const before = calls(fetchMock, '/api/contract/uno').length
    answers.detail = () => Response.json({ CodigoContrato: 'EV-2026-000123' })
    fireEvent.click(within(box.closest<HTMLElement>('[data-state="error"]')!).getByRole('button', { name: 'Reintentar' }))
    await waitFor(() => expect(screen.getByText('EV-2026-000123')).toBeTruthy(), SLOW)
    expect(calls(fetchMock, '/api/contract/uno').length).toBeGreaterThan(before)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('with no record in the answer says so instead of drawing blank fields', async () => {
    vi.stubGlobal('fetch', upstream({ detail: () => Response.json(null) }))
    const { container } = draw(<ScreenRenderer node={detail} />)
    await waitFor(() => expect(container.textContent).toContain('No se ha encontrado el registro.'), SLOW)
    expect(container.querySelector('.screen-detail')).toBeNull()
  })
})

describe('the filter bar on a phone', () => {
  it('sits behind one «Filtros» button that counts the active filters and says whether it is open', () => {
    const onChange = vi.fn()
    const bar = (filters: Record<string, string>) => <FilterBar tableId="contratos" columns={table.columns} shown={['CodigoContrato', 'Titular']} filters={filters} onChange={onChange} />
    const { container, rerender } = draw(bar({}))
    const toggle = screen.getByRole('button', { name: 'Filtros' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(toggle.getAttribute('aria-controls')).toBe('contratos-filters')
    expect(container.querySelector('.filter-panel')?.getAttribute('data-open')).toBe('false')
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(container.querySelector('.filter-panel')?.getAttribute('data-open')).toBe('true')

    rerender(bar({ Titular: 'garcia', CodigoContrato: 'EV' }))
    expect(screen.getByRole('button', { name: 'Filtros (2)' })).toBeTruthy()
  })
})

describe('a dashboard panel', () => {
  const answer = (over: Partial<UseQueryResult<unknown>>) => ({ isPending: false, isError: false, data: [], refetch: vi.fn(), ...over }) as unknown as UseQueryResult<unknown>

  it('that failed keeps the compact error state; Reintentar refetches only the failed call', () => {
    const ok = answer({ data: [1] })
    const failed = answer({ isError: true, data: undefined })
    draw(<PanelState queries={[ok, failed]}>{() => <p>contenido</p>}</PanelState>)
    expect(screen.getByRole('alert').textContent).toBe('No se han podido cargar los datos.')
    expect(screen.queryByText('contenido')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }))
    expect(failed.refetch).toHaveBeenCalledTimes(1)
    expect(ok.refetch).not.toHaveBeenCalled()
  })

  it('loading, empty and with data are three other states', async () => {
    const { rerender, container } = draw(<PanelState queries={[answer({ isPending: true, data: undefined })]}>{() => <p>contenido</p>}</PanelState>)
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull()
    rerender(<PanelState queries={[answer({ data: [] })]} isEmpty={() => true}>{() => <p>contenido</p>}</PanelState>)
    // The loading flag clears after the spec's short delay (§9), then the empty state shows.
    await waitFor(() => expect(container.textContent).toContain('No hay datos que mostrar.'), SLOW)
    expect(screen.queryByText('contenido')).toBeNull()
    rerender(<PanelState queries={[answer({ data: [3] })]} isEmpty={() => false}>{() => <p>contenido</p>}</PanelState>)
    expect(screen.getByText('contenido')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
