import { expect, test, type Page } from '@playwright/test'
import type { Manifest } from '../../schemas/manifest'
import { loadRoutes } from '../../server/manifest/manifest-data'
import { accessibilityProblems, ADMIN, AGENTE, BRAND_HOSTS, signIn } from './support'

/**
 * Issue 5: every route of spec §2 opens for the admin without an error: no error page, no
 * unknown component, no error toast, no uncaught exception, a heading on screen. The routes are
 * the ones the screen files declare (issue 14), read as the BFF derives them at boot. Each is
 * also checked with axe (issue 17: zero serious or critical violations), here in Spanish and the
 * light theme; tests/e2e/english.spec.ts checks every route again in English and the dark theme.
 */
const routes = loadRoutes().filter((r) => !r.public)

async function firstOf(page: Page, endpoint: string, field: string): Promise<string> {
  const res = await page.request.get(`${endpoint}${endpoint.includes('?') ? '&' : '?'}pageIndex=0&pageSize=1`)
  expect(res.ok(), endpoint).toBe(true)
  const body = (await res.json()) as { Items?: Record<string, unknown>[] } | Record<string, unknown>[]
  const first = Array.isArray(body) ? body[0] : body.Items?.[0]
  expect(first, `${endpoint} has data`).toBeTruthy()
  return String(first![field])
}

test('every signed-in route opens for the admin without an error, and accessible', async ({ page }) => {
  // A walk over every route, an accessibility scan on each: a few minutes, more on a slow day.
  test.setTimeout(900_000)
  const failures: string[] = []
  page.on('pageerror', (e) => failures.push(`${page.url()}: ${e.message}`))
  await signIn(page, ADMIN)
  // The admin, on the default brand in development, is offered every one of them.
  const manifest = (await (await page.request.get('/bff/manifest')).json()) as Manifest
  expect(routes.length).toBeGreaterThan(30)
  expect(routes.filter((r) => !manifest.routes.some((m) => m.path === r.path && m.screen === r.screen)).map((r) => r.path)).toEqual([])
  const ids: Record<string, string> = {
    '/usuarios/{id}': await firstOf(page, '/api/usuarios', 'Id'),
    '/soluciones/contratos/{referencia}': await firstOf(page, '/api/contract', 'CodigoContrato'),
    '/sysmanager/apiuser/{id}': await firstOf(page, '/api/apiusers/listado-api-user', 'Id'),
  }
  for (const route of routes) {
    const url = route.path.includes('{') ? route.path.replace(/\{[^}]+\}/, ids[route.path] ?? '') : route.path
    expect(url, `a sample for ${route.path}`).not.toContain("{")
    await page.goto(url)
    const main = page.locator('main')
    await expect(page.locator('html'), `${url} in the light theme`).not.toHaveClass(/\bapp-dark\b/)
    await expect(main.locator('h1').first(), url).toBeVisible()
    await page.waitForLoadState('networkidle')
    // /auth/Error and /auth/Access are the previews of the error pages (spec §2): showing one is their job.
    const preview = route.screen === 'auth-error' || route.screen === 'auth-access'
    if (preview) await expect(main.locator('.error-view'), url).toBeVisible()
    else if (await page.locator('.error-view').count()) failures.push(`${url}: error page «${await page.locator('.error-view').innerText()}»`)
    if (await main.getByText('Componente desconocido').count()) failures.push(`${url}: unknown widget`)
    const toast = page.locator('.p-toast-message-error')
    if (await toast.count()) failures.push(`${url}: error toast «${(await toast.first().innerText()).replace(/\s+/g, ' ')}»`)
    for (const problem of await accessibilityProblems(page)) failures.push(`${url}: ${problem}`)
  }
  expect(failures).toEqual([])
})

/**
 * Issue 13: a route the brand hides is not reachable by typing its path either: the manifest
 * leaves it out, so the 404 page of spec §2/§8 shows (the e2e portal runs in development, so
 * the brand rules are what hides here; production is covered by tests/server/route-visibility).
 */
test('typing a path the brand hides shows the 404 page; a missing permission still gives 401', async ({ page }) => {
  const notFound = (path: string) => page.getByRole('heading', { name: `Page Not Found: ${path}` })
  const limpia = BRAND_HOSTS.limpia
  // Signed out: an unmatched route is reachable without sign-in (spec §5).
  await page.goto(`${limpia}/soluciones/comparador/historico`)
  await expect(notFound('/soluciones/comparador/historico')).toBeVisible()
  await signIn(page, ADMIN, limpia)
  for (const path of ['/soluciones/comparador', '/soluciones/comparador/historico', '/soluciones/comparador/comparativa', '/soluciones/comparador/listado']) {
    await page.goto(`${limpia}${path}`)
    await expect(notFound(path), path).toBeVisible()
  }

  // The group brand keeps only Historico of the Comparador.
  const grupo = BRAND_HOSTS.grupo
  await signIn(page, ADMIN, grupo)
  for (const path of ['/soluciones/comparador/comparativa', '/soluciones/comparador/listado']) {
    await page.goto(`${grupo}${path}`)
    await expect(notFound(path), path).toBeVisible()
  }
  await page.goto(`${grupo}/soluciones/comparador/historico`)
  await expect(page.locator('main h1').first()).toBeVisible()
  await expect(page.locator('.error-view')).toHaveCount(0)

  // A route the user lacks the permission for is refused, not unknown.
  await page.context().clearCookies()
  await signIn(page, AGENTE, limpia)
  await page.goto(`${limpia}/usuarios/listado`)
  await expect(page).toHaveURL(/\/error\?status=401$/)
})
