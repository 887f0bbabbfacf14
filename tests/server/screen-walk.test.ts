import { describe, expect, it } from 'vitest'
import { NODE_TYPES, Screen } from '../../schemas/screen'
import { DROP, KEEP, SKIP, isScreenNode, nodesOf, rewriteValues, visitNodes, visitValues } from '../../schemas/screen-walk'

/** A screen with nodes in every place one can sit: children, tabs, an action's dialog and form, form steps, a detail's children. */
const ROOT = {
  type: 'page',
  actions: [{ id: 'ver', label: 'Ver', kind: 'dialog', content: [{ type: 'tree', source: { endpoint: 'api/x' }, childrenField: 'H', keyField: 'Id', label: '{Id}' }] }],
  children: [
    {
      type: 'tabs',
      tabs: [
        {
          key: 'a',
          label: 'A',
          children: [
            {
              type: 'detail',
              source: { endpoint: 'api/d' },
              sections: [],
              children: [{ type: 'markdown', content: 'Hola' }],
            },
          ],
        },
      ],
    },
    {
      type: 'table',
      id: 't',
      columns: [{ field: 'A', header: 'A', filter: { input: 'text' } }],
      rowActions: [{ id: 'e', label: 'E', kind: 'form', form: { type: 'form', id: 'f', fields: [{ name: 'N', label: 'N', input: 'text' }], steps: [{ key: 's', title: 'S', fields: ['N'], nodes: [{ type: 'links', items: [] }] }] } }],
    },
    { type: 'widget', name: 'w', props: { inner: { type: 'table' } } },
    { type: 'action', action: { id: 'b', label: 'B', kind: 'call', call: { method: 'POST', endpoint: 'api/b', body: { type: 'form' } } } },
  ],
}

describe('the screen walker', () => {
  it('lists the node types the schema’s node union declares, no more and no fewer', () => {
    const defs = (Screen as unknown as { $defs: Record<string, { anyOf?: Record<string, unknown>[]; properties?: { type?: { const?: string } } }> }).$defs
    const declared = defs.Node!.anyOf!.map((b) => ('$ref' in b ? defs[String(b.$ref)] : (b as typeof defs.Node))?.properties?.type?.const)
    expect([...declared].sort()).toEqual([...NODE_TYPES].sort())
  })

  it('visits every node wherever it sits, with its JSON pointer, and never a data value', () => {
    const seen: [string, string][] = []
    visitNodes(ROOT, (n, p) => seen.push([n.type, p]), '/root')
    expect(seen).toEqual([
      ['page', '/root'],
      ['tree', '/root/actions/0/content/0'],
      ['tabs', '/root/children/0'],
      ['detail', '/root/children/0/tabs/0/children/0'],
      ['markdown', '/root/children/0/tabs/0/children/0/children/0'],
      ['table', '/root/children/1'],
      ['form', '/root/children/1/rowActions/0/form'],
      ['links', '/root/children/1/rowActions/0/form/steps/0/nodes/0'],
      ['widget', '/root/children/2'],
      ['action', '/root/children/3'],
    ])
    expect(nodesOf(ROOT)).toHaveLength(10)
  })

  it('tells a node from a field or a filter by the key alone', () => {
    expect(isScreenNode({ type: 'form' })).toBe(true)
    expect(isScreenNode({ name: 'N', input: 'text' })).toBe(false)
    expect(isScreenNode({ type: 'text' })).toBe(false)
    expect(isScreenNode([{ type: 'page' }])).toBe(false)
  })

  it('visits every value with its key and container, and skips what the visitor asks it to', () => {
    const keys: unknown[] = []
    visitValues({ a: [1, { b: 2 }], c: { d: 3 } }, (v, at) => {
      keys.push([at.path, at.key])
      if (at.key === 'c') return SKIP
    })
    expect(keys).toEqual([
      ['', null],
      ['/a', 'a'],
      ['/a/0', 0],
      ['/a/1', 1],
      ['/a/1/b', 'b'],
      ['/c', 'c'],
    ])
    const escaped: string[] = []
    visitValues({ 'x/y': { '~': 1 } }, (_v, at) => void escaped.push(at.path))
    expect(escaped).toEqual(['', '/x~1y', '/x~1y/~0'])
  })

  it('rewrites a copy: values replaced, dropped or kept untouched, the original unchanged', () => {
    const original = { keep: { n: 1 }, drop: 2, list: [1, 2, 3, { n: 4 }], swap: 'a' }
    const before = structuredClone(original)
    const out = rewriteValues(original, (v, at) => {
      if (at.key === 'drop' || v === 2) return DROP
      if (at.key === 'keep') return KEEP
      if (at.key === 'swap') return { n: 5 }
      if (typeof v === 'number') return v * 10
      return undefined
    })
    // A replacement is looked into in turn: `{ n: 5 }` becomes `{ n: 50 }`.
    expect(out).toEqual({ keep: { n: 1 }, list: [10, 30, { n: 40 }], swap: { n: 50 } })
    expect(out.keep).toBe(original.keep)
    expect(out.list).not.toBe(original.list)
    expect(original).toEqual(before)
  })
})
