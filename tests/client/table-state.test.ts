import { describe, expect, it } from 'vitest'
import type { TableNode } from '../../schemas/screen'
import { buildQuery } from '../../client/api/client'
import { exportParams, localPage, pagedParams, readState, writeState } from '../../client/renderer/table/table-state'

const node: TableNode = {
  type: 'table',
  id: 'contratos',
  source: { endpoint: 'api/contract' },
  dataKey: 'CodigoContrato',
  urlState: true,
  columns: [
    { field: 'CodigoContrato', header: 'Código', sortable: true, filter: { input: 'text' } },
    { field: 'Estado', header: 'Estado', format: 'badge', filter: { input: 'multiselect', options: [] } },
    { field: 'FechaAlta', header: 'Alta', format: 'date', sortable: true, filter: { input: 'dateRange' } },
    { field: 'Agente', header: 'Agente', sortable: true, sortField: 'AgenteNombre' },
  ],
  defaultSort: { field: 'FechaAlta', order: 'desc' },
}

describe('paged calls (spec §7)', () => {
  it('sends pageIndex, pageSize, sortColumn, sortOrder and indexed filterColumns/filterQueries, exactly', () => {
    const params = pagedParams(node, {
      page: 2,
      size: 25,
      sort: { field: 'CodigoContrato', order: 'asc' },
      filters: { Estado: 'activo,baja', FechaAlta: '2026-01-01|2026-03-31' },
    })
    expect(buildQuery(params)).toBe(
      '?pageIndex=2&pageSize=25&sortColumn=CodigoContrato&sortOrder=asc' +
        '&filterColumns[0]=Estado&filterColumns[1]=FechaAlta' +
        '&filterQueries[0]=activo%2Cbaja&filterQueries[1]=2026-01-01%7C2026-03-31',
    )
  })

  it('starts at page 0 with 10 rows and the default sort', () => {
    expect(buildQuery(pagedParams(node, readState(new URLSearchParams(''), '', node)))).toBe('?pageIndex=0&pageSize=10&sortColumn=FechaAlta&sortOrder=desc')
  })

  it('uses the column sort field when it differs from the shown field', () => {
    expect(pagedParams(node, { page: 0, size: 10, sort: { field: 'Agente', order: 'desc' }, filters: {} })).toMatchObject({ sortColumn: 'AgenteNombre', sortOrder: 'desc' })
  })

  it('exports with the same sort and filters and pageSize=-1', () => {
    const q = buildQuery(exportParams(node, { page: 3, size: 50, sort: { field: 'FechaAlta', order: 'desc' }, filters: { CodigoContrato: 'EV-2026' } }))
    expect(q).toBe('?pageIndex=0&pageSize=-1&sortColumn=FechaAlta&sortOrder=desc&filterColumns[0]=CodigoContrato&filterQueries[0]=EV-2026')
  })
})

describe('list state in the URL', () => {
  it('round-trips page (from 1 for people), size, sort and filters', () => {
    const state = { page: 1, size: 25, sort: { field: 'CodigoContrato', order: 'asc' as const }, filters: { Estado: 'activo' } }
    const url = writeState(new URLSearchParams('tab=otro'), '', node, state)
    expect(url.toString()).toBe('tab=otro&page=2&size=25&sort=CodigoContrato%3Aasc&f.Estado=activo')
    expect(readState(url, '', node)).toEqual(state)
  })

  it('ignores unknown columns, bad pages and sizes that are not offered', () => {
    const s = readState(new URLSearchParams('page=-4&size=33&sort=Nada:desc&f.Nada=x'), '', node)
    expect(s).toEqual({ page: 0, size: 10, sort: { field: 'FechaAlta', order: 'desc' }, filters: {} })
  })
})

describe('tables whose endpoint returns every row', () => {
  const rows = [
    { CodigoContrato: 'B', Estado: 'activo', FechaAlta: '2026-02-01', Agente: 'Núñez' },
    { CodigoContrato: 'A', Estado: 'baja', FechaAlta: '2025-12-01', Agente: 'Álvarez' },
    { CodigoContrato: 'C', Estado: 'activo', FechaAlta: '2026-03-15', Agente: 'nunez' },
  ]
  it('filters accent-insensitively, by enum and by date range, then sorts and pages', () => {
    expect(localPage(node, rows, { page: 0, size: 10, sort: null, filters: { Estado: 'activo' } }).total).toBe(2)
    expect(localPage(node, rows, { page: 0, size: 10, sort: null, filters: { FechaAlta: '2026-01-01|' } }).rows.map((r) => r.CodigoContrato)).toEqual(['B', 'C'])
    const sorted = localPage(node, rows, { page: 0, size: 2, sort: { field: 'CodigoContrato', order: 'asc' }, filters: {} })
    expect(sorted).toEqual({ rows: [rows[1], rows[0]], total: 3 })
  })
})
