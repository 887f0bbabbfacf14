// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SearchResult } from '../../schemas/search'
import { CommandPalette } from '../../client/layouts/CommandPalette'
import { setLanguage } from '../../client/i18n/i18n'
import { useOfferAction } from '../../client/ui/offered-actions'

/** The command palette's keyboard behaviour (issue 17), over a stubbed `GET /bff/search`. */

vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia
  Element.prototype.scrollIntoView ??= function () {}
})

const RESULTS: Record<string, SearchResult[]> = {
  contra: [
    { kind: 'screen', group: 'screens', label: 'Contratos', detail: '/soluciones/contratos/listado', path: '/soluciones/contratos/listado' },
    { kind: 'contract', group: 'contracts', label: 'EV-2026-000001', detail: 'Activo', path: '/soluciones/contratos/EV-2026-000001' },
    { kind: 'contract', group: 'contracts', label: 'EV-2026-000002', path: '/soluciones/contratos/EV-2026-000002' },
  ],
  usu: [{ kind: 'screen', group: 'screens', label: 'Usuarios', path: '/usuarios/listado' }],
}

/** Answers per query; a query listed in `slow` waits for its release. */
let calls: string[] = []
const slow = new Map<string, () => void>()

function stubFetch(fail?: { status: number; message: string }) {
  vi.stubGlobal('fetch', async (url: string) => {
    const q = new URL(url, 'http://x').searchParams.get('q') ?? ''
    calls.push(q)
    if (slow.has(`wait:${q}`)) await new Promise<void>((resolve) => slow.set(q, resolve))
    if (fail) return new Response(JSON.stringify({ statusCode: fail.status, message: fail.message }), { status: fail.status, headers: { 'content-type': 'application/json' } })
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (q === 'unavail') headers['x-search-unavailable'] = 'contracts,users'
    return new Response(JSON.stringify(RESULTS[q] ?? []), { status: 200, headers })
  })
}

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

function Shell({ onRun }: { onRun?: () => void }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        abrir
      </button>
      {onRun && <Offer onRun={onRun} />}
      {open && <CommandPalette onClose={() => setOpen(false)} />}
      <Where />
    </>
  )
}

function Offer({ onRun }: { onRun: () => void }) {
  useOfferAction({ key: 'page:nuevo', label: 'Nuevo contrato', icon: 'pi pi-plus', run: onRun })
  return null
}

function renderShell(onRun?: () => void) {
  render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="*" element={<Shell onRun={onRun} />} />
      </Routes>
    </MemoryRouter>,
  )
  const opener = screen.getByRole('button', { name: 'abrir' })
  opener.focus()
  fireEvent.click(opener)
  return { opener, box: screen.getByRole('combobox') }
}

const type = (box: HTMLElement, value: string) => fireEvent.change(box, { target: { value } })
const key = (box: HTMLElement, k: string) => fireEvent.keyDown(box, { key: k })
const selected = () => screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.textContent

beforeEach(() => {
  calls = []
  slow.clear()
  setLanguage('es')
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('command palette', () => {
  it('debounces typing, groups the results under headings, moves with the arrows and opens with Enter', async () => {
    stubFetch()
    const { box } = renderShell()
    expect(document.activeElement).toBe(box)
    type(box, 'c')
    type(box, 'co')
    type(box, 'contra')
    await screen.findByText('EV-2026-000001')
    expect(calls).toEqual(['contra'])
    expect(screen.getByRole('group', { name: 'Pantallas' })).toBeTruthy()
    expect(screen.getByRole('group', { name: 'Contratos' })).toBeTruthy()
    expect(selected()).toContain('Contratos')
    key(box, 'ArrowDown')
    expect(selected()).toContain('EV-2026-000001')
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[1]!.id)
    key(box, 'ArrowDown')
    key(box, 'ArrowDown')
    expect(selected()).toContain('Contratos')
    key(box, 'ArrowUp')
    expect(selected()).toContain('EV-2026-000002')
    key(box, 'Enter')
    expect(screen.getByTestId('where').textContent).toBe('/soluciones/contratos/EV-2026-000002')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('Escape closes and gives focus back to what opened it; Tab stays in the box', async () => {
    stubFetch()
    const { opener, box } = renderShell()
    key(box, 'Tab')
    expect(document.activeElement).toBe(box)
    key(box, 'Escape')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
    expect(screen.getByTestId('where').textContent).toBe('/')
  })

  it('drops an answer to an older text: what is shown belongs to the text in the box', async () => {
    stubFetch()
    slow.set('wait:contra', () => undefined)
    const { box } = renderShell()
    type(box, 'contra')
    await waitFor(() => expect(calls).toEqual(['contra']))
    type(box, 'usu')
    await screen.findByText('Usuarios')
    await act(async () => slow.get('contra')?.())
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByText('EV-2026-000001')).toBeNull()
    key(box, 'Enter')
    expect(screen.getByTestId('where').textContent).toBe('/usuarios/listado')
  })

  it('loading, empty, unavailable and error are distinct states', async () => {
    stubFetch()
    const { box } = renderShell()
    expect(screen.getByText(/Escribe para buscar/)).toBeTruthy()
    type(box, 'nada')
    expect(screen.getByText('Buscando…')).toBeTruthy()
    await screen.findByText('Sin resultados para «nada».')
    type(box, 'unavail')
    await screen.findByText('No se ha podido buscar en: Contratos, Usuarios.')
    cleanup()
    vi.unstubAllGlobals()
    stubFetch({ status: 400, message: 'El texto que buscar no puede tener más de 100 caracteres.' })
    const again = renderShell()
    type(again.box, 'x')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('No se ha podido buscar: El texto que buscar no puede tener más de 100 caracteres.')
    expect(screen.queryByText(/Sin resultados/)).toBeNull()
  })

  it('offers the actions of the screen on display, in English too, and Enter runs one', async () => {
    stubFetch()
    const run = vi.fn()
    setLanguage('en')
    const { box } = renderShell(run)
    expect(screen.getByRole('group', { name: 'Actions' })).toBeTruthy()
    type(box, 'nuevo')
    expect(selected()).toContain('Nuevo contrato')
    // The search's answer (nothing) comes in: the action stays, and no «no results» is shown while it does.
    await waitFor(() => expect(calls).toEqual(['nuevo']))
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByText(/No results/)).toBeNull()
    expect(selected()).toContain('Nuevo contrato')
    key(box, 'Enter')
    expect(run).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
