import { expect, test } from '@playwright/test'
import fs from 'node:fs'
import path from 'node:path'
import { ADMIN, AGENTE, BRAND_HOSTS, latestMailTo, signIn, sidebarLabels } from './support'

test('admin and agente see different sidebars', async ({ browser }) => {
  const adminPage = await (await browser.newContext()).newPage()
  await signIn(adminPage, ADMIN)
  const admin = await sidebarLabels(adminPage)
  const agentePage = await (await browser.newContext()).newPage()
  await signIn(agentePage, AGENTE)
  const agente = await sidebarLabels(agentePage)

  for (const gated of ['Renovaciones', 'USUARIOS', 'GESTIÓN DE SISTEMA', 'PRODUCTOS', 'Baterias', 'API Usuarios', 'API KEY']) {
    expect(admin).toContain(gated)
    expect(agente).not.toContain(gated)
  }
  for (const shared of ['Dashboard', 'Alta', 'Listado', 'Facturas', 'Agentes', 'Sips', 'Historico']) {
    expect(agente).toContain(shared)
  }
  // development build: the dev-only entries are there for both
  expect(agente).toContain('Contrato')
  expect(admin).toContain('Menú')
})

test.describe('each brand host shows its own name, colour and favicon', () => {
  const expected = {
    verde: { name: 'Energía Verde', dir: 'verde', colour: 'rgb(4, 120, 87)' },
    grupo: { name: 'Grupo Energía', dir: 'grupo', colour: 'rgb(14, 116, 144)' },
    limpia: { name: 'Energía Limpia', dir: 'limpia', colour: 'rgb(15, 118, 110)' },
  } as const
  for (const [key, brand] of Object.entries(expected)) {
    test(key, async ({ page }) => {
      const base = BRAND_HOSTS[key as keyof typeof BRAND_HOSTS]
      await page.goto(`${base}/auth/login`)
      await expect(page).toHaveTitle('Portal')
      await expect(page.getByRole('img', { name: brand.name }).first()).toBeVisible()
      await expect(page.getByText(`${brand.name} · Portal de gestión`)).toBeVisible()
      // the sign-in button is filled with the brand's (accessible) primary colour
      const colour = await page.getByRole('button', { name: 'Entrar' }).evaluate((b) => getComputedStyle(b).backgroundColor)
      expect(colour).toBe(brand.colour)
      // favicon swapped at start-up to the brand's, byte-identical to the brand file
      const href = await page.locator('link[rel="icon"]').getAttribute('href')
      expect(href).toBe(`/bff/brand/${key}/favicon.ico`)
      // fetched by the page itself: Node cannot resolve *.localhost, Chromium can
      const bytes = (url: string) =>
        page.evaluate(async (u) => Array.from(new Uint8Array(await (await fetch(u)).arrayBuffer())), url).then((a) => Buffer.from(a))
      const file = fs.readFileSync(path.join('brands', brand.dir, 'favicon.ico'))
      expect(Buffer.compare(await bytes(href!), file)).toBe(0)
      expect(Buffer.compare(await bytes('/favicon.ico'), file)).toBe(0)
      // signed in, the topbar carries the brand logo
      await signIn(page, AGENTE, base)
      await expect(page.locator('.layout-topbar__logo img')).toHaveAttribute('src', `/bff/brand/${key}/logo-light.svg`)
    })
  }
})

test('a signed-out visit lands on login and comes back after sign-in', async ({ page }) => {
  await page.goto('/soluciones/contratos/listado?page=2')
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fsoluciones%2Fcontratos%2Flistado%3Fpage%3D2$/)
  await page.getByLabel('Correo electrónico').fill(AGENTE.username)
  await page.getByLabel('Contraseña', { exact: true }).fill(AGENTE.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page).toHaveURL(/\/soluciones\/contratos\/listado\?page=2$/)
})

test('a redirect to another origin is ignored', async ({ page }) => {
  await page.goto('/auth/login?redirect=%2F%2Fevil.example%2F')
  await page.getByLabel('Correo electrónico').fill(AGENTE.username)
  await page.getByLabel('Contraseña', { exact: true }).fill(AGENTE.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page).toHaveURL(/localhost:\d+\/$/)
})

test('wrong password shows the Spanish error and stays on login', async ({ page }) => {
  await page.goto('/auth/login')
  await page.getByLabel('Correo electrónico').fill(AGENTE.username)
  await page.getByLabel('Contraseña', { exact: true }).fill('no-es-esta')
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page.getByRole('alert')).toHaveText('Usuario o contraseña incorrectos.')
  await expect(page).toHaveURL(/\/auth\/login/)
})

test('agente opening /usuarios/listado lands on /error?status=401', async ({ page }) => {
  await signIn(page, AGENTE)
  await page.goto('/usuarios/listado')
  await expect(page).toHaveURL(/\/error\?status=401$/)
  await expect(page.getByText('401', { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Acceso no autorizado' })).toBeVisible()
})

test('an unknown path shows Page Not Found with the path', async ({ page }) => {
  await page.goto('/no-existe')
  await expect(page.getByRole('heading', { name: 'Page Not Found: /no-existe' })).toBeVisible()
  await expect(page.getByText('404', { exact: true })).toBeVisible()
})

test('a signed-in user opening the login page goes to /', async ({ page }) => {
  await signIn(page, AGENTE)
  await page.goto('/auth/login')
  await expect(page).toHaveURL(/localhost:\d+\/$/)
  // and a direct load of / serves the app
  await page.goto('/')
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
})

test('password recovery end to end through the outbox', async ({ page }) => {
  // A seeded staff account without a usable password: recovery is how it gets one.
  const email = 'raquel.ramos@portal.test'
  await page.goto('/auth/login')
  await page.getByRole('link', { name: '¿Has olvidado tu contraseña?' }).click()
  await expect(page).toHaveURL(/\/auth\/recovery$/)
  await expect(page.getByRole('heading', { name: 'Recuperar contraseña' })).toBeVisible()
  await page.getByLabel('Correo electrónico').fill(email)
  await page.getByRole('button', { name: 'Enviar enlace' }).click()
  await expect(page.getByRole('status')).toContainText('recibirá un correo')

  await expect.poll(() => latestMailTo(email), { timeout: 5000 }).not.toBeNull()
  const mail = latestMailTo(email)!
  const link = /(http:\/\/\S+\/auth\/resetpassword\?\S+)/.exec(mail)?.[1]
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect(page.getByLabel('Correo electrónico')).toHaveValue(email)
  await page.getByLabel('Contraseña nueva').fill('corta')
  await page.getByLabel('Repite la contraseña').fill('corta')
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click()
  await expect(page.getByRole('alert')).toHaveText('La contraseña debe tener al menos 10 caracteres.')
  await page.getByLabel('Contraseña nueva').fill('Recuperada-2026')
  await page.getByLabel('Repite la contraseña').fill('Recuperada-2026')
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click()
  await expect(page.getByRole('status')).toContainText('Contraseña cambiada')
  await signIn(page, { username: email, password: 'Recuperada-2026' })
  // the link works once only
  await page.context().clearCookies()
  await page.goto(link!)
  await page.getByLabel('Contraseña nueva').fill('OtraMas-2026x')
  await page.getByLabel('Repite la contraseña').fill('OtraMas-2026x')
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click()
  await expect(page.getByRole('alert')).toContainText('no es válido o ha caducado')
})

test('sign-out ends the session', async ({ page }) => {
  await signIn(page, AGENTE)
  await page.getByRole('button', { name: /Menú de usuario/ }).click()
  await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click()
  await expect(page).toHaveURL(/\/auth\/login/)
  await page.goto('/soluciones/facturas')
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fsoluciones%2Ffacturas$/)
  const session = await page.request.get('/bff/auth/session')
  expect(session.status()).toBe(401)
})

test('the dev-only Contrato entry asks for a code in a non-closable dialog', async ({ page }) => {
  await signIn(page, AGENTE)
  await page.getByRole('navigation', { name: 'Menú principal' }).getByRole('button', { name: 'Contrato' }).click()
  const dialog = page.getByRole('dialog', { name: 'Ingresa el código de contrato' })
  await expect(dialog).toBeVisible()
  await expect(dialog.locator('.p-dialog-header-close')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Código de contrato').fill('EV-2026-000001')
  await dialog.getByRole('button', { name: 'Ir al contrato' }).click()
  await expect(page).toHaveURL(/\/soluciones\/contratos\/EV-2026-000001$/)
})

test('the language switcher turns the shell to English', async ({ page }) => {
  await signIn(page, AGENTE)
  await page.locator('.layout-topbar').getByText('EN', { exact: true }).click()
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByText('Invoices')).toBeVisible()
  await page.locator('.layout-topbar').getByText('ES', { exact: true }).click()
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
})
