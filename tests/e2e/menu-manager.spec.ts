import { expect, test, type Browser, type Page } from '@playwright/test'
import { ADMIN, AGENTE, brandHosts, expectAccessible, MENU_PORT, sidebarLabels, signIn } from './support'

/**
 * Issue 6, end to end: an admin changes the group brand's menu and a table's columns in the
 * menu manager; agente, signed in on the group brand in another browser context, sees each
 * change on the next navigation, with no restart; rollbacks bring the originals back.
 */
test.describe.configure({ mode: 'serial' })

const GRUPO = brandHosts(MENU_PORT).grupo
/** The manifest is re-read on a navigation once it is 5 s old (NavigationWatch + staleTime). */
const MANIFEST_STALE_MS = 5_000

class Agente {
  private lastLoad = 0
  constructor(readonly page: Page) {}
  static async open(browser: Browser) {
    const context = await browser.newContext({ locale: 'es-ES' })
    const agente = new Agente(await context.newPage())
    await signIn(agente.page, AGENTE, GRUPO)
    agente.lastLoad = Date.now()
    return agente
  }
  /** Moves within the app by clicking a side menu link, as a person does: no reload. */
  async navigate(label: string) {
    const wait = this.lastLoad + MANIFEST_STALE_MS + 200 - Date.now()
    if (wait > 0) await this.page.waitForTimeout(wait)
    await this.page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: label, exact: true }).click()
    this.lastLoad = Date.now()
  }
  menu() {
    return sidebarLabels(this.page)
  }
}

const node = (page: Page, key: string) => page.locator(`.p-treenode-content:has([data-key="${key}"])`)
const section = (labels: string[], title: string) => {
  const start = labels.indexOf(title.toUpperCase()) >= 0 ? labels.indexOf(title.toUpperCase()) : labels.indexOf(title)
  const rest = labels.slice(start + 1)
  const end = rest.findIndex((l) => l === l.toUpperCase() && /[A-ZÁÉÍÓÚ]/.test(l))
  return end < 0 ? rest : rest.slice(0, end)
}

test('rename, reorder and hide entries for the group brand; agente sees it on the next navigation; rollback restores it', async ({ page, browser }) => {
  const agente = await Agente.open(browser)
  const original = await agente.menu()
  expect(section(original, 'Contratos')).toEqual(['Alta', 'Contrato', 'Listado', 'Facturas'])
  expect(section(original, 'Comercial')).toEqual(['Agentes'])

  await signIn(page, ADMIN, GRUPO)
  await page.goto(`${GRUPO}/sysmanager/menumanager`)
  await expect(page.getByRole('heading', { name: 'Gestor del menú' })).toBeVisible()
  // the manager opens on the brand the admin is on
  await expect(page.getByRole('textbox', { name: 'Marca', exact: true })).toHaveAttribute('value', 'Grupo Energía')
  await expect(page.getByText('Versión de fábrica (sin cambios guardados)')).toBeVisible()
  await expectAccessible(page)

  // rename «Facturas»
  await node(page, 'facturas').click()
  const label = page.getByRole('textbox', { name: 'Texto en español' })
  await expect(label).toHaveValue('Facturas')
  await label.fill('Mis facturas')
  await expect(node(page, 'facturas')).toContainText('Mis facturas')
  // reorder by drag and drop: «Listado» before «Alta»
  const beforeAlta = page.locator('li.p-treenode:has(> .p-treenode-content [data-key="contratos-alta"])').locator('xpath=preceding-sibling::li[1]')
  await node(page, 'contratos-listado').dragTo(beforeAlta)
  // hide «Agentes»
  await node(page, 'agentes').click()
  await page.getByLabel('Oculta: no aparece en el menú').check()
  await expect(page.getByText('Cambios sin guardar')).toBeVisible()

  // preview as agente (no permissions, production) before saving
  await page.getByRole('button', { name: 'Vista previa' }).click()
  const preview = page.getByRole('dialog', { name: /Vista previa/ })
  const shown = preview.getByRole('region', { name: 'Menú tal como se verá' })
  await expect(shown).toContainText('Mis facturas')
  await expect(shown).not.toContainText('Agentes')
  await expect(shown).not.toContainText('Gestión de sistema')
  await expect(preview.getByRole('listitem').filter({ hasText: '«Facturas» se llama ahora «Mis facturas».' })).toBeVisible()
  await expect(preview.getByText('«Agentes» queda oculta.')).toBeVisible()
  await preview.getByRole('button', { name: 'Close' }).or(preview.locator('.p-dialog-header-close')).first().click()

  await page.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.locator('.p-toast')).toContainText('Versión 1 guardada')
  await expect(page.getByText(/^Versión 1 · Ana/)).toBeVisible()

  // agente (on the dashboard since signing in): next navigation, no restart
  await agente.navigate('Listado')
  await expect.poll(() => agente.menu().then((l) => section(l, 'Contratos'))).toEqual(['Listado', 'Alta', 'Contrato', 'Mis facturas'])
  expect(await agente.menu()).not.toContain('Agentes')
  // other brands keep theirs
  const verde = await page.context().newPage()
  await verde.goto(`${brandHosts(MENU_PORT).verde}/auth/login`)
  await signIn(verde, ADMIN, brandHosts(MENU_PORT).verde)
  expect(section(await sidebarLabels(verde), 'Contratos')).toContain('Facturas')
  await verde.close()

  // history: who, when, what; then roll back to the shipped menu
  await page.getByRole('button', { name: 'Historial' }).click()
  const history = page.getByRole('dialog', { name: /Historial del menú de Grupo Energía/ })
  const v1 = history.getByRole('listitem').filter({ hasText: 'Versión 1' }).first()
  await expect(v1).toContainText('Ana')
  await expect(v1).toContainText('«Facturas» se llama ahora «Mis facturas».')
  await expect(v1).toContainText('«Agentes» queda oculta.')
  const shipped = history.getByRole('listitem').filter({ hasText: 'Versión de fábrica' }).first()
  await shipped.getByRole('button', { name: 'Comparar con la actual' }).click()
  await expect(shipped.getByRole('region')).toContainText('«Facturas» se llama ahora «Mis facturas».')
  await shipped.getByRole('button', { name: 'Volver a esta versión' }).click()
  await page.locator('.p-confirm-dialog').getByRole('button', { name: 'Volver a esta versión' }).click()
  await expect(page.locator('.p-toast')).toContainText('Versión 2 guardada con el contenido de la versión de fábrica')
  await expect(node(page, 'facturas')).toContainText('Facturas')

  await agente.navigate('Dashboard')
  await expect.poll(() => agente.menu()).toEqual(original)
  await agente.page.context().close()
})

test('a column hidden in the contracts table disappears for everyone and comes back after rollback', async ({ page, browser }) => {
  const agente = await Agente.open(browser)
  const headers = (p: Page) => p.locator('[data-table="contratos"] thead th')
  await agente.navigate('Listado')
  await expect(headers(agente.page).filter({ hasText: /^CUPS$/ })).toHaveCount(1)

  await signIn(page, ADMIN, GRUPO)
  await page.goto(`${GRUPO}/sysmanager/menumanager`)
  await page.getByRole('tab', { name: 'Columnas de tablas' }).click()
  await expect(page.getByRole('textbox', { name: 'Pantalla', exact: true })).toHaveAttribute('value', /\/soluciones\/contratos\/listado$/)
  await page.getByRole('checkbox', { name: 'Mostrar la columna CUPS' }).uncheck()
  await page.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.locator('.p-toast')).toContainText('Versión 1 guardada')
  await expectAccessible(page)

  // everyone: agente on the next visit, and the admin
  await agente.navigate('Dashboard')
  await agente.navigate('Listado')
  await expect(headers(agente.page).first()).toBeVisible()
  await expect(headers(agente.page).filter({ hasText: /^CUPS$/ })).toHaveCount(0)
  await expect(headers(agente.page).filter({ hasText: /^Titular$/ })).toHaveCount(1)
  await page.goto(`${GRUPO}/soluciones/contratos/listado`)
  await expect(headers(page).filter({ hasText: /^Titular$/ })).toHaveCount(1)
  await expect(headers(page).filter({ hasText: /^CUPS$/ })).toHaveCount(0)

  // roll back
  await page.goto(`${GRUPO}/sysmanager/menumanager`)
  await page.getByRole('tab', { name: 'Columnas de tablas' }).click()
  await page.getByRole('button', { name: 'Historial' }).click()
  const history = page.getByRole('dialog', { name: /Historial de la pantalla/ })
  await expect(history.getByRole('listitem').filter({ hasText: 'Versión 1' }).first()).toContainText('la columna «CUPS» queda oculta')
  await history.getByRole('listitem').filter({ hasText: 'Versión de fábrica' }).getByRole('button', { name: 'Volver a esta versión' }).click()
  await page.locator('.p-confirm-dialog').getByRole('button', { name: 'Volver a esta versión' }).click()
  await expect(page.locator('.p-toast')).toContainText('Versión 2 guardada')

  await agente.navigate('Dashboard')
  await agente.navigate('Listado')
  await expect(headers(agente.page).filter({ hasText: /^CUPS$/ })).toHaveCount(1)
  await agente.page.context().close()
})
