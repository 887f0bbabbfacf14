import { expect, test, type Page } from '@playwright/test'
import { validCups, validDni } from './ids'
import { ADMIN, acceptConfirmation, signIn, textField } from './support'

/**
 * Issue 17, bulk import: from the contract list to the import screen, a CSV with one bad row
 * shows that row's Spanish error and sends nothing; the corrected file is imported as drafts,
 * which the contract list finds; undo removes them.
 */

/** The template's CSV with one row per change (NIF, CUPS and agent of each row). */
async function csvFrom(page: Page, rows: { nif: string; cups: string }[]): Promise<Buffer> {
  const template = (await (await page.request.get('/bff/imports/contratos-altas/template?format=csv')).text()).replace(/^\ufeff/, '')
  const [header, example] = template.trim().split(/\r?\n/)
  const names = header!.split(';')
  const agents = await (await page.request.get('/api/agentes?pageIndex=0&pageSize=1&sortColumn=Codigo&filterColumns[0]=Activo&filterQueries[0]=true')).json()
  const lines = rows.map((r) => {
    const cells = example!.split(';')
    cells[names.indexOf('Cliente.Nif')] = r.nif
    cells[names.indexOf('PuntoSuministro.Cups')] = r.cups
    cells[names.indexOf('AgenteId')] = String(agents.Items[0].Id)
    return cells.join(';')
  })
  return Buffer.from(`\ufeff${[header, ...lines].join('\r\n')}\r\n`, 'utf8')
}

async function upload(page: Page, name: string, data: Buffer) {
  await page.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: data })
  await expect(page.getByRole('heading', { name: /Indica de qué columna/ })).toBeVisible()
}

test.setTimeout(120_000)

test('imports sign-ups: a bad row is named in Spanish, the fixed file creates drafts, undo removes them', async ({ page }) => {
  await signIn(page, ADMIN)
  await page.goto('/soluciones/contratos/listado')
  await page.getByRole('button', { name: 'Importar altas' }).click()
  await expect(page).toHaveURL(/\/soluciones\/contratos\/importar/)
  await expect(page.getByRole('heading', { name: /Sube un archivo CSV o Excel/ })).toBeVisible()

  const good = { nif: validDni(), cups: validCups() }
  const badNif = validDni().replace(/.$/, (l) => (l === 'A' ? 'B' : 'A'))
  const second = { nif: validDni(), cups: validCups() }
  await upload(page, 'altas.csv', await csvFrom(page, [good, { nif: badNif, cups: second.cups }]))
  await expect(page.getByLabel(/NIF \/ NIE \/ CIF/)).toHaveValue('Cliente.Nif')
  await page.getByRole('button', { name: 'Comprobar sin enviar nada' }).click()
  await expect(page.getByText('1 filas correctas, 1 con errores, 0 ya importadas.')).toBeVisible()
  const errors = page.getByRole('table', { name: 'Filas con errores' })
  await expect(errors.getByRole('row', { name: /3 NIF \/ NIE \/ CIF La letra del DNI no es correcta/ })).toBeVisible()

  await page.getByRole('button', { name: 'Subir el archivo corregido' }).click()
  await upload(page, 'altas-corregido.csv', await csvFrom(page, [good, second]))
  await page.getByRole('button', { name: 'Comprobar sin enviar nada' }).click()
  await expect(page.getByText('2 filas correctas, 0 con errores, 0 ya importadas.')).toBeVisible()
  await page.getByRole('button', { name: 'Importar 2 filas correctas' }).click()
  await acceptConfirmation(page)
  await expect(page.getByText(/Importadas: 2 · Pendientes de aprobación: 0/)).toBeVisible({ timeout: 20_000 })
  const outcomes = page.getByRole('table', { name: 'Resultado' })
  const codes = (await outcomes.locator('tbody tr td:nth-child(3)').allInnerTexts()).map((c) => c.trim()).filter(Boolean)
  expect(codes).toHaveLength(2)
  const importUrl = page.url()

  // The drafts are in the contract list.
  await page.goto(`/soluciones/contratos/listado`)
  await textField(page.getByRole('search', { name: 'Filtros' }), 'Código').fill(codes[0]!)
  await expect(page.getByRole('row', { name: new RegExp(`${codes[0]}.*Borrador`) })).toBeVisible()

  // Back to the import (its id is in the address): undo.
  await page.goto(importUrl)
  await page.getByRole('button', { name: 'Deshacer importación' }).click()
  await acceptConfirmation(page)
  await expect(page.getByText('2 registros deshechos; 0 se han dejado como están.')).toBeVisible({ timeout: 20_000 })
  expect((await page.request.get(`/api/contract/id?codigo=${codes[0]}`)).status()).toBe(404)
})
