import { describe, expect, it } from 'vitest'
import type { ScreenFile, TableNode } from '../../schemas/screen'
import { itemOfPath, nodeAt, refreshableIds, screenOutline, screenRouteParams, valueAt, withNodeAt, withValueAt } from '../../client/widgets/screen-studio/structure/node-outline'
import { problemPath, problemWith } from '../../client/widgets/screen-studio/structure/node-check'
import { schemaProblem } from '../../client/widgets/screen-studio/schema-check'
import { SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'
import { loadScreens } from '../../server/screens/screen-loader'

/** The structure editor's outline of a screen and its edits at a JSON pointer, on shipped screens. */

const shipped = loadScreens(SHIPPED_SCREENS_DIR)
const detalle = shipped.get('contrato-detalle')!
const usuarios = shipped.get('usuarios-listado')!

describe('the outline of a screen', () => {
  it('lists every node once with its pointer, type and depth, the root first', () => {
    const outline = screenOutline(detalle, 'es')
    expect(outline[0]).toEqual({ pointer: '/root', type: 'page', depth: 0, label: 'Contrato {params.referencia}', place: null })
    expect(outline.find((i) => i.pointer === '/root/children/0')).toMatchObject({ type: 'detail', depth: 1, label: '{data.CodigoContrato} · {data.Titular}' })
    expect(new Set(outline.map((i) => i.pointer)).size).toBe(outline.length)
    // Every item's pointer names a node of that type.
    for (const item of outline) expect(nodeAt(detalle, item.pointer)?.type).toBe(item.type)
  })

  it('reaches the nodes inside actions: a dialog’s content and an action’s form, one level below their holder, with where they sit', () => {
    const outline = screenOutline(detalle, 'es')
    const kleen = outline.find((i) => i.label === 'Datos del contrato')!
    expect(kleen).toMatchObject({ type: 'detail', depth: 2, place: 'diálogo de «Validación Kleen»' })
    expect(kleen.pointer).toMatch(/^\/root\/children\/0\/actions\/\d+\/content\/0$/)
    const forms = outline.filter((i) => i.type === 'form' && i.pointer.endsWith('/form'))
    expect(forms.find((i) => i.label === 'subestado-contrato')).toMatchObject({ depth: 2, place: 'formulario de «Subestado de renovación»' })
    expect(forms.find((i) => i.label === 'contrato-editar')).toMatchObject({ depth: 2, place: 'formulario de «Editar»' })
    // An action node is labelled by its action.
    expect(outline.find((i) => i.type === 'action')).toMatchObject({ label: 'Validar contrato', depth: 2, place: 'diálogo de «Validación Kleen»' })
  })

  it('labels in the language asked, falling back to the type’s name', () => {
    const en = screenOutline(detalle, 'en')
    expect(en[0]!.label).toBe('Contract {params.referencia}')
    expect(en.find((i) => i.label === 'Contract data')?.place).toBe('dialog of «Kleen validation»')
    const bare: ScreenFile = { schemaVersion: 2, id: 'x', title: 'X', root: { type: 'page', children: [{ type: 'markdown', content: 'Hola' }, { type: 'widget', name: 'spain-map' }] } }
    expect(screenOutline(bare, 'es').map((i) => i.label)).toEqual(['Página', 'Texto', 'spain-map'])
    expect(screenOutline(bare, 'en').map((i) => i.label)).toEqual(['Page', 'Text', 'spain-map'])
  })

  it('names the tab a node sits in', () => {
    const tabs: ScreenFile = {
      schemaVersion: 2,
      id: 'x',
      title: 'X',
      root: { type: 'tabs', tabs: [{ key: 'uno', label: { es: 'Datos', en: 'Data' }, children: [{ type: 'markdown', content: 'a' }] }] },
    }
    expect(screenOutline(tabs, 'en')[1]).toEqual({ pointer: '/root/tabs/0/children/0', type: 'markdown', depth: 1, label: 'Text', place: 'tab «Data»' })
  })
})

describe('a node at a pointer', () => {
  it('is read, or null where there is none', () => {
    expect(nodeAt(usuarios, '/root/children/0')).toMatchObject({ type: 'table', id: 'usuarios' })
    expect(nodeAt(usuarios, '/root/children/9')).toBeNull()
    // A value that is not a node is not a node.
    expect(nodeAt(usuarios, '/root/children/0/columns/0')).toBeNull()
    expect(valueAt(usuarios, '/root/children/0/columns/0/field')).toBe('Email')
  })

  it('is replaced in a new screen; the original is untouched and what is off the way is shared', () => {
    const before = structuredClone(usuarios)
    const table = nodeAt(usuarios, '/root/children/0') as TableNode
    const next = withNodeAt(usuarios, '/root/children/0', { ...table, title: { es: 'Cuentas', en: 'Accounts' } })
    expect(usuarios).toEqual(before)
    expect((nodeAt(next, '/root/children/0') as TableNode).title).toEqual({ es: 'Cuentas', en: 'Accounts' })
    expect(next.routes).toBe(usuarios.routes)
    expect((nodeAt(next, '/root/children/0') as TableNode).columns).toBe(table.columns)
    expect(schemaProblem(next)).toBeNull()
  })

  it('a value is set, added where its object lacks the key, or removed', () => {
    const added = withValueAt(usuarios, '/root/children/0/title', 'Cuentas')
    expect((nodeAt(added, '/root/children/0') as TableNode).title).toBe('Cuentas')
    const removed = withValueAt(added, '/root/children/0/title', undefined)
    expect('title' in (nodeAt(removed, '/root/children/0') as TableNode)).toBe(false)
    const columns = (nodeAt(usuarios, '/root/children/0') as TableNode).columns
    const withoutSecond = (nodeAt(withValueAt(usuarios, '/root/children/0/columns/1', undefined), '/root/children/0') as TableNode).columns
    expect(withoutSecond.map((c) => c.field)).toEqual(columns.filter((_, i) => i !== 1).map((c) => c.field))
  })
})

describe('what the editors offer and check', () => {
  it('the ids an action may reload, the route parameters templates read', () => {
    expect(refreshableIds(detalle)).toEqual(expect.arrayContaining(['contrato', 'kleen-datos', 'kleen-documentos']))
    expect(screenRouteParams(detalle)).toEqual(['referencia'])
    expect(screenRouteParams(usuarios)).toEqual([])
  })

  it('a schema problem is placed on the deepest node holding its path', () => {
    const outline = screenOutline(usuarios, 'es')
    expect(itemOfPath(outline, '/root/children/0/rowActions/2/label')?.pointer).toBe('/root/children/0')
    expect(itemOfPath(outline, '/root/children/0/rowActions/0/form/fields/0')?.pointer).toBe('/root/children/0/rowActions/0/form')
    expect(itemOfPath(outline, '/title')).toBeNull()
  })

  it('a value that breaks the screen where it goes is refused in Spanish with its JSON path; a valid one passes', () => {
    const table = nodeAt(usuarios, '/root/children/0') as TableNode
    const broken = { ...table, columns: [{ field: 'Email' }] }
    const problem = problemWith(usuarios, '/root/children/0', broken)!
    expect(problemPath(problem)).toBe('/root/children/0/columns/0')
    expect(problem).toMatch(/header/)
    expect(problemWith(usuarios, '/root/children/0', { ...table, title: 'Cuentas' })).toBeNull()
    // An action's form as JSON: an unknown key is named where it sits.
    const form = valueAt(usuarios, '/root/children/0/rowActions/0/form') as Record<string, unknown>
    expect(problemPath(problemWith(usuarios, '/root/children/0/rowActions/0/form', { ...form, colour: 'rojo' })!)).toMatch(/^\/root\/children\/0/)
  })
})
