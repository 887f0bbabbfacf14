import { expect, test, type Page } from '@playwright/test'
import { randomDigits, validCups, validDni } from './ids'
import { AGENTE, chooseOption, discardDraft, draftSaved, numberField, signIn, textField, typeNumber } from './support'

/**
 * Form drafts are kept by the BFF, per user: nothing personal is left in the browser's storage,
 * not while typing and not after signing out, and another browser of the same user finds the
 * draft. The agent's account is used so the contracts suite, signed in as the admin on the
 * other worker, never shares this draft.
 */
const KEY = 'contrato-alta'
const NOTICE = /Se ha recuperado un borrador guardado el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/
const wizard = (page: Page) => page.getByRole('form', { name: 'Alta de contrato' })
const next = (page: Page) => wizard(page).getByRole('button', { name: 'Siguiente' }).click()

/** Every key and value of localStorage and sessionStorage, as the page sees them. */
function browserStorage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const all: string[] = []
    for (const storage of [window.localStorage, window.sessionStorage]) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i) ?? ''
        all.push(key, storage.getItem(key) ?? '')
      }
    }
    return all
  })
}

async function expectNothingPersonalStored(page: Page, typed: string[]): Promise<void> {
  const stored = (await browserStorage(page)).join('\n')
  // the values as typed, and as a grouped IBAN or a phone without its spaces might be kept
  for (const value of typed) expect(stored, `«${value}» is in the browser's storage`).not.toContain(value)
  expect(stored).not.toMatch(/portal\.draft/)
}

test.describe('form drafts', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, AGENTE)
    await discardDraft(page, KEY)
  })

  test('are kept by the BFF, not the browser: nothing typed is stored there, before or after sign-out; another browser finds the draft', async ({ page, browser }) => {
    const nif = validDni()
    const phone = `6${randomDigits(8)}`
    const iban = 'ES9121000418450200051332'
    const email = `cliente.${randomDigits(6)}@example.es`
    const address = `Calle del Borrador ${randomDigits(3)}`
    const cups = validCups()
    const typed = [nif, phone, iban, email, address, cups]

    await page.goto('/soluciones/contratos/alta')
    const form = wizard(page)
    await expect(form.getByRole('heading', { name: 'Paso 1 de 6: Titular' })).toBeVisible()
    await textField(form, 'NIF / NIE / CIF').fill(nif)
    await textField(form, 'Nombre').fill('Lucía')
    await textField(form, 'Primer apellido').fill('Fernández')
    await textField(form, 'Correo electrónico').fill(email)
    await textField(form, 'Teléfono').fill(phone)
    await textField(form, 'Dirección del titular').fill(address)
    await textField(form, 'Código postal').fill('28013')
    await textField(form, 'Municipio').fill('Madrid')
    await chooseOption(page, form, 'Provincia', 'Madrid')
    await next(page)
    await textField(form, 'CUPS').fill(cups)
    await expect(form.locator('[data-field="PuntoSuministro.Cups"]').getByText('Correcto')).toBeVisible()
    await textField(form, 'Dirección del suministro').fill(address)
    await textField(form, 'Código postal').fill('28013')
    await textField(form, 'Municipio').fill('Madrid')
    await chooseOption(page, form, 'Provincia', 'Madrid')
    await next(page)
    await typeNumber(numberField(form, 'Potencia P1 (kW)'), '4,6')
    await typeNumber(numberField(form, 'Potencia P2 (kW)'), '4,6')
    await typeNumber(numberField(form, 'Consumo anual estimado (kWh)'), '3200')
    await next(page)
    await chooseOption(page, form, 'Tipo de comisión', 'Importe fijo por contrato')
    await chooseOption(page, form, 'Colectivo', 'Residencial')
    await next(page)
    const saved = draftSaved(page, KEY, nif, phone, iban)
    await textField(form, 'IBAN de domiciliación').fill(iban)
    await expect(form.locator('[data-field="Iban"]').getByText('Correcto')).toBeVisible()

    // once the draft is on the server, the browser's storage holds none of it
    await saved
    await expectNothingPersonalStored(page, typed)

    // signed out, still nothing
    await page.getByRole('button', { name: /Menú de usuario/ }).click()
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click()
    await expect(page).toHaveURL(/\/auth\/login/)
    await expectNothingPersonalStored(page, typed)

    // another browser (nothing shared with this one) signs in and finds the draft
    const other = await browser.newContext({ baseURL: test.info().project.use.baseURL })
    try {
      const elsewhere = await other.newPage()
      await signIn(elsewhere, AGENTE)
      await elsewhere.goto('/soluciones/contratos/alta')
      await expect(elsewhere.getByText(NOTICE)).toBeVisible()
      const restored = wizard(elsewhere)
      await expect(textField(restored, 'NIF / NIE / CIF')).toHaveValue(nif)
      await expect(textField(restored, 'Teléfono')).toHaveValue(phone)
      await expect(textField(restored, 'Dirección del titular')).toHaveValue(address)
      for (let i = 0; i < 4; i++) await next(elsewhere)
      await expect(restored.getByRole('heading', { name: 'Paso 5 de 6: Datos bancarios' })).toBeVisible()
      await expect(textField(restored, 'IBAN de domiciliación')).toHaveValue(iban)
      await expectNothingPersonalStored(elsewhere, typed)

      // discarding it empties the form and deletes it on the server
      await elsewhere.getByRole('button', { name: 'Descartar borrador' }).click()
      await expect(elsewhere.getByText(NOTICE)).toHaveCount(0)
      await expect(textField(restored, 'NIF / NIE / CIF')).toHaveValue('')
      await expect
        .poll(async () => (await elsewhere.request.get(`/bff/drafts/${KEY}`)).status())
        .toBe(404)
      await elsewhere.reload()
      await expect(textField(wizard(elsewhere), 'NIF / NIE / CIF')).toHaveValue('')
      await expect(elsewhere.getByText(NOTICE)).toHaveCount(0)
    } finally {
      await other.close()
    }
  })

  test('a save that fails loses nothing: what was typed stays on screen, with one quiet warning', async ({ page }) => {
    let refused = 0
    await page.route('**/bff/drafts/**', (route) => {
      if (route.request().method() !== 'PUT') return route.continue()
      refused++
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'El servicio no está disponible en este momento.' }) })
    })
    await page.goto('/soluciones/contratos/alta')
    const form = wizard(page)
    const nif = validDni()
    await textField(form, 'NIF / NIE / CIF').fill(nif)
    await expect.poll(() => refused).toBeGreaterThan(0)
    const warning = page.locator('.p-toast').getByText('No se ha podido guardar el borrador. Lo que has escrito sigue en pantalla.')
    await expect(warning).toBeVisible()
    await expect(warning).toHaveCount(0) // a toast lives 3 s
    // typing on is never blocked, and a second failure does not warn again
    const refusedAgain = page.waitForResponse((res) => res.url().includes('/bff/drafts/') && res.request().method() === 'PUT')
    await textField(form, 'Nombre').fill('Lucía')
    await refusedAgain
    await page.waitForTimeout(300) // the answer handled: a warning would be showing by now
    await expect(warning).toHaveCount(0)
    expect(refused).toBeGreaterThan(1)
    await expect(textField(form, 'NIF / NIE / CIF')).toHaveValue(nif)
    await expect(textField(form, 'Nombre')).toHaveValue('Lucía')
    await expect(page).toHaveURL(/\/soluciones\/contratos\/alta$/)
  })
})
