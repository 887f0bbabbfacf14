import { expect, test, type Browser, type Page } from '@playwright/test'
import { ADMIN, approveAsSupervisor, auditRows, signIn, textField } from './support'

/**
 * «Dar de baja» under four-eyes (issues 16, 18): ending an active contract is held by default
 * (policy `contract-end`). The admin asks for it from the contract's screen, is told it waits,
 * the supervisor approves it and the contract ends; the Auditoría has the request and the change.
 * The form sends the version of the contract it was opened with: a contract ended meanwhile is
 * shown as a conflict in the form, and nothing is asked for twice.
 */

const CSRF = { 'X-CSRF': '1' }
const SLOW = { timeout: 30_000 }

/**
 * Active contracts of the demo brand, newest first, past the newest few: approvals.spec.ts takes
 * the newest one, edit-conflict.spec.ts the oldest ones, live-events.spec.ts the 21st to 40th of
 * the default order. Each test here ends its own.
 */
async function contractsToEnd(page: Page): Promise<string[]> {
  const res = await page.request.get('/api/contract', { params: { pageIndex: 0, pageSize: 8, sortColumn: 'Id', sortOrder: 'desc', 'filterColumns[0]': 'Estado', 'filterQueries[0]': 'activo' }, headers: CSRF })
  expect(res.status()).toBe(200)
  return ((await res.json()) as { Items: { CodigoContrato: string }[] }).Items.map((i) => i.CodigoContrato).slice(5)
}

async function session(browser: Browser, creds = ADMIN): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await signIn(page, creds)
  return page
}

/** Opens «Dar de baja» on the contract's screen, once the form has read the contract. */
async function openEnd(page: Page, code: string) {
  await page.goto(`/soluciones/contratos/${code}`)
  await page.getByRole('button', { name: 'Dar de baja', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: `Dar de baja el contrato ${code}` })
  await expect(textField(dialog, 'Estado actual')).toHaveValue('Activo', SLOW)
  return dialog
}

let codes: string[] = []

test.describe.configure({ timeout: 180_000 })

test.beforeAll(async ({ browser }) => {
  const page = await session(browser)
  codes = await contractsToEnd(page)
  expect(codes.length).toBeGreaterThanOrEqual(2)
  await page.context().close()
})

test('«Dar de baja» waits for the supervisor, then the contract ends; the Auditoría has both', async ({ page, browser }) => {
  const code = codes[0]!
  await signIn(page, ADMIN)
  const reason = `Baja pedida en la prueba ${Date.now()}`
  const dialog = await openEnd(page, code)
  await textField(dialog, 'Motivo').fill(reason)
  await dialog.getByRole('button', { name: 'Dar de baja', exact: true }).click()

  // Held: told as information that it waits for a second person, not as done.
  await expect(page.locator('.p-toast-message-info')).toContainText('necesita la aprobación de otra persona')
  await expect(page.locator('.p-toast-message-error, .p-toast-message-success')).toHaveCount(0)
  await expect(dialog).toBeHidden()
  await page.reload()
  const state = page.locator('.screen-detail').first().locator('.p-tag').first()
  await expect(state).toHaveText('Activo')
  await page.goto('/utilidades/mis-solicitudes')
  await expect(page.locator('[data-table="mis-solicitudes"] tbody tr', { hasText: code })).toContainText('Pendiente')

  // The supervisor approves it: the contract ends.
  await approveAsSupervisor(browser, reason)
  await page.goto(`/soluciones/contratos/${code}`)
  await expect(state).toHaveText('Baja', SLOW)
  await expect(page.getByRole('button', { name: 'Dar de baja', exact: true })).toHaveCount(0)
  await page.goto('/utilidades/mis-solicitudes')
  await expect(page.locator('[data-table="mis-solicitudes"] tbody tr', { hasText: code })).toContainText('Aprobada')

  // The Auditoría has the request as held (202) and the change as it landed (200), both the admin's.
  const ends = (await auditRows(page, { record: code })).filter({ hasText: 'PUT api/contract/update/fin' })
  await expect(ends).toHaveCount(2)
  await expect(ends.filter({ has: page.locator('td', { hasText: /^202$/ }) })).toHaveCount(1)
  await expect(ends.filter({ has: page.locator('td', { hasText: /^200$/ }) })).toHaveCount(1)
  for (const row of await ends.all()) await expect(row).toContainText('admin@portal.test')
})

test('a contract ended while the form is open shows the conflict in the form, and nothing more is asked for', async ({ browser }) => {
  const code = codes[1]!
  const ana = await session(browser)
  const dialog = await openEnd(ana, code)
  await textField(dialog, 'Motivo').fill('Baja que llega tarde')

  // Meanwhile another request ends the contract, and the supervisor approves it.
  const reason = `Baja anterior ${Date.now()}`
  const other = await session(browser)
  const opened = await other.request.get('/api/contract/id', { params: { codigo: code }, headers: CSRF })
  const held = await other.request.put('/api/contract/update/fin', { params: { codigo: code }, headers: { ...CSRF, 'If-Match': opened.headers().etag! }, data: { Estado: 'baja', Motivo: reason } })
  expect(held.status()).toBe(202)
  await approveAsSupervisor(browser, reason)
  await other.context().close()

  // Sent on the version it was opened with: refused (412) whether or not the form was told live
  // first; the state it was opened with and the one now, side by side, and what was typed stays.
  await dialog.getByRole('button', { name: 'Dar de baja', exact: true }).click()
  const conflict = dialog.getByRole('alert').filter({ hasText: /Otra persona (ha guardado|acaba de guardar) este registro/ })
  await expect(conflict).toBeVisible(SLOW)
  const row = conflict.getByRole('row', { name: /Estado actual/ })
  await expect(row.getByRole('cell').nth(0)).toHaveText('Baja')
  await expect(row.getByRole('cell').nth(1)).toContainText('Activo')
  await expect(textField(dialog, 'Motivo')).toHaveValue('Baja que llega tarde')

  // Nothing of Ana's was held: her reason is in no request.
  const mine = (await (await ana.request.get('/bff/approvals/mine')).json()) as { Items: { record?: { id: string }; changes: { after: string | null }[] }[] }
  expect(mine.Items.filter((a) => a.record?.id === code && a.changes.some((c) => c.after === 'Baja que llega tarde'))).toHaveLength(0)
  await ana.context().close()
})
