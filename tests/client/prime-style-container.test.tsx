// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react'
import { PrimeReactProvider } from 'primereact/api'
import { Dialog } from 'primereact/dialog'
import { Dropdown } from 'primereact/dropdown'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { primeStyleContainer } from '../../client/app/prime-style-container'

/**
 * Issue 19: each PrimeReact component, as it mounts, writes its stylesheets' text again, and
 * a rewritten <style> makes the browser match the whole page again. The portal's container
 * lets each stylesheet be written to the page once.
 */

afterEach(() => {
  cleanup()
  document.head.innerHTML = ''
  document.body.innerHTML = ''
})

/** Changes to the page's stylesheets while `during` runs: style elements added or removed, their text rewritten. */
async function styleWrites(during: () => void): Promise<number> {
  let writes = 0
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      const target = r.target.nodeType === Node.TEXT_NODE ? r.target.parentNode : r.target
      if (target instanceof HTMLStyleElement || [...r.addedNodes, ...r.removedNodes].some((n) => n instanceof HTMLStyleElement || n.parentNode instanceof HTMLStyleElement)) writes++
    }
  })
  observer.observe(document.head, { childList: true, subtree: true, characterData: true })
  during()
  await new Promise((r) => setTimeout(r, 0))
  observer.disconnect()
  return writes
}

const field = (key: number) => <Dropdown key={key} value={null} options={[{ label: 'Fijo', value: 'Fijo' }]} placeholder="Todos" />

describe('PrimeReact’s style container', () => {
  const withContainer = (children: ReactNode, styleContainer?: HTMLElement) => <PrimeReactProvider value={styleContainer ? { styleContainer } : {}}>{children}</PrimeReactProvider>

  it('writes each stylesheet into <head> once, and never again as more components mount', async () => {
    const container = primeStyleContainer()
    const first = await styleWrites(() => render(withContainer(field(1), container)))
    expect(first).toBeGreaterThan(0)
    expect(document.head.querySelectorAll('style[data-primereact-style-id="dropdown"]')).toHaveLength(1)
    const css = document.head.querySelector('style[data-primereact-style-id="dropdown"]')!.textContent
    expect(css).toContain('.p-dropdown')
    const again = await styleWrites(() => render(withContainer([field(2), field(3)], container)))
    expect(again).toBe(0)
    expect(document.head.querySelector('style[data-primereact-style-id="dropdown"]')!.textContent).toBe(css)
  })

  it('is needed: with PrimeReact’s default container every new component rewrites them', async () => {
    await styleWrites(() => render(withContainer(field(1))))
    const again = await styleWrites(() => render(withContainer(field(2))))
    expect(again).toBeGreaterThan(0)
  })

  it('still puts a component’s own style elements (a dialog’s breakpoints) in the page', async () => {
    const container = primeStyleContainer()
    render(
      withContainer(
        <Dialog header="Motivo" visible onHide={() => undefined} breakpoints={{ '641px': '95vw' }}>
          texto
        </Dialog>,
        container,
      ),
    )
    await new Promise((r) => setTimeout(r, 0))
    const rules = [...document.head.querySelectorAll('style:not([data-primereact-style-id])')].map((s) => s.textContent).join('\n')
    expect(rules).toMatch(/max-width:\s*641px/)
    expect(rules).toContain('95vw')
  })
})
