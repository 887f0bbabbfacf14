import { expect, test, type Page } from '@playwright/test'
import fs from 'node:fs'
import path from 'node:path'
import type { Manifest } from '../../schemas/manifest'
import { accessibilityProblems, ADMIN, signIn } from './support'

/**
 * English complete: with the portal switched to English, no screen the admin may open shows
 * Spanish in its chrome (headings, buttons, labels, empty states, PrimeReact's own texts, and
 * the aria-label, title and placeholder attributes). Data is left out: the renderer and the
 * widgets mark what they show from the API with the standard `translate="no"` attribute.
 */

/** The brands' names are proper names, Spanish in any language (the documentation names them all). */
const BRAND_NAMES = fs
  .readdirSync('brands')
  .map((dir) => (JSON.parse(fs.readFileSync(path.join('brands', dir, 'brand.json'), 'utf8')) as { Name: string }).Name)

/** Common Spanish UI words without an accent, which the letter check would miss. */
const SPANISH_WORDS = new Set(
  [
    'buscar', 'guardar', 'cancelar', 'filtros', 'filtrar', 'columnas', 'exportar', 'acciones', 'nuevo', 'nueva', 'volver', 'cerrar',
    'siguiente', 'anterior', 'datos', 'sin', 'resultados', 'cargando', 'limpiar', 'aplicar', 'eliminar', 'borrar', 'editar', 'ver',
    'descargar', 'enviar', 'entrar', 'salir', 'aceptar', 'seleccionar', 'todos', 'todas', 'ninguno', 'hoy', 'ayer', 'desde', 'hasta',
    'fecha', 'estado', 'nombre', 'usuario', 'usuarios', 'contratos', 'facturas', 'inicio', 'de', 'del', 'los', 'las', 'para', 'con',
    'por', 'una', 'uno', 'el', 'la',
  ],
)
/** Letters and marks English never uses. */
const SPANISH_LETTERS = /[ñáéíóúü¿¡]/i

/** A text's words, with the punctuation around them trimmed. */
function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((raw) => raw.replace(/^[^\p{L}¿¡]+|[^\p{L}]+$/gu, ''))
    .filter(Boolean)
}

/**
 * The Spanish-looking words of the chrome's texts, tested word by word against a set (no
 * pattern runs over the joined text). Chrome that names a record ("Delete Formación
 * comercial", a chart's summary) quotes data: the data texts are taken out of it first.
 */
function spanishIn({ chrome, data }: PageTexts, properNames: string[]): string[] {
  const quoted = [...new Set([...data, ...properNames])].filter((d) => d.length >= 3).sort((a, b) => b.length - a.length)
  const found = new Set<string>()
  for (const text of new Set(chrome)) {
    let own = text
    for (const d of quoted) if (own.includes(d)) own = own.split(d).join(' ')
    for (const word of wordsOf(own)) {
      if (SPANISH_LETTERS.test(word) || SPANISH_WORDS.has(word.toLowerCase())) found.add(`${word} (in «${text.length > 80 ? `${text.slice(0, 80)}…` : text}»)`)
    }
  }
  return [...found]
}

interface PageTexts {
  /** The portal's own words: visible text and aria-label, title and placeholder attributes. */
  chrome: string[]
  /** What the page shows from the API, inside `translate="no"` elements. */
  data: string[]
}

/**
 * The page's visible text and its aria-label, title and placeholder attributes, read in one
 * pass in the page, split into chrome and data (anything inside a `translate="no"` element,
 * attributes of that element included, as HTML defines it).
 */
function pageTexts(page: Page): Promise<PageTexts> {
  return page.evaluate(() => {
    const texts: PageTexts = { chrome: [], data: [] }
    // Text marked as Spanish on purpose (the switcher's «Español») is not chrome either.
    const isData = (el: Element | null) => !!el?.closest('[translate="no"], body [lang="es"]')
    const shown = (el: Element) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim()
      const parent = node.parentElement
      if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName) || !shown(parent)) continue
      ;(isData(parent) ? texts.data : texts.chrome).push(text)
    }
    for (const el of Array.from(document.body.querySelectorAll('[aria-label], [title], [placeholder]'))) {
      for (const name of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(name)?.trim()
        if (value) (isData(el) ? texts.data : texts.chrome).push(value)
      }
    }
    texts.chrome.push(document.title)
    return texts
  })
}

/** The first row's `field` of a paged list, a real key for a route's `{param}`. */
async function firstOf(page: Page, endpoint: string, field: string): Promise<string> {
  const res = await page.request.get(`${endpoint}?pageIndex=0&pageSize=1`)
  expect(res.ok(), endpoint).toBe(true)
  const body = (await res.json()) as { Items?: Record<string, unknown>[] } | Record<string, unknown>[]
  const first = Array.isArray(body) ? body[0] : body.Items?.[0]
  expect(first, `${endpoint} has data`).toBeTruthy()
  return String(first![field])
}

/** Waits for a screen to settle: its heading shown, its calls answered and nothing loading (each wait capped). */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 10_000 })
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined)
  await expect(page.locator('.p-skeleton, [aria-busy="true"], .p-datatable-loading-overlay')).toHaveCount(0, { timeout: 3_000 }).catch(() => undefined)
}

test.describe('in the dark theme', () => {
  test.use({ colorScheme: 'dark' })

  test('in English, no screen the admin may open shows Spanish outside its data, and each is accessible', async ({ page }) => {
    // A walk over every screen, an accessibility scan on each: 3-7 min here, more on a slow day.
    test.setTimeout(900_000)
    await signIn(page, ADMIN)
    // The check is not blind: the same walk over the Spanish home page finds Spanish.
    expect(spanishIn(await pageTexts(page), BRAND_NAMES).length, 'Spanish found on the Spanish home page').toBeGreaterThan(5)
    await page.locator('.layout-topbar').getByText('EN', { exact: true }).click()
    await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible()

    const manifest = (await (await page.request.get('/bff/manifest')).json()) as Manifest
    const routes = manifest.routes.filter((r) => !r.public)
    expect(routes.length).toBeGreaterThan(30)
    // A real key for each route with a parameter, from the list it is opened from.
    const samples: Record<string, string> = {
      '/usuarios/{id}': await firstOf(page, '/api/usuarios', 'Id'),
      '/soluciones/contratos/{referencia}': await firstOf(page, '/api/contract', 'CodigoContrato'),
      '/sysmanager/apiuser/{id}': await firstOf(page, '/api/apiusers/listado-api-user', 'Id'),
      '/soluciones/facturas/{id}': await firstOf(page, '/api/facturas', 'Id'),
    }

    const report: string[] = []
    for (const route of routes) {
      const url = route.path.includes('{') ? route.path.replace(/\{[^}]+\}/, samples[route.path] ?? '') : route.path
      expect(url, `a sample for ${route.path}`).not.toContain('{')
      const started = Date.now()
      await page.goto(url)
      await settle(page)
      await expect(page.locator('html'), url).toHaveAttribute('lang', 'en')
      await expect(page.locator('html'), `${url} in the dark theme`).toHaveClass(/\bapp-dark\b/)
      const spanish = spanishIn(await pageTexts(page), BRAND_NAMES)
      if (spanish.length) report.push(`${url}:\n  ${spanish.join('\n  ')}`)
      expect(Date.now() - started, `${url} settles quickly`).toBeLessThan(30_000)
      // Issue 17: axe over every route, here in English and the dark theme (routes.spec.ts: Spanish, light).
      const problems = await accessibilityProblems(page)
      if (problems.length) report.push(`${url} (axe, dark):\n  ${problems.join('\n  ')}`)
    }
    expect(report, report.join('\n')).toEqual([])
  })
})

test('in English, the sign-in pages show no Spanish', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('portal.lang', 'en'))
  const manifest = (await (await page.request.get('/bff/manifest')).json()) as Manifest
  const pages = manifest.routes.filter((r) => r.public && !r.path.includes('{'))
  const report: string[] = []
  for (const route of pages) {
    await page.goto(route.path)
    await settle(page)
    await expect(page.locator('html'), route.path).toHaveAttribute('lang', 'en')
    const spanish = spanishIn(await pageTexts(page), BRAND_NAMES)
    if (spanish.length) report.push(`${route.path}:\n  ${spanish.join('\n  ')}`)
  }
  expect(report, report.join('\n')).toEqual([])
})
