import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import { ADMIN, auditRows, signIn } from './support'

/**
 * No lost updates (issue 16): two people edit the same contract (or user); the second save meets the
 * first (412), keeps what was typed, shows theirs beside yours, re-applies over the newer
 * version and lands, with the first person's other change kept.
 */

type Contract = { CodigoContrato: string; Cliente: { Municipio: string; Email: string | null; Telefono: string | null } }

/** The oldest active contracts of the demo brand, one per test (each test edits its own; the approvals test takes the newest). */
async function activeContracts(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/contract', { params: { pageIndex: 0, pageSize: 20, sortColumn: 'Id', sortOrder: 'asc', 'filterColumns[0]': 'Estado', 'filterQueries[0]': 'activo' }, headers: { 'X-CSRF': '1' } })
  expect(res.status()).toBe(200)
  return ((await res.json()) as { Items: { CodigoContrato: string }[] }).Items.map((i) => i.CodigoContrato)
}

async function stored(page: Page, code: string): Promise<Contract> {
  const res = await page.request.get('/api/contract/id', { params: { codigo: code }, headers: { 'X-CSRF': '1' } })
  expect(res.status()).toBe(200)
  return (await res.json()) as Contract
}

/** One personal value of the contract, clear, through the reveal route (with a reason, audited). */
async function revealed(page: Page, code: string, name: string): Promise<string | null> {
  const res = await page.request.post('/bff/personal/reveal', { headers: { 'X-CSRF': '1' }, data: { call: 'contract.detail', record: code, field: name, reason: 'Comprobar la edición concurrente (prueba)' } })
  expect(res.status()).toBe(200)
  return ((await res.json()) as { value: string | null }).value
}

const field = (dialog: Locator, label: string) => dialog.getByRole('textbox', { name: label, exact: true })

/** Opens the contract's «Editar» dialog once its form is loaded. */
async function openEdit(page: Page, code: string, en = false): Promise<Locator> {
  await page.goto(`/soluciones/contratos/${code}`)
  await page.getByRole('button', { name: en ? 'Edit' : 'Editar', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await expect(field(dialog, en ? 'Town' : 'Municipio')).toBeVisible()
  return dialog
}

async function session(browser: Browser, opts: { dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ colorScheme: opts.dark ? 'dark' : 'light' })
  const page = await context.newPage()
  await signIn(page, ADMIN)
  return page
}

let codes: string[] = []

test.beforeAll(async ({ browser }) => {
  const page = await session(browser)
  codes = await activeContracts(page)
  expect(codes.length).toBeGreaterThanOrEqual(4)
  await page.context().close()
})

test('the second save sees the conflict with nothing lost, re-applies and lands', async ({ browser }) => {
  test.setTimeout(150_000)
  const code = codes[0]!
  const ana = await session(browser)
  const luis = await session(browser)
  const stamp = Date.now() % 100000
  const anaDialog = await openEdit(ana, code)
  const luisDialog = await openEdit(luis, code)

  // Ana changes the town and the phone and saves first.
  await field(anaDialog, 'Municipio').fill(`Alcobendas ${stamp}`)
  await field(anaDialog, 'Teléfono').fill('611223344')
  await anaDialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(anaDialog).toBeHidden()
  expect((await stored(ana, code)).Cliente.Municipio).toBe(`Alcobendas ${stamp}`)

  // Luis, on the version he opened, changes the town and the e-mail.
  await field(luisDialog, 'Municipio').fill(`Getafe ${stamp}`)
  await field(luisDialog, 'Correo electrónico').fill(`luis.${stamp}@example.es`)
  await luisDialog.getByRole('button', { name: 'Guardar' }).click()
  const conflict = luisDialog.getByRole('alert').filter({ hasText: 'Otra persona ha guardado este registro' })
  await expect(conflict).toBeVisible()
  // Nothing of his was saved, and what he typed is still in the form.
  expect((await stored(luis, code)).Cliente.Municipio).toBe(`Alcobendas ${stamp}`)
  await expect(field(luisDialog, 'Municipio')).toHaveValue(`Getafe ${stamp}`)
  await expect(field(luisDialog, 'Correo electrónico')).toHaveValue(`luis.${stamp}@example.es`)
  // Theirs beside yours, field by field.
  const town = conflict.getByRole('row', { name: /Municipio/ })
  await expect(town.getByRole('cell').nth(0)).toHaveText(`Alcobendas ${stamp}`)
  await expect(town.getByRole('cell').nth(1)).toHaveText(`Getafe ${stamp}`)
  // Their phone is personal data: shown masked, as every read of the record.
  await expect(conflict.getByRole('row', { name: /Teléfono/ }).getByRole('cell').nth(0)).toHaveText('******344')
  await luis.screenshot({ path: '/tmp/edit-conflict-es.png' })

  // One click: his edits over the newer version, saved.
  await conflict.getByRole('button', { name: 'Aplicar mis cambios sobre su versión y guardar' }).click()
  await expect(luisDialog).toBeHidden()
  const after = await stored(luis, code)
  expect(after.Cliente.Municipio).toBe(`Getafe ${stamp}`)
  // Personal data reads masked: the clear values are revealed, with a reason.
  expect(await revealed(luis, code, 'Cliente.Email')).toBe(`luis.${stamp}@example.es`)
  // Ana's phone, which Luis did not touch (it went back masked and the BFF put it back), is kept.
  expect(after.Cliente.Telefono).toBe('******344')
  expect((await revealed(luis, code, 'Cliente.Telefono'))?.replace(/\D/g, '')).toBe('611223344')
  // Auditoría has Luis's refused save (412) beside the two that landed.
  const updates = (await auditRows(luis, { record: code })).filter({ hasText: 'PUT api/contract/update' })
  await expect(updates.filter({ has: luis.locator('td', { hasText: /^412$/ }) })).not.toHaveCount(0)
  await expect(updates.filter({ has: luis.locator('td', { hasText: /^200$/ }) })).not.toHaveCount(0)
  await ana.context().close()
  await luis.context().close()
})

test('discarding takes the newer version into the form', async ({ browser }) => {
  const code = codes[1]!
  const ana = await session(browser)
  const luis = await session(browser)
  const anaDialog = await openEdit(ana, code)
  const luisDialog = await openEdit(luis, code)
  await field(anaDialog, 'Municipio').fill('Pozuelo')
  await anaDialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(anaDialog).toBeHidden()
  await field(luisDialog, 'Municipio').fill('Leganés')
  await luisDialog.getByRole('button', { name: 'Guardar' }).click()
  await luisDialog.getByRole('button', { name: 'Descartar mis cambios' }).click()
  await expect(field(luisDialog, 'Municipio')).toHaveValue('Pozuelo')
  await expect(luisDialog.getByRole('alert')).toHaveCount(0)
  expect((await stored(luis, code)).Cliente.Municipio).toBe('Pozuelo')
  await ana.context().close()
  await luis.context().close()
})

for (const variant of [
  { name: 'en', dark: false, code: 2 },
  { name: 'dark', dark: true, code: 3 },
]) {
  test(`the conflict panel (${variant.name})`, async ({ browser }) => {
    const code = codes[variant.code]!
    const ana = await session(browser)
    const luis = await session(browser, { dark: variant.dark })
    if (variant.name === 'en') await luis.locator('.layout-topbar').getByText('EN', { exact: true }).click()
    const en = variant.name === 'en'
    const anaDialog = await openEdit(ana, code)
    const luisDialog = await openEdit(luis, code, en)
    await field(anaDialog, 'Municipio').fill('Alcalá de Henares')
    await anaDialog.getByRole('button', { name: 'Guardar' }).click()
    await expect(anaDialog).toBeHidden()
    await field(luisDialog, en ? 'Town' : 'Municipio').fill('Torrejón de Ardoz')
    await luisDialog.getByRole('button', { name: en ? 'Save' : 'Guardar' }).click()
    const conflict = luisDialog.getByRole('alert').filter({ hasText: en ? 'Someone else saved this record' : 'Otra persona ha guardado' })
    await expect(conflict).toBeVisible()
    if (en) await expect(conflict.getByRole('button', { name: 'Apply my changes over their version and save' })).toBeVisible()
    await luis.screenshot({ path: `/tmp/edit-conflict-${variant.name}.png` })
    await ana.context().close()
    await luis.context().close()
  })
}

test('a user administration save meets the other person’s first save: the conflict is shown and nothing is lost', async ({ browser }) => {
  const ana = await session(browser)
  const luis = await session(browser)
  // A staff user that no other suite signs in as.
  const list = await ana.request.get('/api/usuarios', { params: { pageIndex: 0, pageSize: 50 }, headers: { 'X-CSRF': '1' } })
  expect(list.status()).toBe(200)
  const demo = new Set(['admin@portal.test', 'agente@portal.test', 'supervisor@portal.test'])
  const user = ((await list.json()) as { Items: { Id: number; Email: string }[] }).Items.find((u) => !demo.has(u.Email))!
  const storedSurname = async () => ((await (await ana.request.get(`/api/usuarios/${user.Id}`, { headers: { 'X-CSRF': '1' } })).json()) as { Apellidos: string }).Apellidos
  const openUser = async (page: Page) => {
    await page.goto(`/usuarios/${user.Id}`)
    await page.getByRole('button', { name: 'Editar', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await expect(field(dialog, 'Apellidos')).toBeVisible()
    return dialog
  }
  const stamp = Date.now() % 100000
  const anaDialog = await openUser(ana)
  const luisDialog = await openUser(luis)

  await field(anaDialog, 'Apellidos').fill(`Ramos ${stamp}`)
  await anaDialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(anaDialog).toBeHidden()
  expect(await storedSurname()).toBe(`Ramos ${stamp}`)

  await field(luisDialog, 'Apellidos').fill(`Gil ${stamp}`)
  await luisDialog.getByRole('button', { name: 'Guardar' }).click()
  const conflict = luisDialog.getByRole('alert').filter({ hasText: 'Otra persona ha guardado este registro' })
  await expect(conflict).toBeVisible()
  expect(await storedSurname()).toBe(`Ramos ${stamp}`)
  await expect(field(luisDialog, 'Apellidos')).toHaveValue(`Gil ${stamp}`)
  const row = conflict.getByRole('row', { name: /Apellidos/ })
  await expect(row.getByRole('cell').nth(0)).toHaveText(`Ramos ${stamp}`)
  await expect(row.getByRole('cell').nth(1)).toHaveText(`Gil ${stamp}`)

  await conflict.getByRole('button', { name: 'Aplicar mis cambios sobre su versión y guardar' }).click()
  await expect(luisDialog).toBeHidden()
  expect(await storedSurname()).toBe(`Gil ${stamp}`)
  await ana.context().close()
  await luis.context().close()
})
