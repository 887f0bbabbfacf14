import { expect, test, type Download, type Page } from '@playwright/test'
import ExcelJS from 'exceljs'
import fs from 'node:fs'
import { ADMIN, AGENTE, BRAND_HOSTS, signIn, SUPERVISOR, textField } from './support'

/**
 * Issue 16: personal data masked by permission. The agent (without VERDATOSPERSONALES) goes
 * through the contracts list and a detail, a client lookup and SIPS, and no answer of the whole
 * session holds a clear IBAN or NIF (values the test itself typed excepted: a validator repeats
 * them). The admin reveals a contract's IBAN with a reason and finds the reveal in Auditoría.
 */

const CLEAR_IBAN = /\bES\d{2}(?: ?\d{4}){5}\b/g
const CLEAR_NIF = /\b(?:\d{8}|[XYZ]\d{7})[A-Z]\b/g

/** Every JSON answer of the session, as text, by URL. */
function recordAnswers(page: Page): { url: string; text: string }[] {
  const answers: { url: string; text: string }[] = []
  page.on('response', async (res) => {
    if (!(res.headers()['content-type'] ?? '').includes('json')) return
    try {
      answers.push({ url: res.url(), text: await res.text() })
    } catch {
      // a navigation dropped the body: nothing reached the page
    }
  })
  return answers
}

test('an agent never receives a clear IBAN or NIF, whatever it opens', async ({ page }) => {
  const base = BRAND_HOSTS.grupo
  const answers = recordAnswers(page)
  const typed = new Set<string>()
  await signIn(page, AGENTE, base)

  await page.goto(`${base}/soluciones/contratos/listado`)
  const rows = page.locator('[data-table] tbody tr')
  await expect(rows.first()).toBeVisible({ timeout: 30_000 })
  // Through the page (the brand's host resolves in Chromium only).
  const list = (await page.evaluate(async () => (await fetch('/api/contract?pageSize=1')).json())) as { Items: { CodigoContrato: string; Cups: string; Nif: string }[] }
  const contract = list.Items[0]!
  expect(contract.Nif).toMatch(/^\*+/)

  await page.goto(`${base}/soluciones/contratos/${contract.CodigoContrato}`)
  await expect(page.locator('.screen-detail').first()).toContainText(contract.CodigoContrato)
  await expect(page.locator('.masked-value').first()).toBeVisible()
  // Without the permission there is nothing to reveal.
  await expect(page.getByRole('button', { name: 'Mostrar', exact: true })).toHaveCount(0)

  // The client lookup of the new-contract form, by a NIF the agent types.
  const nif = '12345678Z'
  typed.add(nif)
  await page.goto(`${base}/soluciones/contratos/alta`)
  const nifField = page.getByRole('textbox', { name: 'NIF / NIE / CIF', exact: true })
  await nifField.fill(nif)
  await nifField.blur()

  await page.goto(`${base}/utilidades/sips?cups=${contract.Cups}`)
  await expect(page.getByText(contract.Cups).first()).toBeVisible()

  await page.waitForLoadState('networkidle')
  expect(answers.length).toBeGreaterThan(5)
  const leaks = answers.flatMap((a) => [...(a.text.match(CLEAR_IBAN) ?? []), ...(a.text.match(CLEAR_NIF) ?? [])].filter((v) => !typed.has(v)).map((v) => `${a.url}: ${v}`))
  expect(leaks).toEqual([])
})

test('the admin reveals a contract’s IBAN with a reason, and Auditoría shows the reveal', async ({ page }) => {
  await signIn(page, ADMIN)
  const list = (await (await page.request.get('/api/contract?pageSize=1&sortColumn=Id&sortOrder=asc')).json()) as { Items: { CodigoContrato: string }[] }
  const code = list.Items[0]!.CodigoContrato
  await page.goto(`/soluciones/contratos/${code}`)
  const item = page.locator('.detail-grid__item', { hasText: 'IBAN de domiciliación' })
  await expect(item).toContainText(/ES\d{2} \*{4}/, { timeout: 30_000 })
  await item.getByRole('button', { name: 'Mostrar', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Motivo para ver el dato' })
  await dialog.getByRole('button', { name: 'Mostrar', exact: true }).click()
  await expect(dialog).toContainText('Escribe el motivo')
  const reason = `Comprobar la domiciliación ${Date.now()}`
  await dialog.getByRole('textbox').fill(reason)
  await dialog.getByRole('button', { name: 'Mostrar', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(item.getByTestId('revealed-Iban')).toHaveText(/^ES\d{22}$/)

  // Asked once per record: the holder's NIF of the same contract is revealed without asking again.
  const nif = page.locator('.detail-grid__item', { hasText: 'NIF/CIF' }).first()
  await nif.getByRole('button', { name: 'Mostrar', exact: true }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(nif.getByTestId('revealed-Nif')).toHaveText(/^[0-9A-Z]{9}$/)

  await page.goto('/sysmanager/auditoria')
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Registro').fill(code)
  const table = page.locator('[data-table="auditoria"]')
  const reveals = table.locator('tbody tr', { hasText: 'POST bff/personal/reveal' })
  await expect(reveals).toHaveCount(2)
  await expect(reveals.first()).toContainText('admin@portal.test')
})

/** A downloaded XLSX's first sheet: its header and each row's cells as text. */
async function sheetOf(download: Download): Promise<{ headers: string[]; rows: string[][] }> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(fs.readFileSync((await download.path())!) as unknown as ArrayBuffer)
  const sheet = book.worksheets[0]!
  const width = sheet.getRow(1).cellCount
  const cells = (n: number) => Array.from({ length: width }, (_, i) => String(sheet.getRow(n).getCell(i + 1).value ?? ''))
  return { headers: cells(1), rows: Array.from({ length: sheet.rowCount - 1 }, (_, i) => cells(i + 2)) }
}

/** The total the contracts list's pager shows. */
async function contractsTotal(page: Page): Promise<number> {
  const text = (await page.locator('[data-table="contratos"] .p-paginator-current').textContent()) ?? ''
  return Number(/de ([\d.]+)/.exec(text)?.[1]?.replace(/\./g, '') ?? NaN)
}

test('an agent’s export of its contracts is masked: the columns on screen, no clear NIF', async ({ page }) => {
  const base = BRAND_HOSTS.grupo
  await signIn(page, AGENTE, base)
  await page.goto(`${base}/soluciones/contratos/listado`)
  await expect(page.locator('[data-table="contratos"] tbody tr').first()).toBeVisible({ timeout: 30_000 })
  // Without VERDATOSPERSONALES the export is one button, no second choice.
  await expect(page.getByRole('button', { name: 'Más opciones de exportación' })).toHaveCount(0)
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar', exact: true }).click()
  const sheet = await sheetOf(await download)
  expect(sheet.headers).toEqual(['Código', 'CUPS', 'Titular', 'NIF/CIF', 'Tarifa', 'Estado', 'Fecha de alta', 'Agente'])
  expect(sheet.rows).toHaveLength(await contractsTotal(page))
  expect(sheet.rows.every((r) => /^\*+[0-9A-Z]{4}$/.test(r[3]!))).toBe(true)
  expect(sheet.rows.flat().join('\n')).not.toMatch(CLEAR_NIF)
})

test('an admin exports with personal data after giving a reason, and Auditoría shows the export', async ({ page }) => {
  // The second admin account: the demo admin's own column choice of this list leaves the NIF out.
  await signIn(page, SUPERVISOR)
  await page.goto('/soluciones/contratos/listado?f.Titular=garcia')
  await expect(page.locator('[data-table="contratos"] tbody tr').first()).toBeVisible({ timeout: 30_000 })
  await page.getByRole('button', { name: 'Más opciones de exportación' }).click()
  await page.getByRole('menuitem', { name: 'Exportar con datos personales' }).click()
  const dialog = page.getByRole('dialog', { name: 'Motivo para exportar datos personales' })
  await dialog.getByRole('button', { name: 'Exportar', exact: true }).click()
  await expect(dialog).toContainText('Escribe el motivo')
  const reason = `Revisión de la cartera García ${Date.now()}`
  await dialog.getByRole('textbox').fill(reason)
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Exportar', exact: true }).click()
  await expect(dialog).toBeHidden()
  const sheet = await sheetOf(await download)
  expect(sheet.rows).toHaveLength(await contractsTotal(page))
  const nif = sheet.headers.indexOf('NIF/CIF')
  expect(sheet.rows.some((r) => /^(?:\d{8}[A-Z]|[A-Z]\d{7}[0-9A-J])$/.test(r[nif]!))).toBe(true)

  // The default export stays masked for an admin too.
  const masked = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Exportar', exact: true }).click()
  expect((await sheetOf(await masked)).rows.flat().join('\n')).not.toMatch(CLEAR_NIF)

  await page.goto('/sysmanager/auditoria')
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Llamada').fill('api/contract/export')
  const entries = page.locator('[data-table="auditoria"] tbody tr', { hasText: 'GET api/contract/export' })
  await expect(entries.first()).toBeVisible()
  await expect(entries.first()).toContainText('supervisor@portal.test')
  // One entry, the clear export's, with its reason (the masked export is a read: not recorded).
  const audit = (await (await page.request.get('/bff/admin/audit?call=api/contract/export&pageSize=100')).json()) as { Items: { action?: string; details?: { reason?: string } }[] }
  expect(audit.Items.filter((e) => e.details?.reason === reason).map((e) => e.action)).toEqual(['personal.export'])
})
