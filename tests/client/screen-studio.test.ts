import { afterEach, describe, expect, it, vi } from 'vitest'
import { Compile } from 'typebox/compile'
import { Screen, type ScreenFile } from '../../schemas/screen'
import { api, ApiError, setReadOnly } from '../../client/api/client'
import { designOfScreen, formatFromValue, headerFromField, proposeColumns, proposeDataKey, routeOfRowLink, rowLinkFor, screenOfDesign, withDesign, type ListDesign, type ScreenFrame } from '../../client/widgets/screen-studio/list-design'
import { missingEnglish, screenTexts, withText } from '../../client/widgets/screen-studio/screen-texts'
import { schemaProblem } from '../../client/widgets/screen-studio/schema-check'

const checkScreen = Compile(Screen)

const frame: ScreenFrame = {
  id: 'tarifas-acceso',
  title: { es: 'Tarifas de acceso', en: 'Access tariffs' },
  routes: [{ path: '/utilidades/tarifas' }],
  menu: { section: 'utilidades', key: 'tarifas-acceso', order: 40, icon: 'pi pi-bolt' },
}

const design: ListDesign = {
  endpoint: 'api/utility/tarifas',
  paged: false,
  dataKey: 'Codigo',
  columns: [
    { field: 'Codigo', header: { es: 'Código', en: 'Code' }, format: 'code', sortable: true, filter: true, badges: [] },
    { field: 'Periodos', header: { es: 'Periodos' }, format: 'integer', sortable: true, filter: false, badges: [] },
    {
      field: 'Tipo',
      header: { es: 'Tipo', en: 'Kind' },
      format: 'badge',
      sortable: false,
      filter: true,
      badges: [
        { value: 'BT', label: 'Baja tensión', severity: 'info' },
        { value: 'AT', label: 'Alta tensión', severity: 'warning' },
      ],
    },
  ],
  rowLink: null,
}

describe('screen studio: the list design ↔ a screen file', () => {
  it('a design becomes a valid screen file (schema of the current version) and comes back unchanged', () => {
    const screen = screenOfDesign(frame, design)
    expect(checkScreen.Check(screen), JSON.stringify(checkScreen.Errors(screen).slice(0, 3))).toBe(true)
    expect(screen.routes).toEqual([{ path: '/utilidades/tarifas' }])
    expect(screen.menu).toEqual({ section: 'utilidades', key: 'tarifas-acceso', order: 40, icon: 'pi pi-bolt' })
    expect(designOfScreen(screen)).toEqual(design)
  })

  it('a badge column filters by its values; numbers align right; a row link leads to a route with row fields in its parameters', () => {
    const screen = screenOfDesign(frame, { ...design, rowLink: rowLinkFor('/soluciones/contratos/{referencia}', { referencia: 'Codigo' }) })
    const table = screen.root.type === 'page' ? screen.root.children[0] : undefined
    if (table?.type !== 'table') throw new Error('no table')
    const tipo = table.columns.find((c) => c.field === 'Tipo')!
    expect(tipo.filter?.options).toEqual([
      { value: 'BT', label: 'Baja tensión' },
      { value: 'AT', label: 'Alta tensión' },
    ])
    expect(tipo.badges).toEqual({ BT: { label: 'Baja tensión', severity: 'info' }, AT: { label: 'Alta tensión', severity: 'warning' } })
    expect(table.columns.find((c) => c.field === 'Periodos')!.align).toBe('right')
    expect(table.rowLink).toBe('/soluciones/contratos/{row.Codigo}')
    expect(designOfScreen(screen)?.rowLink).toBe('/soluciones/contratos/{row.Codigo}')
    // Read back as a route and the row field filling each parameter.
    expect(routeOfRowLink('/soluciones/contratos/{row.Codigo}', ['/usuarios/{id}', '/soluciones/contratos/{referencia}'])).toEqual({ path: '/soluciones/contratos/{referencia}', fields: { referencia: 'Codigo' } })
    expect(routeOfRowLink('/otra/{row.X}', ['/usuarios/{id}'])).toBeNull()
  })

  it('a screen the structured editor cannot hold whole is left to JSON (nothing would be lost on the way back)', () => {
    const base = screenOfDesign(frame, design)
    const withActions = structuredClone(base) as ScreenFile & { root: { actions?: unknown[] } }
    withActions.root.actions = [{ id: 'nuevo', label: 'Nuevo', kind: 'navigate', to: '/x' }]
    expect(designOfScreen(withActions)).toBeNull()
    const withWidth = structuredClone(base)
    if (withWidth.root.type === 'page' && withWidth.root.children[0]!.type === 'table') withWidth.root.children[0]!.columns[0]!.width = '8rem'
    expect(designOfScreen(withWidth)).toBeNull()
    // The route and menu are not the body's: a screen with two routes keeps them through a design edit.
    const twoRoutes = { ...structuredClone(base), routes: [{ path: '/a' }, { path: '/b', permission: 'GESTORACCESS' }] }
    const edited = withDesign(twoRoutes, { ...designOfScreen(twoRoutes)!, dataKey: 'Periodos' })
    expect(edited.routes).toEqual(twoRoutes.routes)
    expect(edited.menu).toEqual(frame.menu)
    expect(designOfScreen(edited)?.dataKey).toBe('Periodos')
  })

  it('proposes columns from a real row: scalars only, formats from values, sort and filter as the catalogue allows', () => {
    const row = { Id: 7, CodigoContrato: 'C-1', FechaAlta: '2026-01-02', ImporteTotal: 12.5, ConsumoKwh: 300, Activo: true, Titular: { Nif: 'x' }, Periodos: [1, 2] }
    const columns = proposeColumns(row, { sortable: ['FechaAlta'], filterable: ['CodigoContrato'] })
    expect(columns.map((c) => c.field)).toEqual(['Id', 'CodigoContrato', 'FechaAlta', 'ImporteTotal', 'ConsumoKwh', 'Activo'])
    expect(columns.map((c) => c.format)).toEqual(['integer', 'text', 'date', 'money', 'energy', 'boolean'])
    expect(columns.filter((c) => c.sortable).map((c) => c.field)).toEqual(['FechaAlta'])
    expect(columns.filter((c) => c.filter).map((c) => c.field)).toEqual(['CodigoContrato'])
    expect(proposeDataKey(columns)).toBe('Id')
    expect(headerFromField('FechaAlta')).toBe('Fecha alta')
    expect(formatFromValue('Precio', 3.2)).toBe('money')
  })
})

describe('screen studio: texts side by side', () => {
  it('finds every text with its path, flags those without English, and sets one', () => {
    const screen = screenOfDesign(frame, design)
    const texts = screenTexts(screen)
    expect(texts.find((t) => t.path === '/title')).toEqual({ path: '/title', es: 'Tarifas de acceso', en: 'Access tariffs' })
    // The header left without English, and the badge labels typed in Spanish only (values and filter options).
    expect(missingEnglish(texts).map((t) => t.path)).toEqual([
      '/root/children/0/columns/1/header',
      '/root/children/0/columns/2/filter/options/0/label',
      '/root/children/0/columns/2/filter/options/1/label',
      '/root/children/0/columns/2/badges/BT/label',
      '/root/children/0/columns/2/badges/AT/label',
    ])
    const fixed = withText(screen, '/root/children/0/columns/1/header', 'Periodos', 'Periods')
    expect(missingEnglish(screenTexts(fixed))).toHaveLength(4)
    expect(screenTexts(fixed).find((t) => t.path === '/root/children/0/columns/1/header')).toEqual({ path: '/root/children/0/columns/1/header', es: 'Periodos', en: 'Periods' })
    // Left empty, English is dropped rather than stored as "" (the screen then shows Spanish).
    expect((withText(screen, '/title', 'Tarifas', '   ') as ScreenFile).title).toEqual({ es: 'Tarifas' })
  })

  it('the live schema check names the JSON path of the first error', () => {
    expect(schemaProblem(screenOfDesign(frame, design))).toBeNull()
    const broken = structuredClone(screenOfDesign(frame, design)) as unknown as { root: { children: { dataKey?: unknown }[] } }
    delete broken.root.children[0]!.dataKey
    // The BFF's own wording: Spanish, naming the node and the missing field.
    expect(schemaProblem(broken)).toMatch(/^\/root\/children\/0: .*dataKey/)
  })
})

describe('read-only pages (the studio preview): nothing that changes data leaves the browser', () => {
  afterEach(() => {
    setReadOnly(null)
    vi.unstubAllGlobals()
  })

  it('refuses mutations and uncatalogued non-GET calls, lets reads and the allowed call through', async () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))
    vi.stubGlobal('fetch', fetch)
    setReadOnly({ message: 'Vista previa', allows: (method, path) => method === 'POST' && path === '/bff/admin/screens/preview' })
    await expect(api.post('/api/contract/insert', {})).rejects.toBeInstanceOf(ApiError)
    await expect(api.delete('/api/usuarios/delete', {})).rejects.toMatchObject({ serverMessage: 'Vista previa' })
    await expect(api.put('/bff/drafts/x', {})).rejects.toBeInstanceOf(ApiError)
    expect(fetch).not.toHaveBeenCalled()
    await api.get('/api/utility/tarifas')
    await api.post('/bff/admin/screens/preview', { screen: {} })
    expect(fetch).toHaveBeenCalledTimes(2)
    setReadOnly(null)
    await api.post('/api/contract/insert', {})
    expect(fetch).toHaveBeenCalledTimes(3)
  })
})

describe('the menu icon choices', () => {
  it('offer every icon the menu uses, nested entries included, once each', async () => {
    const { menuIcons } = await import('../../client/widgets/screen-studio/studio-data')
    const menu = {
      sections: [
        { key: 'home', label: { es: 'Inicio' }, order: 10, icon: 'pi pi-home' },
        {
          key: 'sysmanager', label: { es: 'Gestión de sistema' }, order: 90,
          items: [
            { key: 'usuarios', label: { es: 'Usuarios' }, order: 10, icon: 'pi pi-users', items: [{ key: 'grupos', label: { es: 'Grupos' }, order: 10, icon: 'pi pi-sitemap', to: '/sysmanager/grupos' }] },
            { key: 'menu', label: { es: 'Menú' }, order: 20, icon: 'pi pi-users', to: '/sysmanager/menu' },
          ],
        },
      ],
    } as unknown as Parameters<typeof menuIcons>[0]
    expect(menuIcons(menu)).toEqual(['pi pi-home', 'pi pi-users', 'pi pi-sitemap'])
    expect(menuIcons(undefined)).toEqual([])
  })
})
