import { describe, expect, it } from 'vitest'
import type { ActionSpec, TableNode } from '../../schemas/screen'
import type { CatalogueCall } from '../../client/api/screen-admin'
import { newAction, templatesOf, uniqueId, withAfter, withKind } from '../../client/widgets/screen-studio/structure/action-model'
import { callSpecOf, choiceOf, declares, endpointOf, fileCalls, mutationCalls, queryNamesOf } from '../../client/widgets/screen-studio/structure/call-model'
import { moved, removed, withProps } from '../../client/widgets/screen-studio/structure/edit'
import { nodeAt, withNodeAt } from '../../client/widgets/screen-studio/structure/node-outline'
import { textOf, textParts } from '../../client/widgets/screen-studio/structure/text-value'
import { linkFor, routeOfLink } from '../../client/widgets/screen-studio/route-link'
import { schemaProblem } from '../../client/widgets/screen-studio/schema-check'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'
import { loadScreens } from '../../server/screens/screen-loader'

/** Actions and calls built from the structure editor's choices, on the shipped catalogue and screens. */

// What GET /bff/admin/catalogue gives the studio: the session calls.
const calls = loadCatalogue().calls.filter((c) => !c.access || c.access === 'session') as unknown as CatalogueCall[]
const usuarios = loadScreens(SHIPPED_SCREENS_DIR).get('usuarios-listado')!

describe('a catalogued call as the editor picks it', () => {
  it('a screen’s endpoint with templates in its path is the catalogue’s call, its path values read back', () => {
    const choice = choiceOf('GET', 'api/usuarios/{row.Id}', calls)!
    expect(choice.call.path).toBe('api/usuarios/{id}')
    expect(choice.pathValues).toEqual({ id: '{row.Id}' })
    // A static call wins over a template.
    expect(choiceOf('GET', 'api/contract/export', calls)?.call.path).toBe('api/contract/export')
    expect(choiceOf('GET', 'api/no-existe', calls)).toBeNull()
    expect(choiceOf('POST', 'api/usuarios/{row.Id}', calls)).toBeNull()
  })

  it('a path parameter not filled yet stays named in the endpoint and reads back empty', () => {
    const call = calls.find((c) => c.method === 'GET' && c.path === 'api/usuarios/{id}')!
    expect(endpointOf(call, {})).toBe('api/usuarios/{id}')
    expect(choiceOf('GET', 'api/usuarios/{id}', calls)?.pathValues).toEqual({ id: '' })
  })

  it('the call spec: method of the call, path filled, parameters given, a body already written kept', () => {
    const call = calls.find((c) => c.method === 'DELETE' && c.path === 'api/usuarios/delete')!
    expect(callSpecOf({ call, pathValues: {} }, { Id: '{row.Id}' })).toEqual({ method: 'DELETE', endpoint: 'api/usuarios/delete', params: { Id: '{row.Id}' } })
    expect(callSpecOf({ call, pathValues: {} }, {}, { body: 'row' })).toEqual({ method: 'DELETE', endpoint: 'api/usuarios/delete', body: 'row' })
    expect(declares(call, 'Id')).toBe(true)
    expect(declares(call, 'Nombre')).toBe(false)
    // A paged list takes the paging parameters without declaring them.
    const list = calls.find((c) => c.path === 'api/contract' && c.method === 'GET')!
    expect(queryNamesOf(list)).toContain('filterColumns')
    expect(declares(list, 'filterColumns[0]')).toBe(true)
  })

  it('a call action picks changes, a download picks reads that answer a file', () => {
    expect(mutationCalls(calls).every((c) => c.effect === 'mutation')).toBe(true)
    expect(mutationCalls(calls).some((c) => c.path === 'api/usuarios/delete')).toBe(true)
    expect(fileCalls(calls).map((c) => c.path)).toContain('api/contract/print')
    expect(fileCalls(calls).every((c) => c.effect === 'read' && c.answer === 'file')).toBe(true)
  })
})

describe('an action built from the editor’s choices', () => {
  it('a new action has an id of its own and, given a target, is a valid row action of a shipped table', () => {
    const table = nodeAt(usuarios, '/root/children/0') as TableNode
    const action = newAction(table.rowActions!, { es: 'Abrir', en: 'Open' })
    expect(table.rowActions!.map((a) => a.id)).not.toContain(action.id)
    const go: ActionSpec = { ...action, icon: 'pi pi-eye', to: linkFor('/usuarios/{id}', { id: '{row.Id}' }) }
    const screen = withNodeAt(usuarios, '/root/children/0', { ...table, rowActions: [...table.rowActions!, go] })
    expect(schemaProblem(screen)).toBeNull()
    expect(uniqueId('accion', ['accion', 'accion-2'])).toBe('accion-3')
  })

  it('a confirmed call that deletes the row, reloading the table, is valid', () => {
    const table = nodeAt(usuarios, '/root/children/0') as TableNode
    const call = calls.find((c) => c.method === 'DELETE' && c.path === 'api/usuarios/delete')!
    let action = withKind(newAction([], { es: 'Borrar' }), 'call')
    action = withProps(action, { call: callSpecOf({ call, pathValues: {} }, { Id: '{row.Id}' }), confirm: { es: '¿Borrar {row.Email}?' } })
    action = withAfter(action, { refresh: ['usuarios'] })
    expect(action).toEqual({ id: 'accion', label: { es: 'Borrar' }, kind: 'call', confirm: { es: '¿Borrar {row.Email}?' }, call: { method: 'DELETE', endpoint: 'api/usuarios/delete', params: { Id: '{row.Id}' } }, after: { refresh: ['usuarios'] } })
    expect(schemaProblem(withNodeAt(usuarios, '/root/children/0', { ...table, rowActions: [action] }))).toBeNull()
    // Nothing left to reload: the after goes.
    expect('after' in withAfter(action, { refresh: [] })).toBe(false)
  })

  it('changing kind leaves out what only the old kind read', () => {
    const go: ActionSpec = { id: 'a', label: 'A', kind: 'navigate', to: '/x', back: true, confirm: '¿Seguro?' }
    expect(withKind(go, 'call')).toEqual({ id: 'a', label: 'A', kind: 'call', confirm: '¿Seguro?' })
    const put: ActionSpec = { id: 'a', label: 'A', kind: 'call', call: { method: 'PUT', endpoint: 'api/x' }, after: { refresh: ['t'] } }
    // A download is a read: a PUT does not stay; a GET does.
    expect(withKind(put, 'download')).toEqual({ id: 'a', label: 'A', kind: 'download' })
    expect(withKind({ ...put, call: { method: 'GET', endpoint: 'api/x' } }, 'download')).toEqual({ id: 'a', label: 'A', kind: 'download', call: { method: 'GET', endpoint: 'api/x' } })
    const dialog: ActionSpec = { id: 'a', label: 'A', kind: 'dialog', dialogTitle: 'T', content: [] }
    expect(withKind(dialog, 'form')).toEqual({ id: 'a', label: 'A', kind: 'form', dialogTitle: 'T' })
  })

  it('templates offered where the action sits', () => {
    expect(templatesOf({ kind: 'row', fields: ['Id', 'Email', 'Id'] })).toEqual(['{row.Id}', '{row.Email}'])
    expect(templatesOf({ kind: 'params', fields: ['referencia'] })).toEqual(['{params.referencia}'])
  })
})

describe('links, texts and lists as the editors write them', () => {
  it('a link to a route reads back its route, values and query; a static route wins', () => {
    const paths = ['/soluciones/contratos/{referencia}', '/soluciones/contratos/listado', '/soluciones/contratos/alta']
    expect(routeOfLink('/soluciones/contratos/{data.CodigoContrato}', paths)).toEqual({ path: '/soluciones/contratos/{referencia}', values: { referencia: '{data.CodigoContrato}' }, query: '' })
    expect(routeOfLink('/soluciones/contratos/alta?duplicar={data.CodigoContrato}', paths)).toEqual({ path: '/soluciones/contratos/alta', values: {}, query: 'duplicar={data.CodigoContrato}' })
    expect(routeOfLink('/otra', paths)).toBeNull()
    expect(linkFor('/usuarios/{id}', {})).toBe('/usuarios/{id}')
    expect(linkFor('/soluciones/contratos/alta', {}, 'duplicar=1')).toBe('/soluciones/contratos/alta?duplicar=1')
  })

  it('a text keeps its form: a plain string stays one until it gets English; emptied, it goes', () => {
    expect(textParts('Hola')).toEqual({ es: 'Hola', en: '' })
    expect(textOf('Hola!', '', 'Hola')).toBe('Hola!')
    expect(textOf('Hola', 'Hello', 'Hola')).toEqual({ es: 'Hola', en: 'Hello' })
    expect(textOf('Hola', '', { es: 'Hola', en: 'Hello' })).toEqual({ es: 'Hola' })
    expect(textOf('', '', { es: 'Hola' })).toBeUndefined()
  })

  it('moves stay inside the list; an emptied optional key leaves the object', () => {
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c'])
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c'])
    expect(removed(['a', 'b'], 0)).toEqual(['b'])
    expect(withProps({ a: 1, b: 2 } as { a: number; b?: number }, { b: undefined })).toEqual({ a: 1 })
  })
})
