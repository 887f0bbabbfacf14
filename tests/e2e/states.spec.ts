import { expect, test, type Page } from '@playwright/test'
import { ADMIN, signIn, textField } from './support'

/**
 * Issue 17: honest states, a keyboard-safe date filter and lists on a phone.
 * A list whose load failed keeps an error state with «Reintentar» (never «No hay resultados»
 * nor «0–0 de 0»); Tab passes through a date filter; on a phone the filters wait behind one
 * button and the first rows are on screen without scrolling.
 */

interface FailingList {
  path: string
  table: string
  /** The path of the list's paged call (the export and the detail calls are left alone). */
  call: string
}

const LISTS: FailingList[] = [
  { path: '/soluciones/contratos/listado', table: 'contratos', call: '/api/contract' },
  { path: '/soluciones/facturas', table: 'facturas', call: '/api/facturas' },
]

/** The first paint of a list after navigating (a shared CI machine can be slow to answer). */
const FIRST_PAINT = { timeout: 30_000 }

const section = (page: Page, table: string) => page.locator('section.screen-table').filter({ has: page.locator(`[data-table="${table}"], [data-state]`) }).first()

/** Makes the list's paged call answer 500 while `state.failing` holds. */
async function failWhile(page: Page, call: string, state: { failing: boolean }) {
  await page.route(
    (url) => url.pathname === call,
    (route) => (state.failing ? route.fulfill({ status: 500, body: '' }) : route.fallback()),
  )
}

test.describe('honest states', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN)
  })

  for (const list of LISTS) {
    test(`${list.path}: a failed load keeps an error state with Reintentar, which recovers the rows`, async ({ page }) => {
      const state = { failing: true }
      await failWhile(page, list.call, state)
      await page.goto(list.path)

      const error = page.locator('.screen-table [data-state="error"]')
      await expect(error).toBeVisible(FIRST_PAINT)
      await expect(error).toContainText('No se han podido obtener los datos.')
      // The toast came and went: the state stays.
      await expect(page.locator('.p-toast-message-error')).toBeVisible()
      await expect(page.locator('.p-toast-message-error')).toBeHidden({ timeout: 10_000 })
      await expect(error).toBeVisible()
      const table = page.locator('section.screen-table').first()
      await expect(table).not.toContainText('No hay resultados')
      await expect(table).not.toContainText('0–0 de 0')
      await expect(table.locator('.p-paginator')).toHaveCount(0)

      state.failing = false
      await error.getByRole('button', { name: 'Reintentar' }).click()
      await expect(page.locator(`[data-table="${list.table}"] tbody tr`).first()).toBeVisible()
      await expect(page.locator(`[data-table="${list.table}"] tbody tr`)).not.toHaveCount(0)
      await expect(page.locator('.screen-table [data-state="error"]')).toHaveCount(0)
      await expect(page.locator(`[data-table="${list.table}"] .p-paginator-current`)).toHaveText(/^1–\d+ de [\d.]+$/)
    })
  }

  test('a filter that matches nothing says so and «Quitar filtros» brings the rows back', async ({ page }) => {
    await page.goto('/soluciones/contratos/listado?f.Titular=zzzz-nadie')
    const empty = page.locator('.screen-table [data-state="filtered-empty"]')
    await expect(empty).toContainText('No hay resultados con estos filtros.', FIRST_PAINT)
    await expect(section(page, 'contratos').locator('.p-paginator')).toHaveCount(0)
    await empty.getByRole('button', { name: 'Quitar filtros' }).click()
    await expect(page).not.toHaveURL(/f\.Titular/)
    await expect(page.locator('[data-table="contratos"] tbody tr').first()).toBeVisible()
    await expect(page.locator('[data-table="contratos"] .p-paginator-current')).toHaveText(/^1–10 de [\d.]+$/)
  })
})

test.describe('date filter and keyboard', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN)
  })

  test('Tab passes through the date filter; Enter or Alt+ArrowDown opens it, Escape closes it and returns focus', async ({ page }) => {
    await page.goto('/soluciones/contratos/listado')
    await expect(page.locator('[data-table="contratos"] tbody tr').first()).toBeVisible(FIRST_PAINT)
    const date = page.locator('#contratos-filter-FechaAlta')
    const agent = page.locator('#contratos-filter-Agente')
    const calendar = page.locator('.p-datepicker:not(.p-datepicker-inline)')

    // Arrive on the date field by keyboard, both ways; the calendar stays shut and Tab moves on.
    await agent.focus()
    await page.keyboard.press('Shift+Tab')
    await expect(date).toBeFocused()
    await expect(calendar).toHaveCount(0)
    await page.keyboard.press('Tab')
    await expect(agent).toBeFocused()
    await expect(calendar).toHaveCount(0)

    await page.keyboard.press('Shift+Tab')
    await expect(date).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(calendar).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(calendar).toHaveCount(0)
    await expect(date).toBeFocused()

    await page.keyboard.press('Alt+ArrowDown')
    await expect(calendar).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(calendar).toHaveCount(0)
    await expect(date).toBeFocused()

    // A click still opens it.
    await date.click()
    await expect(calendar).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(calendar).toHaveCount(0)
  })
})

test.describe('a list on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN)
  })

  for (const list of LISTS) {
    test(`${list.path}: the filters wait behind «Filtros» and the first rows are on screen`, async ({ page }) => {
      await page.goto(list.path)
      const rows = page.locator(`[data-table="${list.table}"] tbody tr`)
      await expect(rows.first()).toBeVisible(FIRST_PAINT)
      const filters = page.getByRole('search', { name: 'Filtros' })
      await expect(filters).toBeHidden()
      const toggle = page.getByRole('button', { name: 'Filtros', exact: true })
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      // The first rows are on screen without scrolling (their first cell whole: the table itself
      // scrolls sideways inside its card, so a row is wider than the phone by design).
      expect(await page.evaluate(() => window.scrollY)).toBe(0)
      for (const i of [0, 1, 2]) await expect(rows.nth(i).locator('td').first()).toBeInViewport({ ratio: 1 })

      await toggle.click()
      await expect(filters).toBeVisible()
      await textField(filters, 'Titular').fill('garcia')
      await expect(page).toHaveURL(/f\.Titular=garcia/)
      await expect(page.getByRole('button', { name: 'Filtros (1)', exact: true })).toHaveAttribute('aria-expanded', 'true')
    })
  }
})
