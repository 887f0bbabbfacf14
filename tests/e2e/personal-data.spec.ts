import { expect, test, type Page } from '@playwright/test'
import { ADMIN, AGENTE, BRAND_HOSTS, signIn, textField } from './support'

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
