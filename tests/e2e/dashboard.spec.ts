import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import { acceptConfirmation, ADMIN, AGENTE, expectAccessible, forgetPreferences, signIn } from './support'

/**
 * The home dashboard (spec §5 and §9 grid rules): drag by the header, resize from the
 * bottom-right corner, layouts per breakpoint saved as the preference `dashboard:layouts` and
 * restored after a reload and a new sign-in, add/remove/restore, permissions, charts drawn.
 * The tests share admin's stored layout, so they run in order.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 })

const WIDE = { width: 1600, height: 1400 } // container > 1200 px: lg, 12 columns
const NARROW = { width: 600, height: 1500 } // container 480…768 px: xs, 4 columns
const PREF = 'dashboard:layouts'

type Cell = [number, number, number, number]
type Grid = Record<string, Cell>

const card = (page: Page, id: string) => page.locator(`[data-widget="${id}"]`)

/** Each widget's x, y, w, h in grid units, read from the page once it stops moving. */
async function readGrid(page: Page): Promise<{ bp: string; cells: Grid }> {
  return page.evaluate(() => {
    const grid = document.querySelector<HTMLElement>('.dash-grid')
    const container = document.querySelector<HTMLElement>('.react-grid-layout')
    if (!grid || !container) return { bp: '', cells: {} }
    const box = container.getBoundingClientRect()
    const bp = grid.dataset.breakpoint!
    const cols = ({ lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 } as Record<string, number>)[bp]!
    const colW = (box.width - 10 * (cols + 1)) / cols
    const cells: Record<string, [number, number, number, number]> = {}
    for (const el of document.querySelectorAll<HTMLElement>('.react-grid-item[data-widget]')) {
      const r = el.getBoundingClientRect()
      cells[el.dataset.widget!] = [
        Math.round((r.left - box.left - 10) / (colW + 10)),
        Math.round((r.top - box.top - 10) / 160),
        Math.round((r.width + 10) / (colW + 10)),
        Math.round((r.height + 10) / 160),
      ]
    }
    return { bp, cells }
  })
}

/** The grid once it has settled (react-grid-layout animates moves for 200 ms). */
async function settledGrid(page: Page): Promise<Grid> {
  await expect(page.locator('.dash-card').first()).toBeVisible()
  let last = ''
  let cells: Grid = {}
  await expect
    .poll(async () => {
      await page.waitForTimeout(250)
      const now = await readGrid(page)
      cells = now.cells
      const same = JSON.stringify(now) === last
      last = JSON.stringify(now)
      return same
    })
    .toBe(true)
  return cells
}

async function storedValue(page: Page): Promise<{ widgets?: string[]; layouts: Record<string, unknown> } | undefined> {
  return page.evaluate(async (key) => {
    const res = await fetch('/api/usuarios/preferences', { headers: { 'X-CSRF': '1' } })
    const list = (await res.json()) as { Clave: string; Valor: unknown }[]
    return list.find((p) => p.Clave === key)?.Valor as { widgets?: string[]; layouts: Record<string, unknown> } | undefined
  }, PREF)
}

async function forgetLayout(page: Page): Promise<void> {
  await forgetPreferences(page, (key) => key === PREF)
}

const isSave = (r: { url(): string; request(): { method(): string } }) => r.url().includes('/api/usuarios/preference') && !r.url().includes('preferences') && r.request().method() === 'POST'

/** Mouse down on a card's header (its title, not a button), a move in many steps, mouse up. */
async function dragHeader(page: Page, id: string, dx: number, dy: number): Promise<void> {
  const title = card(page, id).locator('.dash-card__title')
  const box = (await title.boundingBox())!
  const x = box.x + Math.min(30, box.width / 2)
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x + dx, y + dy, { steps: 20 })
  await page.mouse.up()
}

async function dragFrom(page: Page, target: Locator, dx: number, dy: number): Promise<void> {
  await target.hover()
  const box = (await target.boundingBox())!
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x + dx, y + dy, { steps: 20 })
  await page.mouse.up()
}

async function openDashboard(page: Page, viewport = WIDE): Promise<void> {
  await page.setViewportSize(viewport)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Inicio' })).toBeVisible()
  await expect(page.locator('.dash-card').first()).toBeVisible()
}

async function newSignedInPage(browser: Browser, who = ADMIN): Promise<Page> {
  const context = await browser.newContext({ viewport: WIDE })
  const page = await context.newPage()
  await signIn(page, who)
  return page
}

const DEFAULT_LG: Grid = {
  resumen: [0, 0, 12, 1],
  'altas-mes': [0, 1, 7, 2],
  situacion: [7, 1, 5, 2],
  omie: [0, 3, 7, 2],
  renovaciones: [7, 3, 5, 2],
}
const DEFAULT_XS: Grid = {
  resumen: [0, 0, 4, 2],
  'altas-mes': [0, 2, 4, 2],
  situacion: [0, 4, 4, 2],
  omie: [0, 6, 4, 2],
  renovaciones: [0, 8, 4, 2],
}

let admin: Page

test.beforeAll(async ({ browser }) => {
  admin = await newSignedInPage(browser)
  await forgetLayout(admin)
})

test.afterAll(async () => {
  await forgetLayout(admin)
  await admin.context().close()
})

test('the default layout, the live widgets and their charts, accessible', async () => {
  await openDashboard(admin)
  expect(await settledGrid(admin)).toEqual(DEFAULT_LG)
  expect((await readGrid(admin)).bp).toBe('lg')

  // every grid item is a region named by its title (h2), with a labelled remove button
  for (const name of ['Resumen', 'Altas de contratos por mes', 'Contratos por situación', 'Precio OMIE', 'Renovaciones pendientes']) {
    const region = admin.getByRole('region', { name, exact: true })
    await expect(region).toBeVisible()
    await expect(region.getByRole('heading', { level: 2, name })).toBeVisible()
    await expect(region.getByRole('button', { name: `Quitar ${name}` })).toBeVisible()
  }

  // live figures, es-ES formats
  const summary = card(admin, 'resumen')
  await expect(summary.getByText('Contratos activos')).toBeVisible()
  await expect(summary.getByText(/\d[\d.]*,\d{2}\s€/).first()).toBeVisible()
  // renewals link to the contract and to the list
  const renewals = card(admin, 'renovaciones')
  await expect(renewals.getByRole('link', { name: /^EV-\d{4}-\d{6}$/ }).first()).toHaveAttribute('href', /^\/soluciones\/contratos\/EV-\d{4}-\d{6}$/)
  await expect(renewals.getByRole('link', { name: /Ver todas las renovaciones/ })).toHaveAttribute('href', '/soluciones/renovaciones')
  // OMIE: average, minimum, maximum
  for (const term of ['Media', 'Mínimo', 'Máximo']) {
    await expect(card(admin, 'omie').locator('dt', { hasText: term })).toBeVisible()
  }
  await expect(card(admin, 'omie').locator('dd').first()).toHaveText(/^-?\d[\d.]*,\d{2}\s€\/MWh$/)

  // the three charts draw: their canvases hold painted (non-transparent) pixels
  for (const id of ['altas-mes', 'situacion', 'omie']) {
    const canvas = card(admin, id).locator('canvas')
    await expect(canvas).toBeVisible()
    await expect
      .poll(() =>
        canvas.evaluate((c: HTMLCanvasElement) => {
          const ctx = c.getContext('2d')
          if (!ctx || !c.width || !c.height) return 0
          const data = ctx.getImageData(0, 0, c.width, c.height).data
          let painted = 0
          for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted++
          return painted
        }),
      )
      .toBeGreaterThan(2000)
  }
  // "Ver datos" shows the same figures as a table
  await card(admin, 'altas-mes').getByRole('button', { name: 'Ver datos' }).click()
  await expect(card(admin, 'altas-mes').getByRole('columnheader', { name: 'Altas' })).toBeVisible()
  await expect(card(admin, 'altas-mes').locator('tbody tr')).toHaveCount(12)
  await card(admin, 'altas-mes').getByRole('button', { name: 'Ver gráfico' }).click()

  await expectAccessible(admin)
})

test('drag by the header and resize from the bottom-right corner; saved once per gesture, back after a reload and a new sign-in', async ({ browser }) => {
  await openDashboard(admin)
  expect(await settledGrid(admin)).toEqual(DEFAULT_LG)
  const saves: string[] = []
  admin.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/usuarios\/preference$/.test(new URL(r.url()).pathname)) saves.push(r.postData() ?? '')
  })

  // a drag starting on a button, or in a card's body (the chart), moves nothing
  await dragFrom(admin, card(admin, 'renovaciones').getByRole('button', { name: 'Organizar Renovaciones pendientes' }), -300, -320)
  await dragFrom(admin, card(admin, 'omie').locator('canvas'), 500, -320)
  await admin.waitForTimeout(1200)
  expect(await settledGrid(admin)).toEqual(DEFAULT_LG)
  expect(saves).toHaveLength(0)

  // drag "Renovaciones pendientes" up by two rows by its header: "Contratos por situación" is pushed down
  let saved = admin.waitForResponse((r) => isSave(r))
  await dragHeader(admin, 'renovaciones', 0, -320)
  await saved
  const afterDrag = await settledGrid(admin)
  expect(afterDrag.renovaciones).toEqual([7, 1, 5, 2])
  expect(afterDrag.situacion).toEqual([7, 3, 5, 2])
  expect(saves).toHaveLength(1) // one save for a drag of 20 moves

  // resize "Precio OMIE" from its bottom-right handle: one row taller, one column narrower
  saved = admin.waitForResponse((r) => isSave(r))
  await dragFrom(admin, card(admin, 'omie').locator('.react-resizable-handle-se'), -110, 160)
  await saved
  const afterResize = await settledGrid(admin)
  expect(afterResize.omie).toEqual([0, 3, 6, 3])
  expect(saves).toHaveLength(2)
  // only the wide breakpoint was arranged
  const stored = await storedValue(admin)
  expect(Object.keys(stored!.layouts)).toEqual(['lg'])

  // reload: the same layout, with no default painted first (the grid waits for the preference)
  // Slower than the init step waits (INIT_WAIT_MS, 1.5 s): the dashboard is drawn and its grid waits.
  await admin.route('**/api/usuarios/preferences**', async (route) => {
    await new Promise((r) => setTimeout(r, 3000))
    await route.continue()
  })
  await admin.reload()
  await expect(admin.getByLabel('Cargando el panel')).toBeVisible()
  await expect(admin.locator('.dash-card')).toHaveCount(0)
  expect(await settledGrid(admin)).toEqual(afterResize)
  await admin.unroute('**/api/usuarios/preferences**')

  // sign out and in again in a new browser context (another machine): the same layout
  await admin.getByRole('button', { name: /Ana Administradora/ }).click()
  await admin.getByRole('menuitem', { name: /Cerrar sesión/ }).click()
  await expect(admin).toHaveURL(/\/auth\/login/)
  await admin.context().close()
  admin = await newSignedInPage(browser)
  await openDashboard(admin)
  expect(await settledGrid(admin)).toEqual(afterResize)
})

test('narrow and wide layouts are kept apart', async () => {
  await openDashboard(admin)
  const wide = await settledGrid(admin)
  const storedBefore = await storedValue(admin)

  // at 600 px (xs, 4 columns) the narrow default applies, not the wide layout
  await admin.setViewportSize(NARROW)
  await expect.poll(async () => (await readGrid(admin)).bp).toBe('xs')
  expect(await settledGrid(admin)).toEqual(DEFAULT_XS)

  // change the narrow layout: "Contratos por situación" up above "Altas de contratos por mes"
  let saved = admin.waitForResponse((r) => isSave(r))
  await dragHeader(admin, 'situacion', 0, -320)
  await saved
  const narrow = await settledGrid(admin)
  expect(narrow.situacion).toEqual([0, 2, 4, 2])
  expect(narrow['altas-mes']).toEqual([0, 4, 4, 2])
  const storedNarrow = await storedValue(admin)
  expect(storedNarrow!.layouts.lg).toEqual(storedBefore!.layouts.lg) // the wide layout is untouched
  expect(storedNarrow!.layouts.xs).toBeTruthy()

  // back to wide: the wide layout is unchanged
  await admin.setViewportSize(WIDE)
  await expect.poll(async () => (await readGrid(admin)).bp).toBe('lg')
  expect(await settledGrid(admin)).toEqual(wide)

  // and vice versa: a change at wide leaves the narrow layout alone
  saved = admin.waitForResponse((r) => isSave(r))
  await dragHeader(admin, 'altas-mes', 0, 640)
  await saved
  const wide2 = await settledGrid(admin)
  expect(wide2).not.toEqual(wide)
  const storedWide = await storedValue(admin)
  expect(storedWide!.layouts.xs).toEqual(storedNarrow!.layouts.xs)

  await admin.reload()
  await expect(admin.locator('.dash-card').first()).toBeVisible()
  await admin.setViewportSize(NARROW)
  await expect.poll(async () => (await readGrid(admin)).bp).toBe('xs')
  expect(await settledGrid(admin)).toEqual(narrow)
  await admin.setViewportSize(WIDE)
  await expect.poll(async () => (await readGrid(admin)).bp).toBe('lg')
  expect(await settledGrid(admin)).toEqual(wide2)
})

test('remove a widget and add it back; keyboard arranging', async () => {
  await openDashboard(admin)
  await settledGrid(admin)

  let saved = admin.waitForResponse((r) => isSave(r))
  await card(admin, 'omie').getByRole('button', { name: 'Quitar Precio OMIE' }).click()
  await expect(card(admin, 'omie')).toHaveCount(0)
  await saved
  // the keyboard focus goes to "Añadir widget", whose menu offers the removed widget
  await expect(admin.getByRole('button', { name: 'Añadir widget' })).toBeFocused()
  await admin.reload()
  await expect(admin.locator('.dash-card').first()).toBeVisible()
  await expect(card(admin, 'omie')).toHaveCount(0)

  saved = admin.waitForResponse((r) => isSave(r))
  await admin.getByRole('button', { name: 'Añadir widget' }).click()
  await admin.getByRole('menuitem', { name: 'Precio OMIE' }).click()
  await expect(card(admin, 'omie')).toBeVisible()
  await expect(card(admin, 'omie')).toBeFocused()
  await saved
  await admin.reload()
  await expect(card(admin, 'omie')).toBeVisible()
  // nothing left to add
  await admin.getByRole('button', { name: 'Añadir widget' }).click()
  await expect(admin.getByRole('menuitem', { name: 'Todos los widgets están en el panel' })).toBeVisible()
  await admin.keyboard.press('Escape')

  // arranging from the keyboard: the card's "Organizar" menu
  const before = await settledGrid(admin)
  saved = admin.waitForResponse((r) => isSave(r))
  await card(admin, 'situacion').getByRole('button', { name: 'Organizar Contratos por situación' }).focus()
  await admin.keyboard.press('Enter')
  const activeItem = () =>
    admin.evaluate(() => {
      const list = document.activeElement
      const id = list?.getAttribute('aria-activedescendant')
      return list?.getAttribute('role') === 'menu' && id ? (document.getElementById(id)?.textContent ?? '') : ''
    })
  for (let i = 0; i < 10 && (await activeItem()) !== 'Más alto'; i++) await admin.keyboard.press('ArrowDown')
  expect(await activeItem()).toBe('Más alto')
  await admin.keyboard.press('Enter')
  await saved
  const after = await settledGrid(admin)
  expect(after.situacion![3]).toBe(before.situacion![3] + 1)
  await expect(card(admin, 'situacion').getByRole('button', { name: 'Organizar Contratos por situación' })).toBeFocused()
})

test('"Restablecer" asks, then restores the default layout everywhere', async () => {
  await openDashboard(admin)
  expect(await settledGrid(admin)).not.toEqual(DEFAULT_LG)
  await admin.getByRole('button', { name: 'Restablecer' }).click()
  const removed = admin.waitForResponse((r) => r.url().includes('/api/usuarios/preference') && r.request().method() === 'DELETE')
  await acceptConfirmation(admin)
  await removed
  expect(await settledGrid(admin)).toEqual(DEFAULT_LG)
  expect(await storedValue(admin)).toBeUndefined()
  await admin.reload()
  expect(await settledGrid(admin)).toEqual(DEFAULT_LG)
  await admin.setViewportSize(NARROW)
  await expect.poll(async () => (await readGrid(admin)).bp).toBe('xs')
  expect(await settledGrid(admin)).toEqual(DEFAULT_XS)
})

test('a widget whose data fails says so through the toast (titled by area) and can retry', async () => {
  let calls = 0
  await admin.route('**/api/energia/ultima-fecha', async (route) => {
    calls++
    await route.fulfill({ status: 500, body: '' })
  })
  await openDashboard(admin)
  const error = admin.locator('.p-toast-message-error').filter({ hasText: 'No se han podido obtener los datos de OMIE.' })
  await expect(error).toBeVisible()
  await expect(error).toContainText('OMIE')
  expect(calls).toBe(2) // a GET is retried once (spec §9)
  await expect(card(admin, 'omie').getByText('No se han podido cargar los datos.')).toBeVisible()
  // the other widgets are unaffected
  await expect(card(admin, 'altas-mes').locator('canvas')).toBeVisible()

  await admin.unroute('**/api/energia/ultima-fecha')
  await card(admin, 'omie').getByRole('button', { name: 'Reintentar' }).click()
  await expect(card(admin, 'omie').locator('canvas')).toBeVisible()
})

test('without VERRENOVACIONES there is no renewals widget, drawn or offered', async ({ browser }) => {
  const page = await newSignedInPage(browser, AGENTE)
  await openDashboard(page)
  const cells = await settledGrid(page)
  expect(Object.keys(cells).sort()).toEqual(['altas-mes', 'omie', 'resumen', 'situacion'])
  await expect(page.getByRole('region', { name: 'Renovaciones pendientes' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Añadir widget' }).click()
  await expect(page.getByRole('menuitem', { name: 'Renovaciones pendientes' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expectAccessible(page)
  await page.context().close()
})
