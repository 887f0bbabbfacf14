// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Manifest, RouteDef } from '../../schemas/manifest'
import { AppRoutes } from '../../client/app/router'
import { MANIFEST_KEY } from '../../client/api/manifest'
import { ScreenPage } from '../../client/renderer/ScreenPage'
import { loadDefaultMenu, loadRoutes } from '../../server/manifest/manifest-data'
import { routeView } from '../../server/manifest/route-visibility'

/** Issue 13: typing the path of a route the brand or environment hides shows the 404 page (spec §2/§8). */

// jsdom has no matchMedia, which the theme module reads on import (through the auth layout).
vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const ADMIN_PERMS = ['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS']

/** The manifest the BFF gives a signed-in admin on `brand` (the same rule, the shipped menu). */
function manifestFor(brand: string, production: boolean): Manifest {
  const routes = routeView(loadDefaultMenu(), loadRoutes(), { brand, permissions: new Set(ADMIN_PERMS), production, comparadorUrl: 'https://comparador.example.es' }).routes
  return {
    brand: { key: brand, domain: `${brand}.es`, name: 'Marca', theme: 'lara-light-teal', primaryColor: '#0f766e', icon: { light: '/i.svg', dark: '/i.svg' }, logo: { light: '/l.svg', dark: '/l.svg' }, favicon: '/f.ico' },
    authenticated: true,
    user: { id: 1, name: 'Ana', email: 'admin@portal.test', permissions: ADMIN_PERMS, agent: null },
    menu: [],
    routes,
    buildId: 'test',
    environment: production ? 'production' : 'development',
  }
}

function withManifest(manifest: Manifest, ui: React.ReactNode, at: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
  client.setQueryData(MANIFEST_KEY, manifest)
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  )
}

describe('a hidden route typed in the address bar', () => {
  it.each([
    ['limpia', false, '/soluciones/comparador/historico'],
    ['limpia', false, '/soluciones/comparador'],
    ['grupo', false, '/soluciones/comparador/comparativa'],
    ['verde', true, '/soluciones/comparador/listado'],
    ['verde', true, '/utilidades/map'],
    ['verde', true, '/auth/Error'],
  ] as const)('on %s (production %s) shows the 404 page for %s', async (brand, production, path) => {
    const manifest = manifestFor(brand, production)
    expect(manifest.routes.map((r) => r.path)).not.toContain(path)
    withManifest(manifest, <AppRoutes routes={manifest.routes} />, path)
    expect(await screen.findByRole('heading', { name: `Page Not Found: ${path}` })).toBeTruthy()
  })
})

describe('a screen the BFF answers 404 for (a manifest read before a menu change)', () => {
  it('shows the 404 page, not an error box', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ statusCode: 404, error: 'Not Found', message: 'No existe la pantalla «comparador-historico».' }), { status: 404, headers: { 'content-type': 'application/json' } })))
    const route: RouteDef = { path: '/soluciones/comparador/historico', screen: 'comparador-historico', title: { es: 'Histórico de precios', en: 'Price history' } }
    withManifest(manifestFor('verde', false), <Routes><Route path={route.path} element={<ScreenPage route={route} />} /></Routes>, route.path)
    expect(await screen.findByRole('heading', { name: `Page Not Found: ${route.path}` })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
