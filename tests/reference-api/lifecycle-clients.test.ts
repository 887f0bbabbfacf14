import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { cups } from './lifecycle-support'
import type { Client, CupsActive } from '../../schemas/business/contracts'
import type { FixedPrice } from '../../schemas/business/energy'

/** Client lookups, `POST /api/cups/isactive` and `GET /api/energia/preciofijo`. */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let marcaId: number
let subtree: number[]

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  marcaId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
  const own = (api.db.prepare("SELECT a.id FROM agentes a JOIN usuarios u ON u.id = a.usuario_id WHERE u.email = 'agente@portal.test' AND a.marca_id = ?").get(marcaId) as { id: number }).id
  subtree = (api.db.prepare('WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT a.id FROM agentes a JOIN t ON a.padre_id = t.id) SELECT id FROM t').all(own) as { id: number }[]).map((r) => r.id)
})
afterAll(async () => {
  await api?.close()
})

const inSubtree = () => `(${subtree.join(', ')})`

describe('GET /api/client and /api/client-id', () => {
  it('finds a client of the brand by NIF (lower case, spaces), with its supply points and contracts', async () => {
    const row = api.db
      .prepare(
        `SELECT cl.id, cl.nif, COUNT(c.id) AS n FROM clientes cl JOIN contratos c ON c.cliente_id = cl.id
         WHERE cl.marca_id = ? AND cl.tipo = 'fisica' GROUP BY cl.id HAVING n >= 2 ORDER BY cl.id LIMIT 1`,
      )
      .get(marcaId) as { id: number; nif: string; n: number }
    const query = `${row.nif.slice(0, 4)} ${row.nif.slice(4).toLowerCase()}`
    const res = await admin.get<Client>('/api/client', { identificador: query })
    expect(res.status, res.text).toBe(200)
    const c = res.body
    expect(c).toMatchObject({ Id: row.id, Nif: row.nif, Tipo: 'fisica' })
    for (const f of ['Nombre', 'Apellido1', 'Apellido2', 'RazonSocial', 'FormaJuridica', 'NombreCompleto', 'Email', 'Telefono', 'Direccion', 'CodigoPostal', 'Municipio', 'ProvinciaId', 'Provincia', 'Iban', 'FechaAlta']) {
      expect(c, f).toHaveProperty(f)
    }
    expect(typeof c.Provincia).toBe('string')
    expect(c.Contratos).toHaveLength(row.n)
    expect(c.PuntosSuministro.length).toBeGreaterThanOrEqual(2)
    const p = c.PuntosSuministro[0]!
    expect(Object.keys(p).sort()).toEqual(
      ['Id', 'Cups', 'Direccion', 'CodigoPostal', 'Municipio', 'ProvinciaId', 'Provincia', 'DistribuidoraCodigo', 'Distribuidora', 'TarifaId', 'Tarifa', 'Cnae'].sort(),
    )
    expect(c.Contratos[0]).toMatchObject({ CodigoContrato: expect.stringMatching(/^EV-/), Estado: expect.any(String), EstadoNombre: expect.any(String), Cups: expect.stringMatching(/^ES/), Tarifa: expect.any(String), FechaAlta: expect.any(String) })
    const dates = c.Contratos.map((x) => x.FechaAlta)
    expect([...dates].sort().reverse()).toEqual(dates)

    const byId = await admin.get<Client>('/api/client-id', { id: row.id })
    expect(byId.status).toBe(200)
    expect(byId.body).toEqual(c)
  })

  it('a company by CIF', async () => {
    const row = api.db.prepare("SELECT nif, razon_social FROM clientes WHERE marca_id = ? AND tipo = 'juridica' LIMIT 1").get(marcaId) as { nif: string; razon_social: string }
    const res = await admin.get<Client>('/api/client', { identificador: row.nif.toLowerCase() })
    expect(res.body).toMatchObject({ Tipo: 'juridica', RazonSocial: row.razon_social, NombreCompleto: row.razon_social, Nombre: null })
  })

  it('an invalid identifier is a 400 with the reason; an unknown one a 404', async () => {
    const bad = await admin.get('/api/client', { identificador: '12345678A' })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('El identificador 12345678A no es válido: La letra del DNI no es correcta (debería ser Z).')
    expect((await admin.get('/api/client')).status).toBe(400)
    expect((await admin.get('/api/client', { identificador: 'x'.repeat(65) })).status).toBe(400)
    const unknown = await admin.get('/api/client', { identificador: '00000000T' })
    expect(unknown.status).toBe(404)
    expect(unknown.text).toBe('No existe ningún cliente con el identificador 00000000T.')
    expect((await admin.get('/api/client-id', { id: 'abc' })).status).toBe(400)
    expect((await admin.get('/api/client-id', { id: 99_999_999 })).status).toBe(404)
  })

  it("another brand's client does not exist here", async () => {
    const other = api.db.prepare("SELECT cl.id, cl.nif FROM clientes cl JOIN marcas m ON m.id = cl.marca_id WHERE m.dominio = 'grupoenergia.es' LIMIT 1").get() as { id: number; nif: string }
    const clash = api.db.prepare('SELECT 1 FROM clientes WHERE marca_id = ? AND nif = ?').get(marcaId, other.nif)
    if (!clash) expect((await admin.get('/api/client', { identificador: other.nif })).status).toBe(404)
    expect((await admin.get('/api/client-id', { id: other.id })).status).toBe(404)
    expect((await admin.forBrand(BRAND_DOMAINS.grupo).get('/api/client-id', { id: other.id })).status).toBe(200)
  })

  it('a sales channel sees only clients with a contract in its subtree, and only those contracts', async () => {
    const outside = api.db
      .prepare(`SELECT cl.id, cl.nif FROM clientes cl WHERE cl.marca_id = ? AND NOT EXISTS (SELECT 1 FROM contratos c WHERE c.cliente_id = cl.id AND c.agente_id IN ${inSubtree()}) LIMIT 1`)
      .get(marcaId) as { id: number; nif: string }
    expect((await agente.get('/api/client', { identificador: outside.nif })).status).toBe(404)
    expect((await agente.get('/api/client-id', { id: outside.id })).status).toBe(404)
    const inside = api.db
      .prepare(`SELECT cl.id, cl.nif FROM clientes cl WHERE cl.marca_id = ? AND EXISTS (SELECT 1 FROM contratos c WHERE c.cliente_id = cl.id AND c.agente_id IN ${inSubtree()}) LIMIT 1`)
      .get(marcaId) as { id: number; nif: string }
    const res = await agente.get<Client>('/api/client', { identificador: inside.nif })
    expect(res.status).toBe(200)
    const visible = (api.db.prepare(`SELECT codigo FROM contratos WHERE cliente_id = ? AND agente_id IN ${inSubtree()}`).all(inside.id) as { codigo: string }[]).map((r) => r.codigo)
    expect(res.body.Contratos.map((c) => c.CodigoContrato).sort()).toEqual(visible.sort())
  })
})

describe('POST /api/cups/isactive', () => {
  const seeded = (estado: string, visible?: boolean) =>
    api.db
      .prepare(
        `SELECT c.codigo, ps.cups FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id WHERE c.marca_id = ? AND c.estado = ?
           ${visible === undefined ? '' : `AND c.agente_id ${visible ? '' : 'NOT'} IN ${inSubtree()}`}
           AND (SELECT COUNT(*) FROM contratos o WHERE o.punto_suministro_id = ps.id) = 1
         ORDER BY c.id LIMIT 1`,
      )
      .get(marcaId, estado) as { codigo: string; cups: string }

  it('a CUPS with an active contract (lower case and spaces accepted)', async () => {
    const s = seeded('activo')
    const spaced = `${s.cups.slice(0, 6).toLowerCase()} ${s.cups.slice(6)}`
    const res = await admin.post<CupsActive>('/api/cups/isactive', { cups: spaced })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ Cups: s.cups, Activo: true, CodigoContrato: s.codigo, Estado: 'activo' })
  })

  it.each(['pendiente_firma', 'enviado_distribuidora', 'modificacion_en_curso'])('a contract in %s is in force', async (estado) => {
    const s = seeded(estado)
    expect((await admin.post<CupsActive>('/api/cups/isactive', { cups: s.cups })).body).toMatchObject({ Activo: true, Estado: estado, CodigoContrato: s.codigo })
  })

  it.each(['baja', 'anulado', 'desistido', 'rechazado'])('a contract in %s is not', async (estado) => {
    const s = seeded(estado)
    expect((await admin.post<CupsActive>('/api/cups/isactive', { cups: s.cups })).body).toEqual({ Cups: s.cups, Activo: false, CodigoContrato: null, Estado: null, EstadoNombre: null })
  })

  it('an unknown valid CUPS is not active; an invalid one is a 400 with the reason', async () => {
    expect((await admin.post<CupsActive>('/api/cups/isactive', { cups: cups(987654) })).body).toMatchObject({ Activo: false, CodigoContrato: null })
    const bad = await admin.post('/api/cups/isactive', { cups: 'ES0021000000000001RC' })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('El CUPS ES0021000000000001RC no es válido: Las letras de control del CUPS no son correctas (deberían ser RK).')
    expect((await admin.post('/api/cups/isactive', {})).status).toBe(400)
    expect((await admin.post('/api/cups/isactive', { cups: 7 })).status).toBe(400)
    expect((await admin.post('/api/cups/isactive', 'ES0021000000000001RK')).status).toBe(400)
  })

  it('a sales channel learns that a CUPS is in force, but not the code of a contract it cannot see', async () => {
    const hidden = seeded('activo', false)
    expect((await agente.post<CupsActive>('/api/cups/isactive', { cups: hidden.cups })).body).toMatchObject({ Activo: true, CodigoContrato: null, Estado: null })
    const mine = seeded('activo', true)
    expect((await agente.post<CupsActive>('/api/cups/isactive', { cups: mine.cups })).body).toMatchObject({ Activo: true, CodigoContrato: mine.codigo })
  })
})

describe('GET /api/energia/preciofijo', () => {
  const offer = async (tarifa: number | string, caller = admin) => {
    const res = await caller.get<FixedPrice>('/api/energia/preciofijo', { tarifa })
    expect(res.status, res.text).toBe(200)
    return res.body
  }
  const decreasing = (values: (number | null)[]) => values.every((v, i) => i === 0 || (v !== null && values[i - 1] !== null && v < values[i - 1]!))

  it('2.0TD: three energy periods around 0.18/0.14/0.12 €/kWh, two power periods', async () => {
    const o = await offer(1)
    expect(o).toMatchObject({ TarifaId: 1, Tarifa: '2.0TD', VigenciaDesde: '2026-10-01', VigenciaHasta: '2026-12-31', Unidades: { Energia: '€/kWh', Potencia: '€/kW día' } })
    const e = o.PreciosEnergia
    expect([e.P4, e.P5, e.P6]).toEqual([null, null, null])
    expect(e.P1!).toBeGreaterThan(0.15)
    expect(e.P1!).toBeLessThan(0.22)
    expect(e.P3!).toBeGreaterThan(0.09)
    expect(e.P3!).toBeLessThan(0.13)
    expect(decreasing([e.P1!, e.P2!, e.P3!])).toBe(true)
    const p = o.PreciosPotencia
    expect(p.P1!).toBeGreaterThan(0.08)
    expect(p.P1!).toBeLessThan(0.11)
    expect(p.P2!).toBeGreaterThan(0.002)
    expect(p.P2!).toBeLessThan(0.01)
    expect([p.P3, p.P4, p.P5, p.P6]).toEqual([null, null, null, null])
  })

  it.each([2, 3, 4, 5, 6])('tariff %i: six periods, P1 → P6 decreasing', async (id) => {
    const o = await offer(id)
    expect(o.TarifaId).toBe(id)
    const e = Object.values(o.PreciosEnergia)
    const p = Object.values(o.PreciosPotencia)
    expect(e).toHaveLength(6)
    expect(decreasing(e)).toBe(true)
    expect(decreasing(p)).toBe(true)
    expect(e.every((v) => v! > 0.08 && v! < 0.22)).toBe(true)
  })

  it('each brand prices slightly differently', async () => {
    const verde = await offer(1)
    const grupo = await offer(1, admin.forBrand(BRAND_DOMAINS.grupo))
    const limpia = await offer(1, admin.forBrand(BRAND_DOMAINS.limpia))
    expect(grupo.PreciosEnergia.P1).not.toBe(verde.PreciosEnergia.P1)
    expect(limpia.PreciosEnergia.P1).not.toBe(verde.PreciosEnergia.P1)
    expect(Math.abs(grupo.PreciosEnergia.P1! / verde.PreciosEnergia.P1! - 1)).toBeLessThan(0.05)
  })

  it('a missing, unknown or malformed tariff is a 400', async () => {
    for (const q of [{}, { tarifa: '' }, { tarifa: 99 }, { tarifa: 'abc' }, { tarifa: 0 }] as Record<string, string | number>[]) {
      const res = await admin.get('/api/energia/preciofijo', q)
      expect(res.status, JSON.stringify(q)).toBe(400)
      expect(res.text.length).toBeGreaterThan(10)
    }
  })
})
