// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TabView } from '../../client/ui/plain/TabView'

/**
 * Issue 19, screens: records' tabs are drawn by the portal (ui/plain/TabView) with PrimeReact's
 * markup and keyboard, and nothing measured after drawing (PrimeReact's ink bar laid the whole
 * record out a second time once it was painted).
 */

afterEach(cleanup)

const TABS = [
  { key: 'datos', header: 'Datos', icon: 'pi pi-id-card', content: () => <p>panel datos</p> },
  { key: 'docs', header: 'Documentos', content: () => <p>panel documentos</p> },
  { key: 'hist', header: 'Historial', content: () => <p>panel historial</p> },
]

function Controlled({ onChange }: { onChange: (i: number) => void }) {
  const [index, setIndex] = useState(0)
  return (
    <TabView
      tabs={TABS}
      activeIndex={index}
      onChange={(i) => {
        onChange(i)
        setIndex(i)
      }}
    />
  )
}

describe('the plain TabView', () => {
  it('a tablist of tabs, one tab stop on the open one, only its panel drawn and labelled by it', () => {
    const { container } = render(<Controlled onChange={() => undefined} />)
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['Datos', 'Documentos', 'Historial'])
    expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false'])
    expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1, -1])
    expect(container.querySelector('.p-tabview-selected.p-highlight')!.textContent).toBe('Datos')
    expect(tabs[0]!.querySelector('.pi-id-card')).not.toBeNull()
    const panel = screen.getByRole('tabpanel')
    expect(panel.textContent).toBe('panel datos')
    expect(panel.getAttribute('aria-labelledby')).toBe(tabs[0]!.id)
    expect(tabs[0]!.getAttribute('aria-controls')).toBe(panel.id)
    // Only the open tab controls a panel that is there.
    expect(tabs[1]!.hasAttribute('aria-controls')).toBe(false)
    expect(screen.queryByText('panel documentos')).toBeNull()
  })

  it('a click opens a tab; the open tab clicked again asks nothing', () => {
    const onChange = vi.fn()
    render(<Controlled onChange={onChange} />)
    fireEvent.click(screen.getByRole('tab', { name: 'Historial' }))
    expect(onChange).toHaveBeenCalledWith(2)
    expect(screen.getByRole('tabpanel').textContent).toBe('panel historial')
    fireEvent.click(screen.getByRole('tab', { name: 'Historial' }))
    expect(onChange).toHaveBeenCalledTimes(1)
  })

  it('arrows, Home and End move the focus (round the ends); Enter or Space opens the focused tab', () => {
    const onChange = vi.fn()
    render(<Controlled onChange={onChange} />)
    const tab = (name: string) => screen.getByRole('tab', { name })
    tab('Datos').focus()
    fireEvent.keyDown(tab('Datos'), { key: 'ArrowRight' })
    expect(document.activeElement).toBe(tab('Documentos'))
    fireEvent.keyDown(tab('Documentos'), { key: 'End' })
    expect(document.activeElement).toBe(tab('Historial'))
    fireEvent.keyDown(tab('Historial'), { key: 'ArrowRight' })
    expect(document.activeElement).toBe(tab('Datos'))
    fireEvent.keyDown(tab('Datos'), { key: 'ArrowLeft' })
    expect(document.activeElement).toBe(tab('Historial'))
    expect(onChange).not.toHaveBeenCalled()
    fireEvent.keyDown(tab('Historial'), { key: 'Enter' })
    expect(onChange).toHaveBeenLastCalledWith(2)
    fireEvent.keyDown(tab('Historial'), { key: 'Home' })
    fireEvent.keyDown(tab('Datos'), { key: ' ' })
    expect(onChange).toHaveBeenLastCalledWith(0)
    expect(tab('Datos').getAttribute('aria-selected')).toBe('true')
  })

  it('draws another tab’s content anew: no state carries over from the tab left', () => {
    function Counter({ label }: { label: string }) {
      const [n, setN] = useState(0)
      return (
        <button type="button" onClick={() => setN(n + 1)}>
          {label} {n}
        </button>
      )
    }
    // Both panels draw the same component in the same place, as two screen tabs whose first node is of one type.
    const same = [
      { key: 'a', header: 'A', content: () => <Counter label="a" /> },
      { key: 'b', header: 'B', content: () => <Counter label="b" /> },
    ]
    render(<TabView tabs={same} />)
    fireEvent.click(screen.getByRole('button', { name: 'a 0' }))
    fireEvent.click(screen.getByRole('button', { name: 'a 1' }))
    fireEvent.click(screen.getByRole('tab', { name: 'B' }))
    expect(screen.getByRole('button', { name: 'b 0' })).toBeTruthy()
  })

  it('keeps its own open tab when nobody controls it', () => {
    render(<TabView tabs={TABS} />)
    fireEvent.click(screen.getByRole('tab', { name: 'Documentos' }))
    expect(screen.getByRole('tabpanel').textContent).toBe('panel documentos')
  })
})
