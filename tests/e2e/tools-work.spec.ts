import { expect, test, type Page } from '@playwright/test'
import { unzipSync } from 'fflate'
import fs from 'node:fs'
import { ADMIN, acceptConfirmation, approveAsSupervisor, chooseOption, clearFaults, expectAccessible, injectFault, numberField, revealApprovedKey, signIn, textField, typeNumber } from './support'

/**
 * The working tools over the reference API: the battery calculator, the file manager, the API
 * Test console, and the remaining explanatory pages.
 */



/** Axe once the toasts are gone: a toast fading out is, for a moment, low-contrast text. */
async function accessible(page: Page) {
  await expect(page.locator('.p-toast-message')).toHaveCount(0, { timeout: 15_000 })
  await expectAccessible(page)
}

async function toast(page: Page, text: string | RegExp) {
  await expect(page.locator('.p-toast-message').filter({ hasText: text }).first()).toBeVisible()
}

test.describe('battery calculator', () => {
  async function fillWorkedExample(page: Page) {
    await typeNumber(numberField(page.locator('body'), 'Consumo anual (kWh)'), '4000')
    await typeNumber(numberField(page.locator('body'), 'Producción fotovoltaica anual (kWh)'), '5000')
    await typeNumber(numberField(page.locator('body'), 'Autoconsumo directo (kWh)'), '1600')
    await typeNumber(numberField(page.locator('body'), 'Precio de la energía comprada (€/kWh)'), '0,16')
    await typeNumber(numberField(page.locator('body'), 'Precio del excedente (€/kWh)'), '0,06')
    await page.getByLabel('Los precios incluyen impuestos').check()
  }

  test('validates in Spanish, then finds the best battery for the worked example and downloads the offer', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto('/productos/baterias')
    await expect(page.getByRole('heading', { level: 1, name: 'Calculadora de baterías' })).toBeVisible()

    // Validation before calling: self-consumption above production.
    await typeNumber(numberField(page.locator('body'), 'Consumo anual (kWh)'), '4000')
    await typeNumber(numberField(page.locator('body'), 'Producción fotovoltaica anual (kWh)'), '1000')
    await typeNumber(numberField(page.locator('body'), 'Autoconsumo directo (kWh)'), '1600')
    await page.getByRole('button', { name: 'Calcular' }).click()
    await expect(page.getByText('El autoconsumo directo no puede superar la producción fotovoltaica.')).toBeVisible()
    await expect(numberField(page.locator('body'), 'Autoconsumo directo (kWh)')).toBeFocused()

    // A savings period fills the prices with its averages.
    const periodField = page.locator('.screen-form__field').filter({ has: page.locator('label', { hasText: 'Periodo de ahorro' }) })
    await periodField.locator('.p-dropdown').click()
    await page.locator('.p-dropdown-panel [role="option"]').first().click()
    await expect(numberField(page.locator('body'), 'Precio de la energía comprada (€/kWh)')).not.toHaveValue('')
    await expect(page.getByText('Precios medios del periodo')).toBeVisible()
    await periodField.locator('.p-dropdown-clear-icon').click()

    await fillWorkedExample(page)
    await page.getByRole('button', { name: 'Calcular' }).click()
    await expect(page.getByRole('heading', { name: 'Resultados' })).toBeFocused()
    await expect(page.getByText('Mejor opción').first()).toBeVisible()

    // domain.md: 5 kWh, η 0.9, f 0.75, 4 000 € → 1 369 kWh charged, 1 232 delivered, 115 €/year, ≈ 35 years.
    const row = page.locator('.battery__table tbody tr').filter({ hasText: 'LUNA2000-5-S0' })
    await expect(row).toContainText('1369 kWh')
    await expect(row).toContainText('1232 kWh')
    await expect(row).toContainText('32 % → 57 %')
    await expect(row).toContainText('40 % → 71 %')
    await expect(row).toContainText(/115\s€/)
    await expect(row).toContainText('35 años')
    // The best battery saves something.
    const best = page.locator('.battery__best')
    await expect(best.locator('dd').first()).not.toContainText('-')

    await expect(page.getByRole('figure', { name: 'Flujos de energía al año' })).toBeVisible()
    await page.getByRole('button', { name: 'Ver datos' }).click()
    await expect(page.locator('.chart-frame__table')).toContainText('Autoconsumo')

    await page.getByRole('radio', { name: 'Elegir Huawei LUNA2000-5-S0' }).check()
    await expect(page.getByText('Batería elegida: Huawei LUNA2000-5-S0')).toBeVisible()

    // The offer needs the client's name.
    await page.getByRole('button', { name: 'Oferta (PDF)' }).click()
    await expect(page.getByText('Indica el nombre del cliente para el documento.')).toBeVisible()
    await textField(page.locator('body'), 'Nombre del cliente').fill('Lucía Ruiz Fernández')
    await textField(page.locator('body'), 'NIF').fill('12345678Z')
    await textField(page.locator('body'), 'Correo electrónico').fill('lucia.ruiz@example.es')
    await textField(page.locator('body'), 'Dirección').fill('Calle Mayor 1, 28013 Madrid')
    const [offer] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Oferta (PDF)' }).click()])
    expect(offer.suggestedFilename()).toMatch(/^oferta-bateria-.*\.pdf$/)
    expect(fs.readFileSync((await offer.path())!).subarray(0, 4).toString('latin1')).toBe('%PDF')
    const [contract] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Contrato (PDF)' }).click()])
    expect(contract.suggestedFilename()).toMatch(/^contrato-bateria-.*\.pdf$/)
    expect(fs.readFileSync((await contract.path())!).subarray(0, 4).toString('latin1')).toBe('%PDF')

    await textField(page.locator('body'), 'Nombre del cálculo').fill('Vivienda Ruiz e2e')
    await page.getByRole('button', { name: 'Guardar cálculo' }).click()
    await toast(page, 'Cálculo «Vivienda Ruiz e2e» guardado.')

    await accessible(page)
  })

  test('a failed calculation shows its message and keeps what was typed', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto('/productos/baterias')
    await fillWorkedExample(page)
    await injectFault(page, { Method: 'POST', Path: '/api/bateria/calculadora', Status: 500 })
    try {
      await page.getByRole('button', { name: 'Calcular' }).click()
      await toast(page, 'No se han podido obtener la mejor bateria.')
      await expect(page.locator('.p-toast-message').first()).toContainText('Baterías')
      await expect(numberField(page.locator('body'), 'Consumo anual (kWh)')).toHaveValue(/^4\.?000$/)
      await expect(numberField(page.locator('body'), 'Autoconsumo directo (kWh)')).toHaveValue(/^1\.?600$/)
      await expect(numberField(page.locator('body'), 'Precio del excedente (€/kWh)')).toHaveValue('0,06')
      await expect(page.getByRole('heading', { name: 'Resultados' })).toHaveCount(0)
    } finally {
      await clearFaults(page)
    }
    // Once the API answers again, the same inputs work.
    await page.getByRole('button', { name: 'Calcular' }).click()
    await expect(page.getByRole('heading', { name: 'Resultados' })).toBeVisible()
  })
})

test.describe('file manager', () => {
  test('create, upload (pick and drop), move, zip, rename and delete', async ({ page }) => {
    const stamp = Date.now()
    const folderName = `E2E carpeta ${stamp}`
    const renamed = `E2E renombrada ${stamp}`
    const fileA = { name: `e2e-a-${stamp}.txt`, body: Buffer.from(`Primer archivo ${stamp}\nañadido por la prueba e2e\n`, 'utf8') }
    const fileB = { name: `e2e-b-${stamp}.csv`, body: Buffer.from(`Tarifa;Precio\n2.0TD;0,1534\n3.0TD;0,1289\n${stamp}\n`, 'utf8') }

    await signIn(page, ADMIN)
    await page.goto('/utilidades/site')
    await expect(page.getByRole('heading', { level: 1, name: 'Archivos' })).toBeVisible()
    const table = page.getByTestId('files-table')
    await expect(table.locator('caption')).toContainText('Contenido de «Archivos»')
    await expect(page.getByRole('tree', { name: 'Árbol de carpetas' })).toBeVisible()
    await accessible(page)

    // Create a folder at the root.
    await page.getByRole('button', { name: 'Nueva carpeta' }).click()
    const create = page.getByRole('dialog', { name: 'Nueva carpeta en «Archivos»' })
    await create.getByLabel('Nombre de la carpeta').fill('mal/nombre')
    await create.getByRole('button', { name: 'Crear' }).click()
    await expect(create.getByText('El nombre no puede contener')).toBeVisible()
    await create.getByLabel('Nombre de la carpeta').fill(folderName)
    await create.getByRole('button', { name: 'Crear' }).click()
    await toast(page, `Carpeta «${folderName}» creada.`)
    await expect(table.getByRole('button', { name: folderName, exact: true })).toBeVisible()

    // Upload one file by picking it…
    await page.getByTestId('files-upload-input').setInputFiles({ name: fileA.name, mimeType: 'text/plain', buffer: fileA.body })
    await toast(page, 'Archivo subido a «Archivos».')
    await expect(table.getByRole('button', { name: fileA.name, exact: true })).toBeVisible()
    // …and one by dropping it on the list.
    const dataTransfer = await page.evaluateHandle(
      ({ name, text }) => {
        const dt = new DataTransfer()
        dt.items.add(new File([text], name, { type: 'text/csv' }))
        return dt
      },
      { name: fileB.name, text: fileB.body.toString('utf8') },
    )
    const zone = page.getByTestId('files-drop-zone')
    await zone.dispatchEvent('dragenter', { dataTransfer })
    await zone.dispatchEvent('dragover', { dataTransfer })
    await zone.dispatchEvent('drop', { dataTransfer })
    await expect(table.getByRole('button', { name: fileB.name, exact: true })).toBeVisible()

    // A type the area does not take is refused before sending.
    await page.getByTestId('files-upload-input').setInputFiles({ name: 'programa.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') })
    await expect(page.getByRole('alert').filter({ hasText: 'Tipo de archivo no admitido: «programa.exe»' })).toBeVisible()
    await page.getByRole('button', { name: 'Cerrar el aviso' }).click()

    // Move the first file into the new folder.
    await page.getByRole('button', { name: `Mover ${fileA.name}` }).click()
    const moveDialog = page.getByRole('dialog', { name: 'Mover 1 archivo' })
    await moveDialog.getByRole('treeitem', { name: folderName }).locator('.p-treenode-content').first().click()
    await moveDialog.getByRole('button', { name: 'Mover aquí' }).click()
    await toast(page, `1 archivo movido a «${folderName}».`)
    await expect(table.getByRole('button', { name: fileA.name, exact: true })).toHaveCount(0)

    // Open the folder from the tree: the file is there, and the breadcrumb leads back.
    await page.getByRole('tree', { name: 'Árbol de carpetas' }).getByRole('treeitem', { name: folderName }).locator('.p-treenode-content').first().click()
    await expect(page).toHaveURL(/carpeta=\d+/)
    await expect(table.locator('caption')).toContainText(`Contenido de «${folderName}»`)
    await expect(table.getByRole('button', { name: fileA.name, exact: true })).toBeVisible()
    await page.getByRole('navigation', { name: 'Ruta de la carpeta' }).getByRole('button', { name: 'Archivos' }).click()
    await expect(table.locator('caption')).toContainText('Contenido de «Archivos»')

    // Select the folder and the other file, download both as one zip, compare the bytes.
    await table.getByRole('checkbox', { name: `Seleccionar la carpeta ${folderName}` }).check()
    await table.getByRole('checkbox', { name: `Seleccionar ${fileB.name}` }).check()
    await expect(page.getByText('1 archivo y 1 carpeta seleccionados')).toBeVisible()
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar (zip)' }).click()])
    expect(zip.suggestedFilename()).toMatch(/\.zip$/)
    const entries = unzipSync(new Uint8Array(fs.readFileSync((await zip.path())!)))
    const names = Object.keys(entries)
    const entryA = names.find((n) => n.endsWith(`${folderName}/${fileA.name}`))
    const entryB = names.find((n) => n.endsWith(fileB.name))
    expect(entryA, names.join(', ')).toBeTruthy()
    expect(entryB, names.join(', ')).toBeTruthy()
    expect(Buffer.from(entries[entryA!]!).equals(fileA.body)).toBe(true)
    expect(Buffer.from(entries[entryB!]!).equals(fileB.body)).toBe(true)
    await page.getByRole('button', { name: 'Quitar selección' }).click()

    // Download one file.
    const [single] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Descargar ${fileB.name}` }).click()])
    expect(single.suggestedFilename()).toBe(fileB.name)
    expect(fs.readFileSync((await single.path())!).equals(fileB.body)).toBe(true)

    // A failed rename shows the spec's message and keeps the dialog open.
    await injectFault(page, { Method: 'PUT', Path: '/api/rename-folder', Status: 500 })
    try {
      await page.getByRole('button', { name: `Renombrar ${folderName}` }).click()
      const renameDialog = page.getByRole('dialog', { name: `Renombrar «${folderName}»` })
      await renameDialog.getByLabel('Nombre de la carpeta').fill(renamed)
      await renameDialog.getByRole('button', { name: 'Renombrar' }).click()
      await toast(page, 'No se ha podido renombrar la carpeta.')
      await expect(renameDialog).toBeVisible()
    } finally {
      await clearFaults(page)
    }
    const renameDialog = page.getByRole('dialog', { name: `Renombrar «${folderName}»` })
    await renameDialog.getByRole('button', { name: 'Renombrar' }).click()
    await toast(page, `Carpeta renombrada a «${renamed}».`)
    await expect(table.getByRole('button', { name: renamed, exact: true })).toBeVisible()
    await expect(page.getByRole('tree', { name: 'Árbol de carpetas' }).getByRole('treeitem', { name: renamed })).toBeVisible()

    await accessible(page)

    // Delete everything created: the folder (with the moved file) and the dropped file.
    await table.getByRole('checkbox', { name: `Seleccionar la carpeta ${renamed}` }).check()
    await table.getByRole('checkbox', { name: `Seleccionar ${fileB.name}` }).check()
    await page.getByRole('button', { name: 'Eliminar', exact: true }).click()
    await acceptConfirmation(page)
    await toast(page, 'Eliminado: 2 archivos y 1 carpeta.')
    await expect(table.getByRole('button', { name: renamed, exact: true })).toHaveCount(0)
    await expect(table.getByRole('button', { name: fileB.name, exact: true })).toHaveCount(0)
  })

  test('a failure loading the folders shows the spec message', async ({ page }) => {
    await signIn(page, ADMIN)
    await injectFault(page, { Method: 'GET', Path: '/api/folders', Status: 500, Times: 2 })
    try {
      await page.goto('/utilidades/site')
      await toast(page, 'No se han podido obtener los datos de carpetas')
    } finally {
      await clearFaults(page)
    }
    await page.getByRole('button', { name: 'Reintentar' }).click()
    await expect(page.getByRole('tree', { name: 'Árbol de carpetas' })).toBeVisible()
  })
})

test.describe('API Test console', () => {
  test('tries the public API with a freshly generated key', async ({ page, context, browser }) => {
    // Generating a key needs a second person's approval (four-eyes): three steps more.
    test.setTimeout(120_000)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signIn(page, ADMIN)
    await page.goto('/apikeys')
    await page.getByRole('button', { name: 'Generar clave' }).click()
    const dialog = page.getByRole('dialog', { name: 'Generar clave' })
    await chooseOption(page, dialog, 'Usuario de API', 'Comparador web TarifaClara')
    const description = `API Test e2e ${Date.now()}`
    await textField(dialog, 'Descripción').fill(description)
    await dialog.getByRole('button', { name: 'Generar' }).click()
    await approveAsSupervisor(browser, description)
    await revealApprovedKey(page, description)
    const reveal = page.getByRole('dialog', { name: 'Nueva clave de API' })
    const key = ((await reveal.getByTestId('revealed-value').textContent()) ?? '').trim()
    expect(key).toMatch(/^pk_[0-9a-f]{16}\./)
    await reveal.getByRole('button', { name: 'Hecho' }).click()

    await page.goto('/sysmanager/apitest')
    await expect(page.getByRole('heading', { level: 1, name: 'API Test' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Claves de API' })).toHaveAttribute('href', '/apikeys')
    // Only the public id is not enough.
    await page.getByLabel('Clave de API completa').fill(key.split('.')[0]!)
    await page.getByRole('button', { name: 'Conectar' }).click()
    await expect(page.getByText('Esta es solo la parte pública')).toBeVisible()
    await page.getByLabel('Clave de API completa').fill(key)
    await page.getByRole('button', { name: 'Conectar' }).click()
    await expect(page.getByText('Comparador web TarifaClara').first()).toBeVisible()
    await expect(page.locator('.apitest__identity')).toContainText('APISIPS')

    const pick = async (label: string) => {
      await page.locator('#apitest-entry').locator('xpath=ancestor::div[contains(@class,"p-dropdown")]').click()
      await page.locator('.p-dropdown-panel').getByRole('option', { name: label, exact: true }).click()
    }
    const status = page.getByTestId('apitest-status')
    const body = page.getByTestId('apitest-body')

    await pick('GET /api/public/v1/me')
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(status).toHaveText('200')
    await expect(body).toContainText('"Nombre": "Comparador web TarifaClara"')
    await expect(page.getByTestId('apitest-time')).toHaveText(/^\d+ ms$/)
    await expect(page.locator('.apitest__headers')).toContainText('content-type')

    // A permission the key has: the SIPS lookup with the catalogue's example CUPS.
    await pick('GET /api/public/v1/sips')
    await expect(page.getByRole('textbox', { name: /^cups/ })).not.toHaveValue('')
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(status).toHaveText('200')
    await expect(body).toContainText('"Cups"')

    // One it lacks: 403 with the API's text.
    await pick('GET /api/public/v1/contratos')
    await expect(page.getByText('la clave no lo tiene: la respuesta será 403')).toBeVisible()
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(status).toHaveText('403')
    await expect(body).toContainText('La clave no tiene el permiso APICONTRATOSLECTURA.')

    // A required path parameter is asked for before sending.
    await pick('GET /api/public/v1/contratos/{codigo}')
    await page.getByRole('textbox', { name: /^codigo/ }).fill('')
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(page.getByText('«codigo» es obligatorio.')).toBeVisible()

    const history = page.locator('.apitest__history-table tbody tr')
    await expect(history).toHaveCount(3)
    await expect(history.first()).toContainText('403')
    await history.nth(2).getByRole('button', { name: /^Ver la respuesta/ }).click()
    await expect(status).toHaveText('200')

    await accessible(page)
  })
})

test.describe('remaining pages', () => {
  for (const [path, heading] of [
    ['/otros/Landing', 'El portal, equipo por equipo'],
    ['/otros/Empty', 'Página vacía: cómo se describe una pantalla'],
    ['/auth/Error', 'Página de error'],
    ['/auth/Access', 'Acceso denegado'],
  ] as const) {
    test(`${path} opens with real content and is accessible`, async ({ page }) => {
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      await signIn(page, ADMIN)
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expect(page.locator('.screen-error-box')).toHaveCount(0)
      await expect(page.locator('.markdown-body').first()).toBeVisible()
      await accessible(page)
      expect(errors).toEqual([])
    })
  }

  test('the error pages preview the real error view', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto('/auth/Error')
    const preview = page.locator('.error-preview__frame')
    await expect(preview).toContainText('404')
    await expect(preview).toContainText('Page Not Found')
    await page.getByRole('button', { name: '500 · error del servidor' }).click()
    await expect(preview).toContainText('Internal Server Error')
    await expect(page.getByRole('button', { name: '500 · error del servidor' })).toHaveAttribute('aria-pressed', 'true')

    await page.goto('/auth/Access')
    await expect(page.locator('.error-preview__frame')).toContainText('Acceso no autorizado')
    await expect(page.locator('.screen-detail')).toContainText('GESTORACCESS')
    await page.goto('/otros/Landing')
    await expect(page.getByRole('link', { name: /Baterías/ })).toHaveAttribute('href', '/productos/baterias')
  })
})

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' })

  test('the tools keep their contrast in dark mode', async ({ page }) => {
    await signIn(page, ADMIN)
    await page.goto('/productos/baterias')
    const body = page.locator('body')
    await typeNumber(numberField(body, 'Consumo anual (kWh)'), '4000')
    await typeNumber(numberField(body, 'Producción fotovoltaica anual (kWh)'), '5000')
    await typeNumber(numberField(body, 'Autoconsumo directo (kWh)'), '1600')
    await typeNumber(numberField(body, 'Precio de la energía comprada (€/kWh)'), '0,16')
    await typeNumber(numberField(body, 'Precio del excedente (€/kWh)'), '0')
    await page.getByRole('button', { name: 'Calcular' }).click()
    await expect(page.getByRole('heading', { name: 'Resultados' })).toBeVisible()
    await accessible(page)

    await page.goto('/utilidades/site')
    await expect(page.getByTestId('files-table')).toBeVisible()
    await accessible(page)

    await page.goto('/auth/Access')
    await expect(page.locator('.error-preview__frame')).toBeVisible()
    await accessible(page)
  })
})
