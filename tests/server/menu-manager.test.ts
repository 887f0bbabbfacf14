import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Manifest } from '../../schemas/manifest'
import type { MenuDefinition, MenuEntry, ResolvedMenuEntry } from '../../schemas/menu'
import { visitNodes } from '../../schemas/screen-walk'
import { ADMIN, AGENTE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

const GRUPO = 'portal.grupoenergia.localhost'
let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let agente = ''

async function signIn(app: TestBff, creds: typeof ADMIN, host = 'localhost') {
  const res = await request(app.app.server).post('/bff/auth/login').set('Host', host).set('X-CSRF', '1').send(creds).expect(200)
  return sessionCookie(res.headers['set-cookie'])
}

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  admin = await signIn(bff, ADMIN)
  agente = await signIn(bff, AGENTE, GRUPO)
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

const call = (method: 'get' | 'put' | 'post', path: string, cookie: string, body?: unknown, host = 'localhost') => {
  const r = request(bff.app.server)[method](path).set('Host', host).set('X-CSRF', '1')
  if (cookie) r.set('Cookie', cookie)
  return body === undefined ? r : r.send(body as object)
}

const labels = (entries: ResolvedMenuEntry[], prefix = ''): string[] =>
  entries.flatMap((e) => [`${prefix}${e.label.es}`, ...labels(e.items ?? [], `${prefix}${e.label.es} › `)])

async function menuOf(cookie: string, app = bff, host = GRUPO) {
  const res = await request(app.app.server).get('/bff/manifest').set('Host', host).set('Cookie', cookie).expect(200)
  return (res.body as Manifest).menu
}

async function current(brand = 'grupo') {
  return (await call('get', `/bff/admin/menu?brand=${brand}`, admin).expect(200)).body as { version: number; menu: MenuDefinition }
}

/** A copy of the menu with `edit` applied to the entry `key`. */
function editEntry(menu: MenuDefinition, key: string, edit: (e: MenuEntry) => void): MenuDefinition {
  const copy = structuredClone(menu)
  const visit = (list: MenuEntry[]): boolean => list.some((e) => (e.key === key ? (edit(e), true) : visit((e.items ?? []) as MenuEntry[])))
  if (!visit(copy.sections as MenuEntry[])) throw new Error(`no entry ${key}`)
  return copy
}

const section = (menu: MenuDefinition, key: string) => menu.sections.find((s) => s.key === key)! as MenuEntry

describe('GESTORACCESS guards every menu manager endpoint', () => {
  const endpoints: [method: 'get' | 'put' | 'post', path: string, body?: unknown][] = [
    ['get', '/bff/admin/menu'],
    ['put', '/bff/admin/menu', { version: 0, menu: { sections: [] } }],
    ['get', '/bff/admin/menu/history'],
    ['get', '/bff/admin/menu/diff?from=0&to=0'],
    ['post', '/bff/admin/menu/preview', { menu: { sections: [] }, permissions: [], production: false }],
    ['post', '/bff/admin/menu/rollback', { version: 0, expectedVersion: 0 }],
    ['get', '/bff/admin/audit'],
    ['get', '/bff/admin/screens'],
    ['get', '/bff/admin/screens/contratos-listado'],
    ['put', '/bff/admin/screens/contratos-listado', { screen: {}, expectedVersion: 0 }],
    ['get', '/bff/admin/screens/contratos-listado/history'],
    ['post', '/bff/admin/screens/contratos-listado/rollback', { version: 0 }],
  ]
  it.each(endpoints)('%s %s: 401 signed out, 403 for agente (logged), nothing stored', async (method, path, body) => {
    const anonymous = await call(method, path, '', body).expect(401)
    expect(anonymous.body.message).toMatch(/sesión/i)
    const denied = await call(method, path, agente, body, GRUPO).expect(403)
    expect(denied.body.message).toBe('No tienes permiso para acceder a este recurso.')
    expect(bff.logs.lines.some((l) => l.event === 'admin_denied' && l.permission === 'GESTORACCESS')).toBe(true)
  })
  it('the admin reaches them', async () => {
    for (const [method, path] of endpoints.filter(([m]) => m === 'get')) await call(method, path, admin).expect(200)
    expect((await current()).version).toBe(0)
    expect((await call('get', '/bff/admin/screens/contratos-listado', admin).expect(200)).body.version).toBe(0)
  })
})

describe('invalid saves are refused with a Spanish message naming the entry, and change nothing', () => {
  const cases: [string, (m: MenuDefinition) => unknown, RegExp][] = [
    ['a repeated key', (m) => editEntry(m, 'facturas', (e) => (e.key = 'contratos-listado')), /La clave «contratos-listado» está repetida/],
    ['a route that does not exist', (m) => editEntry(m, 'facturas', (e) => (e.to = '/soluciones/no-existe')), /«Facturas» \(facturas\) apunta a una ruta que no existe: \/soluciones\/no-existe/],
    ['an unknown permission', (m) => editEntry(m, 'facturas', (e) => (e.permission = 'VERTODO')), /«Facturas» \(facturas\) pide el permiso «VERTODO», que no existe/],
    ['an empty section', (m) => editEntry(m, 'comercial', (e) => (e.items = [])), /La sección «Comercial» \(comercial\) está vacía/],
    ['an http external link', (m) => editEntry(m, 'facturas', (e) => { delete e.to; e.href = 'http://example.com' }), /facturas|https/],
    ['an external link that is not a full address', (m) => editEntry(m, 'facturas', (e) => { delete e.to; e.href = 'https://intranet' }), /El enlace externo de la entrada «Facturas» \(facturas\) debe ser una dirección https completa/],
    ['an unknown brand', (m) => editEntry(m, 'facturas', (e) => (e.brands = ['otra'])), /«Facturas» \(facturas\) nombra la marca «otra», que no existe/],
    ['two destinations', (m) => editEntry(m, 'facturas', (e) => (e.href = 'https://example.com/x')), /«Facturas» \(facturas\) debe llevar a una sola ruta, enlace externo o acción/],
    ['a page with children', (m) => editEntry(m, 'facturas', (e) => (e.items = [{ key: 'x-nueva', label: { es: 'X' }, to: '/soluciones/facturas' }])), /«Facturas» \(facturas\) agrupa otras entradas y no puede llevar a una página/],
    ['a leaf at the top level', (m) => ({ sections: [...m.sections, { key: 'suelta', label: { es: 'Suelta' }, to: '/soluciones/facturas' }] }), /La sección «Suelta» \(suelta\) debe contener entradas/],
    ['a key that breaks the schema', (m) => editEntry(m, 'facturas', (e) => (e.key = 'Facturas Nuevas')), /^La entrada «Facturas» \(Facturas Nuevas\) no es válida: la clave admite minúsculas/],
    ['an icon that is not a PrimeIcon', (m) => editEntry(m, 'facturas', (e) => (e.icon = 'fa fa-money')), /^La entrada «Facturas» \(facturas\) no es válida: el icono debe ser de PrimeIcons/],
    ['an empty label', (m) => editEntry(m, 'facturas', (e) => (e.label = { es: '' })), /^La entrada «facturas» no es válida: necesita un texto en español/],
    ['a field the menu does not know', (m) => editEntry(m, 'facturas', (e) => Object.assign(e, { color: 'red' })), /^La entrada «Facturas» \(facturas\) tiene un campo desconocido: «color»/],
    ['not a menu at all', () => ({ secciones: [] }), /^El menú no es válido: debe ser una lista de secciones/],
  ]
  it.each(cases)('%s', async (_name, mutate, message) => {
    const before = await current()
    const historyBefore = (await call('get', '/bff/admin/menu/history?brand=grupo', admin).expect(200)).body
    const res = await call('put', '/bff/admin/menu?brand=grupo', admin, { version: before.version, menu: mutate(before.menu) }).expect(400)
    expect(res.body.message).toMatch(message)
    // Spanish, for a person: no stack, no JSON
    expect(res.body.message).not.toMatch(/Error:|\{|at \w+ \(/)
    const after = await current()
    expect(after).toEqual(before)
    expect((await call('get', '/bff/admin/menu/history?brand=grupo', admin).expect(200)).body).toEqual(historyBefore)
  })
  it('an unknown brand is refused', async () => {
    const res = await call('get', '/bff/admin/menu?brand=otra', admin).expect(400)
    expect(res.body.message).toBe('Marca desconocida: «otra».')
  })
})

describe('saving, conflicts, preview, history, diff, rollback and audit', () => {
  it('returns the default brand when none is named, with what the editor needs', async () => {
    const res = await call('get', '/bff/admin/menu', admin).expect(200)
    expect(res.body).toMatchObject({ brand: 'verde', version: 0, author: null })
    expect(res.body.routes).toContainEqual({ path: '/soluciones/facturas', title: { es: 'Facturas', en: 'Invoices' }, permission: null })
    expect(res.body.permissions.map((p: { code: string }) => p.code)).toEqual(expect.arrayContaining(['GESTORACCESS', 'VERRENOVACIONES']))
    expect(res.body.brands.map((b: { key: string }) => b.key).sort()).toEqual(['grupo', 'limpia', 'verde'])
  })

  it('a save reaches the manifest of a signed-in user at once, and only for that brand', async () => {
    const base = await current()
    const before = labels(await menuOf(agente))
    expect(before).toContain('Contratos › Facturas')
    let edited = editEntry(base.menu, 'facturas', (e) => (e.label = { es: 'Mis facturas', en: 'My invoices' }))
    edited = editEntry(edited, 'agentes', (e) => (e.hidden = true))
    const contratos = section(edited, 'contratos')
    contratos.items = [...contratos.items!].reverse()
    const saved = await call('put', '/bff/admin/menu?brand=grupo', admin, { version: base.version, menu: edited }).expect(200)
    expect(saved.body.version).toBe(base.version + 1)
    expect(saved.body.changes.map((c: { text: string }) => c.text)).toEqual(
      expect.arrayContaining(['«Facturas» se llama ahora «Mis facturas».', '«Agentes» queda oculta.', expect.stringMatching(/^Nuevo orden en «Contratos»: Renovaciones, Mis facturas, Listado/)]),
    )
    const after = labels(await menuOf(agente))
    expect(after).toContain('Contratos › Mis facturas')
    expect(after).not.toContain('Comercial › Agentes')
    expect(after.filter((l) => l.startsWith('Contratos › '))).toEqual(['Contratos › Mis facturas', 'Contratos › Listado', 'Contratos › Contrato', 'Contratos › Alta'])
    // the other brands keep their menu
    expect(labels(await menuOf(agente, bff, 'portal.energialimpia.localhost'))).toContain('Contratos › Facturas')
    expect(bff.logs.lines.some((l) => l.event === 'menu_saved' && l.brand === 'grupo')).toBe(true)
  })

  it('a second admin saving from the same version gets a conflict that shows what changed', async () => {
    const base = await current()
    const first = editEntry(base.menu, 'sips', (e) => (e.label = { es: 'Puntos de suministro', en: 'Sips' }))
    const second = editEntry(base.menu, 'sips', (e) => (e.icon = 'pi pi-search'))
    await call('put', '/bff/admin/menu?brand=grupo', admin, { version: base.version, menu: first }).expect(200)
    const clash = await call('put', '/bff/admin/menu?brand=grupo', admin, { version: base.version, menu: second }).expect(409)
    expect(clash.body.message).toMatch(new RegExp(`guardó la versión ${base.version + 1}\\. Revisa sus cambios`))
    expect(clash.body.current.version).toBe(base.version + 1)
    expect(clash.body.current.author.email).toBe('admin@portal.test')
    expect(clash.body.changes.map((c: { text: string }) => c.text)).toEqual(['«Sips» se llama ahora «Puntos de suministro».'])
    // both admins' changes together, offered for review, not stored
    const merged = clash.body.merged as MenuDefinition
    expect(editEntry(merged, 'sips', () => undefined)).toEqual(editEntry(base.menu, 'sips', (e) => ((e.label = { es: 'Puntos de suministro', en: 'Sips' }), (e.icon = 'pi pi-search'))))
    // the first save stands
    expect(labels(section((await current()).menu, 'utilidades').items as never)).toContain('Puntos de suministro')
  })

  it('preview shows the draft as a permission set and environment would see it, without saving', async () => {
    const base = await current()
    const draft = editEntry(base.menu, 'renovaciones', (e) => (e.label = { es: 'Renovar', en: 'Renewals' }))
    const asAgente = await call('post', '/bff/admin/menu/preview?brand=grupo', admin, { menu: draft, permissions: [], production: true }).expect(200)
    const agenteView = labels(asAgente.body.menu)
    expect(agenteView).not.toContain('Contratos › Renovar')
    expect(agenteView.some((l) => l.startsWith('Gestión de sistema'))).toBe(false)
    expect(agenteView).not.toContain('Auth')
    const asAdmin = await call('post', '/bff/admin/menu/preview?brand=grupo', admin, { menu: draft, permissions: ['VERRENOVACIONES', 'GESTORACCESS'], production: false }).expect(200)
    expect(labels(asAdmin.body.menu)).toContain('Contratos › Renovar')
    expect(labels(asAdmin.body.menu)).toContain('Auth')
    expect(asAdmin.body.changes.map((c: { text: string }) => c.text)).toEqual(['«Renovaciones» se llama ahora «Renovar».'])
    expect((await current()).version).toBe(base.version)
  })

  it('lists the history with authors and readable changes, diffs any two versions, rolls back as a new version, audits it all', async () => {
    const base = await current()
    const history = (await call('get', '/bff/admin/menu/history?brand=grupo', admin).expect(200)).body
    expect(history.map((v: { version: number }) => v.version)).toEqual([...Array(base.version + 1).keys()].reverse())
    expect(history[0]).toMatchObject({ author: { name: expect.any(String), email: 'admin@portal.test' }, kind: 'edit', createdAt: expect.any(Number) })
    expect(history.at(-1)).toMatchObject({ version: 0, kind: 'shipped' })
    expect(history.flatMap((v: { changes: { text: string }[] }) => v.changes.map((c) => c.text))).toContain('«Facturas» se llama ahora «Mis facturas».')

    const diff = (await call('get', `/bff/admin/menu/diff?brand=grupo&from=0&to=${base.version}`, admin).expect(200)).body
    expect(diff.changes.map((c: { text: string }) => c.text)).toEqual(expect.arrayContaining(['«Facturas» se llama ahora «Mis facturas».', '«Sips» se llama ahora «Puntos de suministro».']))
    await call('get', '/bff/admin/menu/diff?brand=grupo&from=0&to=99', admin).expect(404)

    const stale = await call('post', '/bff/admin/menu/rollback?brand=grupo', admin, { version: 0, expectedVersion: base.version - 1 }).expect(409)
    expect(stale.body.current.version).toBe(base.version)
    await call('post', '/bff/admin/menu/rollback?brand=grupo', admin, { version: 42, expectedVersion: base.version }).expect(404)

    const back = await call('post', '/bff/admin/menu/rollback?brand=grupo', admin, { version: 0, expectedVersion: base.version }).expect(200)
    expect(back.body.version).toBe(base.version + 1)
    expect(back.body.changes.map((c: { text: string }) => c.text)).toContain('«Mis facturas» se llama ahora «Facturas».')
    const restored = labels(await menuOf(agente))
    expect(restored).toContain('Contratos › Facturas')
    expect(restored).toContain('Comercial › Agentes')
    expect((await current()).menu).toEqual((await call('get', '/bff/admin/menu?brand=limpia', admin).expect(200)).body.menu)
    const top = (await call('get', '/bff/admin/menu/history?brand=grupo', admin).expect(200)).body[0]
    expect(top).toMatchObject({ version: base.version + 1, kind: 'rollback', restoredFrom: 0 })

    const audit = (await call('get', '/bff/admin/audit?brand=grupo', admin).expect(200)).body.Items as { action: string; version: number; actor: { email: string } }[]
    expect(audit.map((a) => [a.action, a.version])).toEqual([['menu.rollback', base.version + 1], ...[...Array(base.version).keys()].map((i) => ['menu.save', base.version - i])])
    expect(audit.every((a) => a.actor.email === 'admin@portal.test')).toBe(true)
  })
})

describe('screen tweaks: table columns', () => {
  const ID = 'contratos-listado'
  type Col = { field: string; header: string | { es: string; en?: string }; [k: string]: unknown }
  const columnsFor = async (cookie: string, host = GRUPO) => {
    const res = await request(bff.app.server).get(`/bff/screens/${ID}`).set('Host', host).set('Cookie', cookie).expect(200)
    const found: string[][] = []
    visitNodes(res.body.root, (node) => {
      if (node.type === 'table') found.push(node.columns.map((c) => `${c.field}:${typeof c.header === 'string' ? c.header : c.header.es}`))
    })
    return found[0]!
  }
  /** The admin's copy of the screen, and its `contratos` table's columns to edit in place. */
  const editable = async () => {
    const state = (await call('get', `/bff/admin/screens/${ID}`, admin).expect(200)).body as { version: number; screen: { root: { children: { id?: string; columns?: Col[] }[] } } }
    const table = state.screen.root.children.find((c) => c.id === 'contratos')!
    return { version: state.version, screen: state.screen, columns: table.columns!, set: (cols: Col[]) => (table.columns = cols) }
  }
  /** The column editor's save: the whole screen with its columns changed, saved as a version and published to everyone. */
  const saveColumns = async (change: (cols: Col[]) => Col[], expectedVersion?: number) => {
    const e = await editable()
    e.set(change(e.columns))
    const saved = await call('put', `/bff/admin/screens/${ID}`, admin, { screen: e.screen, expectedVersion: expectedVersion ?? e.version })
    if (saved.status === 200) await call('post', `/bff/admin/screens/${ID}/publish`, admin, { version: saved.body.version }).expect(200)
    return saved
  }

  it('lists the table screens and the shipped columns of one', async () => {
    const list = (await call('get', '/bff/admin/screens', admin).expect(200)).body as { id: string; path: string; tables: string[] }[]
    expect(list).toContainEqual(expect.objectContaining({ id: ID, path: '/soluciones/contratos/listado', tables: ['contratos'], version: 0 }))
    const one = await editable()
    expect(one.columns.slice(0, 2).map((c) => ({ field: c.field, header: c.header }))).toEqual([
      { field: 'CodigoContrato', header: expect.anything() },
      { field: 'Cups', header: expect.anything() },
    ])
    await call('get', '/bff/admin/screens/no-existe', admin).expect(404)
  })

  it.each([
    ['a column without a field', (cols: Col[]) => [{ ...cols[0]!, field: '' }, ...cols.slice(1)], /^La pantalla no es válida: \/root\/children\/0\/columns\/0\/field: /],
    ['a property columns do not have', (cols: Col[]) => [{ ...cols[0]!, color: 'rojo' }, ...cols.slice(1)], /^La pantalla no es válida: \/root\/children\/0\/columns\/0/],
    ['a blank header', (cols: Col[]) => [cols[0]!, { ...cols[1]!, header: '' }, ...cols.slice(2)], /^La pantalla no es válida: \/root\/children\/0\/columns\/1\/header/],
  ])('refuses %s and keeps the stored version', async (_name, change, message) => {
    const res = await saveColumns(change)
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(message)
    expect((await call('get', `/bff/admin/screens/${ID}`, admin).expect(200)).body.version).toBe(0)
  })

  it('refuses hiding every column', async () => {
    const res = await saveColumns(() => [])
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/^La pantalla no es válida: \/root\/children\/0\/columns/)
  })

  it('hides, reorders and renames columns for everyone, and rolls back', async () => {
    const original = await columnsFor(agente)
    expect(original.slice(0, 3)).toEqual(['CodigoContrato:Código', 'Cups:CUPS', 'Titular:Titular'])
    const saved = await saveColumns((cols) => {
      const titular = cols.find((c) => c.field === 'Titular')!
      return [{ ...titular, header: 'Cliente' }, ...cols.filter((c) => c.field !== 'Titular' && c.field !== 'Cups')]
    })
    expect(saved.status).toBe(200)
    expect(saved.body.version).toBe(1)
    expect(saved.body.changes.map((c: { text: string }) => c.text)).toEqual(
      expect.arrayContaining(['Tabla «contratos»: la columna «CUPS» queda oculta.', 'Tabla «contratos»: la columna «Titular» se titula ahora «Cliente».']),
    )
    const tweaked = await columnsFor(agente)
    expect(tweaked.slice(0, 2)).toEqual(['Titular:Cliente', 'CodigoContrato:Código'])
    expect(tweaked.some((c) => c.startsWith('Cups:'))).toBe(false)
    expect(await columnsFor(admin, 'localhost')).toEqual(tweaked)

    expect((await saveColumns((cols) => cols, 0)).status).toBe(409)
    const history = (await call('get', `/bff/admin/screens/${ID}/history`, admin).expect(200)).body
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual([1, 0])
    const back = await call('post', `/bff/admin/screens/${ID}/rollback`, admin, { version: 0 }).expect(200)
    expect(back.body).toMatchObject({ audience: { everyone: 0, staged: null } })
    expect(await columnsFor(agente)).toEqual(original)
    const audit = (await call('get', '/bff/admin/audit', admin).expect(200)).body.Items as { action: string; doc: string }[]
    expect(audit.slice(0, 3).map((a) => [a.action, a.doc])).toEqual([
      ['screen.rollback', `screen:${ID}`],
      ['screen.publish', `screen:${ID}`],
      ['screen.save', `screen:${ID}`],
    ])
  })
})

describe('several BFF instances sharing the menu storage', () => {
  it('a change saved on one reaches the manifest served by another within 5 seconds', async () => {
    const other = await buildTestBff(api.url, { DATA_DIR: bff.dataDir })
    try {
      const agenteThere = await signIn(other, AGENTE, GRUPO)
      const base = await current()
      expect(labels(await menuOf(agenteThere, other))).toContain('Utilidades › Sips')
      // warm the other instance's cache so the change has to invalidate it
      await menuOf(agenteThere, other)
      const edited = editEntry(base.menu, 'sips', (e) => (e.label = { es: 'SIPS (CUPS)', en: 'Sips' }))
      await call('put', '/bff/admin/menu?brand=grupo', admin, { version: base.version, menu: edited }).expect(200)
      await expect.poll(async () => labels(await menuOf(agenteThere, other)), { timeout: 5_000, interval: 250 }).toContain('Utilidades › SIPS (CUPS)')
    } finally {
      await other.app.close()
    }
  })
})
