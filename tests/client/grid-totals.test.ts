// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Column } from '../../schemas/screen'
import { chunksOf, fetchChunked, mergeChunks } from '../../client/renderer/table/chunked-page'
import { totalCells, totalsOf } from '../../client/renderer/table/totals'
import { setLanguage } from '../../client/i18n/i18n'

const columns: Column[] = [
  { field: 'Numero', header: 'Número' },
  { field: 'ImporteTotal', header: 'Importe', format: 'money' },
  { field: 'ConsumoKwh', header: 'Consumo', format: 'energy' },
  { field: 'Titular', header: 'Titular' },
]

afterEach(() => setLanguage('es'))

describe('the totals row', () => {
  it('reads Totales from a paged answer, numbers only', () => {
    expect(totalsOf({ Items: [], TotalCount: 3, Totales: { ImporteTotal: 1234.5, ConsumoKwh: 98765, Mal: 'x' } })).toEqual({ ImporteTotal: 1234.5, ConsumoKwh: 98765 })
  })

  it.each([{ Items: [], TotalCount: 0 }, { Totales: null }, { Totales: [1, 2] }, { Totales: { A: 'uno' } }, null, 'texto', undefined])('no usable Totales, no totals row: %j', (answer) => {
    expect(totalsOf(answer)).toBeNull()
    expect(totalCells(columns, totalsOf(answer))).toBeNull()
  })

  it('formats each shown total as its column: euros and kWh, in the language of the interface', () => {
    setLanguage('es')
    const cells = totalCells(columns, { ImporteTotal: 5140198.29, ConsumoKwh: 29396204.38, Oculta: 7 })!
    expect([...cells.keys()]).toEqual(['ImporteTotal', 'ConsumoKwh'])
    expect(cells.get('ImporteTotal')!.replace(/\s/g, ' ')).toBe('5.140.198,29 €')
    expect(cells.get('ConsumoKwh')).toBe('29.396.204 kWh')
    setLanguage('en')
    const en = totalCells(columns, { ImporteTotal: 5140198.29, ConsumoKwh: 29396204.38 })!
    expect(en.get('ImporteTotal')).toBe('€5,140,198.29')
    expect(en.get('ConsumoKwh')).toBe('29,396,204 kWh')
  })

  it('a total of a column not shown makes no row', () => {
    expect(totalCells(columns.slice(0, 1), { ImporteTotal: 10 })).toBeNull()
  })
})

describe('large pages fetched in upstream-sized pages', () => {
  it('splits a page into consecutive pages the upstream serves', () => {
    expect(chunksOf(0, 100)).toEqual([{ pageIndex: 0, pageSize: 100 }])
    expect(chunksOf(0, 1000)).toEqual([
      { pageIndex: 0, pageSize: 500 },
      { pageIndex: 1, pageSize: 500 },
    ])
    expect(chunksOf(2, 1000).map((c) => c.pageIndex)).toEqual([4, 5])
    expect(chunksOf(1, 10000)).toHaveLength(20)
    expect(chunksOf(1, 10000)[0]).toEqual({ pageIndex: 20, pageSize: 500 })
    // A size the limit does not divide: the largest chunk that does, so pages never overlap.
    expect(chunksOf(1, 750)).toEqual([
      { pageIndex: 2, pageSize: 375 },
      { pageIndex: 3, pageSize: 375 },
    ])
  })

  it('joins the rows in order and keeps the whole-set figures', () => {
    const merged = mergeChunks([
      { Items: [1, 2], TotalCount: 4, Totales: { A: 10 }, PageIndex: 0, PageSize: 2 },
      { Items: [3, 4], TotalCount: 4, Totales: { A: 10 }, PageIndex: 1, PageSize: 2 },
    ])
    expect(merged).toEqual({ Items: [1, 2, 3, 4], TotalCount: 4, Totales: { A: 10 }, PageIndex: 0, PageSize: 2 })
  })

  it('asks for every chunk with the same filters and sort', async () => {
    const get = vi.fn(async (p: Record<string, unknown>) => ({ Items: [`${String(p.pageIndex)}`], TotalCount: 1200 }))
    const answer = await fetchChunked(get, { sortColumn: 'FechaAlta', filterColumns: ['Estado'], filterQueries: ['activo'], pageIndex: 1, pageSize: 1000 }, 1, 1000)
    expect(get.mock.calls.map(([p]) => [p.pageIndex, p.pageSize, p.sortColumn, p.filterQueries])).toEqual([
      [2, 500, 'FechaAlta', ['activo']],
      [3, 500, 'FechaAlta', ['activo']],
    ])
    expect(answer).toEqual({ Items: ['2', '3'], TotalCount: 1200 })
  })

  it('a failed chunk fails the page (never a page with a hole)', async () => {
    const get = vi.fn(async (p: Record<string, unknown>) => {
      if (p.pageIndex === 1) throw new Error('caído')
      return { Items: [1], TotalCount: 2 }
    })
    await expect(fetchChunked(get, {}, 0, 1000)).rejects.toThrow('caído')
  })
})
