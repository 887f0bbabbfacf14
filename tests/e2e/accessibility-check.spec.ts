import { expect, test } from '@playwright/test'
import { accessibilityProblems } from './support'

/**
 * The accessibility scan every screen test relies on (support.ts) can fail: on a real page of
 * the portal with faults put in, it names a fault of the page and one inside a frame of the
 * page's origin (the kind of frame the screen studio's preview is), and nothing once they are
 * gone.
 */
test('the accessibility scan finds a fault in the page and in a frame of its origin', async ({ page }) => {
  await page.goto('/auth/login')
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible()
  expect(await accessibilityProblems(page)).toEqual([])

  await page.evaluate(() => {
    const faint = document.createElement('p')
    faint.id = 'faint-text'
    faint.textContent = 'Texto casi invisible'
    faint.style.cssText = 'color:#f4f4f4;background:#ffffff'
    document.body.append(faint)
    const frame = document.createElement('iframe')
    frame.id = 'same-origin-frame'
    frame.title = 'Marco de prueba'
    frame.srcdoc = '<!doctype html><html lang="es"><body><button id="nameless"></button></body></html>'
    document.body.append(frame)
  })
  await expect(page.frameLocator('#same-origin-frame').locator('#nameless')).toBeAttached()

  const problems = await accessibilityProblems(page)
  expect(problems.find((p) => p.startsWith('color-contrast (serious)')), problems.join('\n')).toContain('#faint-text')
  expect(problems.find((p) => p.startsWith('button-name (critical)')), problems.join('\n')).toContain('#nameless')

  await page.evaluate(() => document.querySelectorAll('#faint-text, #same-origin-frame').forEach((e) => e.remove()))
  expect(await accessibilityProblems(page)).toEqual([])
})
