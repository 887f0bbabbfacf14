import { expect, test, type Page } from '@playwright/test'
import Database from 'better-sqlite3'
import path from 'node:path'
import { acceptConfirmation, ADMIN, AGENTE, DATA_DIR, expectAccessible, signIn, SUPERVISOR, textField } from './support'

/**
 * Issue 17, shared views: admin saves a filtered contract view shared with «Administradores»;
 * supervisor (a member) sees it under «Compartidas conmigo» with admin's name and applies it;
 * agente (not a member) does not see it; admin withdraws it and it is gone. A view naming a
 * column the list no longer has still opens and says what it dropped. SCREENSHOT_DIR set: the
 * menu and the save dialog are saved in Spanish, English and dark mode there.
 */

const LIST = '/soluciones/contratos/listado'
const contracts = (page: Page) => page.locator('[data-table="contratos"]')
const menuButton = (page: Page) => page.locator('.views-menu').getByRole('button').first()
const panel = (page: Page) => page.locator('.views-menu__panel')
const section = (page: Page, title: string) => panel(page).getByRole('region', { name: title })
/** The button that applies the view `name` (its name, then whose it is and who sees it). */
const applyButton = (scope: ReturnType<typeof section>, name: string) => scope.getByRole('button', { name: new RegExp(`^${name}`) })

async function openMenu(page: Page) {
  await menuButton(page).click()
  await expect(panel(page)).toBeVisible()
  await expect(panel(page).getByRole('button', { name: 'Guardar vista' })).toBeEnabled()
}

async function saveView(page: Page, name: string, who: 'Solo yo' | 'Un grupo' | 'Toda la marca') {
  await openMenu(page)
  await panel(page).getByRole('button', { name: 'Guardar vista' }).click()
  const dialog = page.getByRole('dialog', { name: 'Guardar vista' })
  await dialog.getByLabel('Nombre de la vista').fill(name)
  await dialog.getByLabel(who).check()
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/views-save-es.png` })
  await dialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.getByText(`Vista «${name}» guardada.`)).toBeVisible()
  await expect(dialog).toBeHidden()
}

test('a view shared with a group: its members see it with its owner and apply it; withdrawn, it is gone', async ({ page, browser }) => {
  // Three people sign in and look.
  test.setTimeout(180_000)
  const name = `Contratos EV-2026 ${Date.now().toString(36)}`
  await signIn(page, ADMIN)
  await page.goto(LIST)
  await contracts(page).getByRole('columnheader', { name: 'Titular' }).click()
  await expect(page).toHaveURL(/sort=Titular%3Aasc/)
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Código').fill('EV-2026')
  await expect(page).toHaveURL(/sort=Titular%3Aasc.*f\.CodigoContrato=EV-2026/)
  await saveView(page, name, 'Un grupo')
  await openMenu(page)
  const mine = section(page, 'Mis vistas')
  await expect(applyButton(mine, name)).toContainText('Con Administradores')
  // The saved filters admin had (the demo data's preference) moved into the store on this first save.
  await expect(applyButton(mine, 'Pendientes de firma')).toBeVisible()
  await expect(applyButton(mine, 'Altas de este año en 3.0TD')).toBeVisible()
  await expectAccessible(page)
  const dir = process.env.SCREENSHOT_DIR
  if (dir) await page.screenshot({ path: `${dir}/views-menu-es.png` })
  await page.keyboard.press('Escape')

  // A member of «Administradores», on another machine.
  const member = await (await browser.newContext()).newPage()
  await signIn(member, SUPERVISOR)
  await member.goto(LIST)
  await openMenu(member)
  const shared = section(member, 'Compartidas conmigo')
  const entry = shared.getByRole('listitem').filter({ hasText: name })
  await expect(entry).toContainText('de Ana Administradora Portal')
  // Not theirs: no update, no withdrawal.
  await expect(entry.getByRole('button', { name: `Retirar ${name}` })).toHaveCount(0)
  await expectAccessible(member)
  if (dir) {
    await member.screenshot({ path: `${dir}/views-shared-es.png` })
    await member.keyboard.press('Escape')
    await member.locator('.layout-topbar').getByText('EN', { exact: true }).click()
    await menuButton(member).click()
    await expect(panel(member).getByRole('region', { name: 'Shared with me' })).toContainText(`by Ana Administradora Portal`)
    await member.screenshot({ path: `${dir}/views-shared-en.png` })
    await member.emulateMedia({ colorScheme: 'dark' })
    await member.waitForTimeout(500)
    await member.screenshot({ path: `${dir}/views-shared-dark-en.png` })
    await member.keyboard.press('Escape')
    await member.emulateMedia({ colorScheme: 'light' })
    await member.locator('.layout-topbar').getByText('ES', { exact: true }).click()
    await openMenu(member)
  }
  await applyButton(section(member, 'Compartidas conmigo'), name).click()
  await expect(member).toHaveURL(/f\.CodigoContrato=EV-2026/)
  await expect(member).toHaveURL(/sort=Titular%3Aasc/)
  await expect(menuButton(member)).toHaveText(`Vista: ${name}`)

  // Not a member: not shown.
  const outsider = await (await browser.newContext()).newPage()
  await signIn(outsider, AGENTE)
  await outsider.goto(LIST)
  await openMenu(outsider)
  await expect(panel(outsider)).not.toContainText(name)

  // The owner withdraws it.
  await openMenu(page)
  await section(page, 'Mis vistas').getByRole('button', { name: `Retirar ${name}` }).click()
  await acceptConfirmation(page)
  await expect(page.getByText(`Vista «${name}» retirada.`)).toBeVisible()
  await member.reload()
  await openMenu(member)
  await expect(section(member, 'Compartidas conmigo')).not.toContainText(name)
})

test('a view naming a column the list no longer has still opens, and says what it dropped', async ({ page }) => {
  test.setTimeout(120_000)
  const name = `Con columna retirada ${Date.now().toString(36)}`
  await signIn(page, ADMIN)
  await page.goto(`${LIST}?f.Titular=Garc%C3%ADa`)
  await saveView(page, name, 'Solo yo')
  // The screen has since lost a column: the view, saved before, still names it.
  const db = new Database(path.join(DATA_DIR, 'bff-views.db'))
  try {
    const row = db.prepare<[], { id: string; data: string }>('SELECT id, data FROM views').all().find((r) => (JSON.parse(r.data) as { name: string }).name === name)!
    const view = JSON.parse(row.data) as { filters: Record<string, string>; columns: string[] }
    view.filters = { ...view.filters, PotenciaContratada: '3.3' }
    view.columns = [...view.columns, 'PotenciaContratada']
    db.prepare('UPDATE views SET data = ? WHERE id = ?').run(JSON.stringify(view), row.id)
  } finally {
    db.close()
  }
  await page.goto(LIST)
  await openMenu(page)
  await applyButton(section(page, 'Mis vistas'), name).click()
  await expect(page.getByText('Esta vista ya no incluye: PotenciaContratada.')).toBeVisible()
  // The rest applied: its filter, and the columns it had.
  await expect(page).toHaveURL(/f\.Titular=Garc/)
  await expect(contracts(page).getByRole('columnheader', { name: 'Titular' })).toBeVisible()
  await openMenu(page)
  await section(page, 'Mis vistas').getByRole('button', { name: `Retirar ${name}` }).click()
  await acceptConfirmation(page)
  await expect(page.getByText(`Vista «${name}» retirada.`)).toBeVisible()
})
