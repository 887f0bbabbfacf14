import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ANSWER_SHAPES } from '../../schemas/business/shapes'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { nodesOf } from '../../schemas/screen-walk'
import type { TableNode } from '../../schemas/screen'
import { SHIPPED_CATALOGUE } from '../../schemas/catalogue/index'
import type { CallIndex } from '../../schemas/catalogue/match'
import { CatalogueError, loadCatalogue } from '../../server/catalogue/catalogue-loader'

/**
 * Issue 16, exports: an export built by the BFF names the paged list whose JSON pages it mirrors
 * (`list.pages`). Every shipped export does, the link is checked when the catalogue loads, and
 * the columns the list screens send are fields the list's rows have.
 */

const catalogue = loadCatalogue()
const byId = new Map(catalogue.calls.map((c) => [c.id, c]))
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-pages-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The shipped `GET api/contract/export`, changed, loaded as an operator's file that replaces it. */
function loadWithContractExport(change: (call: Endpoint) => void): () => CallIndex {
  const shipped = (SHIPPED_CATALOGUE['contracts.json'] as { calls: Endpoint[] }).calls.find((c) => c.id === 'contract.export')!
  const call = structuredClone(shipped)
  change(call)
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`)
  fs.writeFileSync(file, JSON.stringify({ calls: [call] }))
  return () => loadCatalogue({ extraFiles: [file] })
}

const rowFields = (list: Endpoint) => Object.keys((ANSWER_SHAPES[list.shape as keyof typeof ANSWER_SHAPES] as { properties: { Items: { items: { properties: object } } } }).properties.Items.items.properties)

describe('exports built from a list’s pages', () => {
  it('every shipped export names its paged list, which sorts and filters by the same columns', () => {
    const exportsOf = catalogue.calls.filter((c) => c.list?.mode === 'export')
    expect(exportsOf.map((c) => c.id).sort()).toEqual(['agent.export', 'contract.export', 'invoice.export', 'renewal.export'])
    for (const call of exportsOf) {
      const list = byId.get(call.list!.pages!)
      expect(list, `${call.id} names its list`).toBeDefined()
      expect(list!.list?.mode).toBe('paged')
      expect(list!.personal, `${list!.id} masks its rows`).toBeDefined()
      expect([...list!.list!.sortable].sort()).toEqual([...call.list!.sortable].sort())
      expect([...list!.list!.filterable].sort()).toEqual([...call.list!.filterable].sort())
    }
  })

  it('a list screen exports only fields its list’s rows have (each column, or the label it shows)', () => {
    const root = path.join(import.meta.dirname, '../../server/screens')
    const screens = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.json'))
    let checked = 0
    for (const file of screens) {
      const screen = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as { root?: unknown }
      for (const node of nodesOf(screen.root).filter((n): n is TableNode => n.type === 'table' && !!n.export)) {
        const call = catalogue.find('GET', node.export!.endpoint)?.call
        if (!call?.list?.pages) continue
        const fields = rowFields(byId.get(call.list.pages)!)
        for (const column of node.columns) expect(fields, `${file}: ${column.field}`).toContain(column.labelField ?? column.field)
        checked++
      }
    }
    expect(checked).toBe(4)
  })

  it.each([
    ['a list missing from the catalogue', (c: Endpoint) => (c.list!.pages = 'contract.nada'), /el listado «contract\.nada» no está en el catálogo/],
    ['a call that is no paged list', (c: Endpoint) => (c.list!.pages = 'contract.detail'), /«contract\.detail» debe ser un listado paginado/],
    ['other sort columns', (c: Endpoint) => (c.list!.sortable = ['Id']), /ordena y filtra por columnas distintas de las de «contract\.list»/],
    ['other filter columns', (c: Endpoint) => (c.list!.filterable = [...c.list!.filterable, 'Iban']), /ordena y filtra por columnas distintas/],
    ['another permission', (c: Endpoint) => (c.permission = 'GESTORACCESS'), /pide un permiso distinto del de «contract\.list»/],
    ['a paged list that names pages', (c: Endpoint) => (c.list!.mode = 'paged'), /solo una exportación/],
    ['a parameter the list lacks', (c: Endpoint) => (c.query = { formato: { type: 'string' } }), /«contract\.list» no admite el parámetro «formato»/],
    ['the export’s own column parameters declared', (c: Endpoint) => (c.query = { columns: { type: 'string' } }), /«columns» es de la exportación por páginas/],
  ])('stops the start on %s', (_what, change, message) => {
    const load = loadWithContractExport(change)
    expect(load).toThrow(CatalogueError)
    expect(load).toThrow(message)
  })

  it('loads the shipped export unchanged from an operator’s file', () => {
    expect(loadWithContractExport(() => undefined)().calls.find((c) => c.id === 'contract.export')?.list?.pages).toBe('contract.list')
  })
})
