import { expect, test, type Page } from '@playwright/test'
import fs from 'node:fs'
import { validCups, validDni } from './ids'
import { pdfText } from '../helpers/pdf-text'
import { acceptConfirmation, ADMIN, chooseOption, clearFaults, discardDraft, draftSaved, expectAccessible, injectFault, numberField, signIn, textField, typeNumber } from './support'

const wizard = (page: Page) => page.getByRole('form', { name: 'Alta de contrato' })
const next = (page: Page) => wizard(page).getByRole('button', { name: 'Siguiente' }).click()
const toast = (page: Page) => page.locator('.p-toast')

/**
 * Asks the reference API (through the BFF, as the signed-in user) to fail a call. A GET is
 * retried once by the client (spec §9), so by default it fails twice.
 */
function failCall(page: Page, method: string, path: string, status = 500, times = method === 'GET' ? 2 : 1) {
  return injectFault(page, { Method: method, Path: path, Status: status, Times: times })
}

async function fillHolder(page: Page, nif: string) {
  const form = wizard(page)
  await textField(form, 'NIF / NIE / CIF').fill(nif)
  await textField(form, 'Nombre').fill('Lucía')
  await textField(form, 'Primer apellido').fill('Fernández')
  await textField(form, 'Segundo apellido').fill('Ruiz')
  await textField(form, 'Correo electrónico').fill('lucia.fernandez@example.es')
  await textField(form, 'Teléfono').fill('612345678')
  await textField(form, 'Dirección del titular').fill('Calle Mayor 1, 2º B')
  await textField(form, 'Código postal').fill('28013')
  await textField(form, 'Municipio').fill('Madrid')
  await chooseOption(page, form, 'Provincia', 'Madrid')
}

/** From the supply-point step to the review: valid CUPS and IBAN, a Madrid address, powers, consumption and commercial data. */
async function fillSupplyToReview(page: Page, data: { cups: string; address: string; power: string; consumption: string; iban: string }) {
  const form = wizard(page)
  await textField(form, 'CUPS').fill(data.cups)
  await expect(form.locator('[data-field="PuntoSuministro.Cups"]').getByText('Correcto')).toBeVisible()
  await textField(form, 'Dirección del suministro').fill(data.address)
  await textField(form, 'Código postal').fill('28013')
  await textField(form, 'Municipio').fill('Madrid')
  await chooseOption(page, form, 'Provincia', 'Madrid')
  await next(page)
  await typeNumber(numberField(form, 'Potencia P1 (kW)'), data.power)
  await typeNumber(numberField(form, 'Potencia P2 (kW)'), data.power)
  await typeNumber(numberField(form, 'Consumo anual estimado (kWh)'), data.consumption)
  await next(page)
  await chooseOption(page, form, 'Tipo de comisión', 'Importe fijo por contrato')
  await chooseOption(page, form, 'Colectivo', 'Residencial')
  await chooseOption(page, form, 'Agente', 'AGEV-0017')
  await next(page)
  await textField(form, 'IBAN de domiciliación').fill(data.iban)
  await expect(form.locator('[data-field="Iban"]').getByText('Correcto')).toBeVisible()
  await next(page)
}

/** Creates a contract through the wizard and returns its code (the detail is open). */
async function createContract(page: Page): Promise<string> {
  await page.goto('/soluciones/contratos/alta')
  await fillHolder(page, validDni())
  await next(page)
  await fillSupplyToReview(page, { cups: validCups(), address: 'Calle Mayor 1, 2º B', power: '4,6', consumption: '3200', iban: 'ES9121000418450200051332' })
  await wizard(page).getByRole('button', { name: 'Crear contrato' }).click()
  await expect(page).toHaveURL(/\/soluciones\/contratos\/EV-\d{4}-\d{6}$/)
  return page.url().split('/').pop()!
}

test.describe('contracts', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN)
    // The BFF keeps the user's sign-up draft across tests: each starts without one.
    await discardDraft(page, 'contrato-alta')
  })

  test('sign-up: wrong NIF, CUPS and IBAN show their errors, corrected the contract is created; the draft survives a reload', async ({ page }) => {
    await page.goto('/soluciones/contratos/alta')
    const form = wizard(page)
    await expect(form.getByRole('heading', { name: 'Paso 1 de 6: Titular' })).toBeVisible()
    // a wrong DNI letter is caught as it is typed
    await textField(form, 'NIF / NIE / CIF').fill('12345678A')
    await expect(form.getByText('La letra del DNI no es correcta (debería ser Z).')).toBeVisible()
    // the step cannot be left while it is wrong
    const nif = validDni()
    await fillHolder(page, '12345678A')
    await next(page)
    await expect(form.getByRole('heading', { name: 'Paso 1 de 6: Titular' })).toBeVisible()
    const saved = draftSaved(page, 'contrato-alta', nif)
    await textField(form, 'NIF / NIE / CIF').fill(nif)
    await expect(form.locator('[data-field="Cliente.Nif"]').getByText('Correcto')).toBeVisible()

    // what was typed survives a reload (kept by the BFF once typing pauses)
    await saved
    await page.reload()
    await expect(page.getByText(/Se ha recuperado un borrador guardado el/)).toBeVisible()
    await expect(textField(wizard(page), 'NIF / NIE / CIF')).toHaveValue(nif)
    await expect(textField(wizard(page), 'Municipio')).toHaveValue('Madrid')
    await next(page)

    await textField(form, 'CUPS').fill('ES0021000000000001RA')
    await expect(form.getByText('Las letras de control del CUPS no son correctas (deberían ser RK).')).toBeVisible()
    const cups = validCups()
    await textField(form, 'CUPS').fill(cups.toLowerCase().replace(/(.{4})/g, '$1 '))
    await expect(form.locator('[data-field="PuntoSuministro.Cups"]').getByText('Correcto')).toBeVisible()
    await expect(textField(form, 'CUPS')).toHaveValue(cups) // normalised as the validator answers
    await textField(form, 'Dirección del suministro').fill('Calle Mayor 1, 2º B')
    await textField(form, 'Código postal').fill('28013')
    await textField(form, 'Municipio').fill('Madrid')
    await chooseOption(page, form, 'Provincia', 'Madrid')
    await next(page)

    // tariff and powers, with the fixed-price offer for the chosen tariff
    await expect(page.getByText('Precios vigentes de la oferta a precio fijo')).toBeVisible()
    await typeNumber(numberField(form, 'Potencia P1 (kW)'), '4,6')
    await typeNumber(numberField(form, 'Potencia P2 (kW)'), '4,6')
    await typeNumber(numberField(form, 'Consumo anual estimado (kWh)'), '3200')
    await next(page)
    await chooseOption(page, form, 'Tipo de comisión', 'Importe fijo por contrato')
    await chooseOption(page, form, 'Colectivo', 'Residencial')
    await chooseOption(page, form, 'Agente', 'AGEV-0017')
    await next(page)

    await textField(form, 'IBAN de domiciliación').fill('ES91 2100 0418 4502 0005 1331')
    await expect(form.getByText('Los dígitos de control del IBAN no son correctos.')).toBeVisible()
    await textField(form, 'IBAN de domiciliación').fill('ES91 2100 0418 4502 0005 1332')
    await expect(textField(form, 'IBAN de domiciliación')).toHaveValue('ES9121000418450200051332')
    await expect(form.locator('[data-field="Iban"]').getByText('Correcto')).toBeVisible()
    await next(page)

    // review lists the answers, with option labels
    await expect(form.getByRole('heading', { name: 'Paso 6 de 6: Revisión' })).toBeVisible()
    await expect(form).toContainText(nif)
    await expect(form).toContainText(cups)
    await expect(form).toContainText('Persona física')
    await expect(form).toContainText('2.0TD — Baja tensión hasta 15 kW')
    await expectAccessible(page)
    await form.getByRole('button', { name: 'Crear contrato' }).click()

    await expect(page).toHaveURL(/\/soluciones\/contratos\/EV-\d{4}-\d{6}$/)
    const code = page.url().split('/').pop()!
    await expect(toast(page)).toContainText(`Contrato ${code} creado.`)
    const detail = page.locator('.screen-detail').first()
    await expect(detail).toContainText('Lucía Fernández Ruiz')
    await expect(detail).toContainText('Borrador')
    await expect(detail).toContainText(cups)
    // the draft is gone once the contract exists
    await page.goto('/soluciones/contratos/alta')
    await expect(page.getByText(/Se ha recuperado un borrador guardado el/)).toHaveCount(0)
  })

  test('an existing client is found by NIF and pre-fills the holder', async ({ page }) => {
    // a seeded contract gives a real client
    const res = await page.request.get('/api/contract?pageSize=1&filterColumns[0]=TipoTitular&filterQueries[0]=fisica')
    const { Items } = await res.json()
    // Lists carry the NIF masked (issue 16): the admin reveals it, with a reason, to type it.
    const revealed = await page.request.post('/bff/personal/reveal', { headers: { 'X-CSRF': '1' }, data: { call: 'contract.detail', record: Items[0].CodigoContrato, field: 'Nif', reason: 'Alta de un cliente existente (prueba)' } })
    const nif = ((await revealed.json()) as { value: string }).value
    await page.goto('/soluciones/contratos/alta')
    await textField(wizard(page), 'NIF / NIE / CIF').fill(nif)
    await expect(wizard(page).getByText(/Cliente existente:/)).toBeVisible()
    await expect(textField(wizard(page), 'Primer apellido')).not.toHaveValue('')
    await expect(textField(wizard(page), 'Correo electrónico')).not.toHaveValue('')
  })

  test('documents, signature, refused action, history and print on a new contract', async ({ page }) => {
    const code = await createContract(page)

    // upload two documents
    await page.getByRole('tab', { name: 'Documentos' }).click()
    await page.getByRole('button', { name: 'Subir documentos' }).click()
    const dialog = page.getByRole('dialog', { name: 'Subir documentos' })
    await chooseOption(page, dialog, 'Tipo de documento', 'Documento de identidad')
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% documento de prueba\n'), Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251))])
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)])
    await dialog.locator('input[type="file"]').setInputFiles([
      { name: 'dni-anverso.pdf', mimeType: 'application/pdf', buffer: pdf },
      { name: 'dni-reverso.png', mimeType: 'image/png', buffer: png },
    ])
    await expect(dialog).toContainText('dni-anverso.pdf')
    await dialog.getByRole('button', { name: 'Subir' }).click()
    await expect(toast(page)).toContainText('Documentos subidos.')
    const docs = page.locator('[data-table="documentos"] tbody tr')
    await expect(docs).toHaveCount(2)

    // download one: byte-identical
    const download = page.waitForEvent('download')
    await docs.filter({ hasText: 'dni-anverso.pdf' }).getByRole('button', { name: 'Descargar' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('dni-anverso.pdf')
    expect(Buffer.compare(fs.readFileSync((await file.path())!), pdf)).toBe(0)

    // send to electronic signature: state and history change
    await page.getByRole('button', { name: 'Enviar a firma electrónica' }).click()
    await acceptConfirmation(page)
    await expect(toast(page)).toContainText(`Contrato ${code} enviado a firma electrónica.`)
    await expect(page.locator('.screen-detail').first()).toContainText('Pendiente de firma')
    await page.getByRole('tab', { name: 'Historial' }).click()
    await expect(page.locator('[data-table="historial"]')).toContainText('envio_firma')
    await expect(page.locator('[data-table="historial"]')).toContainText('pendiente_firma')

    // an action the new state does not allow is refused with the server's message, nothing changes
    await page.getByRole('button', { name: 'Enviar a la distribuidora' }).click()
    await acceptConfirmation(page)
    await expect(toast(page).locator('.p-toast-message-error')).toContainText(/firmado/i)
    await expect(page.locator('.screen-detail').first()).toContainText('Pendiente de firma')

    // print: a PDF holding the contract code
    const printed = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Imprimir' }).click()
    const pdfFile = await printed
    const bytes = fs.readFileSync((await pdfFile.path())!)
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
    expect(pdfText(bytes)).toContain(code)
    await expectAccessible(page)
  })

  test('an unknown reference shows the 404 page', async ({ page }) => {
    await page.goto('/soluciones/contratos/EV-2099-999999')
    await expect(page.getByRole('heading', { name: 'Page Not Found: /soluciones/contratos/EV-2099-999999' })).toBeVisible()
    await page.goto('/soluciones/contratos/alta?duplicar=EV-2099-999999')
    await expect(page.getByRole('heading', { name: /Page Not Found: \/soluciones\/contratos\/alta/ })).toBeVisible()
  })

  test('duplicating a contract pre-fills the sign-up', async ({ page }) => {
    // A contract in force: its CUPS is then taken, which the copied supply step must say. (The
    // first 3.0TD one of a person is not always in force: the demo data's history follows the date.)
    const res = await page.request.get('/api/contract?pageSize=1&filterColumns[0]=Tarifa&filterQueries[0]=3.0TD&filterColumns[1]=TipoTitular&filterQueries[1]=fisica&filterColumns[2]=Estado&filterQueries[2]=activo')
    const { Items } = await res.json()
    const source = Items[0]
    await page.goto(`/soluciones/contratos/alta?duplicar=${source.CodigoContrato}`)
    // The holder's NIF arrives masked (personal data): a mask cannot be copied, so the field
    // starts empty and the form names it; the rest of the contract is copied.
    expect(source.Nif).toMatch(/^\*+/)
    await expect(textField(wizard(page), 'NIF / NIE / CIF')).toHaveValue('')
    const uncopied = wizard(page).locator('.form-uncopied')
    for (const label of ['NIF / NIE / CIF', 'Correo electrónico', 'Dirección del titular', 'Dirección del suministro']) await expect(uncopied).toContainText(label)
    await textField(wizard(page), 'NIF / NIE / CIF').fill('12345678Z')
    await textField(wizard(page), 'Correo electrónico').fill('titular.duplicado@correo.es')
    await textField(wizard(page), 'Dirección del titular').fill('Calle Mayor 12')
    await next(page)
    await expect(textField(wizard(page), 'CUPS')).toHaveValue(source.Cups)
    // The field's own warning (role status), not the step's description, which mentions it too.
    await expect(wizard(page).getByRole('status').filter({ hasText: /Este CUPS ya tiene un contrato en vigor EV-\d{4}-\d{6}\./ })).toBeVisible()
  })
})

test.describe('injected failures show their spec message and lose nothing', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN)
    await discardDraft(page, 'contrato-alta')
  })
  test.afterEach(async ({ page }) => {
    await clearFaults(page)
  })

  test('contract data, penalty, signature, state change, upload, download', async ({ page }) => {
    const list = await (await page.request.get('/api/contract?pageSize=1&filterColumns[0]=Estado&filterQueries[0]=borrador')).json()
    const code = list.Items[0].CodigoContrato as string

    // the contract's data (the route check and the detail both fail)
    await failCall(page, 'GET', '/api/contract/id')
    await page.goto(`/soluciones/contratos/${code}`)
    await expect(toast(page)).toContainText('No se han podido obtener los datos del contrato.')
    await clearFaults(page)
    await page.getByRole('button', { name: 'Reintentar' }).click()
    await expect(page.locator('.screen-detail').first()).toContainText(code)

    // penalty data
    await failCall(page, 'GET', '/api/contract/penalizacion')
    await page.getByRole('tab', { name: 'Penalización' }).click()
    await expect(toast(page)).toContainText('No se pudieron obtener los datos de penalización.')

    // electronic signature
    await failCall(page, 'PUT', '/api/contract/update/situacion-firma')
    await page.getByRole('button', { name: 'Enviar a firma electrónica' }).click()
    await acceptConfirmation(page)
    await expect(toast(page)).toContainText('No se han podido enviar a firma electrónica.')
    await expect(page.locator('.screen-detail').first()).toContainText('Borrador')

    // state change, on a signed contract
    const signed = await (await page.request.get('/api/contract?pageSize=1&filterColumns[0]=Estado&filterQueries[0]=firmado')).json()
    const signedCode = signed.Items[0].CodigoContrato as string
    await page.goto(`/soluciones/contratos/${signedCode}`)
    await failCall(page, 'PUT', '/api/contract/update/situacion')
    await page.getByRole('button', { name: 'Enviar a la distribuidora' }).click()
    await acceptConfirmation(page)
    await expect(toast(page)).toContainText('No se han podido cambiar la situacion del contrato.')
    await expect(page.locator('.screen-detail').first()).toContainText('Firmado')
    await page.goto(`/soluciones/contratos/${code}`)

    // upload: the chosen files stay in the dialog
    await page.getByRole('tab', { name: 'Documentos' }).click()
    await failCall(page, 'POST', '/api/contract/insert-documents', 503)
    await page.getByRole('button', { name: 'Subir documentos' }).click()
    const dialog = page.getByRole('dialog', { name: 'Subir documentos' })
    await dialog.locator('input[type="file"]').setInputFiles([{ name: 'factura.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\nx') }])
    await dialog.getByRole('button', { name: 'Subir' }).click()
    await expect(toast(page)).toContainText('No se han podido subir los documentos.')
    await expect(dialog).toContainText('factura.pdf')
    await dialog.getByRole('button', { name: 'Subir' }).click()
    await expect(page.locator('[data-table="documentos"] tbody tr')).toContainText(['factura.pdf'])

    // download
    await failCall(page, 'GET', '/api/contract/documento')
    await page.locator('[data-table="documentos"] tbody tr').first().getByRole('button', { name: 'Descargar' }).click()
    await expect(toast(page)).toContainText('No se ha podido descargar el archivo.')
  })

  test('sign-up: a failed client lookup and a failed submit keep everything typed', async ({ page }) => {
    await failCall(page, 'GET', '/api/client')
    await page.goto('/soluciones/contratos/alta')
    const nif = validDni()
    // The lookup fails as soon as the NIF is typed; its toast lives 3 s (spec), less than typing
    // the rest of the holder can take on a loaded machine, so it is watched for from the start.
    const lookupFailed = expect(toast(page)).toContainText('No se han podido obtener los datos del cliente.', { timeout: 30_000 })
    lookupFailed.catch(() => {}) // awaited below; this only keeps an early failure from going unhandled meanwhile
    await fillHolder(page, nif)
    await lookupFailed
    await expect(textField(wizard(page), 'Primer apellido')).toHaveValue('Fernández')

    // on to the review, then the creation fails: everything stays, on screen and after a reload
    const form = wizard(page)
    await next(page)
    const cups = validCups()
    await fillSupplyToReview(page, { cups, address: 'Calle Mayor 1', power: '3,45', consumption: '2500', iban: 'ES7921000813610123456789' })
    await failCall(page, 'POST', '/api/contract/insert', 503)
    await form.getByRole('button', { name: 'Crear contrato' }).click()
    await expect(toast(page)).toContainText('Ha ocurrido un error en la solicitud.')
    await expect(page).toHaveURL(/\/soluciones\/contratos\/alta$/)
    await expect(form).toContainText(nif)
    await expect(form).toContainText(cups)
    await page.reload()
    await expect(page.getByText(/Se ha recuperado un borrador guardado el/)).toBeVisible()
    await expect(textField(wizard(page), 'NIF / NIE / CIF')).toHaveValue(nif)
    // and once the service answers again, the same data creates the contract
    for (let i = 0; i < 5; i++) await next(page)
    await wizard(page).getByRole('button', { name: 'Crear contrato' }).click()
    await expect(page).toHaveURL(/\/soluciones\/contratos\/EV-\d{4}-\d{6}$/)
  })
})
