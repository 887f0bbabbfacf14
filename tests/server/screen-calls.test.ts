import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScreenFile } from '../../schemas/screen'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { screenCallProblem } from '../../server/screens/screen-calls'
import { loadScreens } from '../../server/screens/screen-loader'

const catalogue = loadCatalogue()
const screen = (root: unknown) => ({ schemaVersion: 1, id: 'prueba', title: 'Prueba', root }) as unknown as ScreenFile

describe('screens call only catalogued calls', () => {
  it('every shipped screen passes, as checked at boot', () => {
    const screens = loadScreens(path.join(import.meta.dirname, '../../server/screens'), catalogue)
    expect(screens.size).toBeGreaterThan(30)
  })

  it('a call the catalogue does not declare is refused, naming where it is', () => {
    const problem = screenCallProblem(screen({ type: 'page', children: [{ type: 'table', id: 't', source: { endpoint: 'api/contract/borrar-todo' }, columns: [] }] }), catalogue)
    expect(problem).toBe('/root/children/0/source: la llamada GET api/contract/borrar-todo no está en el catálogo de llamadas.')
  })

  it('a known path called with another method is refused', () => {
    const problem = screenCallProblem(screen({ type: 'action', call: { method: 'DELETE', endpoint: 'api/contract/id', params: { codigo: '{row.Codigo}' } } }), catalogue)
    expect(problem).toMatch(/DELETE api\/contract\/id no está en el catálogo/)
  })

  it('a parameter the call does not declare is refused; templates and paging parameters are fine', () => {
    expect(screenCallProblem(screen({ type: 'detail', source: { endpoint: 'api/contract/id', params: { codigo: '{params.referencia}', todo: true } } }), catalogue)).toBe(
      '/root/source: GET api/contract/id no admite el parámetro «todo».',
    )
    expect(screenCallProblem(screen({ type: 'detail', source: { endpoint: 'api/usuarios/{params.id}' } }), catalogue)).toBeNull()
    expect(screenCallProblem(screen({ type: 'table', source: { endpoint: 'api/agentes', params: { pageSize: 500, 'filterColumns[0]': 'Activo' } } }), catalogue)).toBeNull()
  })
})
