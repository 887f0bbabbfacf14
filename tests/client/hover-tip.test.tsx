// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { afterEach, describe, expect, it } from 'vitest'
import type { ActionSpec } from '../../schemas/screen'
import { ActionButton } from '../../client/renderer/actions/ActionButton'
import { HoverTips } from '../../client/ui/hover-tip'

/**
 * Issue 19, screens: a list's row buttons are plain buttons (PrimeReact's markup and classes)
 * named by the app's one tooltip (`HoverTips`, mounted once by the signed-in layout) instead of a
 * PrimeReact Button and Tooltip each: with one per row they were a tenth of a list's first paint.
 * The tip must still do what the per-button one did: name the button on hover and on keyboard
 * focus, above it, and go away when the pointer or the focus leaves, on Escape and on a click.
 */

afterEach(cleanup)

const tip = () => screen.queryByRole('tooltip')

function renderTips(children: React.ReactNode) {
  return render(
    <>
      {children}
      <HoverTips />
    </>,
  )
}

describe('the app’s one tooltip', () => {
  it('names an element with data-tip on hover and hides when the pointer leaves it', () => {
    renderTips(
      <div>
        <button type="button" data-tip="Ver contrato" aria-label="Ver contrato">
          <span className="icon" />
        </button>
        <span>fuera</span>
      </div>,
    )
    const button = screen.getByRole('button', { name: 'Ver contrato' })
    expect(tip()).toBeNull()
    // Over a child of the element: its tip.
    fireEvent.mouseOver(button.querySelector('.icon')!)
    expect(tip()?.textContent).toBe('Ver contrato')
    expect(tip()?.className).toMatch(/\bp-tooltip\b/)
    // Moving inside the element keeps it; leaving to something without a tip hides it.
    fireEvent.mouseOut(button.querySelector('.icon')!, { relatedTarget: button })
    expect(tip()).not.toBeNull()
    fireEvent.mouseOut(button, { relatedTarget: screen.getByText('fuera') })
    fireEvent.mouseOver(screen.getByText('fuera'))
    expect(tip()).toBeNull()
  })

  it('shows on keyboard focus; Escape, a click and the focus leaving hide it', () => {
    renderTips(
      <>
        <button type="button" data-tip="Duplicar en un alta nueva" aria-label="Duplicar">
          D
        </button>
        <button type="button">Otro</button>
      </>,
    )
    const button = screen.getByRole('button', { name: 'Duplicar' })
    act(() => button.focus())
    expect(tip()?.textContent).toBe('Duplicar en un alta nueva')
    fireEvent.keyDown(button, { key: 'Escape' })
    expect(tip()).toBeNull()

    fireEvent.mouseOver(button)
    expect(tip()).not.toBeNull()
    fireEvent.pointerDown(button)
    expect(tip()).toBeNull()

    fireEvent.mouseOver(screen.getByRole('button', { name: 'Otro' }))
    fireEvent.mouseOver(button)
    expect(tip()).not.toBeNull()
    act(() => screen.getByRole('button', { name: 'Otro' }).focus())
    expect(tip()).toBeNull()
  })

  it('goes below an element too close to the top of the window for it to fit above', () => {
    renderTips(
      <button type="button" data-tip="Arriba del todo">
        A
      </button>,
    )
    const button = screen.getByRole('button', { name: 'A' })
    button.getBoundingClientRect = () => ({ top: 4, bottom: 30, left: 100, right: 130, width: 30, height: 26, x: 100, y: 4, toJSON: () => ({}) })
    fireEvent.mouseOver(button)
    expect(tip()?.className).toMatch(/p-tooltip-bottom/)
    expect(tip()?.style.top).toBe('30px')
  })
})

describe('a table’s row action', () => {
  it('is a plain button named by its label and tip, and runs its action', async () => {
    const action: ActionSpec = { id: 'ver', label: { es: 'Ver contrato', en: 'Open contract' }, icon: 'pi pi-eye', kind: 'navigate', to: '/soluciones/contratos/{row.CodigoContrato}' }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/lista']}>
          <Routes>
            <Route path="/lista" element={<ActionButton action={action} extra={{ row: { CodigoContrato: 'EV-2026-000001' } }} compact />} />
            <Route path="/soluciones/contratos/:codigo" element={<h1>Ficha</h1>} />
          </Routes>
          <HoverTips />
        </MemoryRouter>
      </QueryClientProvider>,
    )
    const button = screen.getByRole('button', { name: 'Ver contrato' })
    // PrimeReact's classes, so the theme draws it as before: a small rounded text icon button.
    expect(button.className).toMatch(/\bp-button\b.*\bp-button-icon-only\b/)
    expect(button.className).toMatch(/\bp-button-text\b/)
    expect(button.className).toMatch(/\bp-button-rounded\b/)
    expect(button.className).toMatch(/\bp-button-sm\b/)
    expect(button.querySelector('.pi-eye')).not.toBeNull()
    expect(button.getAttribute('data-action')).toBe('ver')
    fireEvent.mouseOver(button)
    expect(tip()?.textContent).toBe('Ver contrato')
    fireEvent.click(button)
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Ficha' })).toBeTruthy())
  })
})

describe('the tip and scrolling', () => {
  it('follows its element when the page or a table scrolls, and hides once the element is gone', () => {
    const { rerender } = renderTips(
      <button type="button" data-tip="Ver contrato">
        V
      </button>,
    )
    const button = screen.getByRole('button', { name: 'V' })
    let top = 300
    button.getBoundingClientRect = () => ({ top, bottom: top + 26, left: 100, right: 130, width: 30, height: 26, x: 100, y: top, toJSON: () => ({}) })
    fireEvent.mouseOver(button)
    expect(tip()?.style.top).toBe('300px')
    top = 200
    fireEvent.scroll(window)
    expect(tip()?.style.top).toBe('200px')
    rerender(
      <>
        <span>sin botón</span>
        <HoverTips />
      </>,
    )
    // The same tip, its element gone: the next scroll hides it.
    expect(tip()?.textContent).toBe('Ver contrato')
    fireEvent.scroll(window)
    expect(tip()).toBeNull()
  })
})

describe('the tip by the window’s edge', () => {
  it('moves inside the window, its arrow still on its element', () => {
    const width = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetWidth')
    Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get: () => 200 })
    try {
      renderTips(
        <button type="button" data-tip="Duplicar en un alta nueva">
          D
        </button>,
      )
      const button = screen.getByRole('button', { name: 'D' })
      button.getBoundingClientRect = () => ({ top: 300, bottom: 326, left: window.innerWidth - 24, right: window.innerWidth - 4, width: 20, height: 26, x: window.innerWidth - 24, y: 300, toJSON: () => ({}) })
      fireEvent.mouseOver(button)
      const box = tip()!
      expect(box.style.left).toBe(`${window.innerWidth - 200 - 8}px`)
      const arrow = box.querySelector<HTMLElement>('.p-tooltip-arrow')!
      expect(arrow.style.left).toBe(`${window.innerWidth - 14 - (window.innerWidth - 208)}px`)
    } finally {
      if (width) Object.defineProperty(HTMLElement.prototype, 'offsetWidth', width)
    }
  })
})
