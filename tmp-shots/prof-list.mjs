import { chromium } from 'playwright'
import fs from 'node:fs'
const base = process.env.BASE
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'], headless: true })
const ctx = await browser.newContext({ viewport: { width: 1366, height: 850 } })
const page = await ctx.newPage()
await page.goto(`${base}/auth/login`)
await page.fill('#login-username', 'admin@portal.test')
await page.fill('#login-password', 'Portal-Admin-2026!')
await page.click('form.auth-form button[type="submit"]')
await page.waitForURL(`${base}/`)
// warm: visit list once then back
for (const target of ['/soluciones/facturas', '/agentes/listado']) {
  await page.goto(`${base}/`)
  await page.locator(`nav a[href="${target}"]`).waitFor()
  await page.waitForLoadState('networkidle')
  const cdp = await ctx.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  await page.locator(`nav a[href="${target}"]`).hover()
  await page.waitForTimeout(300)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  const t0 = Date.now()
  await page.locator(`nav a[href="${target}"]`).click()
  await page.locator('main .p-datatable-tbody tr td').nth(2).waitFor()
  await page.waitForTimeout(50)
  const { profile } = await cdp.send('Profiler.stop')
  console.log(target, 'wall', Date.now() - t0)
  fs.writeFileSync(`/tmp/prof-${target.replace(/\//g, '_')}.cpuprofile`, JSON.stringify(profile))
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
}
await browser.close()
