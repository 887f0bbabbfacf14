// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ActionSpec, ScreenNode } from '../../schemas/screen'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
import { ActionButton } from '../../client/renderer/actions/ActionButton'
import { ScreenRenderer } from '../../client/renderer/ScreenRenderer'

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

function wrap(ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  )
}

describe('ScreenRenderer', () => {
  it('shows a visible error box naming an unknown node type, never a blank', () => {
    wrap(<ScreenRenderer node={{ type: 'diagrama-sankey' } as unknown as ScreenNode} />)
    const box = screen.getByRole('alert')
    expect(box.textContent).toContain('Tipo de nodo desconocido')
    expect(box.textContent).toContain('diagrama-sankey')
  })

  it('draws known nodes through the registry', () => {
    wrap(<ScreenRenderer node={{ type: 'links', items: [{ to: '/soluciones/facturas', label: 'Facturas', description: 'Lista de facturas' }] }} />)
    expect(screen.getByRole('link', { name: /Facturas/ }).getAttribute('href')).toBe('/soluciones/facturas')
  })
})

describe('an action that fails', () => {
  const action: ActionSpec = {
    id: 'enviar-firma',
    label: 'Enviar a firma',
    kind: 'call',
    call: { method: 'PUT', endpoint: 'api/contract/update/situacion-firma', params: { codigoContrato: '{row.CodigoContrato}' } },
    errorArea: 'Contratos',
    errorMessage: 'No se han podido enviar a firma electrónica.',
  }

  it('shows the spec message of its area when the server sends no text', async () => {
    const fetchMock = vi.fn(async () => new Response('', { status: 500 }))
    vi.stubGlobal('fetch', fetchMock)
    wrap(<ActionButton action={action} extra={{ row: { CodigoContrato: 'EV-2026-000123' } }} />)
    fireEvent.click(screen.getByRole('button', { name: 'Enviar a firma' }))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ severity: 'error', summary: 'Contratos', detail: 'No se han podido enviar a firma electrónica.', life: 3000 })
    // mutations are never retried (spec §9)
    expect(fetchMock).toHaveBeenCalledTimes(1)
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/contract/update/situacion-firma?codigoContrato=EV-2026-000123')
    expect(init.method).toBe('PUT')
    expect((init.headers as Record<string, string>)['X-CSRF']).toBe('1')
  })

  it("shows the server's text body when there is one", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('El contrato no está pendiente de firma.', { status: 409, headers: { 'content-type': 'text/plain' } })))
    wrap(<ActionButton action={action} extra={{ row: { CodigoContrato: 'EV-2026-000123' } }} />)
    fireEvent.click(screen.getByRole('button', { name: 'Enviar a firma' }))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]?.detail).toBe('El contrato no está pendiente de firma.')
  })

  it('uses the default message of spec §8 when neither the action nor the catalogue names one', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 502 })))
    // The catalogue gives renewing a contract an area but no message.
    const renew: ActionSpec = { ...action, call: { method: 'POST', endpoint: 'api/renovaciones/renovar' }, errorMessage: undefined, errorArea: 'API KEY' }
    wrap(<ActionButton action={renew} />)
    fireEvent.click(screen.getByRole('button', { name: 'Enviar a firma' }))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'API KEY', detail: 'Ha ocurrido un error en la solicitud.' })
  })
})

describe('the api client retries', () => {
  it('retries a GET once on a transient status, and only once', async () => {
    const { api } = await import('../../client/api/client')
    const fetchMock = vi.fn(async () => new Response('', { status: 503 }))
    vi.stubGlobal('fetch', fetchMock)
    await expect(api.get('/api/utility/tarifas')).rejects.toMatchObject({ status: 503 })
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('does not retry a GET on a 404', async () => {
    const { api } = await import('../../client/api/client')
    const fetchMock = vi.fn(async () => new Response('', { status: 404 }))
    vi.stubGlobal('fetch', fetchMock)
    await expect(api.get('/api/contract/id')).rejects.toMatchObject({ status: 404 })
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
