import { expect, test, type Page } from '@playwright/test'
import { ADMIN, expectAccessible, signIn, textField } from './support'

/**
 * The approval-policy editor (issue 16): an admin changes a policy with a version note, the
 * history shows who changed what, and an earlier version is restored. Only a policy's name
 * changes here, so what the other suites hold stays as it is.
 */

const SHOTS = process.env.POLICY_SHOTS_DIR
const POLICY = 'renewal-baja'
/** Its row, found by its condition (its name changes here). */
const ROW_TEXT = 'SubestadoId'

async function label(page: Page): Promise<string> {
  const res = await page.request.get(`/bff/admin/approval-policies/items/${POLICY}`)
  expect(res.status()).toBe(200)
  return ((await res.json()) as { label: { es: string } }).label.es
}

async function rename(page: Page, name: string, note: string): Promise<void> {
  const row = page.locator('[data-table="politicas"] tbody tr', { hasText: ROW_TEXT })
  await row.getByRole('button', { name: 'Editar' }).click()
  const dialog = page.getByRole('dialog', { name: `Editar la política ${POLICY}` })
  const field = textField(dialog, 'Nombre en español')
  await expect(field).not.toHaveValue('')
  await field.fill(name)
  await textField(dialog, 'Nota de la versión').fill(note)
  await dialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(dialog).toBeHidden()
  await expect(row).toContainText(name)
}

test('an admin changes a policy with a note, the history shows it, and an earlier version is restored', async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page, ADMIN)
  const original = await label(page)
  const stamp = Date.now() % 100000

  await page.goto('/sysmanager/politicas-aprobacion')
  await expect(page.getByRole('heading', { level: 1, name: 'Políticas de aprobación' })).toBeVisible({ timeout: 30_000 })
  // The condition in words, beside each policy.
  const row = page.locator('[data-table="politicas"] tbody tr', { hasText: ROW_TEXT })
  await expect(row).toContainText('El campo «SubestadoId» enviado es «6».')
  await expect(page.locator('[data-table="politicas"] tbody tr', { hasText: 'contract.end' })).toContainText('«baja» o «anulado»')

  await rename(page, `Baja en una renovación ${stamp}`, `Nombre más claro ${stamp}`)
  await expect(row).toContainText(`Baja en una renovación ${stamp}`)
  await rename(page, original, `Vuelve el nombre ${stamp}`)
  expect(await label(page)).toBe(original)

  // The history: who, when, the note, and what changed.
  await page.getByRole('tab', { name: 'Historial de versiones' }).click()
  const first = page.locator('[data-table="versiones"] tbody tr', { hasText: `Nombre más claro ${stamp}` })
  await expect(first).toContainText('Ana Administradora')
  await expect(first).toContainText(`${POLICY} · nombre`)
  await expect(first).toContainText(`Baja en una renovación ${stamp}`)
  await expect(page.locator('[data-table="versiones"] tbody tr', { hasText: `Vuelve el nombre ${stamp}` })).toBeVisible()
  await expectAccessible(page)
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/politicas-historial-es.png`, fullPage: true })

  // Restore the version with the new name: it is the newest again.
  await first.getByRole('button', { name: 'Restaurar' }).click()
  const restore = page.getByRole('dialog', { name: /Restaurar la versión \d+/ })
  await textField(restore, 'Nota de la versión').fill(`Restaurada por la prueba ${stamp}`)
  await restore.getByRole('button', { name: 'Restaurar' }).click()
  await expect(restore).toBeHidden()
  await expect(page.locator('[data-table="versiones"] tbody tr').first()).toContainText(`Restaurada por la prueba ${stamp}`)
  await expect(page.locator('[data-table="versiones"] tbody tr').first()).toContainText('Restauración')
  expect(await label(page)).toBe(`Baja en una renovación ${stamp}`)

  // Back to the shipped name for the other suites, through the same form.
  await page.getByRole('tab', { name: 'Políticas' }).click()
  await rename(page, original, `Nombre de fábrica ${stamp}`)
  expect(await label(page)).toBe(original)
  if (SHOTS) {
    await page.screenshot({ path: `${SHOTS}/politicas-es.png`, fullPage: true })
    await row.getByRole('button', { name: 'Editar' }).click()
    await expect(textField(page.getByRole('dialog'), 'Nombre en español')).toHaveValue(original)
    await page.screenshot({ path: `${SHOTS}/politicas-editar-es.png` })
  }
})

test('the editor in English and in dark mode', async ({ browser }) => {
  test.setTimeout(120_000)
  for (const variant of [{ name: 'en', dark: false }, { name: 'dark', dark: true }]) {
    const context = await browser.newContext({ colorScheme: variant.dark ? 'dark' : 'light' })
    const page = await context.newPage()
    await signIn(page, ADMIN)
    if (variant.name === 'en') await page.evaluate(() => localStorage.setItem('portal.lang', 'en'))
    await page.goto('/sysmanager/politicas-aprobacion')
    const heading = variant.name === 'en' ? 'Approval policies' : 'Políticas de aprobación'
    // The first load of a screen after signing in waits for the screen's JSON and the menu.
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({ timeout: 30_000 })
    const row = page.locator('[data-table="politicas"] tbody tr', { hasText: 'contract.end' })
    await expect(row).toContainText(variant.name === 'en' ? 'The field «Estado» sent is «baja» or «anulado» and «Estado» changes.' : 'El campo «Estado» enviado es «baja» o «anulado» y cambia «Estado».')
    await expectAccessible(page)
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/politicas-${variant.name}.png`, fullPage: true })
    await context.close()
  }
})
