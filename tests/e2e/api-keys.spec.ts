import { expect, test, type Page } from '@playwright/test'
import { ADMIN, approveAsSupervisor, chooseOption, revealApprovedKey, signIn, textField } from './support'

/**
 * API keys that can be governed: an admin generates a key with one read scope, the public API
 * answers a call in that scope and refuses one outside it, the key is rotated and both secrets
 * work during the overlap window. SCREENSHOT_DIR set: the keys screen is saved in Spanish,
 * English and dark mode there, to be looked at.
 */

/** The list after a reload can be slow on a loaded machine. */
const slow = expect.configure({ timeout: 30_000 })

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)

async function publicCall(page: Page, key: string, path: string) {
  const res = await page.request.get(path, { headers: { 'X-Api-Key': key } })
  return { status: res.status(), text: await res.text() }
}

async function revealedKey(page: Page): Promise<string> {
  const reveal = page.getByRole('dialog', { name: 'Nueva clave de API' })
  await slow(reveal).toContainText('no se volverá a mostrar')
  const key = ((await reveal.getByTestId('revealed-value').textContent()) ?? '').trim()
  expect(key).toMatch(/^pk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/)
  await reveal.getByRole('button', { name: 'Hecho' }).click()
  await expect(reveal).toBeHidden()
  return key
}

test('a key with one read scope: in-scope call answered, out-of-scope refused, rotated with both secrets working in the overlap', async ({ page, browser }) => {
  test.setTimeout(150_000)
  await signIn(page, ADMIN)
  await page.goto('/apikeys')
  await page.getByRole('button', { name: 'Generar clave' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generar clave' })
  await chooseOption(page, dialog, 'Usuario de API', 'CRM Comercial')
  const description = `Ámbitos e2e ${Date.now()}`
  await textField(dialog, 'Descripción').fill(description)
  await chooseOption(page, dialog, 'Ámbitos', 'precios:lectura — Precios (lectura)')
  await dialog.getByRole('button', { name: 'Generar' }).click()
  // Generating a key needs a second person (the shipped four-eyes policy); its secret is then
  // shown once to the requester, from «Mis solicitudes».
  await expect(page.locator('.p-toast-message-info')).toContainText('necesita la aprobación')
  await approveAsSupervisor(browser, description)
  await revealApprovedKey(page, description)
  const oldKey = await revealedKey(page)
  const oldId = oldKey.split('.')[0]!
  await page.goto('/apikeys')

  const oldRow = page.locator('[data-table="apikeys"] tbody tr', { hasText: oldId })
  await slow(oldRow).toContainText('precios:lectura')
  await expect(oldRow).not.toContainText('contratos:lectura')
  await expect(oldRow).toContainText('Activa')

  // in scope: answered; outside: 403 naming the missing scope
  const omie = `/api/public/v1/precios/omie?fecha=${yesterday()}`
  expect((await publicCall(page, oldKey, omie)).status).toBe(200)
  const refused = await publicCall(page, oldKey, '/api/public/v1/contratos')
  expect(refused.status).toBe(403)
  expect(refused.text).toContain('no tiene el ámbito «contratos:lectura»')

  // rotate with a two-hour overlap window
  await page.reload()
  await slow(oldRow).toContainText('precios:lectura')
  await oldRow.getByRole('button', { name: 'Rotar' }).click()
  const rotate = page.getByRole('dialog', { name: `Rotar la clave ${oldId}` })
  const hours = rotate.getByRole('spinbutton', { name: 'Ventana de solapamiento (horas)' })
  await expect(hours).toHaveValue('24')
  await hours.fill('2')
  await rotate.getByRole('button', { name: 'Rotar' }).click()
  const newKey = await revealedKey(page)
  const newId = newKey.split('.')[0]!
  expect(newId).not.toBe(oldId)

  // both work during the overlap, with the same scope
  expect((await publicCall(page, oldKey, omie)).status).toBe(200)
  expect((await publicCall(page, newKey, omie)).status).toBe(200)
  expect((await publicCall(page, newKey, '/api/public/v1/contratos')).status).toBe(403)

  // both listed with their states; the last use shows the time and the address
  await page.reload()
  await slow(oldRow).toContainText('En rotación hasta')
  const newRow = page.locator('[data-table="apikeys"] tbody tr', { hasText: newId })
  await expect(newRow).toContainText('Activa')
  await expect(newRow).toContainText('precios:lectura')
  await expect(oldRow).toContainText(/127\.0\.0\.1|::1/)
  await expect(page.locator('[data-table="apikeys"]')).not.toContainText(newKey.split('.')[1]!)
  // a rotating key is not offered a second rotation
  await expect(oldRow.getByRole('button', { name: 'Rotar' })).toHaveCount(0)

  const dir = process.env.SCREENSHOT_DIR
  if (dir) {
    await page.screenshot({ path: `${dir}/apikeys-es.png`, fullPage: true })
    await newRow.getByRole('button', { name: 'Rotar' }).click()
    await page.screenshot({ path: `${dir}/apikeys-rotate-es.png` })
    await page.reload()
    await page.getByRole('button', { name: 'Generar clave' }).click()
    await page.getByRole('dialog', { name: 'Generar clave' }).locator('.p-multiselect').first().click()
    await page.screenshot({ path: `${dir}/apikeys-generate-es.png` })
    await page.reload()
    await page.locator('.layout-topbar').getByText('EN', { exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible()
    await page.screenshot({ path: `${dir}/apikeys-en.png`, fullPage: true })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.waitForTimeout(500)
    await page.screenshot({ path: `${dir}/apikeys-dark.png`, fullPage: true })
    await page.locator('.layout-topbar').getByText('ES', { exact: true }).click()
  }
})
