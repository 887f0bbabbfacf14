// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ActionSpec } from '../../schemas/screen'
import { ActionButton } from '../../client/renderer/actions/ActionButton'
import { RevealHost } from '../../client/renderer/actions/RevealHost'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** A row action that shows a secret once and then no longer applies to its row (a rotated key's «Rotar»). */
const rotate: ActionSpec = {
  id: 'rotar',
  label: 'Rotar',
  kind: 'call',
  visibleWhen: { field: 'row.Estado', equals: 'activa' },
  call: { method: 'POST', endpoint: 'api/apikey/rotate', body: { ApiKey: '{row.ApiKey}' } },
  after: { reveal: { field: 'Clave', title: 'Nueva clave de API', message: 'Copia la clave ahora: no se volverá a mostrar.' } },
}

describe('a secret revealed by an action', () => {
  it('stays shown when the refreshed row hides or drops the action, until the user closes it', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ ApiKey: 'pk_2222222222222222', Clave: 'pk_2222222222222222.secreto' }), { status: 201, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient()
    const ui = (estado: string | null) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>
          {estado !== null && <ActionButton action={rotate} extra={{ row: { ApiKey: 'pk_1111111111111111', Estado: estado } }} />}
          <RevealHost />
        </MemoryRouter>
      </QueryClientProvider>
    )
    const { rerender } = render(ui('activa'))
    fireEvent.click(screen.getByRole('button', { name: 'Rotar' }))
    await waitFor(() => expect(screen.getByTestId('revealed-value').textContent).toBe('pk_2222222222222222.secreto'))
    // the list refreshes: the old key is now rotating and its «Rotar» is gone, the secret is not
    rerender(ui('en-rotacion'))
    expect(screen.queryByRole('button', { name: 'Rotar' })).toBeNull()
    expect(screen.getByTestId('revealed-value').textContent).toBe('pk_2222222222222222.secreto')
    // the list redraws its rows (the button is gone altogether): still shown
    rerender(ui(null))
    expect(screen.getByTestId('revealed-value').textContent).toBe('pk_2222222222222222.secreto')
    fireEvent.click(screen.getByRole('button', { name: 'Hecho' }))
    await waitFor(() => expect(screen.queryByTestId('revealed-value')).toBeNull())
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
