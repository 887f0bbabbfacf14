import { describe, expect, it } from 'vitest'
import type { TableNode } from '../../schemas/screen'
import { contentOf, droppedLabels, fitView, legacyName } from '../../client/renderer/table/views'

/** A view saved before its screen changed: what still fits applies, what does not is named. */
const node: TableNode = {
  type: 'table',
  id: 'contratos',
  source: { endpoint: 'api/contract' },
  dataKey: 'CodigoContrato',
  columns: [
    { field: 'CodigoContrato', header: { es: 'Código', en: 'Code' }, sortable: true, filter: { input: 'text' } },
    { field: 'Titular', header: 'Titular', sortable: true, filter: { input: 'text' } },
    { field: 'Municipio', header: { es: 'Municipio', en: 'Town' } },
  ],
}

describe('fitting a view to the table as it is now', () => {
  it('keeps what fits and names, once each, the columns gone or no longer filtered or sorted by', () => {
    const fitted = fitView(node, {
      filters: { Titular: 'Ruiz', Provincia: 'Madrid', Municipio: 'Toledo', CodigoContrato: '' },
      sort: { field: 'Municipio', order: 'asc' },
      columns: ['Provincia', 'Titular', 'Municipio'],
    })
    expect(fitted).toEqual({ filters: { Titular: 'Ruiz' }, sort: null, columns: ['Titular', 'Municipio'], dropped: ['Provincia', 'Municipio'] })
    // Named as the user knows them: the header where the table still has the column.
    expect(droppedLabels(node, fitted.dropped, (h) => (typeof h === 'string' ? h : h.en ?? h.es))).toEqual(['Provincia', 'Town'])
  })

  it('a view that fits drops nothing; one whose columns are all gone leaves the table’s own columns', () => {
    expect(fitView(node, { filters: { Titular: 'Ruiz' }, sort: { field: 'Titular', order: 'desc' }, columns: ['Titular'] }).dropped).toEqual([])
    expect(fitView(node, { filters: {}, sort: null, columns: ['Gone'] })).toEqual({ filters: {}, sort: null, columns: undefined, dropped: ['Gone'] })
    expect(contentOf({ page: 3, size: 25, sort: null, filters: { Titular: 'x', Municipio: '' } }, ['Titular'])).toEqual({ filters: { Titular: 'x' }, sort: null, columns: ['Titular'] })
  })

  it('an old saved filter keeps its name in the store unless the user has a different view of that name', () => {
    const content = { filters: { Titular: 'Ruiz' }, sort: null }
    const saved = { name: 'Ruiz', ...content }
    expect(legacyName(saved, content, [], new Set())).toBe('Ruiz')
    expect(legacyName(saved, content, [{ name: 'ruiz', ...content }], new Set(['ruiz']))).toBeNull()
    expect(legacyName(saved, content, [{ name: 'Ruiz', filters: {}, sort: null }], new Set(['ruiz', 'ruiz (2)']))).toBe('Ruiz (3)')
  })
})
