import { expect, test, type Browser, type Page } from '@playwright/test'
import type { ApprovalView } from '../../schemas/approval'
import { ADMIN, auditRows, chooseOption, expectAccessible, signIn, textField } from './support'

/**
 * Issue 16, four-eyes approval through the screens: the admin generates an API key, the BFF
 * holds it (an information toast, not a success), the supervisor approves it in the
 * Aprobaciones inbox and it lands; the requester cannot approve their own change.
 */

const SUPERVISOR = { username: 'supervisor@portal.test', password: 'Portal-Supervisor-2026!' }
const SHOTS = process.env.APPROVALS_SHOTS_DIR

async function supervisorPage(browser: Browser, opts: { lang?: 'en'; dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ colorScheme: opts.dark ? 'dark' : 'light' })
  const page = await context.newPage()
  await signIn(page, SUPERVISOR)
  if (opts.lang) await page.evaluate(() => localStorage.setItem('portal.lang', 'en'))
  return page
}

test('a held change waits in the inbox, a second admin approves it and it lands; the requester cannot approve it', async ({ page, browser }) => {
  // Two people, two browsers, several screens: longer than one screen's test.
  test.setTimeout(180_000)
  await signIn(page, ADMIN)
  const description = `Clave con aprobación ${Date.now()}`

  // The admin's change, through the API keys screen: held, told as information.
  await page.goto('/apikeys')
  await page.getByRole('button', { name: 'Generar clave' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generar clave' })
  await chooseOption(page, dialog, 'Usuario de API', 'CRM Comercial')
  await textField(dialog, 'Descripción').fill(description)
  await dialog.getByRole('button', { name: 'Generar' }).click()
  const toast = page.locator('.p-toast-message-info')
  await expect(toast).toContainText('necesita la aprobación de otra persona')
  await expect(page.locator('.p-toast-message-error, .p-toast-message-success')).toHaveCount(0)
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('dialog', { name: 'Nueva clave de API' })).toHaveCount(0)
  await expect(page.locator('[data-table="apikeys"] tbody tr', { hasText: description })).toHaveCount(0)

  // In the requester's «Mis solicitudes», pending; not in their own inbox; approving it is refused.
  const mine = ((await (await page.request.get('/bff/approvals/mine')).json()) as { Items: ApprovalView[] }).Items
  const held = mine.find((a) => a.changes.some((c) => c.after === description))!
  expect(held.status).toBe('pending')
  const own = await page.request.post(`/bff/approvals/${held.id}/approve`, { headers: { 'X-CSRF': '1' }, data: {} })
  expect(own.status()).toBe(403)
  await page.goto('/sysmanager/aprobaciones')
  await expect(page.locator('[data-table="aprobaciones"]')).not.toContainText(description)
  await page.goto('/utilidades/mis-solicitudes')
  await expect(page.locator('[data-table="mis-solicitudes"] tbody tr', { hasText: description })).toContainText('Pendiente')

  // The supervisor's inbox shows it with its diff, and approves it with a comment.
  const supervisor = await supervisorPage(browser)
  await supervisor.goto('/sysmanager/aprobaciones')
  const row = supervisor.locator('[data-table="aprobaciones"] tbody tr', { hasText: description })
  await expect(row).toContainText('admin@portal.test')
  await expect(row).toContainText('POST api/apikey/generate')
  await expect(row).toContainText('Generar una clave de API')
  await expectAccessible(supervisor)
  if (SHOTS) await supervisor.screenshot({ path: `${SHOTS}/aprobaciones-es.png`, fullPage: true })
  await row.getByRole('button', { name: 'Aprobar' }).click()
  const approve = supervisor.getByRole('dialog', { name: 'Aprobar el cambio' })
  await approve.getByLabel('Comentario').fill('Revisado por supervisión')
  await approve.getByRole('button', { name: 'Aprobar y aplicar' }).click()
  await expect(supervisor.locator('.p-toast')).toContainText('Cambio aprobado y enviado.')
  await expect(supervisor.locator('[data-table="aprobaciones"] tbody tr', { hasText: description })).toHaveCount(0)
  await supervisor.context().close()

  // It landed.
  await page.goto('/apikeys')
  // The requester's notice is shown by whichever of admin's pages loads first (other tests sign in
  // as admin at the same time), so it is checked by tests/server/approvals.test.ts, not here.
  await expect(page.locator('[data-table="apikeys"] tbody tr', { hasText: description })).toHaveCount(1)
  await page.goto('/utilidades/mis-solicitudes')
  await expect(page.locator('[data-table="mis-solicitudes"] tbody tr', { hasText: description })).toContainText('Aprobada')
  const again = await page.request.post(`/bff/approvals/${held.id}/approve`, { headers: { 'X-CSRF': '1' }, data: {} })
  expect(again.status()).toBe(403)
})

test('the inbox in English and in dark mode', async ({ page, browser }) => {
  test.setTimeout(120_000)
  await signIn(page, ADMIN)
  const description = `Inbox screenshot ${Date.now()}`
  const list = await page.request.get('/api/apiusers/listado-api-user?pageIndex=0&pageSize=1')
  const apiUserId = ((await list.json()) as { Items: { Id: number }[] }).Items[0]!.Id
  const held = await page.request.post('/api/apikey/generate', { headers: { 'X-CSRF': '1' }, data: { ApiUserId: apiUserId, Descripcion: description } })
  expect(held.status()).toBe(202)
  const { pendingId } = (await held.json()) as { pendingId: string }

  const english = await supervisorPage(browser, { lang: 'en' })
  await english.goto('/sysmanager/aprobaciones')
  await expect(english.getByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible()
  await expect(english.locator('[data-table="aprobaciones"] tbody tr', { hasText: description })).toBeVisible()
  if (SHOTS) await english.screenshot({ path: `${SHOTS}/aprobaciones-en.png`, fullPage: true })
  await english.context().close()

  const dark = await supervisorPage(browser, { dark: true })
  await dark.goto('/sysmanager/aprobaciones')
  await expect(dark.locator('[data-table="aprobaciones"] tbody tr', { hasText: description })).toBeVisible()
  await expectAccessible(dark)
  if (SHOTS) await dark.screenshot({ path: `${SHOTS}/aprobaciones-dark.png`, fullPage: true })
  // Rejected, so it leaves nothing behind.
  const rejected = await dark.request.post(`/bff/approvals/${pendingId}/reject`, { headers: { 'X-CSRF': '1' }, data: { comment: 'Solo para la captura' } })
  expect(rejected.status()).toBe(200)
  await dark.context().close()
})

test('an IBAN change on an active contract waits in the inbox and lands once the supervisor approves it', async ({ page, browser }) => {
  test.setTimeout(180_000)
  await signIn(page, ADMIN)
  // The newest active contract: the edit-conflict tests take the oldest ones.
  const list = await page.request.get('/api/contract', { params: { pageIndex: 0, pageSize: 1, sortColumn: 'Id', sortOrder: 'desc', 'filterColumns[0]': 'Estado', 'filterQueries[0]': 'activo' } })
  const code = ((await list.json()) as { Items: { CodigoContrato: string }[] }).Items[0]!.CodigoContrato
  const ibanNow = async () => {
    const res = await page.request.post('/bff/personal/reveal', { headers: { 'X-CSRF': '1' }, data: { call: 'contract.detail', record: code, field: 'Iban', reason: 'Comprobar el cambio de IBAN (prueba)' } })
    expect(res.status()).toBe(200)
    return ((await res.json()) as { value: string }).value.replace(/\s/g, '')
  }
  const before = await ibanNow()
  const next = before === 'ES7620770024003102575766' ? 'ES9121000418450200051332' : 'ES7620770024003102575766'

  // The admin types a new IBAN in the contract's edit form: held, told as information.
  await page.goto(`/soluciones/contratos/${code}`)
  await page.getByRole('button', { name: 'Editar', exact: true }).click()
  const dialog = page.getByRole('dialog')
  const iban = dialog.getByRole('textbox', { name: 'IBAN de domiciliación', exact: true })
  await expect(iban).toHaveValue(/\*{4}/)
  await iban.fill(next)
  await dialog.getByRole('button', { name: 'Guardar' }).click()
  await expect(page.locator('.p-toast-message-info')).toContainText('necesita la aprobación de otra persona')
  expect(await ibanNow()).toBe(before)

  // The supervisor approves it from the inbox, where the IBANs stay masked.
  const supervisor = await supervisorPage(browser)
  await supervisor.goto('/sysmanager/aprobaciones')
  // Newest first: a retried run may have left an earlier request for the same contract pending.
  const row = supervisor.locator('[data-table="aprobaciones"] tbody tr', { hasText: code }).first()
  await expect(row).toContainText('PUT api/contract/update')
  await expect(row).toContainText('Cambio del IBAN de un contrato activo')
  await expect(row).not.toContainText(next)
  await row.getByRole('button', { name: 'Aprobar' }).click()
  // Approved without a comment: the form sends its empty field as null.
  const approve = supervisor.getByRole('dialog', { name: 'Aprobar el cambio' })
  await approve.getByRole('button', { name: 'Aprobar y aplicar' }).click()
  await expect(supervisor.locator('.p-toast')).toContainText('Cambio aprobado y enviado.')
  await supervisor.context().close()

  // It landed.
  expect(await ibanNow()).toBe(next)

  // Auditoría finds both steps under the contract: the held request (202) and the change that
  // landed (200, the IBAN masked); and the supervisor's approval.
  const rows = await auditRows(page, { record: code })
  const updates = rows.filter({ hasText: 'PUT api/contract/update' })
  const status = (http: string) => page.locator('td', { hasText: new RegExp(`^${http}$`) })
  await expect(updates.filter({ has: status('202') }).first()).toContainText('admin@portal.test')
  await expect(updates.filter({ has: status('200') }).first()).toContainText(/Iban ES\d{2} \*{4}/)
  await expect(rows.first()).not.toContainText(next)
  const approvals = await auditRows(page, { user: 'supervisor@portal.test', call: 'approve' })
  await expect(approvals.first()).toContainText('supervisor@portal.test')
})
