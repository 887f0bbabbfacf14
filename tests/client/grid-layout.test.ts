import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Column, TableNode } from '../../schemas/screen'
import { arrangeColumns, hasLayout, layoutOf, resetLayout, withDensity, withOrder, withPin, withWidth } from '../../client/renderer/table/grid-layout'
import { MAX_WIDTH, MIN_WIDTH, parseTablePrefs, type TablePrefs } from '../../client/renderer/table/table-prefs'
import { pageSizesOf, readState } from '../../client/renderer/table/table-state'

const col = (field: string): Column => ({ field, header: field })
const columns = ['Codigo', 'Titular', 'Estado', 'Consumo'].map(col)
const saved = { name: 'Activos', filters: { Estado: 'activo' }, sort: { field: 'FechaAlta', order: 'desc' as const } }

describe('table preferences as read (parseTablePrefs)', () => {
  it('keeps an old preference (columns and saved filters only) as it was', () => {
    const old = { columns: ['Titular', 'Codigo'], filters: [saved] }
    expect(parseTablePrefs(old)).toEqual(old)
    expect(layoutOf(parseTablePrefs(old))).toEqual({ widths: {}, pinned: {}, density: 'comfortable' })
  })

  it('keeps a layout: widths, pins and density', () => {
    const prefs = { columns: ['Codigo'], widths: { Codigo: 180.4, Titular: 320 }, pinned: { Codigo: 'left', Consumo: 'right' }, density: 'compact' }
    expect(parseTablePrefs(prefs)).toEqual({ columns: ['Codigo'], widths: { Codigo: 180, Titular: 320 }, pinned: { Codigo: 'left', Consumo: 'right' }, density: 'compact' })
  })

  it('drops what is not what it should be, and keeps the rest', () => {
    const parsed = parseTablePrefs({
      columns: ['Codigo', 7, null, 'Estado'],
      filters: [saved, { name: 3 }, 'x', { name: 'Sin orden', filters: { Estado: 'baja', Otro: 4 }, sort: { field: 'X', order: 'up' } }],
      widths: { Codigo: 'ancho', Titular: 5, Estado: 99999, Consumo: Number.NaN, Agente: 150 },
      pinned: { Codigo: 'top', Titular: 'right' },
      density: 'spacious',
    })
    expect(parsed).toEqual({
      columns: ['Codigo', 'Estado'],
      filters: [saved, { name: 'Sin orden', filters: { Estado: 'baja' }, sort: null }],
      widths: { Agente: 150 },
      pinned: { Titular: 'right' },
    })
  })

  it('keeps keys it does not know, so saving the layout never loses another part of the preference', () => {
    const parsed = parseTablePrefs({ columns: ['Codigo'], vistas: [{ id: 1 }], density: 'compact' })
    expect(parsed).toEqual({ columns: ['Codigo'], vistas: [{ id: 1 }], density: 'compact' })
    expect(resetLayout(withPin(parsed, 'Codigo', 'left'))).toEqual({ vistas: [{ id: 1 }] })
  })

  it.each([undefined, null, 'texto', 42, ['Codigo'], true])('anything but an object is no preference: %j', (raw) => {
    expect(parseTablePrefs(raw)).toEqual({})
  })

  it('property: whatever is stored, what is read has the documented shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.record({ columns: fc.anything(), widths: fc.dictionary(fc.string(), fc.anything()), pinned: fc.dictionary(fc.string(), fc.anything()), density: fc.anything() }, { requiredKeys: [] }), (junk, shaped) => {
        for (const raw of [junk, shaped]) {
          const p = parseTablePrefs(raw)
          if (p.columns) expect(p.columns.every((c) => typeof c === 'string')).toBe(true)
          for (const w of Object.values(p.widths ?? {})) expect(Number.isInteger(w) && w >= MIN_WIDTH && w <= MAX_WIDTH).toBe(true)
          for (const side of Object.values(p.pinned ?? {})) expect(['left', 'right']).toContain(side)
          if (p.density !== undefined) expect(['comfortable', 'compact']).toContain(p.density)
          // Reading what was read and stored again changes nothing (stored as JSON, where -0 is 0).
          const stored = JSON.parse(JSON.stringify(p))
          expect(parseTablePrefs(stored)).toEqual(stored)
        }
      }),
    )
  })
})

describe('layout changes (grid-layout)', () => {
  const base: TablePrefs = { columns: ['Titular', 'Codigo'], filters: [saved] }

  it('a width is rounded and clamped to what a preference keeps', () => {
    expect(withWidth(base, 'Titular', 212.6).widths).toEqual({ Titular: 213 })
    expect(withWidth(base, 'Titular', 3).widths).toEqual({ Titular: MIN_WIDTH })
    expect(withWidth(withWidth(base, 'Titular', 200), 'Codigo', 5000).widths).toEqual({ Titular: 200, Codigo: MAX_WIDTH })
  })

  it('pins and unpins; the last unpin leaves no pinned entry', () => {
    const left = withPin(base, 'Codigo', 'left')
    expect(left.pinned).toEqual({ Codigo: 'left' })
    expect(withPin(left, 'Codigo', 'right').pinned).toEqual({ Codigo: 'right' })
    const none = withPin(left, 'Codigo', null)
    expect(none).not.toHaveProperty('pinned')
    expect(none).toEqual(base)
  })

  it('a reorder is kept as the column choice; density as chosen', () => {
    expect(withOrder(base, ['Codigo', 'Titular', 'Estado']).columns).toEqual(['Codigo', 'Titular', 'Estado'])
    expect(withDensity(base, 'compact').density).toBe('compact')
  })

  it('«Restablecer» clears order, widths, pins and density, and keeps the saved filters', () => {
    const custom = withDensity(withPin(withWidth(withOrder(base, ['Codigo']), 'Codigo', 150), 'Codigo', 'right'), 'compact')
    expect(hasLayout(custom)).toBe(true)
    const reset = resetLayout(custom)
    expect(reset).toEqual({ filters: [saved] })
    expect(hasLayout(reset)).toBe(false)
    expect(layoutOf(reset)).toEqual({ widths: {}, pinned: {}, density: 'comfortable' })
  })

  it('pinned columns are drawn at their edge, the others in the user order between them', () => {
    const order = (pinned: TablePrefs['pinned']) => arrangeColumns(columns, pinned ?? {}).map((c) => c.field)
    expect(order({})).toEqual(['Codigo', 'Titular', 'Estado', 'Consumo'])
    expect(order({ Estado: 'left' })).toEqual(['Estado', 'Codigo', 'Titular', 'Consumo'])
    expect(order({ Codigo: 'right', Consumo: 'left', Titular: 'left' })).toEqual(['Titular', 'Consumo', 'Estado', 'Codigo'])
  })
})

describe('virtual-scroll page sizes', () => {
  const node: TableNode = { type: 'table', id: 't', source: { endpoint: 'api/contract' }, dataKey: 'Id', urlState: true, columns, virtualPageSizes: [1000, 10000] }

  it('are offered after the usual sizes and accepted from the URL', () => {
    expect(pageSizesOf(node)).toEqual([10, 25, 50, 100, 1000, 10000])
    expect(readState(new URLSearchParams('size=10000'), '', node).size).toBe(10000)
    expect(readState(new URLSearchParams('size=5000'), '', node).size).toBe(10)
  })

  it('a table without them offers none', () => {
    const { virtualPageSizes: _, ...plain } = node
    expect(readState(new URLSearchParams('size=1000'), '', plain).size).toBe(10)
  })
})
