// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { ScreenFile, TableNode } from '../../schemas/screen'
import { MANIFEST_KEY } from '../../client/api/manifest'
import type { CatalogueCall } from '../../client/api/screen-admin'
import { schemaProblem } from '../../client/widgets/screen-studio/schema-check'
import { nodeAt } from '../../client/widgets/screen-studio/structure/node-outline'
import { StructureEditor } from '../../client/widgets/screen-studio/structure/StructureEditor'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { loadDefaultMenu, loadRoutes, SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'
import { routeView } from '../../server/manifest/route-visibility'
import { loadScreens } from '../../server/screens/screen-loader'

/**
 * Issue 15: the studio's structure editor edits a row action of a shipped screen field by field,
 * and what it hands the draft passes the screen schema; a node without a structured editor is
 * edited as JSON, and a text that breaks the screen is refused in Spanish with its JSON path.
 */

const screens = loadScreens(SHIPPED_SCREENS_DIR)
const shipped = screens.get('usuarios-listado')!
const agents = screens.get('agentes-listado')!
const ADMIN_PERMS = ['VERRENOVACIONES', 'GESTORACCESS', 'MENUPRODUCTOSBATERIAS']
// What GET /bff/admin/catalogue gives the studio: the session calls.
const catalogue = loadCatalogue().calls.filter((c) => !c.access || c.access === 'session') as unknown as CatalogueCall[]

function manifest(): Manifest {
  const routes = routeView(loadDefaultMenu(), loadRoutes(), { brand: 'verde', permissions: new Set(ADMIN_PERMS), production: false, comparadorUrl: 'https://comparador.example.es' }).routes
  return {
    brand: { key: 'verde', domain: 'verde.es', name: 'Marca', theme: 'lara-light-teal', primaryColor: '#0f766e', icon: { light: '/i.svg', dark: '/i.svg' }, logo: { light: '/l.svg', dark: '/l.svg' }, favicon: '/f.ico' },
    authenticated: true,
    user: { id: 1, name: 'Ana', email: 'admin@portal.test', permissions: ADMIN_PERMS, agent: null },
    menu: [],
    routes,
    buildId: 'test',
    environment: 'development',
  }
}

let drafts: ScreenFile[] = []

function Harness({ initial }: { initial: ScreenFile }) {
  const [draft, setDraft] = useState(initial)
  const [selected, setSelected] = useState('/root')
  return (
    <StructureEditor
      screen={draft}
      selected={selected}
      onSelect={setSelected}
      onChange={(next) => {
        drafts.push(next)
        setDraft(next)
      }}
    />
  )
}

function open(initial: ScreenFile) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  client.setQueryData(MANIFEST_KEY, manifest())
  client.setQueryData(['studio', 'catalogue'], catalogue)
  client.setQueryData(['studio', 'choices'], { menu: loadDefaultMenu(), permissions: [{ code: 'GESTORACCESS', name: 'Gestión de accesos' }], brands: [] })
  return render(
    <QueryClientProvider client={client}>
      <Harness initial={initial} />
    </QueryClientProvider>,
  )
}

const latest = () => drafts.at(-1)!
const tableOf = (s: ScreenFile) => nodeAt(s, '/root/children/0') as TableNode
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } })

/** Picks an option of a PrimeReact dropdown as a keyboard user opens it: focus, arrow down, then the option. */
function pick(inputId: string, option: string) {
  const input = document.getElementById(inputId)!
  fireEvent.focus(input)
  fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown' })
  fireEvent.click(document.querySelector(`.p-dropdown-panel li[aria-label="${option}"]`)!)
}

beforeEach(() => {
  drafts = []
  // Everything the editor reads was given above: a request would be a bug.
  vi.stubGlobal('fetch', vi.fn(async () => new Response('unexpected request', { status: 599 })))
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('the structure editor on a shipped list screen', () => {
  it('edits a row action field by field; the draft passes the schema and the loaded screen is untouched', () => {
    const before = structuredClone(shipped)
    open(shipped)
    const outline = screen.getByRole('navigation', { name: 'Nodos de la pantalla' })
    expect(within(outline).getByRole('button', { name: /^Página/ }).getAttribute('aria-current')).toBe('true')
    fireEvent.click(within(outline).getByRole('button', { name: /^Tabla usuarios/ }))
    expect(within(outline).getByRole('button', { name: /^Tabla usuarios/ }).getAttribute('aria-current')).toBe('true')
    expect(screen.getByRole('heading', { name: /Tabla: usuarios/ })).toBeTruthy()

    const rowActions = screen.getByRole('group', { name: 'Acciones de cada fila' })
    fireEvent.click(within(rowActions).getByRole('button', { name: 'Editar Eliminar' }))
    type(within(rowActions).getByLabelText('Texto del botón (español)'), 'Borrar cuenta')
    type(within(rowActions).getByLabelText('Texto del botón (inglés)'), 'Delete account')
    type(within(rowActions).getByLabelText('Pregunta de confirmación (español)'), '¿Borrar {row.Email}?')

    const action = tableOf(latest()).rowActions!.find((a) => a.id === 'eliminar')!
    expect(action.label).toEqual({ es: 'Borrar cuenta', en: 'Delete account' })
    expect(action.confirm).toEqual({ es: '¿Borrar {row.Email}?', en: 'Delete the account {row.Email}? Its preferences are deleted too; this cannot be undone.' })
    // What the editor does not show stays as it was.
    expect(action.call).toEqual({ method: 'DELETE', endpoint: 'api/usuarios/delete', params: { Id: '{row.Id}' } })
    expect(schemaProblem(latest())).toBeNull()
    expect(shipped).toEqual(before)
  })

  it('flags a parameter the catalogued call does not take, in Spanish', () => {
    open(shipped)
    fireEvent.click(screen.getByRole('button', { name: /^Tabla usuarios/ }))
    const rowActions = screen.getByRole('group', { name: 'Acciones de cada fila' })
    fireEvent.click(within(rowActions).getByRole('button', { name: 'Editar Eliminar' }))
    fireEvent.click(within(rowActions).getByRole('button', { name: 'Añadir parámetro' }))
    type(within(rowActions).getByLabelText('Parámetro 2'), 'Nombre')
    expect(within(rowActions).getByText('La llamada no admite el parámetro «Nombre»: el servidor rechazaría la pantalla al guardarla.')).toBeTruthy()
  })

  it('adds a row action that opens the row’s record: a route of the manifest with a row field in its parameter', () => {
    open(shipped)
    fireEvent.click(screen.getByRole('button', { name: /^Tabla usuarios/ }))
    const rowActions = screen.getByRole('group', { name: 'Acciones de cada fila' })
    fireEvent.click(within(rowActions).getByRole('button', { name: 'Añadir acción' }))
    // The new action opens with a label of its own, in both languages.
    expect(tableOf(latest()).rowActions!.at(-1)).toEqual({ id: 'accion', label: { es: 'Nueva acción', en: 'New action' }, kind: 'navigate' })
    type(within(rowActions).getByLabelText('Identificador'), 'ficha')
    type(within(rowActions).getByLabelText('Texto del botón (español)'), 'Ficha')
    type(within(rowActions).getByLabelText('Icono'), 'pi pi-id-card')
    // The target: a route picked from the manifest's list.
    pick('st-table-row-actions-3-to-route', 'Usuario (/usuarios/{id})')
    type(within(rowActions).getByLabelText(/Parámetro id/), '{row.Id}')

    expect(tableOf(latest()).rowActions!.at(-1)).toEqual({ id: 'ficha', label: { es: 'Ficha', en: 'New action' }, kind: 'navigate', icon: 'pi pi-id-card', to: '/usuarios/{row.Id}' })
    expect(schemaProblem(latest())).toBeNull()
  })

  it('a node without a structured editor is edited as JSON; a text that breaks the screen stays out of the draft, named in Spanish with its path', () => {
    // The agents list draws each agent's hierarchy as a tree inside a row action's dialog: trees have no structured editor.
    open(agents)
    fireEvent.click(screen.getByRole('button', { name: /^Árbol/ }))
    const json = screen.getByLabelText(/^JSON de/) as HTMLTextAreaElement
    const tree = JSON.parse(json.value) as Record<string, unknown>
    expect(tree).toMatchObject({ type: 'tree', childrenField: 'Hijos' })

    // The row action whose dialog holds the tree (the list has others before it, such as «Editar»).
    const at = tableOf(agents).rowActions!.findIndex((a) => a.content?.some((n) => n.type === 'tree'))
    expect(at).toBeGreaterThanOrEqual(0)
    type(json, JSON.stringify({ ...tree, expandido: false }))
    expect(screen.getByText(new RegExp(`^No cumple el esquema: /root/children/0/rowActions/${at}/content/0`))).toBeTruthy()
    expect(drafts).toHaveLength(0)

    type(json, JSON.stringify({ ...tree, expanded: false }))
    expect(screen.getByText('Cumple el esquema.')).toBeTruthy()
    expect(tableOf(latest()).rowActions![at]!.content![0]).toMatchObject({ type: 'tree', expanded: false })
    expect(schemaProblem(latest())).toBeNull()
  })

  it('a form node is edited with the form editor', () => {
    open(shipped)
    fireEvent.click(screen.getByRole('button', { name: /^Formulario editar-usuario/ }))
    expect(screen.queryByLabelText(/^JSON de/)).toBeNull()
    expect(screen.getByLabelText('Nombre del campo nuevo')).toBeTruthy()
  })

  it('names the node and field of a schema problem a structured edit made, and goes to it', () => {
    open(shipped)
    fireEvent.click(screen.getByRole('button', { name: /^Tabla usuarios/ }))
    const columns = screen.getByRole('group', { name: 'Columnas' })
    type(within(columns).getByLabelText('Cabecera (español): Email'), '')
    expect(screen.getByText(/La pantalla no cumple el esquema en Tabla «usuarios»: \/root\/children\/0\/columns\/0\/header/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: /^Página/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Ir al nodo' }))
    expect(screen.getByRole('button', { name: /^Tabla usuarios/ }).getAttribute('aria-current')).toBe('true')
  })
})

