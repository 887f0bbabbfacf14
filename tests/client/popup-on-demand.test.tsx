// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SplitButton } from '../../client/ui/SplitButton'

/**
 * Issue 19: a list's toolbar menus (export choices, layout, views) are mounted the first time
 * they are opened, not with every list drawn. The first press must open them all the same,
 * in place by their button.
 */

afterEach(() => {
  cleanup()
  document.body.innerHTML = ''
})

function drawExport() {
  const onExport = vi.fn()
  const onPersonal = vi.fn()
  render(<SplitButton label="Exportar" icon="pi pi-file-excel" outlined size="small" onClick={onExport} menuLabel="Más opciones de exportación" model={[{ label: 'Exportar con datos personales', command: onPersonal }]} />)
  return { onExport, onPersonal, arrow: screen.getByRole('button', { name: 'Más opciones de exportación' }) }
}

const menu = () => document.querySelector('.p-tieredmenu')
// jsdom measures nothing, so PrimeReact's placing of the menu leaves it `display: none` here
// (in a browser it shows: tests/e2e/personal-data.spec.ts opens it); roles are read regardless.
const hidden = true

describe('a split button’s menu', () => {
  it('is not mounted until it is first opened', () => {
    const { onExport } = drawExport()
    expect(menu()).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Exportar' }))
    expect(onExport).toHaveBeenCalledTimes(1)
    expect(menu()).toBeNull()
  })

  it('opens on the first press of its arrow, placed and entered, and its choice runs', async () => {
    const { arrow, onPersonal, onExport } = drawExport()
    expect(arrow.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(arrow)
    const item = await screen.findByRole('menuitem', { name: 'Exportar con datos personales', hidden })
    // Opened through its entering step, which is where it takes its place by the button.
    await waitFor(() => expect(menu()!.getAttribute('style')).toContain('position: absolute'))
    expect(arrow.getAttribute('aria-expanded')).toBe('true')
    expect(arrow.getAttribute('aria-controls')).toBe(menu()!.id)
    fireEvent.click(item.querySelector('a, .p-menuitem-link, .p-menuitem-content') ?? item)
    expect(onPersonal).toHaveBeenCalledTimes(1)
    expect(onExport).not.toHaveBeenCalled()
  })

  it('closes on a second press and opens again on a third', async () => {
    const { arrow } = drawExport()
    fireEvent.click(arrow)
    await waitFor(() => expect(arrow.getAttribute('aria-expanded')).toBe('true'))
    fireEvent.click(arrow)
    await waitFor(() => expect(arrow.getAttribute('aria-expanded')).toBe('false'))
    fireEvent.click(arrow)
    await waitFor(() => expect(arrow.getAttribute('aria-expanded')).toBe('true'))
    expect(await screen.findByRole('menuitem', { name: 'Exportar con datos personales', hidden })).toBeTruthy()
  })

  it('opens from the keyboard with the down arrow, as PrimeReact’s does', async () => {
    const { arrow } = drawExport()
    act(() => arrow.focus())
    const down = fireEvent.keyDown(arrow, { key: 'ArrowDown', code: 'ArrowDown' })
    expect(down).toBe(false)
    expect(await screen.findByRole('menuitem', { name: 'Exportar con datos personales', hidden })).toBeTruthy()
  })

  it('waits while the main action runs: its button spins and cannot be pressed again', () => {
    const onExport = vi.fn()
    render(<SplitButton label="Exportar" loading onClick={onExport} menuLabel="Más opciones de exportación" model={[]} />)
    const main = screen.getByRole('button', { name: 'Exportar' }) as HTMLButtonElement
    expect(main.disabled).toBe(true)
    expect(main.querySelector('.p-button-loading-icon')).not.toBeNull()
  })
})
