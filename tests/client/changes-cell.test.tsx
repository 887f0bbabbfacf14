// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, describe, expect, it } from 'vitest'
import { CellValue } from '../../client/renderer/table/CellValue'
import { changesOf, formatValue } from '../../client/ui/format'

afterEach(cleanup)

const changes = [
  { field: 'Telefono', before: '******678', after: '******432' },
  { field: 'Agente', before: null, after: 'AGEV-0001' },
]

describe('the `changes` format: a record’s changed fields, as the audit keeps them', () => {
  it('draws one line per field: its name, the old value and the new one (— for none)', () => {
    const { container } = render(
      <MemoryRouter>
        <CellValue column={{ field: 'changes', format: 'changes' }} row={{ changes }} />
      </MemoryRouter>,
    )
    const items = [...container.querySelectorAll('ul.change-list li')].map((li) => li.textContent)
    expect(items).toEqual(['Telefono ******678 → ******432', 'Agente — → AGEV-0001'])
    expect(container.querySelector('ul')!.getAttribute('translate')).toBe('no')
  })

  it('nothing to show is a dash; items that are not changes are left out', () => {
    const { container } = render(<CellValue column={{ field: 'changes', format: 'changes' }} row={{ changes: [] }} />)
    expect(container.textContent).toBe('—')
    expect(changesOf([{ campo: 'x' }, 'texto', null, ...changes])).toHaveLength(2)
    expect(changesOf('no es una lista')).toEqual([])
  })

  it('as text (exports, details): the changes in one line', () => {
    expect(formatValue(changes, 'changes')).toBe('Telefono: ******678 → ******432; Agente: — → AGEV-0001')
  })
})
