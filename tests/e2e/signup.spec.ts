import { expect, test } from '@playwright/test'
import { expectAccessible, signIn, SUPERVISOR } from './support'

/**
 * Spec §7 sign-up (issue 18), with SIGNUP_ENABLED=true on the e2e portal: a stranger creates an
 * account from the sign-in page, cannot sign in until the supervisor approves it in the
 * Aprobaciones inbox, and then signs in.
 */

const SHOTS = process.env.SIGNUP_SHOTS_DIR
const PASSWORD = 'Alta-Navegador-2027'

test('sign up in the browser, wait for approval, the supervisor approves it, the new user signs in', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const stamp = Date.now().toString(36)
  const email = `nuria.${stamp}@pruebas.test`
  // A surname of this run: the form keeps it across errors.
  const surname = `Gil ${stamp}`

  await page.goto('/auth/login')
  await page.getByRole('link', { name: '¿No tienes cuenta? Crear cuenta' }).click()
  await expect(page).toHaveURL(/\/auth\/signup$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Crear cuenta' })).toBeVisible()

  // Field errors, and nothing typed is lost. (The required mark is part of the labels' text: fields by id.)
  await page.locator('#signup-email').fill('no-es-correo')
  await page.getByRole('button', { name: 'Solicitar alta' }).click()
  await expect(page.locator('#signup-email-error')).toHaveText('Introduce un correo electrónico válido.')
  await expect(page.locator('#signup-nombre-error')).toHaveText('Introduce tu nombre.')
  await page.locator('#signup-email').fill(email)
  await page.locator('#signup-nombre').fill('Nuria')
  await page.locator('#signup-apellidos').fill(surname)
  await page.locator('#signup-password').fill('corta')
  await page.locator('#signup-confirm').fill('corta')
  await page.getByRole('button', { name: 'Solicitar alta' }).click()
  await expect(page.locator('#signup-password-error')).toHaveText('La contraseña debe tener al menos 10 caracteres.')
  await expect(page.locator('#signup-email')).toHaveValue(email)
  await expect(page.locator('#signup-apellidos')).toHaveValue(surname)
  await expectAccessible(page)

  await page.locator('#signup-password').fill(PASSWORD)
  await page.locator('#signup-confirm').fill(PASSWORD)
  await page.getByRole('button', { name: 'Solicitar alta' }).click()
  await expect(page.getByRole('status')).toContainText('Un administrador debe aprobar la cuenta')
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/signup-done-es.png`, fullPage: true })

  // Before approval: told it waits, still on the sign-in page.
  await page.getByRole('link', { name: 'Iniciar sesión' }).first().click()
  await page.getByLabel('Correo electrónico').fill(email)
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page.getByRole('alert')).toHaveText('Tu cuenta está pendiente de aprobación.')
  await expect(page).toHaveURL(/\/auth\/login/)

  // The supervisor approves it in the Aprobaciones inbox.
  const context = await browser.newContext()
  const supervisor = await context.newPage()
  await signIn(supervisor, SUPERVISOR)
  await supervisor.goto('/sysmanager/aprobaciones')
  const row = supervisor.locator('[data-table="aprobaciones"] tbody tr', { hasText: email })
  await expect(row).toContainText('Alta de una cuenta por su titular')
  await expect(row).toContainText('PUT api/auth/activate')
  await row.getByRole('button', { name: 'Aprobar' }).click()
  const approve = supervisor.getByRole('dialog', { name: 'Aprobar el cambio' })
  await approve.getByRole('button', { name: 'Aprobar y aplicar' }).click()
  await expect(supervisor.locator('.p-toast')).toContainText('Cambio aprobado y enviado.')
  await context.close()

  // Now the new user signs in.
  await signIn(page, { username: email, password: PASSWORD })
})
