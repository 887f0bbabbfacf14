// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react'
import { useState, type ReactNode } from 'react'
import { BrowserRouter, MemoryRouter, useLocation, useNavigate } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { ActionSpec, Column, TableNode } from '../../schemas/screen'
import { MANIFEST_KEY } from '../../client/api/manifest'
import { registerToastSink } from '../../client/api/toast'
import { ActionButton } from '../../client/renderer/actions/ActionButton'
import { RenderContext } from '../../client/renderer/context'
import { FilterBar } from '../../client/renderer/table/FilterBar'
import { useTableController } from '../../client/renderer/table/use-table-controller'
import { keepEscapeInOpenLists } from '../../client/ui/escape-guard'
import { useReturnFocus } from '../../client/ui/return-focus'

/**
 * The keyboard day (issue 17): what the renderer does so a person working without a mouse
 * never loses their place. Focus comes back when a dialog closes; Escape in an open list
 * closes the list only; a typed filter is never lost to a sort clicked straight after it;
 * clearing the filters leaves focus in the bar; «Volver» goes back to the list as it was left.
 */

vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia
  Element.prototype.scrollIntoView ??= function () {}
})

beforeEach(() => registerToastSink(() => undefined))
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  registerToastSink(null)
  document.body.innerHTML = ''
})

const SLOW = { timeout: 5000 }

function client() {
  const c = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  c.setQueryData(MANIFEST_KEY, { authenticated: true, user: { id: 7, name: 'Ana', email: 'ana@example.es', permissions: [], agent: null } } as unknown as Manifest)
  return c
}

describe('a dialog closing', () => {
  /** A dialog drawn while `open`, taking the focus into its field as PrimeReact's does. */
  function Page({ fallback }: { fallback?: () => HTMLElement | null }) {
    const [open, setOpen] = useState(false)
    const [opener, setOpener] = useState(true)
    return (
      <main id="main" tabIndex={-1}>
        {opener && (
          <button type="button" onClick={() => setOpen(true)}>
            Abrir
          </button>
        )}
        <button type="button" onClick={() => setOpener(false)}>
          Quitar el botón
        </button>
        {open && <Dialog fallback={fallback} onClose={() => setOpen(false)} />}
      </main>
    )
  }
  function Dialog({ onClose, fallback }: { onClose: () => void; fallback?: () => HTMLElement | null }) {
    useReturnFocus(fallback)
    return (
      <div role="dialog" aria-label="Diálogo">
        <input aria-label="Campo" ref={(el) => el?.focus()} />
        <button type="button" onClick={onClose}>
          Cerrar
        </button>
      </div>
    )
  }

  it('gives the focus back to what had it when it opened', () => {
    render(<Page />)
    const open = screen.getByRole('button', { name: 'Abrir' })
    open.focus()
    fireEvent.click(open)
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Campo' }))
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(open)
  })

  it('where that is gone, to the fallback it names, else to the page content; never to the body', () => {
    const other = document.createElement('button')
    document.body.append(other)
    const { unmount } = render(<Page fallback={() => other} />)
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }))
    fireEvent.click(screen.getByRole('button', { name: 'Quitar el botón' }))
    screen.getByRole('textbox', { name: 'Campo' }).focus()
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }))
    expect(document.activeElement).toBe(other)
    unmount()
    other.remove()

    render(<Page />)
    fireEvent.click(screen.getByRole('button', { name: 'Abrir' }))
    fireEvent.click(screen.getByRole('button', { name: 'Quitar el botón' }))
    screen.getByRole('textbox', { name: 'Campo' }).focus()
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }))
    expect(document.activeElement).toBe(document.getElementById('main'))
  })

  it('leaves the focus where something else put it on the way', () => {
    render(<Page />)
    const open = screen.getByRole('button', { name: 'Abrir' })
    open.focus()
    fireEvent.click(open)
    const elsewhere = screen.getByRole('button', { name: 'Quitar el botón' })
    elsewhere.focus()
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }))
    expect(document.activeElement).toBe(elsewhere)
  })

  it('of an action’s form, after saving: the focus is back on the action’s button', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetchMock)
    const action: ActionSpec = {
      id: 'subestado',
      label: 'Subestado de renovación',
      kind: 'form',
      form: {
        type: 'form',
        id: 'subestado-contrato',
        fields: [{ name: 'Nota', label: 'Nota', input: 'text' }],
        submit: { method: 'PUT', endpoint: 'api/renovaciones/change-subestado', body: { CodigoContrato: 'EV-2026-000001' } },
        after: { toast: 'Subestado de renovación cambiado.', closeDialog: true },
      },
    }
    render(
      <QueryClientProvider client={client()}>
        <MemoryRouter>
          <ActionButton action={action} />
        </MemoryRouter>
      </QueryClientProvider>,
    )
    const button = screen.getByRole('button', { name: 'Subestado de renovación' })
    button.focus()
    fireEvent.click(button)
    const field = await screen.findByRole('textbox', { name: 'Nota' }, SLOW)
    field.focus()
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }))
    await waitFor(() => expect(fetchMock).toHaveBeenCalled(), SLOW)
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Nota' })).toBeNull(), SLOW)
    expect(document.activeElement).toBe(button)
  })
})

describe('Escape', () => {
  it('pressed while a dropdown’s list is open reaches the list, not the dialog that listens on the document', () => {
    const stop = keepEscapeInOpenLists()
    const dialogHeard = vi.fn()
    const listHeard = vi.fn()
    document.addEventListener('keydown', dialogHeard)
    const field = document.createElement('input')
    field.addEventListener('keydown', listHeard)
    document.body.append(field)
    const panel = document.createElement('div')
    panel.className = 'p-dropdown-panel'
    try {
      document.body.append(panel)
      fireEvent.keyDown(field, { key: 'Escape', code: 'Escape' })
      expect(listHeard).toHaveBeenCalledTimes(1)
      expect(dialogHeard).not.toHaveBeenCalled()
      // The list is closed: the next Escape is the dialog's.
      panel.remove()
      fireEvent.keyDown(field, { key: 'Escape', code: 'Escape' })
      expect(dialogHeard).toHaveBeenCalledTimes(1)
      // Other keys are never held back.
      document.body.append(panel)
      fireEvent.keyDown(field, { key: 'ArrowDown', code: 'ArrowDown' })
      expect(dialogHeard).toHaveBeenCalledTimes(2)
    } finally {
      stop()
      document.removeEventListener('keydown', dialogHeard)
    }
  })
})

describe('the filter bar', () => {
  const columns: Column[] = [
    { field: 'CodigoContrato', header: 'Contrato', filter: { input: 'text' } },
    { field: 'Titular', header: 'Titular', filter: { input: 'text' } },
    { field: 'Agente', header: 'Agente', filter: { input: 'text' } },
  ]
  const queries = client()
  const draw = (filters: Record<string, string>, onChange = vi.fn()) => {
    const ui = (f: Record<string, string>) => (
      <QueryClientProvider client={queries}>
        <FilterBar tableId="renovaciones" columns={columns} shown={['CodigoContrato', 'Titular']} filters={f} onChange={onChange} />
      </QueryClientProvider>
    )
    return { onChange, ...render(ui(filters)), ui }
  }

  it('applies what was typed as soon as the field is left (Tab to the rows, a click on a header), without waiting for the pause', () => {
    vi.useFakeTimers()
    try {
      const { onChange, rerender, ui } = draw({})
      const field = screen.getByRole('textbox', { name: 'Contrato' })
      field.focus()
      fireEvent.change(field, { target: { value: ' EV-2025-000147 ' } })
      fireEvent.blur(field)
      expect(onChange).toHaveBeenCalledTimes(1)
      expect(onChange).toHaveBeenLastCalledWith({ CodigoContrato: 'EV-2025-000147' })
      // The table shows the filter; the pause ends later and finds nothing new to apply.
      rerender(ui({ CodigoContrato: 'EV-2025-000147' }))
      act(() => vi.advanceTimersByTime(1000))
      expect(onChange).toHaveBeenCalledTimes(1)
    } finally {
      vi.useRealTimers()
    }
  })

  it('leaving a field whose text is already applied applies nothing', () => {
    const { onChange } = draw({ CodigoContrato: 'EV-2025-000147' })
    const field = screen.getByRole('textbox', { name: 'Contrato' })
    fireEvent.blur(field)
    fireEvent.keyDown(field, { key: 'Enter' })
    expect(onChange).not.toHaveBeenCalled()
  })

  it('«Limpiar filtros» clears them and leaves the focus on the bar’s first field, not on the body', () => {
    const { onChange } = draw({ CodigoContrato: 'EV-2025-000147', Agente: 'Rafael' })
    const clear = screen.getByRole('button', { name: 'Limpiar filtros' })
    clear.focus()
    fireEvent.click(clear)
    expect(onChange).toHaveBeenCalledWith({})
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Contrato' }))
  })
})

describe('the table’s URL state', () => {
  const node: TableNode = {
    type: 'table',
    id: 'renovaciones',
    urlState: true,
    source: { endpoint: 'api/renovaciones' },
    dataKey: 'Id',
    columns: [
      { field: 'CodigoContrato', header: 'Contrato', sortable: true, filter: { input: 'text' } },
      { field: 'Titular', header: 'Titular', sortable: true, filter: { input: 'text' } },
    ],
  }
  function harness(at: string) {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({ Items: [], TotalCount: 0 })))
    const c = client()
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={c}>
        <MemoryRouter initialEntries={[at]}>
          <RenderContext value={{ screenId: 'renovaciones' }}>{children}</RenderContext>
        </MemoryRouter>
      </QueryClientProvider>
    )
    return renderHook(() => ({ table: useTableController(node), location: useLocation() }), { wrapper })
  }

  it('keeps two changes made before the list is drawn again (a filter that settles, a sort clicked straight after): neither undoes the other', () => {
    const { result } = harness('/soluciones/renovaciones')
    const table = result.current.table
    act(() => {
      table.setFilters({ Titular: 'garcía' })
      table.setSort({ field: 'CodigoContrato', order: 'asc' })
    })
    expect(result.current.table.state).toMatchObject({ sort: { field: 'CodigoContrato', order: 'asc' }, filters: { Titular: 'garcía' } })
    const again = result.current.table
    act(() => {
      again.setPage(2, 10)
      again.setFilters({ Titular: 'garcía', CodigoContrato: 'EV-2025' })
    })
    // A new filter goes back to the first page, and keeps the sort.
    expect(Object.fromEntries(new URLSearchParams(result.current.location.search))).toEqual({ sort: 'CodigoContrato:asc', 'f.Titular': 'garcía', 'f.CodigoContrato': 'EV-2025' })
  })

  it('a change that changes nothing makes no new history entry', () => {
    const { result } = harness('/soluciones/renovaciones?f.Titular=garc%C3%ADa')
    const key = result.current.location.key
    act(() => result.current.table.setFilters({ Titular: 'garcía' }))
    expect(result.current.location.key).toBe(key)
  })
})

describe('«Volver» (a navigate action with `back`)', () => {
  const back: ActionSpec = { id: 'volver', label: 'Volver', kind: 'navigate', back: true, to: '/soluciones/contratos/listado' }
  function Where() {
    const location = useLocation()
    return <output data-testid="where">{`${location.pathname}${location.search}`}</output>
  }
  let go: ReturnType<typeof useNavigate> = () => undefined
  function Navigator() {
    go = useNavigate()
    return null
  }
  const draw = () =>
    render(
      <QueryClientProvider client={client()}>
        <BrowserRouter>
          <ActionButton action={back} />
          <Where />
          <Navigator />
        </BrowserRouter>
      </QueryClientProvider>,
    )

  it('goes back to the portal page the user came from, as they left it (its filter in the URL)', async () => {
    window.history.replaceState(null, '', '/soluciones/renovaciones?f.CodigoContrato=EV-2025-000147')
    draw()
    act(() => void go('/soluciones/contratos/EV-2025-000147'))
    expect(screen.getByTestId('where').textContent).toBe('/soluciones/contratos/EV-2025-000147')
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }))
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/soluciones/renovaciones?f.CodigoContrato=EV-2025-000147'), SLOW)
  })

  it('opened straight from a link or a new tab (no portal page before it), goes to its list', () => {
    window.history.replaceState(null, '', '/soluciones/contratos/EV-2025-000147')
    draw()
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }))
    expect(screen.getByTestId('where').textContent).toBe('/soluciones/contratos/listado')
  })
})
