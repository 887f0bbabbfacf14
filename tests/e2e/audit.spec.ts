import { expect, test } from '@playwright/test'
import { ADMIN, expectAccessible, signIn, textField } from './support'

test('a change made through a screen is in the Auditoría screen, found by its record, and in the record’s Historial', async ({ page }) => {
  await signIn(page, ADMIN)
  // A user of this test's own, so the change touches nobody else's data.
  const email = `auditoria.e2e.${Date.now()}@portal.test`
  const created = await page.request.post('/api/usuarios/register', { headers: { 'X-CSRF': '1' }, data: { Email: email, Nombre: 'Auditada', Apellidos: 'E2E', Telefono: '612 345 678' } })
  expect(created.status()).toBe(201)
  const id = String(((await created.json()) as { Id: number }).Id)

  // the change, through the user's screen
  await page.goto(`/usuarios/${id}`)
  await page.getByRole('button', { name: 'Editar' }).click()
  const dialog = page.getByRole('dialog', { name: 'Editar' })
  await expect(textField(dialog, 'Teléfono')).toHaveValue('612345678')
  await textField(dialog, 'Teléfono').fill('698 765 432')
  await dialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.locator('.p-toast')).toContainText('Usuario guardado.')

  // found in the audit by its record, with what changed, masked
  await page.goto('/sysmanager/auditoria')
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Registro').fill(id)
  await expect(page).toHaveURL(new RegExp(`f\\.record\\.id=${id}`))
  const table = page.locator('[data-table="auditoria"]')
  const update = table.locator('tbody tr', { hasText: 'PUT api/usuarios/update' })
  await expect(update).toHaveCount(1)
  await expect(update).toContainText('admin@portal.test')
  await expect(update).toContainText('Telefono ******678 → ******432')
  await expect(table.locator('tbody tr')).toHaveCount(1)
  await expect(table).not.toContainText('698 765 432')
  await expectAccessible(page)

  // the same entries as a spreadsheet
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar' }).click()
  expect((await download).suggestedFilename()).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}\.xlsx$/)

  // and in the user's own timeline
  await page.goto(`/usuarios/${id}`)
  await page.getByRole('tab', { name: 'Historial' }).click()
  await expect(page.locator('[data-table="usuario-historial"] tbody tr').first()).toContainText('Telefono ******678 → ******432')

  expect((await page.request.delete(`/api/usuarios/delete?Id=${id}`, { headers: { 'X-CSRF': '1' } })).ok()).toBe(true)
})
