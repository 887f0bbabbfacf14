import { expect, test, type Locator, type Page } from '@playwright/test'
import fs from 'node:fs'
import { ADMIN, clearFaults, expectAccessible, injectFault, signIn, textField, typeNumber } from './support'

/**
 * The analyst tools: Sips (one CUPS and a list), the energy price history, the comparison
 * pages and the province maps, over the reference API.
 */

const CUPS_OK = 'ES0021000000000001RK'
const CUPS_OK2 = 'ES0031405013365002YV0F'
const CUPS_BAD = 'ES0021000000000001RC' // wrong check letters (should be RK)

const toast = (page: Page) => page.locator('.p-toast')

/** Pixels drawn on a canvas (a blank chart has none). */
async function inkOf(canvas: Locator): Promise<number> {
  await expect(canvas).toBeVisible()
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const ctx = c.getContext('2d')
    if (!ctx || !c.width || !c.height) return 0
    const data = ctx.getImageData(0, 0, c.width, c.height).data
    let n = 0
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++
    return n
  })
}

/** Clicks and returns the downloaded file: its name and bytes. */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()])
  const file = await dl.path()
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file!) }
}
const isXlsx = (b: Buffer) => b.length > 1000 && b.subarray(0, 2).toString() === 'PK'

test.describe('analyst tools', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN)
  })
  test.afterEach(async ({ page }) => {
    await clearFaults(page)
  })

  test('Sips: one CUPS shows its record, a monthly chart per period and exports', async ({ page }) => {
    await page.goto('/utilidades/sips')
    const input = textField(page.getByRole('search', { name: 'Consultar un CUPS' }), 'CUPS')
    await input.fill(CUPS_BAD.toLowerCase())
    await expect(page.getByText('Las letras de control del CUPS no son correctas (deberían ser RK).')).toBeVisible()
    await input.fill(`${CUPS_OK.slice(0, 6)} ${CUPS_OK.slice(6)}`.toLowerCase())
    await expect(page.getByText(/CUPS válido/)).toBeVisible()
    await page.getByRole('button', { name: 'Consultar' }).click()
    await expect(page).toHaveURL(new RegExp(`cups=${CUPS_OK}`))

    const result = page.getByRole('region', { name: `Datos SIPS de ${CUPS_OK}` })
    await expect(result.getByRole('heading', { name: 'Punto de suministro' })).toBeVisible()
    for (const h of ['Contrato y consumo', 'Equipo de medida', 'Indicadores']) await expect(result.getByRole('heading', { name: h })).toBeVisible()
    await expect(result.getByText('Tarifa de acceso')).toBeVisible()
    await expect(result.getByText(/\d kW$/).first()).toBeVisible()
    await expect(result.getByText('Consumo anual total')).toBeVisible()

    // the stacked monthly chart draws, and its table has the 36 months with the tariff's periods
    const chart = result.locator('figure', { has: page.getByRole('heading', { name: 'Consumo mensual por periodo' }) })
    await expect.poll(() => inkOf(chart.locator('canvas'))).toBeGreaterThan(2000)
    await chart.getByRole('button', { name: 'Ver datos' }).click()
    await expect(chart.locator('tbody tr')).toHaveCount(36)
    await expect(chart.locator('thead th')).toHaveText(['Mes', 'P1 (kWh)', 'P2 (kWh)', 'P3 (kWh)', 'Total (kWh)'])
    await chart.getByRole('button', { name: 'Ver gráfico' }).click()

    // the readings table and the raw record
    await result.getByText(/^Lecturas \(36 periodos/).click()
    await expect(result.locator('.sips-readings tbody tr')).toHaveCount(36)
    await result.getByText(/Datos en bruto del SIPS/).click()
    await expect(result.getByRole('rowheader', { name: 'potenciasContratadasEnWP1' })).toBeVisible()
    await result.getByRole('radio', { name: 'JSON' }).or(result.getByRole('button', { name: 'JSON' })).first().click()
    await expect(result.getByLabel('Registro SIPS en JSON')).toContainText('"codigoEmpresaDistribuidora": "0021"')
    await expectAccessible(page)

    const file = await download(page, () => result.getByRole('button', { name: 'Exportar a Excel' }).click())
    expect(file.name).toBe(`sips-${CUPS_OK}.xlsx`)
    expect(isXlsx(file.bytes)).toBe(true)

    // the link reopens the same lookup
    await page.reload()
    await expect(page.getByRole('region', { name: `Datos SIPS de ${CUPS_OK}` })).toBeVisible()
  })

  test('Sips: a list says why a CUPS is invalid, opens the others and exports', async ({ page }) => {
    await page.goto('/utilidades/sips')
    await page.getByRole('tab', { name: 'Varios CUPS' }).click()
    await page.getByLabel('Lista de CUPS').fill(`${CUPS_OK}\n${CUPS_BAD}; ${CUPS_OK2.toLowerCase()}, ${CUPS_OK}\n\n`)
    await expect(page.getByText('3 CUPS distintos.')).toBeVisible()
    await page.getByRole('button', { name: 'Consultar lista' }).click()
    await expect(page).toHaveURL(/vista=lista/)

    const table = page.locator('[data-table="sips-lista"]')
    await expect(table.locator('tbody tr')).toHaveCount(3)
    const bad = table.locator('tbody tr', { hasText: CUPS_BAD })
    await expect(bad).toContainText('No válido')
    await expect(bad).toContainText('Las letras de control del CUPS no son correctas (deberían ser RK).')
    for (const ok of [CUPS_OK, CUPS_OK2]) await expect(table.locator('tbody tr', { hasText: ok })).toContainText('Con datos')
    await expect(page.getByText('3 CUPS: 2 con datos, 1 no válido, 0 sin datos.')).toBeVisible()
    await expectAccessible(page)

    const file = await download(page, () => page.getByRole('button', { name: 'Exportar a Excel' }).click())
    expect(file.name).toMatch(/^sips-lista-\d{4}-\d{2}-\d{2}\.xlsx$/)
    expect(isXlsx(file.bytes)).toBe(true)

    // a row opens the single view; the list is still there when going back to it
    await table.getByRole('link', { name: `Abrir ${CUPS_OK2}` }).click()
    await expect(page.getByRole('region', { name: `Datos SIPS de ${CUPS_OK2}` })).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`cups=${CUPS_OK2}`))
    await page.getByRole('tab', { name: 'Varios CUPS' }).click()
    await expect(table.locator('tbody tr')).toHaveCount(3)
  })

  test('Sips: failures show the spec messages', async ({ page }) => {
    // one CUPS (GETs are retried once: the fault answers twice)
    await injectFault(page, { Method: 'GET', Path: '/api/sips/info', Status: 500, Times: 2 })
    await page.goto(`/utilidades/sips?cups=${CUPS_OK}`)
    await expect(toast(page)).toContainText('No se ha podido obtener información de este CUPS.')
    await expect(toast(page)).toContainText('Sips')

    // a list whose call fails
    await injectFault(page, { Method: 'POST', Path: '/api/sips/info/list', Status: 500, Times: 1 })
    await page.goto(`/utilidades/sips?vista=lista&lista=${CUPS_OK},${CUPS_OK2}`)
    await expect(toast(page)).toContainText('No se ha podido obtener información de ningún CUPS.')

    // a list where no CUPS could be read
    await page.goto(`/utilidades/sips?vista=lista&lista=${CUPS_BAD},ES9999`)
    await expect(page.locator('[data-table="sips-lista"] tbody tr')).toHaveCount(2)
    await expect(toast(page)).toContainText('No se ha podido obtener información de ningún CUPS.')
  })

  test('energy prices: three charts draw, tables, URL parameters, export and the OMIE message', async ({ page }) => {
    await page.goto('/soluciones/comparador/historico')
    const titles = ['Precio de cierre index (€/kWh)', 'Compensación de excedentes (€/kWh)', 'Precio del mercado diario OMIE (€/MWh)']
    for (const t of titles) {
      const frame = page.locator('figure', { has: page.getByRole('heading', { name: t }) })
      await expect.poll(() => inkOf(frame.locator('canvas')), { message: t }).toBeGreaterThan(2000)
    }
    await expect(page.getByText('media diaria', { exact: true })).toBeVisible()
    await expectAccessible(page)

    // the index table has one row per day with the 2.0TD periods
    const index = page.locator('figure', { has: page.getByRole('heading', { name: titles[0] }) })
    await index.getByRole('button', { name: 'Ver datos' }).click()
    await expect(index.locator('tbody tr')).toHaveCount(30)
    await expect(index.locator('thead th')).toHaveText(['Fecha', 'Media (€/kWh)', 'P1 (€/kWh)', 'P2 (€/kWh)', 'P3 (€/kWh)'])

    // a short range comes at the native resolution, and the parameters go to the URL
    await page.getByRole('button', { name: 'Último día' }).click()
    await expect(page).toHaveURL(/desde=(\d{4}-\d{2}-\d{2})&hasta=\1/)
    await expect(page.getByText('cuartohoraria (96 precios al día)', { exact: true })).toBeVisible()
    const omie = page.locator('figure', { has: page.getByRole('heading', { name: titles[2] }) })
    await omie.getByRole('button', { name: 'Ver datos' }).click()
    await expect(omie.locator('tbody tr')).toHaveCount(96)
    await omie.getByRole('button', { name: 'Ver gráfico' }).click()
    await expect.poll(() => inkOf(omie.locator('canvas'))).toBeGreaterThan(2000)

    const file = await download(page, () => omie.getByRole('button', { name: 'Exportar' }).click())
    expect(file.name).toMatch(/^precios-omie-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/)
    expect(isXlsx(file.bytes)).toBe(true)

    // the OMIE failure (retried once: twice)
    await injectFault(page, { Method: 'GET', Path: '/api/energia/historico-cierre/omie', Status: 500, Times: 2 })
    await page.goto('/soluciones/comparador/historico?desde=2024-04-01&hasta=2024-04-30&tarifa=2&modalidad=con_impuestos&fee=5')
    await expect(toast(page)).toContainText('No se han podido obtener los datos de OMIE.')
    // the other two still draw, with the URL's tariff
    await expect.poll(() => inkOf(page.locator('figure', { has: page.getByRole('heading', { name: titles[0] }) }).locator('canvas'))).toBeGreaterThan(2000)
    await expect(page.getByText('Coeficientes de la tarifa 3.0TD')).toBeVisible()
  })

  test('comparison: computed, saved and seen in the list', async ({ page }) => {
    const name = `Comparativa e2e ${Date.now()}`
    await page.goto('/soluciones/comparador/comparativa')
    const form = page.getByRole('form', { name: 'Datos de la factura actual' })
    await textField(form, 'Nombre de la comparativa').fill(name)
    await textField(form, 'Cliente').fill('Cliente de prueba')
    const group = (legend: string) => form.getByRole('group', { name: legend, exact: true })
    const values: [string, string[]][] = [
      ['Potencia contratada (kW)', ['4,6', '4,6']],
      ['Consumo anual (kWh)', ['900', '800', '1500']],
      ['Precio actual de la energía (€/kWh)', ['0,22', '0,17', '0,14']],
      ['Precio actual de la potencia (€/kW día)', ['0,11', '0,045']],
    ]
    for (const [legend, list] of values) {
      const g = group(legend)
      for (const [i, v] of list.entries()) await typeNumber(g.getByRole('spinbutton', { name: `P${i + 1}`, exact: true }), v)
    }
    await page.getByRole('button', { name: 'Comparar' }).click()
    const result = page.getByRole('region', { name: `Resultado: ${name}` })
    await expect(result.getByRole('status').first()).toContainText(/Ahorro anual con|Ninguna oferta/)
    await expect(result.locator('table').last()).toContainText('Total anual')
    await expect.poll(() => inkOf(result.locator('canvas'))).toBeGreaterThan(2000)
    await expectAccessible(page)

    await result.getByRole('button', { name: 'Guardar comparativa' }).click()
    await expect(toast(page)).toContainText('Comparativa guardada.')
    await result.getByRole('link', { name: 'Ver comparativas guardadas' }).click()
    await expect(page).toHaveURL(/\/soluciones\/comparador\/listado/)
    const row = page.locator('[data-table="comparativas"] tbody tr', { hasText: name })
    await expect(row).toContainText('Cliente de prueba')
    await expect(row).toContainText('2.0TD')
    await expectAccessible(page)

    // the row reopens it
    await row.getByRole('link', { name }).click()
    await expect(page).toHaveURL(/comparativa\?id=\d+/)
    await expect(page.getByRole('region', { name: `Resultado: ${name}` })).toContainText('Comparativa guardada')
  })

  test('maps: 52 provinces, figures on hover and focus, a click opens the filtered contracts list', async ({ page }) => {
    await page.goto('/soluciones/map')
    const provinces = page.locator('[data-province]')
    await expect(provinces).toHaveCount(52)
    await expect(page.getByText(/contratos en \d+ de 52 provincias/)).toBeVisible()
    const madrid = page.getByRole('link', { name: /^Madrid: \d+ contratos?$/ })
    await expect(madrid).toHaveCount(1)
    await madrid.hover()
    const tip = page.getByTestId('map-tooltip')
    await expect(tip).toContainText('Madrid')
    await expect(tip).toContainText('Contratos')
    await expect(tip).toContainText('Puntos de suministro')
    await expectAccessible(page)

    // keyboard: focus shows the figures, Enter opens the list filtered by that province
    const cadiz = page.getByRole('link', { name: /^Cádiz: / })
    await cadiz.focus()
    await expect(tip).toContainText('Cádiz')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/soluciones\/contratos\/listado\?f\.Provincia=C%C3%A1diz/)
    await expect(textField(page.getByRole('search', { name: 'Filtros' }), 'Provincia')).toHaveValue('Cádiz')
    await expect(page.locator('[data-table="contratos"] tbody tr').first()).toContainText(/./)

    // a click does the same
    await page.goto('/soluciones/map')
    await page.getByRole('link', { name: /^Barcelona: / }).click()
    await expect(page).toHaveURL(/f\.Provincia=Barcelona/)

    // the supply map
    await page.goto('/utilidades/map')
    await expect(page.locator('[data-province]')).toHaveCount(52)
    await page.getByRole('radio', { name: 'Consumo anual' }).or(page.getByRole('button', { name: 'Consumo anual' })).first().click()
    await expect(page).toHaveURL(/medida=ConsumoAnualKwh/)
    await expect(page.getByRole('link', { name: /^Madrid: [\d.]+ kWh al año$/ })).toHaveCount(1)
    await page.getByRole('button', { name: 'Ver datos' }).click()
    await expect(page.locator('.spain-map__table tbody tr')).toHaveCount(52)
    await expectAccessible(page)
  })
})
