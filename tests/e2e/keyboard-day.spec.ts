import { expect, test, type Page } from '@playwright/test'
import { ADMIN, expectAccessible, signIn } from './support'

/**
 * A day's work with the keyboard only (issue 17): find a contract with the command palette, go
 * to the renewals, filter them, open the record from the grid, change its renewal sub-state in
 * a dialog, and come back to the list as it was left. Only the sign-in uses the mouse; every
 * other step is keys, and where focus lands is checked where a keyboard user depends on it.
 */

const LIST = '/soluciones/renovaciones'
const grid = (page: Page) => page.locator('[data-table="renovaciones"]')
const rows = (page: Page) => grid(page).locator('tbody tr')
const palette = (page: Page, name = 'Buscar pantallas, registros y acciones') => page.getByRole('dialog', { name })
const filterBar = (page: Page) => page.getByRole('search', { name: 'Filtros' })
const searchOf = (page: Page) => new URL(page.url()).searchParams

interface Renewal {
  CodigoContrato: string
  SubestadoId: number
  SubestadoCodigo: string
  Subestado: string
}

/**
 * A renewal still in «Próxima renovación», asked from the API: the next sub-state in the
 * dialog's list is «Oferta enviada». From the end of the list, where the other suites look least.
 */
async function pendingRenewal(page: Page): Promise<Renewal> {
  const res = await page.request.get('/api/renovaciones', {
    params: { pageIndex: 0, pageSize: 50, sortColumn: 'CodigoContrato', sortOrder: 'desc', 'filterColumns[0]': 'SubestadoId', 'filterQueries[0]': '1' },
  })
  expect(res.ok()).toBe(true)
  const { Items } = (await res.json()) as { Items: Renewal[] }
  const renewal = Items.find((r) => r.SubestadoCodigo === 'proxima_renovacion')
  expect(renewal, 'a renewal in «Próxima renovación»').toBeTruthy()
  return renewal!
}

/** Puts the renewal's sub-state back, so the other suites find the data as seeded. */
async function restore(page: Page, renewal: Renewal): Promise<void> {
  const res = await page.request.put('/api/renovaciones/change-subestado', { headers: { 'X-CSRF': '1' }, data: { CodigoContrato: renewal.CodigoContrato, SubestadoId: renewal.SubestadoId } })
  expect(res.ok()).toBe(true)
}

/** Presses Tab until `target` has the focus (at most `limit` times): the way a person walks to a control. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 20): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return
    await page.keyboard.press('Tab')
  }
  await expect(target).toBeFocused()
}

/** The grid cell that has the focus: its row and column (1-based, header row 1) and its row's text. */
const focusedCell = (page: Page) =>
  page.evaluate(() => {
    const cell = document.activeElement?.closest('td, th')
    if (!cell || !cell.closest('table[role="grid"]')) return null
    return { row: Number(cell.parentElement?.getAttribute('aria-rowindex')), col: Number(cell.getAttribute('aria-colindex')), text: cell.parentElement?.textContent ?? '' }
  })

test.describe('a day with the keyboard only', () => {
  test.beforeEach(() => test.slow())

  test('palette, renewals filtered, the contract opened from the grid, its sub-state changed in a dialog, and back to the same list', async ({ page }) => {
    await signIn(page, ADMIN)
    const renewal = await pendingRenewal(page)
    const code = renewal.CodigoContrato
    try {
      // 1. Ctrl+K: the contract is found under «Contratos»; then the Renovaciones screen, Enter.
      await page.keyboard.press('Control+k')
      const box = palette(page).getByRole('combobox', { name: 'Buscar' })
      await expect(box).toBeFocused()
      await page.keyboard.type(code)
      await expect(palette(page).getByRole('group', { name: 'Contratos' }).getByRole('option', { name: new RegExp(code) })).toBeVisible()
      await page.keyboard.press('Control+a')
      await page.keyboard.type('renovaciones')
      const screenOption = palette(page).getByRole('group', { name: 'Pantallas' }).getByRole('option').first()
      await expect(screenOption).toContainText('Renovaciones')
      await expect(screenOption).toHaveAttribute('aria-selected', 'true')
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(new RegExp(`${LIST}$`))
      await expect(palette(page)).toBeHidden()
      await expect(rows(page).first()).toBeVisible()

      // 2. Tab to the «Contrato» filter and type the code; leaving the field applies it at once.
      const contractFilter = filterBar(page).getByRole('textbox', { name: 'Contrato', exact: true })
      await tabTo(page, contractFilter)
      await page.keyboard.type(code)
      await page.keyboard.press('Tab')
      await expect.poll(() => searchOf(page).get('f.CodigoContrato')).toBe(code)
      await expect(rows(page)).toHaveCount(1)
      await expect(rows(page).first()).toContainText(code)

      // 3. Into the grid (its one tab stop), along the row with the arrows, Enter opens the contract.
      await tabTo(page, grid(page).locator('tbody'))
      expect(await focusedCell(page)).toMatchObject({ row: 2, col: 1 })
      await page.keyboard.press('ArrowRight')
      expect(await focusedCell(page)).toMatchObject({ row: 2, col: 2 })
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(new RegExp(`/soluciones/contratos/${code}$`))
      await expect(page.getByRole('heading', { level: 1 })).toContainText(code)
      const subState = page.locator('.detail-grid__item', { hasText: 'Subestado de renovación' })
      await expect(subState).toContainText('Próxima renovación')

      // 4. The palette offers the screen's actions: «Subestado de renovación» opens its form.
      await page.keyboard.press('Control+k')
      await page.keyboard.type('subestado')
      const action = palette(page).getByRole('group', { name: 'Acciones' }).getByRole('option', { name: 'Subestado de renovación' })
      await expect(action).toHaveAttribute('aria-selected', 'true')
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: 'Subestado de renovación' })
      await expect(dialog).toBeVisible()
      await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
      // The PrimeReact dropdown: ArrowDown opens it on the current option, ArrowDown moves, Enter picks.
      const select = dialog.locator('#subestado-contrato-SubestadoId')
      await tabTo(page, select)
      await page.keyboard.press('ArrowDown')
      await expect(page.locator('.p-dropdown-panel')).toBeVisible()
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('Enter')
      await expect(page.locator('.p-dropdown-panel')).toBeHidden()
      await expect(dialog.locator('.p-dropdown-label')).toHaveText('Oferta enviada')
      await expect(select).toBeFocused()
      const save = dialog.getByRole('button', { name: 'Guardar' })
      await tabTo(page, save)
      await page.keyboard.press('Enter')
      await expect(page.locator('.p-toast')).toContainText('Subestado de renovación cambiado.')
      await expect(dialog).toBeHidden()
      await expect(subState).toContainText('Oferta enviada')
      // Focus is back where it was before the palette opened (the page's content), not lost on the body.
      await expect(page.locator('#main')).toBeFocused()

      // 5. «Volver», the first control of the content, goes back to the list as it was left.
      const back = page.getByRole('button', { name: 'Volver', exact: true })
      await page.keyboard.press('Tab')
      await expect(back).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(new RegExp(`${LIST}\\?`))
      expect(searchOf(page).get('f.CodigoContrato')).toBe(code)
      await expect(filterBar(page).getByRole('textbox', { name: 'Contrato', exact: true })).toHaveValue(code)
      await expect(rows(page)).toHaveCount(1)
      await expect(rows(page).first()).toContainText('Oferta enviada')
      await expectAccessible(page)
    } finally {
      await restore(page, renewal)
    }
  })

  test('a dialog opened from its button gives focus back to it; «Limpiar filtros» leaves focus in the filter bar', async ({ page }) => {
    await signIn(page, ADMIN)
    const { CodigoContrato: code } = await pendingRenewal(page)
    await page.goto(`/soluciones/contratos/${code}`)
    const opener = page.getByRole('button', { name: 'Subestado de renovación' })
    await tabTo(page, opener, 30)
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Subestado de renovación' })
    await expect(dialog).toBeVisible()
    await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true)
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(opener).toBeFocused()

    await page.goto(`${LIST}?f.CodigoContrato=${code}`)
    await expect(rows(page)).toHaveCount(1)
    const clear = filterBar(page).getByRole('button', { name: 'Limpiar filtros' })
    await tabTo(page, clear)
    await page.keyboard.press('Enter')
    await expect.poll(() => searchOf(page).get('f.CodigoContrato')).toBeNull()
    await expect(clear).toBeHidden()
    await expect(filterBar(page).getByRole('textbox', { name: 'Contrato', exact: true })).toBeFocused()
    await expect(filterBar(page).getByRole('textbox', { name: 'Contrato', exact: true })).toHaveValue('')
  })

  test('a text filter typed and a sort header clicked straight after: both stay, in the URL and on screen', async ({ page, context }) => {
    await signIn(page, ADMIN)
    await page.goto(LIST)
    await expect(rows(page).first()).toBeVisible()
    // A busy machine: the list renders slowly, so the filter (debounced) and the sort land while
    // the other is still being drawn. The sort used to be written over the URL the filter
    // replaced, or the other way round, and one of the two was lost.
    const cdp = await context.newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
    try {
      const titular = filterBar(page).getByRole('textbox', { name: 'Titular', exact: true })
      await titular.focus()
      await titular.pressSequentially('garcia')
      await grid(page).locator('thead th').filter({ hasText: /^Contrato/ }).click()
      await expect.poll(() => [searchOf(page).get('sort'), searchOf(page).get('f.Titular')], { timeout: 15_000 }).toEqual(['CodigoContrato:asc', 'garcia'])
      // Nothing else comes afterwards to undo either.
      await page.waitForTimeout(1_000)
      expect([searchOf(page).get('sort'), searchOf(page).get('f.Titular')]).toEqual(['CodigoContrato:asc', 'garcia'])
      await expect(titular).toHaveValue('garcia')
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    }
    // The rows shown are the filtered ones (every holder holds «garcia», accents aside).
    const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    await expect
      .poll(async () => {
        const holders = await grid(page).locator('tbody tr td:nth-child(2)').allInnerTexts()
        return holders.length > 0 && holders.every((h) => fold(h).includes('garcia'))
      })
      .toBe(true)
  })

  test('the sub-state dialog in English and the dark theme is readable and accessible', async ({ browser }, testInfo) => {
    const context = await browser.newContext({ colorScheme: 'dark' })
    const page = await context.newPage()
    try {
      await signIn(page, ADMIN)
      await page.evaluate(() => localStorage.setItem('portal.lang', 'en'))
      const { CodigoContrato: code } = await pendingRenewal(page)
      await page.goto(`/soluciones/contratos/${code}`)
      await expect(page.locator('html')).toHaveAttribute('lang', 'en')
      await expect(page.locator('html')).toHaveClass(/\bapp-dark\b/)
      await expect(page.locator('.detail-grid__item', { hasText: 'Renewal sub-state' })).toBeVisible()
      await page.keyboard.press('Control+k')
      await page.keyboard.type('sub-state')
      await expect(palette(page, 'Search screens, records and actions').getByRole('group', { name: 'Actions' }).getByRole('option', { name: 'Renewal sub-state' })).toHaveAttribute('aria-selected', 'true')
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: 'Renewal sub-state' })
      await expect(dialog).toBeVisible()
      await tabTo(page, dialog.locator('#subestado-contrato-SubestadoId'))
      await page.keyboard.press('ArrowDown')
      await expect(page.locator('.p-dropdown-panel')).toBeVisible()
      await expect(dialog.getByRole('button', { name: 'Save' })).toBeVisible()
      await expectAccessible(page)
      const shot = testInfo.outputPath('sub-state-dialog-en-dark.png')
      await page.screenshot({ path: shot })
      await testInfo.attach('sub-state dialog, English, dark', { path: shot, contentType: 'image/png' })
      await page.keyboard.press('Escape')
      await expect(page.locator('.p-dropdown-panel')).toBeHidden()
      // Escape closed the list, not the dialog.
      await expect(dialog).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
    } finally {
      await context.close()
    }
  })
})
