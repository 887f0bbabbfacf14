import { expect, test, type Locator, type Page } from '@playwright/test'
import { ADMIN, AGENTE, expectAccessible, forgetPreferences, signIn } from './support'

/**
 * The grid every list screen gets from the renderer: layout kept per user and screen
 * (widths, pins, order, density), keyboard use as an ARIA grid, virtual scrolling of large
 * pages, and the totals row over the whole filtered set.
 */

const CONTRACTS = '/soluciones/contratos/listado'
const INVOICES = '/soluciones/facturas'
const grid = (page: Page, id: string) => page.locator(`[data-table="${id}"]`)
const header = (page: Page, id: string, name: string) => grid(page, id).locator('thead th').filter({ hasText: new RegExp(`^${name}`) })
const headers = async (page: Page, id: string) => (await grid(page, id).locator('thead th').allInnerTexts()).map((t) => t.trim())
/** Where the focus is: the grid row and column (1-based, header row 1), or null outside the grid. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    const cell = el?.closest('td, th')
    if (!cell || !cell.closest('table[role="grid"]')) return null
    return { row: Number(cell.parentElement?.getAttribute('aria-rowindex')), col: Number(cell.getAttribute('aria-colindex')), text: cell.parentElement?.textContent ?? '' }
  })
const savedPreference = (page: Page) => page.waitForResponse((r) => r.url().includes('/api/usuarios/preference') && r.request().method() === 'POST' && r.ok())
const pagerReport = (page: Page, id: string) => grid(page, id).locator('.p-paginator-current')

async function layoutMenu(page: Page, ...path: string[]) {
  await page.getByRole('button', { name: 'Diseño' }).click()
  for (const label of path) await page.getByRole('menuitem', { name: label, exact: true }).click()
}

/** The table shows rows and is not fetching (a loaded machine can take a while). */
async function loaded(table: Locator) {
  await expect(table.locator('tbody tr').first()).toBeVisible({ timeout: 30_000 })
  await expect(table.locator('.p-datatable-loading-overlay')).toHaveCount(0, { timeout: 30_000 })
}

async function bodyRowHeight(table: Locator): Promise<number> {
  return table.locator('tbody tr').first().evaluate((tr) => tr.getBoundingClientRect().height)
}

test.describe('the grid', () => {
  // Long walks through a list, and a page of thousands of rows: more time than a single check.
  test.beforeEach(() => test.slow())

  test('resize, pin and reorder columns and change density: kept after a reload, undone by «Restablecer»', async ({ page }) => {
    // As agente: the admin's lists in other suites keep their layout. It starts from the
    // screen's layout, and leaves it so even when it fails (a retry, the personal-data suite).
    await signIn(page, AGENTE)
    const contractsLayout = (key: string) => key.startsWith('tabla:') && key.endsWith(':contratos')
    await forgetPreferences(page, contractsLayout)
    try {
      await layoutWalk(page)
    } finally {
      await forgetPreferences(page, contractsLayout)
    }
  })

  async function layoutWalk(page: Page) {
    await page.goto(CONTRACTS)
    const table = grid(page, 'contratos')
    await loaded(table)
    const original = await headers(page, 'contratos')
    expect(original.slice(0, 3)).toEqual(['Código', 'CUPS', 'Titular'])

    // Resize «Titular» by dragging its resizer.
    const titular = header(page, 'contratos', 'Titular')
    const before = (await titular.boundingBox())!.width
    const resizer = (await titular.locator('.p-column-resizer').boundingBox())!
    let saved = savedPreference(page)
    await page.mouse.move(resizer.x + resizer.width / 2, resizer.y + resizer.height / 2)
    await page.mouse.down()
    await page.mouse.move(resizer.x + 120, resizer.y + resizer.height / 2, { steps: 8 })
    await page.mouse.up()
    await saved
    const widened = (await titular.boundingBox())!.width
    expect(widened).toBeGreaterThan(before + 60)

    // Pin «Agente» to the left: drawn first, frozen.
    saved = savedPreference(page)
    await layoutMenu(page, 'Fijar a la izquierda', 'Agente')
    await saved
    await expect.poll(() => headers(page, 'contratos').then((h) => h[0])).toBe('Agente')
    await expect(header(page, 'contratos', 'Agente')).toHaveClass(/p-frozen-column/)

    // Drag «Estado» onto «CUPS»: it moves before it.
    saved = savedPreference(page)
    await header(page, 'contratos', 'Estado').dragTo(header(page, 'contratos', 'CUPS'))
    await saved
    await expect.poll(async () => {
      const h = await headers(page, 'contratos')
      return h.indexOf('Estado') < h.indexOf('CUPS')
    }).toBe(true)

    // Compact density: shorter rows.
    const comfortable = await bodyRowHeight(table)
    saved = savedPreference(page)
    await layoutMenu(page, 'Densidad', 'Compacta')
    await saved
    await expect(table).toHaveClass(/grid-density-compact/)
    expect(await bodyRowHeight(table)).toBeLessThan(comfortable)

    // All of it comes back after a reload (a server-side preference).
    const arranged = await headers(page, 'contratos')
    await page.reload()
    await loaded(table)
    expect(await headers(page, 'contratos')).toEqual(arranged)
    await expect(header(page, 'contratos', 'Agente')).toHaveClass(/p-frozen-column/)
    await expect(table).toHaveClass(/grid-density-compact/)
    expect(Math.abs((await titular.boundingBox())!.width - widened)).toBeLessThanOrEqual(2)
    await expectAccessible(page)

    // «Restablecer» goes back to the screen's layout.
    saved = savedPreference(page)
    await layoutMenu(page, 'Restablecer')
    await saved
    await expect.poll(() => headers(page, 'contratos')).toEqual(original)
    await expect(table).toHaveClass(/grid-density-comfortable/)
    await expect(header(page, 'contratos', 'Agente')).not.toHaveClass(/p-frozen-column/)
  }

  test('keyboard only: one tab stop, arrows, Home/End, PageUp/PageDown across pages, Enter opens the contract', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto(CONTRACTS)
    const table = grid(page, 'contratos')
    await loaded(table)
    await expect(table.locator('table')).toHaveAttribute('role', 'grid')

    // Tab from the last control before the table lands on its one tab stop: the first data cell.
    await page.getByRole('button', { name: /Más filtros/ }).focus()
    await page.keyboard.press('Tab')
    expect(await focused(page)).toMatchObject({ row: 2, col: 1 })

    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowRight')
    expect(await focused(page)).toMatchObject({ row: 4, col: 2 })
    await page.keyboard.press('End')
    const cols = Number(await table.locator('table').getAttribute('aria-colcount'))
    expect(await focused(page)).toMatchObject({ row: 4, col: cols })
    await page.keyboard.press('Home')
    expect(await focused(page)).toMatchObject({ row: 4, col: 1 })
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    // The header row is part of the grid.
    expect(await focused(page)).toMatchObject({ row: 1, col: 1 })
    await page.keyboard.press('Control+End')
    expect(await focused(page)).toMatchObject({ row: 11, col: cols })
    await page.keyboard.press('Control+Home')
    expect(await focused(page)).toMatchObject({ row: 2, col: 1 })

    // PageDown at the last row turns to the next page, focus on its first row; PageUp back.
    await page.keyboard.press('Control+End')
    await page.keyboard.press('PageDown')
    await expect(pagerReport(page, 'contratos')).toHaveText(/^11–20 de/)
    await expect.poll(() => focused(page)).toMatchObject({ row: 12 })
    await page.keyboard.press('PageUp')
    await expect(pagerReport(page, 'contratos')).toHaveText(/^1–10 de/)
    await expect.poll(() => focused(page)).toMatchObject({ row: 11 })

    // The focus ring is visible on the active cell.
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)
    expect(ring).toBe('solid')
    await expectAccessible(page)

    // Tab leaves the grid (no trap), Shift+Tab comes back to the same cell.
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBeNull()
    await page.keyboard.press('Shift+Tab')
    expect(await focused(page)).toMatchObject({ row: 11 })

    // Enter opens the contract of the row.
    await page.keyboard.press('Control+Home')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    const code = /[A-Z]{2}-\d{4}-\d{6}/.exec((await focused(page))!.text)![0]
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/soluciones/contratos/${code}$`))
  })

  test('keyboard selection: Space toggles a row, Shift+Down extends the selection', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto('/usuarios/listado')
    const table = grid(page, 'usuarios')
    await loaded(table)
    await table.locator('tbody td').nth(1).focus()
    await page.keyboard.press(' ')
    await expect(page.getByRole('region', { name: 'Acciones sobre la selección' })).toContainText('1 seleccionadas.')
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowDown')
    await expect(page.getByRole('region', { name: 'Acciones sobre la selección' })).toContainText('3 seleccionadas.')
    await page.keyboard.press('Shift+ArrowUp')
    await expect(page.getByRole('region', { name: 'Acciones sobre la selección' })).toContainText('2 seleccionadas.')
    await expect(table.locator('tbody tr[aria-selected="true"]')).toHaveCount(2)
  })

  test('virtual scroll: 6 000+ invoices on one page, scrolled to the end, walked with the keys', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto(`${INVOICES}?size=10000`)
    const table = grid(page, 'facturas')
    await expect(pagerReport(page, 'facturas')).toHaveText(/^1–[\d.]+ de [\d.]+$/, { timeout: 30_000 })
    const total = Number(/de ([\d.]+)/.exec((await pagerReport(page, 'facturas').textContent())!)![1]!.replace(/\./g, ''))
    expect(total).toBeGreaterThan(1000)
    await expect(pagerReport(page, 'facturas')).toHaveText(`1–${total.toLocaleString('es-ES')} de ${total.toLocaleString('es-ES')}`)
    await expect(table.locator('table')).toHaveAttribute('aria-rowcount', String(total + 1))
    // Only the rows near the view are in the DOM.
    expect(await table.locator('tbody tr').count()).toBeLessThan(100)

    // Scrolled to the end: the last row is drawn, and it is the last of the set.
    const scroller = table.locator('.p-virtualscroller')
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    const last = table.locator(`tbody tr[aria-rowindex="${total + 1}"]`)
    await expect(last).toBeVisible()

    // The keys move through rows that are not drawn yet: the focused row is scrolled into view.
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }))
    await table.locator('tbody td').nth(1).focus()
    await page.keyboard.press('Control+End')
    await expect.poll(() => focused(page)).toMatchObject({ row: total + 1 })
    await expect(last).toBeVisible()
    await page.keyboard.press('Control+Home')
    await expect.poll(() => focused(page)).toMatchObject({ row: 2 })
    for (let i = 0; i < 5; i++) await page.keyboard.press('PageDown')
    const after = (await focused(page))!.row
    expect(after).toBeGreaterThan(10)
    await expect(table.locator(`tbody tr[aria-rowindex="${after}"]`)).toBeVisible()
  })

  test('the totals row sums the whole filtered set, as the API answers it', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto(`${INVOICES}?f.EstadoPago=pendiente%2Cimpagada`)
    const table = grid(page, 'facturas')
    await loaded(table)
    const answer = await page.request.get('/api/facturas', { params: { pageIndex: 0, pageSize: 1, 'filterColumns[0]': 'EstadoPago', 'filterQueries[0]': 'pendiente,impagada' } })
    expect(answer.ok()).toBe(true)
    const { Totales, TotalCount } = (await answer.json()) as { Totales: Record<string, number>; TotalCount: number }
    expect(TotalCount).toBeGreaterThan(10)
    const footer = table.locator('tfoot tr')
    await expect(footer).toContainText('Total (filtro)')
    const importe = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(Totales.ImporteTotal!)
    const index = (await headers(page, 'facturas')).indexOf('Importe')
    await expect(footer.locator('td').nth(index)).toHaveText(importe)
    await expectAccessible(page)

    // A list whose answer has no Totales (agents) draws no totals row, and no error.
    await page.goto('/agentes/listado')
    await loaded(grid(page, 'agentes'))
    await expect(grid(page, 'agentes').locator('tfoot')).toHaveCount(0)
  })

  test('the contract list as a grid is accessible in both themes and languages', async ({ browser }) => {
    for (const [lang, scheme] of [['es', 'light'], ['en', 'dark']] as const) {
      const context = await browser.newContext({ colorScheme: scheme })
      const page = await context.newPage()
      await signIn(page, ADMIN)
      if (lang === 'en') await page.evaluate(() => localStorage.setItem('portal.lang', 'en'))
      await page.goto(CONTRACTS)
      const table = grid(page, 'contratos')
      await loaded(table)
      await expect(table.locator('tfoot')).toContainText(lang === 'en' ? 'Total (filter)' : 'Total (filtro)')
      await table.locator('tbody td').nth(1).focus()
      await page.keyboard.press('ArrowDown')
      await expectAccessible(page)
      await page.getByRole('button', { name: lang === 'en' ? 'Layout' : 'Diseño' }).click()
      await expect(page.getByRole('menubar')).toBeVisible()
      await expectAccessible(page)
      await context.close()
    }
  })
})
