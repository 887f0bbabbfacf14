import { expect, test, type Page } from '@playwright/test'
import { ADMIN, signIn } from './support'

/**
 * Issue 19: the page asks for the manifest while the app's code downloads (index.html
 * preloads it), and the app takes that answer instead of asking again. A preload the app's
 * request does not match (another credentials mode) is a second request for the same thing.
 */

/** The requests for the manifest made from now on. */
function manifestRequests(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/bff/manifest') seen.push(request.resourceType())
  })
  return seen
}

test('a page load asks for the manifest once, signed out and signed in', async ({ page }) => {
  const signedOut = manifestRequests(page)
  await page.goto('/auth/login')
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible()
  expect(signedOut).toEqual(['other'])

  await signIn(page, ADMIN)
  const signedIn = manifestRequests(page)
  await page.goto('/')
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Inicio', level: 1 })).toBeVisible()
  expect(signedIn).toEqual(['other'])
})

test('the check sees a preload the app does not take: a page whose preload mismatches asks twice', async ({ page }) => {
  await page.route('**/auth/login', async (route) => {
    const response = await route.fetch()
    const html = await response.text()
    expect(html).toContain('href="/bff/manifest" as="fetch" crossorigin="anonymous"')
    await route.fulfill({ response, body: html.replace('as="fetch" crossorigin="anonymous"', 'as="fetch"') })
  })
  const seen = manifestRequests(page)
  await page.goto('/auth/login')
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible()
  expect(seen).toEqual(['other', 'fetch'])
})
