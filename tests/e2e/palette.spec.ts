import { expect, test } from '@playwright/test'
import { ADMIN, AGENTE, expectAccessible, signIn } from './support'

/** The command palette (issue 17): Ctrl+K anywhere in the signed-in shell, keyboard only. */

test('Ctrl+K, a contract code and Enter open the contract; a screen name and Enter go to the screen', async ({ page }) => {
  await signIn(page, ADMIN)
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Buscar pantallas, registros y acciones' })
  const box = palette.getByRole('combobox', { name: 'Buscar' })
  await expect(box).toBeFocused()
  await box.pressSequentially('EV-2026-000001')
  await expect(palette.getByRole('group', { name: 'Contratos' }).getByRole('option', { name: /EV-2026-000001/ })).toBeVisible()
  await expectAccessible(page)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/soluciones\/contratos\/EV-2026-000001$/)
  await expect(page.getByRole('heading', { level: 1 })).toContainText('EV-2026-000001')
  await expect(palette).toBeHidden()

  await page.keyboard.press('Control+k')
  await box.pressSequentially('renovaciones')
  const option = palette.getByRole('group', { name: 'Pantallas' }).getByRole('option').first()
  await expect(option).toContainText('Renovaciones')
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/soluciones\/renovaciones$/)
})

test('the top bar search box opens it, Escape closes it and gives focus back; an agent gets no admin screen', async ({ page }) => {
  await signIn(page, AGENTE)
  const searchBox = page.locator('.layout-topbar').getByRole('button', { name: 'Buscar' })
  await searchBox.click()
  const palette = page.getByRole('dialog', { name: 'Buscar pantallas, registros y acciones' })
  const box = palette.getByRole('combobox', { name: 'Buscar' })
  await box.pressSequentially('usuarios')
  await expect(palette.getByText('Sin resultados para «usuarios».')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(palette).toBeHidden()
  await expect(searchBox).toBeFocused()
})

test('offers the actions of the screen on display', async ({ page }) => {
  await signIn(page, ADMIN)
  await page.goto('/soluciones/contratos/listado')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Buscar pantallas, registros y acciones' })
  const actions = palette.getByRole('group', { name: 'Acciones' })
  await expect(actions.getByRole('option', { name: /Exportar/ })).toBeVisible()
  await palette.getByRole('combobox').pressSequentially('nuevo')
  await expect(actions.getByRole('option', { name: 'Nuevo contrato' })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/soluciones\/contratos\/alta$/)
})
