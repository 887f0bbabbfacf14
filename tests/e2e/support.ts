import { expect, type Browser, type Locator, type Page } from '@playwright/test'
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const PORT = Number(process.env.E2E_PORT ?? 4321)
export const DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data')
export const ADMIN = { username: 'admin@portal.test', password: 'Portal-Admin-2026!' }
export const AGENTE = { username: 'agente@portal.test', password: 'Portal-Agente-2026!' }

/** The portal on a brand's host: `portal.<domain label>.localhost` reaches loopback in Chromium. */
export const brandHosts = (port: number) =>
  ({
    verde: `http://portal.energiaverde.localhost:${port}`,
    grupo: `http://portal.grupoenergia.localhost:${port}`,
    limpia: `http://portal.energialimpia.localhost:${port}`,
  }) as const
export const BRAND_HOSTS = brandHosts(PORT)
/** The menu manager's suite has a portal of its own: its saves change menus and tables for everyone. */
export const MENU_PORT = PORT + 1

export async function signIn(page: Page, creds: { username: string; password: string }, base = ''): Promise<void> {
  await page.goto(`${base}/auth/login`)
  await page.getByLabel('Correo electrónico').fill(creds.username)
  await page.getByLabel('Contraseña', { exact: true }).fill(creds.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page).not.toHaveURL(/\/auth\/login/)
  await expect(page.getByRole('navigation', { name: 'Menú principal' })).toBeVisible()
}

/** Section and entry labels of the side menu, in order. */
export async function sidebarLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menú principal' })
  return (await nav.locator('.layout-menu__section-title, .layout-menu__link').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())
}

/**
 * Deletes the signed-in user's preferences whose key `match` accepts (a table's layout, the
 * dashboard's grid), so a test starts from, and leaves, the screen's own layout even after a
 * failed attempt.
 */
export async function forgetPreferences(page: Page, match: (key: string) => boolean): Promise<void> {
  // On the page's own host: the session's cookie belongs to the brand's host it signed in on.
  const origin = /^https?:/.test(page.url()) ? new URL(page.url()).origin : ''
  const list = await page.request.get(`${origin}/api/usuarios/preferences`, { headers: { 'X-CSRF': '1' } })
  expect(list.ok()).toBe(true)
  for (const p of (await list.json()) as { Id: number; Clave: string }[]) {
    if (!match(p.Clave)) continue
    const res = await page.request.delete(`${origin}/api/usuarios/preference?preferenciaId=${p.Id}`, { headers: { 'X-CSRF': '1' } })
    expect(res.ok()).toBe(true)
  }
}

/** The newest mail in the outbox addressed to `to`, as text. */
export function latestMailTo(to: string): string | null {
  const dir = path.join(DATA_DIR, 'outbox')
  if (!fs.existsSync(dir)) return null
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse()
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8')
    if (text.includes(`To: ${to}`)) return text
  }
  return null
}

/** The serious and critical axe-core violations (WCAG 2.1 A/AA rules) of the current page, one line each. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const { default: AxeBuilder } = await import('@axe-core/playwright')
  // A toast caught mid-animation is, for that moment, semi-transparent text: its colours are
  // checked once it is fully shown, not while it fades in or out.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('.p-toast-message-enter, .p-toast-message-enter-active, .p-toast-message-exit, .p-toast-message-exit-active')
    // Legacy mode runs axe in the page itself. The default opens a second, blank page for every
    // scan to merge the frames' results: the same results here (the portal's only frame, the
    // studio's preview, is of its own origin, and legacy mode scans such frames), in half the time.
    .setLegacyMode(true)
    .analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`)
}

/** Zero serious or critical axe-core violations on the current page (WCAG 2.1 A/AA rules). */
export async function expectAccessible(page: Page): Promise<void> {
  const serious = await accessibilityProblems(page)
  expect(serious, serious.join('\n')).toEqual([])
}

/** Picks an option of the PrimeReact dropdown (or multiselect) labelled `label` inside `scope`. */
export async function chooseOption(page: Page, scope: Locator, label: string, option: string): Promise<void> {
  const field = scope.locator('.screen-form__field, .filter-bar__item').filter({ has: page.locator('label', { hasText: label }) }).first()
  const panel = page.locator('.p-dropdown-panel, .p-multiselect-panel')
  // A click that lands while the dialog is still opening can leave the list closed: open it again until the option shows.
  await expect(async () => {
    if (!(await panel.isVisible())) await field.locator('.p-dropdown, .p-multiselect').first().click()
    await expect(panel.getByRole('option', { name: option })).toBeVisible({ timeout: 5_000 })
  }).toPass({ timeout: 30_000 })
  await panel.getByRole('option', { name: option }).click()
  // A multiselect stays open: close it with its own button (Escape would close the dialog too).
  if (await page.locator('.p-multiselect-panel').isVisible()) await page.locator('.p-multiselect-panel .p-multiselect-close').click()
  await expect(page.locator('.p-multiselect-panel')).toBeHidden()
}

/** Accepts the confirmation dialog an action asked. */
export async function acceptConfirmation(page: Page): Promise<void> {
  await page.locator('.p-confirm-dialog').getByRole('button', { name: 'Sí, continuar' }).click()
}

/** A labelled text input of a form or filter bar, matched on the label's exact text. */
export function textField(scope: Locator, label: string): Locator {
  return scope.getByRole('textbox', { name: label, exact: true })
}

/** A labelled number input (PrimeReact InputNumber is a spin button). */
export function numberField(scope: Locator, label: string): Locator {
  return scope.getByRole('spinbutton', { name: label, exact: true })
}

/** Types a number key by key, as a person does (PrimeReact InputNumber formats as you type). */
export async function typeNumber(input: Locator, text: string): Promise<void> {
  await input.click()
  await input.press('Control+A')
  await input.press('Backspace')
  await input.pressSequentially(text)
}

export interface FaultRequest {
  Method: string
  Path: string
  Status: number
  Times?: number
}

/** The faults each page's test asked for, so it removes its own and never another test's. */
const faultsOf = new WeakMap<Page, number[]>()
/** Each page's fault scope: the header its calls carry and the Scope of its faults. */
const scopeOf = new WeakMap<Page, string>()

/**
 * Asks the reference API (through the BFF, as the signed-in user) to fail a call made by this
 * page. The fault is scoped to the page (its calls carry `X-Fault-Scope` from now on), so a
 * test running at the same time on another worker never uses it up or sees it.
 */
export async function injectFault(page: Page, fault: FaultRequest): Promise<void> {
  let scope = scopeOf.get(page)
  if (!scope) {
    scope = `e2e-${randomUUID()}`
    scopeOf.set(page, scope)
    await page.setExtraHTTPHeaders({ 'X-Fault-Scope': scope })
  }
  const res = await page.request.post('/api/__test/faults', { headers: { 'X-CSRF': '1' }, data: { ...fault, Scope: scope } })
  expect(res.status()).toBe(201)
  const { Id } = (await res.json()) as { Id: number }
  faultsOf.set(page, [...(faultsOf.get(page) ?? []), Id])
}

/** Removes the faults this page's test injected (those already used up answer 404). */
export async function clearFaults(page: Page): Promise<void> {
  for (const id of faultsOf.get(page) ?? []) {
    const res = await page.request.delete(`/api/__test/faults/${id}`, { headers: { 'X-CSRF': '1' } })
    expect([204, 404]).toContain(res.status())
  }
  faultsOf.delete(page)
}

/**
 * Deletes the signed-in user's draft of a form. Drafts are kept by the BFF per user, across
 * browser contexts, so a test that needs a form without one says so.
 */
export async function discardDraft(page: Page, key: string): Promise<void> {
  const res = await page.request.delete(`/bff/drafts/${key}`, { headers: { 'X-CSRF': '1' } })
  expect(res.status()).toBe(204)
}

/** Resolves once the BFF has stored a draft of `key` holding every one of `texts` (saves are debounced). */
export function draftSaved(page: Page, key: string, ...texts: string[]): Promise<unknown> {
  return page.waitForResponse(
    (res) =>
      res.request().method() === 'PUT' &&
      new URL(res.url()).pathname === `/bff/drafts/${key}` &&
      res.ok() &&
      texts.every((text) => (res.request().postData() ?? '').includes(text)),
  )
}

/** The demo's second approver (four-eyes approval). */
export const SUPERVISOR = { username: 'supervisor@portal.test', password: 'Portal-Supervisor-2026!' }

/**
 * A change the BFF held for approval (an information toast), approved by the supervisor from
 * their own session, found in the inbox by a text of its diff (a description the test typed).
 */
export async function approveAsSupervisor(browser: Browser, text: string): Promise<void> {
  const context = await browser.newContext()
  try {
    const login = await context.request.post('/bff/auth/login', { headers: { 'X-CSRF': '1' }, data: SUPERVISOR })
    expect(login.status()).toBe(200)
    const inbox = (await (await context.request.get('/bff/approvals')).json()) as { Items: { id: string; changes: { after: string | null }[] }[] }
    const held = inbox.Items.find((a) => a.changes.some((c) => c.after === text))
    expect(held, `a held change with «${text}» in the inbox`).toBeTruthy()
    const approved = await context.request.post(`/bff/approvals/${held!.id}/approve`, { headers: { 'X-CSRF': '1' }, data: {} })
    expect(approved.status()).toBe(200)
  } finally {
    await context.close()
  }
}

/** After approval, the requester reads the new key once, from «Mis solicitudes». */
export async function revealApprovedKey(page: Page, description: string): Promise<void> {
  await page.goto('/utilidades/mis-solicitudes')
  await page.locator('[data-table="mis-solicitudes"] tbody tr', { hasText: description }).getByRole('button', { name: 'Ver la clave generada' }).click()
}

/**
 * The Auditoría screen's rows for the given filters (typed into its filter bar as a person
 * would), once the table shows the filter in its URL. Needs a GESTORACCESS session.
 */
export async function auditRows(page: Page, filters: { record?: string; user?: string; call?: string }): Promise<Locator> {
  await page.goto('/sysmanager/auditoria')
  const bar = page.getByRole('search', { name: 'Filtros' })
  if (filters.record) await textField(bar, 'Registro').fill(filters.record)
  if (filters.user) await textField(bar, 'Usuario').fill(filters.user)
  if (filters.call) await textField(bar, 'Llamada').fill(filters.call)
  if (filters.record) await expect(page).toHaveURL(new RegExp(`f\\.record\\.id=${encodeURIComponent(filters.record)}`))
  return page.locator('[data-table="auditoria"] tbody tr')
}
