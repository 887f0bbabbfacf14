import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import { ADMIN, SUPERVISOR, signIn } from './support'

/**
 * Live lists and presence (issues 16 and 17), two people in two browsers: the second sees
 * «… está viendo este contrato» when the first opens the same contract; a save by the first
 * refreshes the second's open detail and list on their own; the second's edited form keeps what
 * was typed and says the record changed.
 */

type Contract = { CodigoContrato: string; Cliente: { Municipio: string } }
const CSRF = { 'X-CSRF': '1' }

async function session(browser: Browser, creds: { username: string; password: string }, opts: { dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ colorScheme: opts.dark ? 'dark' : 'light' })
  const page = await context.newPage()
  await signIn(page, creds)
  return page
}

async function fullName(page: Page): Promise<string> {
  const res = await page.request.get('/bff/auth/session', { headers: CSRF })
  expect(res.status()).toBe(200)
  const { user } = (await res.json()) as { user: { Nombre: string; Apellidos?: string | null } }
  return [user.Nombre, user.Apellidos].filter(Boolean).join(' ')
}

/** Saves a new holder's town as another person would, through the same proxy and version check. */
async function saveTown(page: Page, code: string, town: string): Promise<void> {
  const read = await page.request.get('/api/contract/id', { params: { codigo: code }, headers: CSRF })
  expect(read.status()).toBe(200)
  const record = (await read.json()) as Contract
  const res = await page.request.put('/api/contract/update', {
    params: { codigo: code },
    headers: { ...CSRF, 'If-Match': read.headers().etag! },
    data: { ...record, Cliente: { ...record.Cliente, Municipio: town } },
  })
  expect(res.status()).toBe(200)
}

async function storedTown(page: Page, code: string): Promise<string> {
  const res = await page.request.get('/api/contract/id', { params: { codigo: code }, headers: CSRF })
  return ((await res.json()) as Contract).Cliente.Municipio
}

const field = (dialog: Locator, label: string) => dialog.getByRole('textbox', { name: label, exact: true })
const presence = (page: Page) => page.locator('.detail-presence')

let codes: string[] = []
/** Two browsers on a shared machine: a screen and an event may take longer than one page's usual wait. */
const SLOW = { timeout: 30_000 }
test.describe.configure({ timeout: 180_000 })

test.beforeAll(async ({ browser }) => {
  const page = await session(browser, ADMIN)
  // Further down the active contracts than the edit-conflict suite's, which may run alongside.
  const res = await page.request.get('/api/contract', { params: { pageIndex: 0, pageSize: 40, 'filterColumns[0]': 'Estado', 'filterQueries[0]': 'activo' }, headers: CSRF })
  codes = ((await res.json()) as { Items: { CodigoContrato: string }[] }).Items.map((i) => i.CodigoContrato).slice(20)
  expect(codes.length).toBeGreaterThanOrEqual(4)
  await page.context().close()
})

test('presence on a contract, and its detail and list refreshing on their own after another person’s save', async ({ browser }) => {
  const code = codes[0]!
  const ana = await session(browser, ADMIN)
  const sara = await session(browser, SUPERVISOR)
  const [anaName, saraName] = [await fullName(ana), await fullName(sara)]
  const stamp = Date.now() % 100000

  await sara.goto(`/soluciones/contratos/${code}`)
  await expect(sara.locator('.screen-detail').first()).toBeVisible(SLOW)
  await expect(presence(sara)).toBeHidden()
  await ana.goto(`/soluciones/contratos/${code}`)
  await expect(presence(sara)).toHaveText(`${anaName} está viendo este contrato`, SLOW)
  await expect(presence(ana)).toHaveText(`${saraName} está viendo este contrato`, SLOW)
  await sara.screenshot({ path: '/tmp/live-presence-es.png' })

  // Ana saves a new town through her edit form: Sara's open detail shows it without a reload.
  await ana.getByRole('button', { name: 'Editar', exact: true }).click()
  const dialog = ana.getByRole('dialog')
  await field(dialog, 'Municipio').fill(`Villaviva ${stamp}`)
  await dialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(dialog).toBeHidden()
  await expect(sara.getByText(`Villaviva ${stamp}`).first()).toBeVisible(SLOW)

  // Ana leaves: Sara is told nobody else is there.
  await ana.goto('/')
  await expect(presence(sara)).toBeHidden(SLOW)

  // Sara's open list of contracts is read again when Ana saves, with nothing done on her side.
  await sara.goto(`/soluciones/contratos/listado?f.CodigoContrato=${code}`)
  await expect(sara.getByRole('gridcell', { name: code }).first()).toBeVisible(SLOW)
  const refetched = sara.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).pathname === '/api/contract', { timeout: 30_000 })
  await saveTown(ana, code, `Villanueva ${stamp}`)
  await refetched
  await ana.context().close()
  await sara.context().close()
})

test('an edited form is not overwritten: it keeps what was typed, says the record changed, and saves over the newer version', async ({ browser }) => {
  const code = codes[1]!
  const ana = await session(browser, ADMIN)
  const sara = await session(browser, SUPERVISOR)
  const stamp = Date.now() % 100000
  await sara.goto(`/soluciones/contratos/${code}`)
  await sara.getByRole('button', { name: 'Editar', exact: true }).click()
  const dialog = sara.getByRole('dialog')
  await field(dialog, 'Municipio').fill(`Mía ${stamp}`)

  await saveTown(ana, code, `Suya ${stamp}`)
  const notice = dialog.getByRole('alert').filter({ hasText: 'Otra persona acaba de guardar este registro mientras lo editas' })
  await expect(notice).toBeVisible(SLOW)
  await expect(field(dialog, 'Municipio')).toHaveValue(`Mía ${stamp}`)
  const town = notice.getByRole('row', { name: /Municipio/ })
  await expect(town.getByRole('cell').nth(0)).toHaveText(`Suya ${stamp}`)
  await expect(town.getByRole('cell').nth(1)).toHaveText(`Mía ${stamp}`)
  await sara.screenshot({ path: '/tmp/live-conflict-es.png' })

  // Her edits kept over the newer version, not saved yet; then her save lands (no stale version).
  await notice.getByRole('button', { name: 'Mantener mis cambios sobre su versión' }).click()
  await expect(dialog.getByRole('alert')).toHaveCount(0)
  await expect(field(dialog, 'Municipio')).toHaveValue(`Mía ${stamp}`)
  expect(await storedTown(sara, code)).toBe(`Suya ${stamp}`)
  await dialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(dialog).toBeHidden()
  expect(await storedTown(sara, code)).toBe(`Mía ${stamp}`)
  await ana.context().close()
  await sara.context().close()
})

for (const variant of [
  { name: 'en', dark: false, code: 2 },
  { name: 'dark', dark: true, code: 3 },
]) {
  test(`presence and the live notice (${variant.name})`, async ({ browser }) => {
    const code = codes[variant.code]!
    const en = variant.name === 'en'
    const ana = await session(browser, ADMIN)
    const sara = await session(browser, SUPERVISOR, { dark: variant.dark })
    if (en) await sara.locator('.layout-topbar').getByText('EN', { exact: true }).click()
    const anaName = await fullName(ana)
    await sara.goto(`/soluciones/contratos/${code}`)
    await ana.goto(`/soluciones/contratos/${code}`)
    await expect(presence(sara)).toHaveText(en ? `${anaName} is viewing this contract` : `${anaName} está viendo este contrato`, SLOW)
    await sara.screenshot({ path: `/tmp/live-presence-${variant.name}.png` })
    await sara.getByRole('button', { name: en ? 'Edit' : 'Editar', exact: true }).click()
    const dialog = sara.getByRole('dialog')
    await field(dialog, en ? 'Town' : 'Municipio').fill('Aranjuez')
    await saveTown(ana, code, 'Chinchón')
    await expect(dialog.getByRole('alert').filter({ hasText: en ? 'Someone else just saved this record' : 'Otra persona acaba de guardar' })).toBeVisible(SLOW)
    if (en) await expect(dialog.getByRole('button', { name: 'Keep my changes over their version' })).toBeVisible()
    await sara.screenshot({ path: `/tmp/live-conflict-${variant.name}.png` })
    await ana.context().close()
    await sara.context().close()
  })
}
