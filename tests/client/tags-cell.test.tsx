// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { CellValue } from '../../client/renderer/table/CellValue'
import { formatValue } from '../../client/ui/format'

afterEach(cleanup)

describe('the `tags` format: a list of short values, each a tag', () => {
  it('draws one tag per value, as data (not translated)', () => {
    const { container } = render(<CellValue column={{ field: 'Scopes', format: 'tags' }} row={{ Scopes: ['contratos:lectura', 'sips:lectura'] }} />)
    const tags = [...container.querySelectorAll('.tag-list .p-tag')].map((t) => t.textContent)
    expect(tags).toEqual(['contratos:lectura', 'sips:lectura'])
    expect(container.querySelector('.tag-list')!.getAttribute('translate')).toBe('no')
  })

  it('an empty list or nothing is a dash; a single value is one tag; empty items are left out', () => {
    expect(render(<CellValue column={{ field: 'Scopes', format: 'tags' }} row={{ Scopes: [] }} />).container.textContent).toBe('—')
    cleanup()
    expect(render(<CellValue column={{ field: 'Scopes', format: 'tags' }} row={{}} />).container.textContent).toBe('—')
    cleanup()
    const one = render(<CellValue column={{ field: 'Scope', format: 'tags' }} row={{ Scope: 'precios:lectura' }} />).container
    expect([...one.querySelectorAll('.p-tag')].map((t) => t.textContent)).toEqual(['precios:lectura'])
    cleanup()
    const holes = render(<CellValue column={{ field: 'S', format: 'tags' }} row={{ S: ['a', '', null, 'b'] }} />).container
    expect([...holes.querySelectorAll('.p-tag')].map((t) => t.textContent)).toEqual(['a', 'b'])
  })

  it('as text (exports, details): the values separated by commas', () => {
    expect(formatValue(['contratos:lectura', 'sips:lectura'], 'tags')).toBe('contratos:lectura, sips:lectura')
  })
})
