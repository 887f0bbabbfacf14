// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MANIFEST_KEY } from '../../client/api/manifest'
import { createQueryClient } from '../../client/api/query-client'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
import SpainMapWidget from '../../client/widgets/spain-map'
import type { Manifest } from '../../schemas/manifest'
import { loadRoutes } from '../../server/manifest/manifest-data'
import provincias from '../../server/reference-api/data/provincias.json'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  registerToastSink(null)
})

const rows = provincias.map((p) => ({ ProvinciaId: p.Id, Provincia: p.Nombre, Contratos: p.Id === 28 ? 48 : p.Id % 5, ContratosActivos: p.Id % 3, PuntosSuministro: p.Id % 4, ConsumoAnualKwh: p.Id * 100 }))

function Where() {
  const l = useLocation()
  return <output data-testid="where">{`${l.pathname}${l.search}`}</output>
}

function renderMap(answer: () => Response) {
  vi.stubGlobal('fetch', vi.fn(async () => answer()))
  // The map leads to the contracts list wherever the manifest's routes put it.
  const client = createQueryClient()
  client.setQueryData(MANIFEST_KEY, { routes: loadRoutes() } as Partial<Manifest>)
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/soluciones/map']}>
        <Routes>
          <Route path="/soluciones/map" element={<SpainMapWidget measure="Contratos" measures={['Contratos', 'ContratosActivos']} />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })

describe('SpainMapWidget', () => {
  it('draws 52 focusable provinces named with their figure and shows the figures on focus', async () => {
    renderMap(() => json(rows))
    await waitFor(() => expect(screen.getByRole('link', { name: 'Madrid: 48 contratos' })).toBeTruthy())
    const provinces = document.querySelectorAll('[data-province]')
    expect(provinces).toHaveLength(52)
    for (const p of provinces) expect(p.getAttribute('tabindex')).toBe('0')
    fireEvent.focus(screen.getByRole('link', { name: 'Madrid: 48 contratos' }))
    const tip = screen.getByRole('tooltip')
    expect(tip.textContent).toContain('Madrid')
    expect(tip.textContent).toContain('48')
    expect(screen.getByText(/contratos en \d+ de 52 provincias/)).toBeTruthy()
  })

  it('opens the contracts list filtered by the province on Enter', async () => {
    renderMap(() => json(rows))
    const cadiz = await screen.findByRole('link', { name: /^Cádiz: / })
    fireEvent.keyDown(cadiz, { key: 'Enter' })
    expect(screen.getByTestId('where').textContent).toBe('/soluciones/contratos/listado?f.Provincia=C%C3%A1diz')
  })

  it('reports a failed call through the toast, titled Mapa', async () => {
    const toasts: ToastMessage[] = []
    registerToastSink((m) => toasts.push(m))
    renderMap(() => new Response('', { status: 503 }))
    await waitFor(() => expect(toasts).toHaveLength(1), { timeout: 3000 })
    expect(toasts[0]).toMatchObject({ severity: 'error', summary: 'Mapa', detail: 'No se han podido obtener los datos.' })
    expect(document.querySelectorAll('[data-province]')).toHaveLength(52)
  })
})
