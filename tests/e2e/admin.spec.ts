import { expect, test } from '@playwright/test'
import { acceptConfirmation, ADMIN, approveAsSupervisor, chooseOption, expectAccessible, revealApprovedKey, signIn, textField } from './support'

test('create a user, find it, change its groups, delete it', async ({ page }) => {
  const email = `prueba.e2e.${Date.now()}@portal.test`
  await signIn(page, ADMIN)
  await page.goto('/usuarios/listado')
  await page.getByRole('button', { name: 'Nuevo usuario' }).click()
  const dialog = page.getByRole('dialog', { name: 'Nuevo usuario' })
  // rules are checked before anything is sent
  await dialog.getByRole('button', { name: 'Crear usuario' }).click()
  await expect(dialog.getByText('Este campo es obligatorio.').first()).toBeVisible()
  await textField(dialog, 'Correo electrónico').fill(email)
  await textField(dialog, 'Nombre').fill('Prueba')
  await textField(dialog, 'Apellidos').fill('Automática E2E')
  await textField(dialog, 'Teléfono').fill('612 345 678')
  await dialog.getByRole('button', { name: 'Crear usuario' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.locator('.p-toast')).toContainText(`Usuario ${email} creado.`)

  // find it
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Correo').fill(email)
  const row = page.locator('[data-table="usuarios"] tbody tr')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Prueba')

  // change its groups: select it and add it to a group (bulk action)
  await row.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Añadir a un grupo' }).click()
  const groupDialog = page.getByRole('dialog', { name: 'Añadir a un grupo' })
  await chooseOption(page, groupDialog, 'Grupo', 'Backoffice')
  await groupDialog.getByRole('button', { name: 'Añadir' }).click()
  await expect(row).toContainText('Backoffice')

  // and in the detail: add another group, remove the first
  await row.getByRole('link').first().click()
  await expect(page.getByRole('heading', { name: 'Prueba Automática E2E' })).toBeVisible()
  await page.getByRole('button', { name: 'Añadir a grupos' }).click()
  await chooseOption(page, page.getByRole('dialog', { name: 'Añadir a grupos' }), 'Grupos', 'Productos')
  await page.getByRole('dialog', { name: 'Añadir a grupos' }).getByRole('button', { name: 'Añadir' }).click()
  const groups = page.locator('[data-table="usuario-grupos"] tbody')
  await expect(groups).toContainText('Productos')
  await expect(groups).toContainText('Backoffice')
  await page.locator('[data-table="usuario-grupos"] tbody tr', { hasText: 'Backoffice' }).getByRole('button', { name: 'Quitar del grupo' }).click()
  await acceptConfirmation(page)
  await expect(groups).not.toContainText('Backoffice')
  await page.getByRole('tab', { name: 'Permisos efectivos' }).click()
  await expect(page.locator('[data-table="usuario-efectivos"]')).toContainText('MENUPRODUCTOSBATERIAS')
  await expectAccessible(page)

  // delete it (with confirmation), back to the list, gone
  await page.getByRole('button', { name: 'Eliminar', exact: true }).click()
  await acceptConfirmation(page)
  await expect(page).toHaveURL(/\/usuarios\/listado$/)
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Correo').fill(email)
  await expect(page.locator('[data-table="usuarios"]')).toContainText('No hay resultados')
})

test('generate an API key (shown once), disable it, delete it', async ({ page, context, browser }) => {
  // Generating a key needs a second person's approval (four-eyes): three steps more.
  test.setTimeout(120_000)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signIn(page, ADMIN)
  await page.goto('/apikeys')
  await page.getByRole('button', { name: 'Generar clave' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generar clave' })
  await chooseOption(page, dialog, 'Usuario de API', 'CRM Comercial')
  const description = `Clave e2e ${Date.now()}`
  await textField(dialog, 'Descripción').fill(description)
  await dialog.getByRole('button', { name: 'Generar' }).click()
  await expect(page.locator('.p-toast-message-info')).toContainText('necesita la aprobación')
  await approveAsSupervisor(browser, description)
  await revealApprovedKey(page, description)
  const reveal = page.getByRole('dialog', { name: 'Nueva clave de API' })
  await expect(reveal).toContainText('no se volverá a mostrar')
  const key = (await reveal.getByTestId('revealed-value').textContent())!
  expect(key).toMatch(/^pk_[0-9a-f]{16}\.[A-Za-z0-9_-]{43}$/)
  await reveal.getByRole('button', { name: 'Copiar' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)
  await reveal.getByRole('button', { name: 'Hecho' }).click()
  await page.goto('/apikeys')

  const publicId = key.split('.')[0]!
  const row = page.locator('[data-table="apikeys"] tbody tr', { hasText: description })
  await expect(row).toContainText(publicId)
  // the list never shows the secret
  await expect(page.locator('[data-table="apikeys"]')).not.toContainText(key.split('.')[1]!)
  await expect(row).toContainText('Activa')
  await row.getByRole('button', { name: 'Desactivar' }).click()
  await expect(row).toContainText('Desactivada')
  await row.getByRole('button', { name: 'Eliminar' }).click()
  await acceptConfirmation(page)
  await expect(page.locator('[data-table="apikeys"] tbody tr', { hasText: description })).toHaveCount(0)
})

test('administration screens have no serious accessibility violations', async ({ page }) => {
  // Eight screens, each checked by axe: over a minute on a loaded two-core machine.
  test.setTimeout(180_000)
  await signIn(page, ADMIN)
  for (const path of ['/sysmanager', '/sysmanager/grupos', '/sysmanager/permisos', '/apikeys', '/sysmanager/apiuser/3', '/profile', '/documentacion', '/soluciones']) {
    await page.goto(path)
    await expect(page.locator('.screen')).toBeVisible()
    await page.waitForLoadState('networkidle')
    await expectAccessible(page)
  }
})

test('a bulk action on every row matching the filter, across pages', async ({ page }) => {
  await signIn(page, ADMIN)
  await page.goto('/sysmanager/permisos')
  // a permission of our own, so the test changes nothing else
  await page.getByRole('button', { name: 'Nuevo permiso' }).click()
  const name = `Prueba masiva ${Date.now()}`
  await textField(page.getByRole('dialog', { name: 'Nuevo permiso' }), 'Nombre').fill(name)
  await page.getByRole('dialog', { name: 'Nuevo permiso' }).getByRole('button', { name: 'Crear permiso' }).click()
  const permRow = page.locator('[data-table="permisos"] tbody tr', { hasText: name })
  await expect(permRow).toBeVisible()

  // every user whose e-mail ends in portal.test, more than one page
  await page.goto('/usuarios/listado?f.Email=portal.test')
  const header = page.locator('[data-table="usuarios"] thead').getByRole('checkbox')
  await header.check()
  await page.getByRole('button', { name: /Seleccionar las \d+ que cumplen el filtro/ }).click()
  await expect(page.getByText(/Seleccionadas las \d+ filas que cumplen el filtro/)).toBeVisible()
  const total = Number((await page.getByText(/Seleccionadas las \d+/).textContent())!.match(/(\d+)/)![1])
  expect(total).toBeGreaterThan(10)
  await page.getByRole('button', { name: 'Dar un permiso' }).click()
  await chooseOption(page, page.getByRole('dialog', { name: 'Dar un permiso' }), 'Permiso', name)
  await page.getByRole('dialog', { name: 'Dar un permiso' }).getByRole('button', { name: 'Dar permiso' }).click()
  await expect(page.locator('.p-toast')).toContainText(`Permiso dado a ${total} usuarios.`)

  await page.goto('/sysmanager/permisos')
  await expect(page.locator('[data-table="permisos"] tbody tr', { hasText: name })).toContainText(String(total))
})
