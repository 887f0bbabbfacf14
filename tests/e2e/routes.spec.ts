import { expect, test, type Page } from '@playwright/test'
import fs from 'node:fs'
import path from 'node:path'
import type { RouteDef } from '../../schemas/manifest'
import { ADMIN, signIn } from './support'

/**
 * Issue 5: every route of spec §2 opens for the admin without an error: no error page, no
 * unknown component, no error toast, no uncaught exception, a heading on screen.
 */
const routes = (JSON.parse(fs.readFileSync(path.resolve('server/manifest/routes.json'), 'utf8')) as RouteDef[]).filter((r) => !r.public)

async function firstOf(page: Page, endpoint: string, field: string): Promise<string> {
  const res = await page.request.get(`${endpoint}${endpoint.includes('?') ? '&' : '?'}pageIndex=0&pageSize=1`)
  expect(res.ok(), endpoint).toBe(true)
  const body = (await res.json()) as { Items?: Record<string, unknown>[] } | Record<string, unknown>[]
  const first = Array.isArray(body) ? body[0] : body.Items?.[0]
  expect(first, `${endpoint} has data`).toBeTruthy()
  return String(first![field])
}

test('every signed-in route opens for the admin without an error', async ({ page }) => {
  test.setTimeout(240_000)
  const failures: string[] = []
  page.on('pageerror', (e) => failures.push(`${page.url()}: ${e.message}`))
  await signIn(page, ADMIN)
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
    await expect(main.locator('h1').first(), url).toBeVisible()
    await page.waitForLoadState('networkidle')
    // /auth/Error and /auth/Access are the previews of the error pages (spec §2): showing one is their job.
    const preview = route.screen === 'auth-error' || route.screen === 'auth-access'
    if (preview) await expect(main.locator('.error-view'), url).toBeVisible()
    else if (await page.locator('.error-view').count()) failures.push(`${url}: error page «${await page.locator('.error-view').innerText()}»`)
    if (await main.getByText('Componente desconocido').count()) failures.push(`${url}: unknown widget`)
    const toast = page.locator('.p-toast-message-error')
    if (await toast.count()) failures.push(`${url}: error toast «${(await toast.first().innerText()).replace(/\s+/g, ' ')}»`)
  }
  expect(failures).toEqual([])
})
