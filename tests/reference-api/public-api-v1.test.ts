import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, NOW } from './business-support'

/** The public integration API behind the API Test console (`/api/public/v1/…`, by X-Api-Key). */

interface Parametro {
  Nombre: string
  En: 'query' | 'path'
  Tipo: 'string' | 'integer' | 'date'
  Requerido: boolean
  Descripcion: string
  Ejemplo: string | number
}
interface Llamada {
  Id: string
  Metodo: string
  Ruta: string
  Descripcion: string
  Permiso: string | null
  Parametros: Parametro[]
}
interface ContratoItem {
  CodigoContrato: string
  Estado: string
  Cups: string
  Tarifa: string
  FechaAlta: string
  FechaActivacion: string | null
}
interface Page<T> {
  Items: T[]
  TotalCount: number
  PageIndex: number
  PageSize: number
}

let api: RunningReferenceApi
let admin: ApiCaller
let serial = 0

interface Answer<T> {
  status: number
  text: string
  body: T
}

/** Calls the public API with a key (and the brand header). */
async function pub<T = unknown>(key: string | null, path: string, query: Record<string, string | number> = {}, brand: string = BRAND_DOMAINS.verde): Promise<Answer<T>> {
  const qs = Object.keys(query).length ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : ''
  const headers: Record<string, string> = { 'x-brand-domain': brand }
  if (key !== null) headers['x-api-key'] = key
  const res = await fetch(`${api.url}${path}${qs}`, { headers })
  const text = await res.text()
  return { status: res.status, text, body: ((res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text) as T }
}

const permisoId = (n: string) => (api.db.prepare('SELECT id FROM permisos WHERE nombre_normalizado = ?').get(n) as { id: number }).id
const verdeId = () => (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id

/** A new API user with these permissions and a freshly generated key (through the admin calls). */
async function keyWith(permisos: string[], opts: { agenteId?: number } = {}): Promise<{ apiUserId: number; apiKey: string; key: string }> {
  const n = serial++
  const user = await admin.post<{ Id: number }>('/api/apiusers/register-api-user', { Nombre: `Pruebas API pública ${n} ${Date.now()}`, Email: `api${n}@pruebas.test` })
  expect(user.status, user.text).toBe(201)
  if (permisos.length) {
    const add = await admin.put('/api/apiusers/add-permisos-to-user', permisos.map(permisoId), { userId: user.body.Id })
    expect(add.status, add.text).toBe(200)
  }
  if (opts.agenteId) {
    const link = await admin.post('/api/apiusers/asociar-agente', { IdAgente: opts.agenteId, ApiUserId: user.body.Id })
    expect(link.status, link.text).toBe(200)
  }
  const gen = await admin.post<{ ApiKey: string; Clave: string }>('/api/apikey/generate', { ApiUserId: user.body.Id, Descripcion: 'Consola API Test' })
  expect(gen.status, gen.text).toBe(201)
  return { apiUserId: user.body.Id, apiKey: gen.body.ApiKey, key: gen.body.Clave }
}

const ALL = ['APICONTRATOSLECTURA', 'APISIPS', 'APIFACTURAS']
let full: Awaited<ReturnType<typeof keyWith>>

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  full = await keyWith(ALL)
})
afterAll(async () => {
  await api?.close()
})

describe('catalogue', () => {
  it('lists every call with its method, path, permission and parameters', async () => {
    const res = await pub<Llamada[]>(full.key, '/api/public/v1')
    expect(res.status, res.text).toBe(200)
    const byId = new Map(res.body.map((c) => [c.Id, c]))
    expect([...byId.keys()]).toEqual(['catalogo', 'me', 'contratos', 'contrato', 'sips', 'facturas', 'precios-omie'])
    for (const c of res.body) {
      expect(Object.keys(c)).toEqual(['Id', 'Metodo', 'Ruta', 'Descripcion', 'Permiso', 'Parametros'])
      expect(c.Metodo).toBe('GET')
      expect(c.Ruta.startsWith('/api/public/v1')).toBe(true)
      expect(c.Descripcion).toMatch(/\S/)
      for (const p of c.Parametros) {
        expect(Object.keys(p)).toEqual(['Nombre', 'En', 'Tipo', 'Requerido', 'Descripcion', 'Ejemplo'])
        expect(['query', 'path']).toContain(p.En)
        expect(['string', 'integer', 'date']).toContain(p.Tipo)
      }
    }
    expect(byId.get('contratos')).toMatchObject({ Ruta: '/api/public/v1/contratos', Permiso: 'APICONTRATOSLECTURA' })
    expect(byId.get('contratos')!.Parametros.map((p) => p.Nombre)).toEqual(['pageIndex', 'pageSize', 'estado'])
    expect(byId.get('contrato')).toMatchObject({ Ruta: '/api/public/v1/contratos/{codigo}', Permiso: 'APICONTRATOSLECTURA' })
    expect(byId.get('contrato')!.Parametros[0]).toMatchObject({ Nombre: 'codigo', En: 'path', Tipo: 'string', Requerido: true })
    expect(byId.get('sips')).toMatchObject({ Permiso: 'APISIPS' })
    expect(byId.get('facturas')).toMatchObject({ Permiso: 'APIFACTURAS' })
    expect(byId.get('precios-omie')).toMatchObject({ Permiso: null })
    expect(byId.get('precios-omie')!.Parametros[0]).toMatchObject({ Nombre: 'fecha', Tipo: 'date', Requerido: true })
    expect(byId.get('me')!.Permiso).toBeNull()
  })

  it('gives examples that work with the key as they are', async () => {
    const cat = (await pub<Llamada[]>(full.key, '/api/public/v1')).body
    const ex = (id: string) => String(cat.find((c) => c.Id === id)!.Parametros.find((p) => p.Requerido)!.Ejemplo)
    expect((await pub(full.key, `/api/public/v1/contratos/${ex('contrato')}`)).status).toBe(200)
    const facturas = await pub<unknown[]>(full.key, '/api/public/v1/facturas', { codigoContrato: ex('facturas') })
    expect(facturas.status).toBe(200)
    expect(facturas.body.length).toBeGreaterThan(0)
    expect((await pub(full.key, '/api/public/v1/sips', { cups: ex('sips') })).status).toBe(200)
    expect((await pub(full.key, '/api/public/v1/precios/omie', { fecha: ex('precios-omie') })).status).toBe(200)
  })

  it('needs a valid key like every public call (401)', async () => {
    expect((await pub(null, '/api/public/v1')).status).toBe(401)
    expect((await pub('pk_0000000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/api/public/v1')).status).toBe(401)
    // a bearer token is no key
    const bearer = await fetch(`${api.url}/api/public/v1`, { headers: { authorization: `Bearer ${admin.token}`, 'x-brand-domain': BRAND_DOMAINS.verde } })
    expect(bearer.status).toBe(401)
  })
})

describe('contracts', () => {
  it('pages the brand contracts, newest sign-up first, in the list shape', async () => {
    const res = await pub<Page<ContratoItem>>(full.key, '/api/public/v1/contratos', { pageIndex: 1, pageSize: 5 })
    expect(res.status, res.text).toBe(200)
    const total = (api.db.prepare('SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ?').get(verdeId()) as { n: number }).n
    expect(res.body).toMatchObject({ TotalCount: total, PageIndex: 1, PageSize: 5 })
    expect(res.body.Items).toHaveLength(5)
    for (const item of res.body.Items) {
      expect(Object.keys(item)).toEqual(['CodigoContrato', 'Estado', 'Cups', 'Tarifa', 'FechaAlta', 'FechaActivacion'])
      expect(item.CodigoContrato).toMatch(/^EV-\d{4}-\d{6}$/)
      expect(item.Cups).toMatch(/^ES\d{16}[A-Z]{2}(\d[FPRCXYZ])?$/)
    }
    const first = (await pub<Page<ContratoItem>>(full.key, '/api/public/v1/contratos', { pageSize: 10 })).body.Items
    const expected = api.db.prepare('SELECT codigo FROM contratos WHERE marca_id = ? ORDER BY fecha_alta DESC, codigo DESC LIMIT 10').all(verdeId()) as { codigo: string }[]
    expect(first.map((i) => i.CodigoContrato)).toEqual(expected.map((e) => e.codigo))
  })

  it('filters by state (one or a comma list) and refuses unknown states and bad paging (400)', async () => {
    const activos = await pub<Page<ContratoItem>>(full.key, '/api/public/v1/contratos', { estado: 'activo', pageSize: 50 })
    expect(activos.status).toBe(200)
    const n = (api.db.prepare("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND estado = 'activo'").get(verdeId()) as { n: number }).n
    expect(activos.body.TotalCount).toBe(n)
    expect(activos.body.Items.every((i) => i.Estado === 'activo')).toBe(true)
    const two = await pub<Page<ContratoItem>>(full.key, '/api/public/v1/contratos', { estado: 'baja, anulado', pageSize: 500 })
    const m = (api.db.prepare("SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND estado IN ('baja', 'anulado')").get(verdeId()) as { n: number }).n
    expect(two.body.TotalCount).toBe(m)
    expect(new Set(two.body.Items.map((i) => i.Estado))).toEqual(new Set(['baja', 'anulado']))
    const bad = await pub(full.key, '/api/public/v1/contratos', { estado: 'vigente' })
    expect(bad.status).toBe(400)
    expect(bad.text).toMatch(/^Estado desconocido: «vigente»/)
    expect((await pub(full.key, '/api/public/v1/contratos', { pageSize: 0 })).status).toBe(400)
    expect((await pub(full.key, '/api/public/v1/contratos', { pageSize: -1 })).status).toBe(400)
    expect((await pub(full.key, '/api/public/v1/contratos', { pageIndex: 'x' })).status).toBe(400)
  })

  it('gives one contract: holder, CUPS, tariff, powers, state and dates', async () => {
    const row = api.db
      .prepare(
        `SELECT c.codigo, c.estado, c.potencia_p1, c.fecha_alta, cl.titular, ps.cups FROM contratos c JOIN clientes cl ON cl.id = c.cliente_id
         JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id WHERE c.marca_id = ? AND c.tarifa_id = 1 AND c.estado = 'activo' ORDER BY c.id LIMIT 1`,
      )
      .get(verdeId()) as { codigo: string; estado: string; potencia_p1: number; fecha_alta: string; titular: string; cups: string }
    const res = await pub<Record<string, unknown>>(full.key, `/api/public/v1/contratos/${row.codigo.toLowerCase()}`)
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({
      CodigoContrato: row.codigo,
      Estado: 'activo',
      EstadoNombre: 'Activo',
      Titular: row.titular,
      Cups: row.cups,
      Tarifa: '2.0TD',
      Potencias: { P1: row.potencia_p1, P3: null, P4: null, P5: null, P6: null },
      FechaAlta: row.fecha_alta,
    })
    expect(res.body.FechaActivacion).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(res.body).not.toHaveProperty('Iban')
    const unknown = await pub(full.key, '/api/public/v1/contratos/EV-2001-999999')
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('No se ha encontrado el contrato EV-2001-999999.')
    expect((await pub(full.key, '/api/public/v1/contratos/no-es-un-codigo')).status).toBe(400)
    // a contract of another brand does not exist here
    const ge = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'grupoenergia.es' LIMIT 1").get() as { codigo: string }).codigo
    expect((await pub(full.key, `/api/public/v1/contratos/${ge}`)).status).toBe(404)
    expect((await pub(full.key, `/api/public/v1/contratos/${ge}`, {}, BRAND_DOMAINS.grupo)).status).toBe(200)
  })
})

describe('invoices', () => {
  it("gives a contract's invoices, newest first: number, period, total and payment state", async () => {
    const c = api.db
      .prepare('SELECT c.id, c.codigo FROM contratos c WHERE c.marca_id = ? AND (SELECT COUNT(*) FROM facturas f WHERE f.contrato_id = c.id) >= 3 ORDER BY c.id LIMIT 1')
      .get(verdeId()) as { id: number; codigo: string }
    const res = await pub<Record<string, unknown>[]>(full.key, '/api/public/v1/facturas', { codigoContrato: c.codigo })
    expect(res.status, res.text).toBe(200)
    const rows = api.db.prepare('SELECT numero, total, estado_pago, periodo_desde FROM facturas WHERE contrato_id = ? ORDER BY fecha_emision DESC, numero DESC').all(c.id) as {
      numero: string
      total: number
      estado_pago: string
      periodo_desde: string
    }[]
    expect(res.body.map((f) => f.Numero)).toEqual(rows.map((r) => r.numero))
    expect(res.body[0]).toMatchObject({ Numero: rows[0]!.numero, ImporteTotal: rows[0]!.total, EstadoPago: rows[0]!.estado_pago, PeriodoDesde: rows[0]!.periodo_desde })
    expect(Object.keys(res.body[0]!)).toEqual(['Numero', 'PeriodoDesde', 'PeriodoHasta', 'FechaEmision', 'FechaVencimiento', 'ConsumoKwh', 'BaseImponible', 'Iva', 'ImporteTotal', 'EstadoPago', 'EstadoPagoNombre', 'FechaCobro'])
    expect(['Pagada', 'Pendiente', 'Devuelta', 'Impagada']).toContain(res.body[0]!.EstadoPagoNombre)
    expect((await pub(full.key, '/api/public/v1/facturas')).status).toBe(400)
    expect((await pub(full.key, '/api/public/v1/facturas', { codigoContrato: 'EV-2001-999999' })).status).toBe(404)
  })
})

describe('SIPS and OMIE', () => {
  it('answers the SIPS information of a CUPS', async () => {
    const cups = (api.db.prepare('SELECT cups FROM puntos_suministro WHERE marca_id = ? ORDER BY id LIMIT 1').get(verdeId()) as { cups: string }).cups
    const res = await pub<{ Cups: string; Distribuidora: { Codigo: string }; Tarifa: { Codigo: string }; ConsumoAnualKwh: { Total: number } }>(full.key, '/api/public/v1/sips', { cups: cups.toLowerCase() })
    expect(res.status, res.text).toBe(200)
    expect(res.body.Cups.slice(0, 20)).toBe(cups.slice(0, 20))
    expect(res.body.Distribuidora.Codigo).toBe(cups.slice(2, 6))
    expect(res.body.ConsumoAnualKwh.Total).toBeGreaterThan(0)
    const bad = await pub(full.key, '/api/public/v1/sips', { cups: 'ES0021000000000000RK' })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('El CUPS ES0021000000000000RK no es válido: Las letras de control del CUPS no son correctas (deberían ser RC).')
    expect((await pub(full.key, '/api/public/v1/sips')).status).toBe(400)
    // a valid CUPS of an unknown distributor: no SIPS data
    const d = '9999' + '000000000001'
    const r = Number(BigInt(d) % 529n)
    const T = 'TRWAGMYFPDXBNJZSQVHLCKE'
    const unknownCups = `ES${d}${T[Math.floor(r / 23)]}${T[r % 23]}`
    const none = await pub(full.key, '/api/public/v1/sips', { cups: unknownCups })
    expect(none.status).toBe(404)
    expect(none.text).toBe(`No hay datos del SIPS para el CUPS ${unknownCups}: la distribuidora 9999 no es conocida.`)
    // the same answer as the portal's own SIPS call
    const portal = await admin.get('/api/sips/info', { cups: unknownCups })
    expect([portal.status, portal.text]).toEqual([none.status, none.text])
    const seen = await admin.get('/api/sips/info', { cups })
    expect(res.body).toEqual(seen.body)
  })

  it("answers a day's OMIE prices: quarter-hourly since October 2025, hourly before", async () => {
    const q = await pub<{ Fecha: string; Unidad: string; Resolucion: string; Media: number; Minimo: number; Maximo: number; Precios: { Fecha: string; PrecioMwh: number }[] }>(full.key, '/api/public/v1/precios/omie', { fecha: '2026-11-20' })
    expect(q.status, q.text).toBe(200)
    expect(q.body).toMatchObject({ Fecha: '2026-11-20', Unidad: '€/MWh', Resolucion: 'cuartohoraria' })
    expect(q.body.Precios).toHaveLength(96)
    expect(q.body.Precios[1]!.Fecha).toBe('2026-11-20T00:15+01:00')
    for (const p of q.body.Precios) expect(p.PrecioMwh).toBeGreaterThanOrEqual(-5)
    expect(q.body.Minimo).toBeLessThanOrEqual(q.body.Media)
    expect(q.body.Media).toBeLessThanOrEqual(q.body.Maximo)
    const h = await pub<{ Resolucion: string; Precios: unknown[] }>(full.key, '/api/public/v1/precios/omie', { fecha: '2024-03-10' })
    expect(h.body.Resolucion).toBe('horaria')
    expect(h.body.Precios).toHaveLength(24)
    // no permission needed: any valid key
    const bare = await keyWith([])
    expect((await pub(bare.key, '/api/public/v1/precios/omie', { fecha: '2026-11-21' })).status).toBe(200)
    // not published yet (before 13:00 in Madrid only today), before the series, malformed
    expect((await pub(full.key, '/api/public/v1/precios/omie', { fecha: '2026-11-22' })).status).toBe(404)
    expect((await pub(full.key, '/api/public/v1/precios/omie', { fecha: '2022-12-31' })).status).toBe(404)
    expect((await pub(full.key, '/api/public/v1/precios/omie', { fecha: '2026-02-30' })).status).toBe(400)
    expect((await pub(full.key, '/api/public/v1/precios/omie')).status).toBe(400)
  })
})

describe('keys and permissions', () => {
  it('refuses a call whose permission the key lacks (403) and allows the others', async () => {
    const sipsOnly = await keyWith(['APISIPS'])
    const code = (api.db.prepare('SELECT codigo FROM contratos WHERE marca_id = ? LIMIT 1').get(verdeId()) as { codigo: string }).codigo
    const list = await pub(sipsOnly.key, '/api/public/v1/contratos')
    expect(list.status).toBe(403)
    expect(list.text).toBe('La clave no tiene el permiso APICONTRATOSLECTURA.')
    expect((await pub(sipsOnly.key, `/api/public/v1/contratos/${code}`)).text).toBe('La clave no tiene el permiso APICONTRATOSLECTURA.')
    const inv = await pub(sipsOnly.key, '/api/public/v1/facturas', { codigoContrato: code })
    expect(inv.status).toBe(403)
    expect(inv.text).toBe('La clave no tiene el permiso APIFACTURAS.')
    expect((await pub(sipsOnly.key, '/api/public/v1/sips', { cups: 'ES0021000000000001RK' })).status).toBe(200)
    expect((await pub(sipsOnly.key, '/api/public/v1')).status).toBe(200)
    const readOnly = await keyWith(['APICONTRATOSLECTURA'])
    expect((await pub(readOnly.key, '/api/public/v1/sips', { cups: 'ES0021000000000001RK' })).text).toBe('La clave no tiene el permiso APISIPS.')
    expect((await pub(readOnly.key, '/api/public/v1/contratos')).status).toBe(200)
  })

  it('refuses a disabled key (401) and takes it again once enabled', async () => {
    const k = await keyWith(ALL)
    expect((await pub(k.key, '/api/public/v1/contratos')).status).toBe(200)
    expect((await admin.put('/api/apikey/toggle', { ApiKey: k.apiKey, Activa: false })).status).toBe(200)
    for (const path of ['/api/public/v1', '/api/public/v1/contratos', '/api/public/v1/me']) {
      const res = await pub(k.key, path)
      expect(res.status).toBe(401)
      expect(res.text).toBe('La clave de API no es válida, está desactivada o ha caducado.')
    }
    expect((await pub(k.key, '/api/public/v1/precios/omie', { fecha: '2026-11-20' })).status).toBe(401)
    await admin.put('/api/apikey/toggle', { ApiKey: k.apiKey, Activa: true })
    expect((await pub(k.key, '/api/public/v1/contratos')).status).toBe(200)
  })

  it("records the key's last use on each call", async () => {
    // (the access hook stamps it with the service clock, not the clock the suite pins)
    const k = await keyWith(['APISIPS'])
    const lastUse = () => (api.db.prepare('SELECT ultimo_uso FROM api_keys WHERE public_id = ?').get(k.apiKey) as { ultimo_uso: string | null }).ultimo_uso
    const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/
    expect(lastUse()).toBeNull()
    await pub(k.key, '/api/public/v1/sips', { cups: 'ES0021000000000001RK' })
    expect(lastUse()).toMatch(INSTANT)
    api.db.prepare('UPDATE api_keys SET ultimo_uso = NULL WHERE public_id = ?').run(k.apiKey)
    await pub(k.key, '/api/public/v1/precios/omie', { fecha: '2026-11-20' })
    expect(lastUse()).toMatch(INSTANT)
    // a refused call (missing permission) was still made with the key
    api.db.prepare('UPDATE api_keys SET ultimo_uso = NULL WHERE public_id = ?').run(k.apiKey)
    expect((await pub(k.key, '/api/public/v1/contratos')).status).toBe(403)
    expect(lastUse()).toMatch(INSTANT)
    const listed = (await admin.get<{ ApiKey: string; UltimoUso: string | null }[]>('/api/apikey')).body.find((x) => x.ApiKey === k.apiKey)!
    expect(listed.UltimoUso).toBe(lastUse())
  })
})

describe('scope: the agent linked to the API user', () => {
  it('sees only the contracts and invoices of its agent subtree in that brand, the whole brand elsewhere', async () => {
    const marca = verdeId()
    // a level-1 agency of the brand not linked to any API user yet, with contracts below it
    const agency = api.db
      .prepare('SELECT a.id FROM agentes a WHERE a.marca_id = ? AND a.nivel = 1 AND a.id NOT IN (SELECT agente_id FROM api_usuario_agentes) ORDER BY a.id DESC LIMIT 1')
      .get(marca) as { id: number }
    const subtree = (
      api.db
        .prepare('WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT a.id FROM agentes a JOIN t ON a.padre_id = t.id) SELECT id FROM t')
        .all(agency.id) as { id: number }[]
    ).map((r) => r.id)
    const inList = subtree.map(() => '?').join(', ')
    const mine = (api.db.prepare(`SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ? AND agente_id IN (${inList})`).get(marca, ...subtree) as { n: number }).n
    const total = (api.db.prepare('SELECT COUNT(*) AS n FROM contratos WHERE marca_id = ?').get(marca) as { n: number }).n
    expect(mine).toBeGreaterThan(0)
    expect(mine).toBeLessThan(total)

    const k = await keyWith(ALL, { agenteId: agency.id })
    const list = await pub<Page<ContratoItem>>(k.key, '/api/public/v1/contratos', { pageSize: 500 })
    expect(list.status).toBe(200)
    expect(list.body.TotalCount).toBe(mine)
    const inside = new Set((api.db.prepare(`SELECT codigo FROM contratos WHERE marca_id = ? AND agente_id IN (${inList})`).all(marca, ...subtree) as { codigo: string }[]).map((r) => r.codigo))
    expect(list.body.Items.every((i) => inside.has(i.CodigoContrato))).toBe(true)

    const outside = api.db
      .prepare(`SELECT c.codigo FROM contratos c WHERE c.marca_id = ? AND (c.agente_id IS NULL OR c.agente_id NOT IN (${inList})) AND EXISTS (SELECT 1 FROM facturas f WHERE f.contrato_id = c.id) LIMIT 1`)
      .get(marca, ...subtree) as { codigo: string }
    expect((await pub(k.key, `/api/public/v1/contratos/${outside.codigo}`)).status).toBe(404)
    expect((await pub(k.key, '/api/public/v1/facturas', { codigoContrato: outside.codigo })).status).toBe(404)
    expect((await pub(full.key, '/api/public/v1/facturas', { codigoContrato: outside.codigo })).status).toBe(200)
    const own = [...inside][0]!
    expect((await pub(k.key, `/api/public/v1/contratos/${own}`)).status).toBe(200)

    // the examples of the catalogue come from what the key sees
    const cat = (await pub<Llamada[]>(k.key, '/api/public/v1')).body
    expect(inside.has(String(cat.find((c) => c.Id === 'contrato')!.Parametros[0]!.Ejemplo))).toBe(true)

    // no link in another brand: that whole brand
    const grupoTotal = (api.db.prepare("SELECT COUNT(*) AS n FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'grupoenergia.es'").get() as { n: number }).n
    expect((await pub<Page<ContratoItem>>(k.key, '/api/public/v1/contratos', {}, BRAND_DOMAINS.grupo)).body.TotalCount).toBe(grupoTotal)
  })
})
