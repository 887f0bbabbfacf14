// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ActionSpec } from '../../schemas/screen'
import { ActionButton } from '../../client/renderer/actions/ActionButton'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

/** A detail's action offered only in one state of its record (a contract's «Dar de baja» while it is active). */
const end: ActionSpec = {
  id: 'dar-baja',
  label: 'Dar de baja',
  kind: 'form',
  visibleWhen: { field: 'data.Estado', in: ['activo'] },
  dialogTitle: 'Dar de baja el contrato {data.CodigoContrato}',
  form: {
    type: 'form',
    id: 'contrato-baja',
    fields: [{ name: 'Motivo', label: 'Motivo', input: 'textarea', required: true }],
    submit: { method: 'PUT', endpoint: 'api/contract/update/fin', params: { codigo: '{data.CodigoContrato}' }, body: { Estado: 'baja', Motivo: '{values.Motivo}' } },
  },
}

describe('a form opened by an action', () => {
  it('stays open, with what was typed, when the record refreshes and the action no longer applies; closed, nothing is left', { timeout: 30_000 }, async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient()
    const ui = (estado: string) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <ActionButton action={end} extra={{ data: { CodigoContrato: 'EV-2026-000001', Estado: estado } }} />
        </MemoryRouter>
      </QueryClientProvider>
    )
    const { rerender } = render(ui('activo'))
    fireEvent.click(screen.getByRole('button', { name: 'Dar de baja' }))
    // The form machinery loads with the first form opened.
    const motivo = await screen.findByRole('textbox', { name: /Motivo/ }, { timeout: 20_000 })
    // The form starts on its first field, not on the dialog's close button.
    await waitFor(() => expect(document.activeElement).toBe(motivo))
    fireEvent.change(motivo, { target: { value: 'Cambio de comercializadora' } })

    // Someone else ended the contract: the detail refreshes live and the action is no longer offered.
    rerender(ui('baja'))
    expect(screen.queryByRole('button', { name: 'Dar de baja' })).toBeNull()
    expect(screen.getByRole('dialog', { name: 'Dar de baja el contrato EV-2026-000001' })).toBeTruthy()
    expect((screen.getByRole('textbox', { name: /Motivo/ }) as HTMLTextAreaElement).value).toBe('Cambio de comercializadora')

    // Closed by the user: the dialog goes, and so does the action that no longer applies.
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.queryByRole('button', { name: 'Dar de baja' })).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
