import { expect, test } from '@playwright/test'
import { acceptConfirmation, ADMIN, auditRows, signIn } from './support'

test('an admin views the portal as a user, read-only, and comes back; both ends are in the user’s Historial', async ({ page }) => {
  await signIn(page, ADMIN)
  const email = `vercomo.e2e.${Date.now()}@portal.test`
  const created = await page.request.post('/api/usuarios/register', { headers: { 'X-CSRF': '1' }, data: { Email: email, Nombre: 'Vista', Apellidos: 'Como', Telefono: '612 345 678' } })
  expect(created.status()).toBe(201)
  const id = String(((await created.json()) as { Id: number }).Id)

  await page.goto(`/usuarios/${id}`)
  await page.getByRole('button', { name: 'Ver como este usuario' }).click()
  await acceptConfirmation(page)

  // The portal as that user: their name, a banner, no admin menu.
  const banner = page.getByRole('region', { name: 'Ver como' })
  await expect(banner).toContainText('Estás viendo el portal como Vista Como.')
  await expect(banner).toContainText('solo lectura')
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).not.toContainText('Gestión de sistema')
  // Read-only: a change sent anyway is refused, in Spanish.
  const refused = await page.request.post('/api/usuarios/preference', { headers: { 'X-CSRF': '1' }, data: { Clave: 'e2e', Valor: 1 } })
  expect(refused.status()).toBe(403)
  expect(((await refused.json()) as { message: string }).message).toMatch(/solo lectura/)

  // Back to the admin's own session, without signing in again.
  await banner.getByRole('button', { name: /^Volver a / }).click()
  await expect(page.getByRole('region', { name: 'Ver como' })).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toContainText('Gestión de sistema')

  // Both ends, in the user's own timeline.
  await page.goto(`/usuarios/${id}`)
  await page.getByRole('tab', { name: 'Historial' }).click()
  const history = page.locator('[data-table="usuario-historial"]')
  await expect(history).toContainText('POST bff/view-as')
  await expect(history).toContainText('DELETE bff/view-as')

  // Auditoría finds the change refused during the view, under the user, with its 403.
  const refusedRows = await auditRows(page, { user: email, call: 'api/usuarios/preference' })
  await expect(refusedRows.filter({ has: page.locator('td', { hasText: /^403$/ }) })).toHaveCount(1)

  expect((await page.request.delete(`/api/usuarios/delete?Id=${id}`, { headers: { 'X-CSRF': '1' } })).ok()).toBe(true)
})
