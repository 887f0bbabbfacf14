// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render } from '@testing-library/react'
import { Calendar } from 'primereact/calendar'
import { Dropdown } from 'primereact/dropdown'
import { InputNumber } from 'primereact/inputnumber'
import { MultiSelect } from 'primereact/multiselect'
import type { ReactElement } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Column } from '../../schemas/screen'
import { FilterBar } from '../../client/renderer/table/FilterBar'
import { Paginator } from '../../client/ui/grid/Paginator'
import { CalendarAtRest, DropdownAtRest, InputNumberAtRest, MultiSelectAtRest } from '../../client/ui/plain/at-rest'

/**
 * Issue 19: a list is drawn with its empty PrimeReact fields at rest (their look, none of their
 * code) and they come to life when the browser is idle or the moment the pointer or the focus
 * reaches them. These tests hold the two promises that make that invisible: a field at rest is
 * PrimeReact's field to the eye and to a label, and whoever reaches for one gets the live one.
 */

vi.hoisted(() => {
  window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  document.body.innerHTML = ''
})

const columns: Column[] = [
  { field: 'Codigo', header: 'Código', filter: { input: 'text' } },
  { field: 'Tarifa', header: 'Tarifa', filter: { input: 'multiselect', options: [{ label: '2.0TD', value: '2.0TD' }, { label: '3.0TD', value: '3.0TD' }] } },
  { field: 'Modalidad', header: 'Modalidad', filter: { input: 'select', options: [{ label: 'Fijo', value: 'Fijo' }, { label: 'Indexado', value: 'Indexado' }] } },
  { field: 'Activo', header: 'Activo', filter: { input: 'boolean' } },
  { field: 'Alta', header: 'Fecha de alta', filter: { input: 'dateRange' } },
  { field: 'Consumo', header: 'Consumo anual', filter: { input: 'numberRange' } },
]
const shown = columns.map((c) => c.field)

function drawBar(filters: Record<string, string> = {}, onChange = vi.fn()) {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const ui = (
    <QueryClientProvider client={queries}>
      <FilterBar tableId="contratos" columns={columns} shown={shown} filters={filters} onChange={onChange} />
    </QueryClientProvider>
  )
  return { onChange, ...render(ui) }
}

const resting = () => document.querySelectorAll('[data-at-rest]')
const bar = () => document.getElementById('contratos-filters')!

describe('the filter bar at rest', () => {
  it('draws its empty choice, date and number fields at rest, each under the id its label points at', () => {
    drawBar()
    // multiselect, select, boolean, date range, two number fields
    expect(resting()).toHaveLength(6)
    for (const field of ['Tarifa', 'Modalidad', 'Activo', 'Alta', 'Consumo']) {
      const label = document.querySelector<HTMLLabelElement>(`label[for="contratos-filter-${field}"]`)!
      const target = document.getElementById(label.htmlFor)
      expect(target, field).not.toBeNull()
      expect(target!.closest('[data-at-rest]'), field).not.toBeNull()
    }
    // Text fields are plain already: nothing to wake.
    expect(document.getElementById('contratos-filter-Codigo')!.closest('[data-at-rest]')).toBeNull()
  })

  it('draws a field that holds a value live from the start', () => {
    drawBar({ Modalidad: 'Fijo', Consumo: '100|' })
    expect(document.getElementById('contratos-filter-Modalidad')!.closest('[data-at-rest]')).toBeNull()
    expect(document.getElementById('contratos-filter-Consumo')!.closest('[data-at-rest]')).toBeNull()
    expect(document.querySelector('.p-dropdown-label')?.textContent).toBe('Fijo')
    expect(resting()).toHaveLength(3)
  })

  it('wakes the moment the pointer reaches the bar, before a press can land', () => {
    drawBar()
    fireEvent.pointerOver(document.getElementById('contratos-filter-Codigo')!)
    expect(resting()).toHaveLength(0)
    expect(bar().querySelectorAll('.p-multiselect[data-pc-name="multiselect"]')).toHaveLength(1)
    expect(bar().querySelectorAll('[data-pc-name="dropdown"]')).toHaveLength(2)
    expect(bar().querySelectorAll('[data-pc-name="calendar"]')).toHaveLength(1)
    expect(bar().querySelectorAll('[data-pc-name="inputnumber"]')).toHaveLength(2)
  })

  it('hands the focus a field at rest took to the live field in its place', () => {
    drawBar()
    const atRest = document.getElementById('contratos-filter-Modalidad')!
    act(() => atRest.focus())
    expect(resting()).toHaveLength(0)
    const live = document.getElementById('contratos-filter-Modalidad')!
    expect(live).not.toBe(atRest)
    expect(live.closest('[data-pc-name="dropdown"]')).not.toBeNull()
    expect(document.activeElement).toBe(live)
  })

  it('hands the focus on to a field that has no id of its own (the second number)', () => {
    drawBar()
    const max = bar().querySelector<HTMLInputElement>('input[aria-label="Consumo anual: máximo"]')!
    expect(max.closest('[data-at-rest]')).not.toBeNull()
    act(() => max.focus())
    const live = bar().querySelector<HTMLInputElement>('input[aria-label="Consumo anual: máximo"]')!
    expect(live.closest('[data-pc-name="inputnumber"]')).not.toBeNull()
    expect(document.activeElement).toBe(live)
  })

  it('wakes by itself once the browser is idle', async () => {
    vi.useFakeTimers()
    drawBar()
    expect(resting()).toHaveLength(6)
    // Without idle callbacks (jsdom) the wait is a second.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1100)
    })
    expect(resting()).toHaveLength(0)
  })

  it('wakes when the phone layout’s «Filtros» button uncovers it', () => {
    drawBar()
    fireEvent.click(document.querySelector('.filter-panel__toggle')!)
    expect(resting()).toHaveLength(0)
  })

  it('applies a choice made in the live field it woke to', async () => {
    const { onChange } = drawBar()
    fireEvent.pointerOver(bar())
    fireEvent.click(bar().querySelector('[data-pc-name="dropdown"]')!)
    const option = await vi.waitFor(() => {
      const o = [...document.querySelectorAll<HTMLElement>('[role="option"]')].find((e) => e.textContent === 'Indexado')
      if (!o) throw new Error('no option yet')
      return o
    })
    fireEvent.click(option)
    expect(onChange).toHaveBeenCalledWith({ Modalidad: 'Indexado' })
  })
})

describe('the pager at rest', () => {
  const state = { page: 0, size: 25, total: 650, sizes: [10, 25, 50] }

  it('shows the page size at rest and the live picker once reached, with the same choice', () => {
    render(<Paginator state={state} onChange={vi.fn()} />)
    const atRest = document.querySelector('.p-paginator [data-at-rest]')!
    expect(atRest).not.toBeNull()
    expect(atRest.querySelector('.p-dropdown-label')!.textContent).toBe('25')
    expect(atRest.querySelector('input')!.getAttribute('aria-label')).toBe('Filas por página')
    fireEvent.pointerOver(document.querySelector('.p-paginator')!)
    expect(document.querySelector('.p-paginator [data-at-rest]')).toBeNull()
    expect(document.querySelector('.p-paginator [data-pc-name="dropdown"] .p-dropdown-label')!.textContent).toBe('25')
  })

  it('keeps the page links working while the picker rests', () => {
    const onChange = vi.fn()
    render(<Paginator state={state} onChange={onChange} />)
    fireEvent.click(document.querySelector('.p-paginator-next')!)
    expect(onChange).toHaveBeenCalledWith(1, 25)
  })
})

/** The classes of an element and of its descendants that carry PrimeReact's look, in order. */
function look(root: Element): string[] {
  const out: string[] = []
  const walk = (e: Element) => {
    const classes = [...e.classList].filter((c) => c.startsWith('p-') && c !== 'p-focus' && c !== 'p-inputwrapper-focus').sort()
    if (classes.length && !e.closest('.p-dropdown-hidden-select')) out.push(`${e.tagName.toLowerCase()}.${classes.join('.')}`)
    for (const child of e.children) walk(child)
  }
  walk(root)
  return out
}

/** The text a person sees (the hidden <select> PrimeReact keeps for forms left out). */
function shownText(root: Element): string {
  const copy = root.cloneNode(true) as Element
  for (const hidden of copy.querySelectorAll('.p-hidden-accessible')) hidden.remove()
  return copy.textContent ?? ''
}

describe('a field at rest looks like PrimeReact’s', () => {
  const pair = (name: string, atRest: ReactElement, live: ReactElement) =>
    it(name, () => {
      const a = render(atRest).container.firstElementChild!
      const b = render(live).container.firstElementChild!
      expect(look(a)).toEqual(look(b))
      expect(shownText(a)).toBe(shownText(b))
      // An input with the same id, placeholder and role.
      const ia = a.querySelector('input')!
      const ib = b.querySelector('input')!
      for (const attr of ['id', 'placeholder', 'role', 'aria-haspopup', 'inputmode', 'aria-label']) expect(ia.getAttribute(attr), attr).toBe(ib.getAttribute(attr))
    })

  pair('an empty clearable Dropdown', <DropdownAtRest inputId="f" placeholder="Todos" clearable />, <Dropdown inputId="f" value={null} options={[{ label: 'A', value: 'a' }]} showClear placeholder="Todos" />)
  pair('a Dropdown with a choice', <DropdownAtRest chosen="25" aria-label="Filas" />, <Dropdown value={25} options={[{ label: '25', value: 25 }]} aria-label="Filas" />)
  pair('an empty MultiSelect', <MultiSelectAtRest inputId="m" placeholder="Todos" />, <MultiSelect inputId="m" value={[]} options={[{ label: 'A', value: 'a' }]} placeholder="Todos" />)
  pair('an empty date range', <CalendarAtRest inputId="d" placeholder="Desde – hasta" />, <Calendar inputId="d" selectionMode="range" readOnlyInput value={[null, null] as unknown as Date[]} placeholder="Desde – hasta" />)
  pair('an empty InputNumber', <InputNumberAtRest inputId="n" placeholder="Mín." aria-label="Consumo: mínimo" />, <InputNumber inputId="n" value={null} placeholder="Mín." aria-label="Consumo: mínimo" />)
})
