// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { DateInput } from '../../client/ui/DateInput'

/** Issue 17: tabbing into a date field must not open the calendar and trap focus there. */
afterEach(cleanup)

const panel = () => document.querySelector('.p-datepicker:not(.p-datepicker-inline)')

function draw() {
  render(
    <form>
      <label htmlFor="desde">Desde</label>
      <DateInput inputId="desde" selectionMode="range" readOnlyInput value={null} onChange={() => undefined} />
      <button type="submit">Siguiente</button>
    </form>,
  )
  return screen.getByLabelText('Desde')
}

describe('DateInput', () => {
  it('stays closed when focus arrives (by Tab), so focus can move on', async () => {
    const input = draw()
    act(() => input.focus())
    fireEvent.focus(input)
    await new Promise((r) => setTimeout(r, 50))
    expect(panel()).toBeNull()
    expect(document.activeElement).toBe(input)
  })

  it('opens on Enter without submitting the form, and on a click', async () => {
    const input = draw()
    act(() => input.focus())
    const enter = fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' })
    expect(enter).toBe(false) // default prevented: no form submission
    await waitFor(() => expect(panel()).not.toBeNull())
    cleanup()
    const again = draw()
    fireEvent.click(again)
    await waitFor(() => expect(panel()).not.toBeNull())
  })

  it('opens on Alt+ArrowDown', async () => {
    const input = draw()
    act(() => input.focus())
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown', altKey: true })
    await waitFor(() => expect(panel()).not.toBeNull())
  })
})
