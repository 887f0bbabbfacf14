import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { activeAgent, cups, detail, dni, insertBody, insertContract, type InsertAnswer } from './lifecycle-support'

/** `POST /api/contract/insert`: a new contract in `borrador`, validated field by field. */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let agentId: number
let adminId: number

const count = (table: string) => (api.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n
const counts = () => ({ contratos: count('contratos'), clientes: count('clientes'), puntos: count('puntos_suministro'), historial: count('contrato_historial') })

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  agentId = activeAgent(api.db)
  adminId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'admin@portal.test'").get() as { id: number }).id
})
afterAll(async () => {
  await api?.close()
})

type Body = Record<string, unknown> & { Cliente: Record<string, unknown>; PuntoSuministro: Record<string, unknown>; Potencias: Record<string, unknown> }
const body = (over: { nif?: string; cups?: string } = {}) => insertBody({ ...over, agenteId: agentId }) as Body

describe('happy path', () => {
  let first: InsertAnswer

  it('creates the client, the supply point and the contract in borrador with the next code of the year', async () => {
    expect(api.db.prepare("SELECT 1 FROM clientes c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.nif = '12345678Z'").get()).toBeUndefined()
    const lastSeq = (api.db.prepare("SELECT MAX(CAST(substr(codigo, 9) AS INTEGER)) AS n FROM contratos WHERE codigo LIKE 'EV-2026-%'").get() as { n: number }).n
    const before = counts()
    const res = await admin.post<InsertAnswer>('/api/contract/insert', body())
    expect(res.status, res.text).toBe(201)
    first = res.body
    expect(first.CodigoContrato).toBe(`EV-2026-${String(lastSeq + 1).padStart(6, '0')}`)
    expect(first.Estado).toBe('borrador')
    expect(first.ClienteCreado).toBe(true)
    expect(first.PuntoSuministroCreado).toBe(true)
    expect(counts()).toEqual({ contratos: before.contratos + 1, clientes: before.clientes + 1, puntos: before.puntos + 1, historial: before.historial + 1 })
  })

  it('the detail shows what was sent, the brand offer prices, the alta history entry and the allowed actions', async () => {
    const d = await detail(admin, first.CodigoContrato)
    const offer = (await admin.get<{ PreciosEnergia: unknown; PreciosPotencia: unknown }>('/api/energia/preciofijo', { tarifa: 1 })).body
    expect(d).toMatchObject({
      Id: first.Id,
      Estado: 'borrador',
      Cups: 'ES0021000000000001RK',
      Nif: '12345678Z',
      Titular: 'Lucía Fernández Ruiz',
      TarifaId: 1,
      Tarifa: '2.0TD',
      Modalidad: 'fijo',
      Potencias: { P1: 4.6, P2: 4.6, P3: null, P4: null, P5: null, P6: null },
      PreciosEnergia: offer.PreciosEnergia,
      PreciosPotencia: offer.PreciosPotencia,
      FeeMwh: null,
      ConsumoAnual: 3200,
      Cnae: { Codigo: '9820' },
      TipoAltaSolicitud: { Id: 1, Codigo: 'C1' },
      TipoImpresionFactura: { Id: 1 },
      Colectivo: { Id: 1 },
      Iban: 'ES9121000418450200051332',
      FechaAlta: '2026-11-21',
      AgenteId: agentId,
      Observaciones: 'Alta de prueba.',
      Validado: false,
      ValidadoEn: null,
      ValidadoPor: null,
      Firma: null,
      NumDocumentos: 0,
      AccionesPermitidas: ['enviar_firma', 'subir_documentos', 'imprimir'],
      CreadoPor: { Id: adminId },
    })
    expect(d.Cliente).toMatchObject({ Tipo: 'fisica', Nombre: 'Lucía', Apellido1: 'Fernández', Apellido2: 'Ruiz', Email: 'lucia@example.es', Telefono: '612345678', CodigoPostal: '28013', Provincia: { Id: 28, Nombre: 'Madrid' } })
    expect(d.PuntoSuministro).toMatchObject({ Cups: 'ES0021000000000001RK', Distribuidora: { Codigo: '0021' }, TarifaId: 1, Cnae: '9820' })
    expect(d.Historial).toEqual([
      { Fecha: '2026-11-21T10:00:00Z', UsuarioId: adminId, Usuario: expect.any(String), Accion: 'alta', EstadoAnterior: null, EstadoNuevo: 'borrador', Detalle: 'Contrato dado de alta en borrador.' },
    ])
    expect(d.CreadoEn).toBe('2026-11-21T10:00:00Z')
  })

  it('a second contract of the same NIF reuses the client (contact data updated); lower case and spaces accepted', async () => {
    const b = body({ nif: '1234 5678-z', cups: 'es0021 0000 0000 0002 re' })
    b.Cliente.Email = 'lucia.nueva@example.es'
    b.Cliente.Telefono = '+34 699 111 222'
    b.Cliente.Nombre = 'Otro nombre que no cambia la identidad'
    const before = counts()
    const second = await insertContract(admin, b)
    expect(second.ClienteCreado).toBe(false)
    expect(second.ClienteId).toBe(first.ClienteId)
    expect(second.PuntoSuministroCreado).toBe(true)
    expect(counts()).toMatchObject({ contratos: before.contratos + 1, clientes: before.clientes, puntos: before.puntos + 1 })
    const client = api.db.prepare('SELECT nombre, email, telefono FROM clientes WHERE id = ?').get(first.ClienteId)
    expect(client).toEqual({ nombre: 'Lucía', email: 'lucia.nueva@example.es', telefono: '699111222' })
    const d = await detail(admin, second.CodigoContrato)
    expect(d.Cups).toBe('ES0021000000000002RE')
    const seq = (c: string) => Number(c.slice(-6))
    expect(seq(second.CodigoContrato)).toBe(seq(first.CodigoContrato) + 1)
  })

  it('a company on 3.0TD, indexed: the fee is kept, energy prices are empty, power prices from the offer', async () => {
    const b = body({ nif: 'B12345674', cups: cups(3001) })
    b.Cliente = { ...b.Cliente, Tipo: 'juridica', RazonSocial: 'Talleres Ruiz S.L.', FormaJuridica: 'S.L.', Nombre: null, Apellido1: null, Apellido2: null }
    Object.assign(b, { TarifaId: 2, Potencias: { P1: 15, P2: 15, P3: 20, P4: 20, P5: 20, P6: 25.5 }, Modalidad: 'indexado', FeeMwh: 8.5, ConsumoAnual: 42000, Cnae: '4520', ColectivoId: 2 })
    const res = await insertContract(admin, b)
    const d = await detail(admin, res.CodigoContrato)
    expect(d).toMatchObject({ Tarifa: '3.0TD', Modalidad: 'indexado', FeeMwh: 8.5, Titular: 'Talleres Ruiz S.L.', Potencias: { P1: 15, P6: 25.5 } })
    expect(d.PreciosEnergia).toEqual({ P1: null, P2: null, P3: null, P4: null, P5: null, P6: null })
    expect(Object.values(d.PreciosPotencia as Record<string, number>).every((v) => typeof v === 'number' && v > 0)).toBe(true)
    expect(d.Cliente).toMatchObject({ Tipo: 'juridica', RazonSocial: 'Talleres Ruiz S.L.', Nombre: null })
  })

  it('a sales-channel caller: the agent defaults to its own', async () => {
    const own = (api.db.prepare("SELECT a.id FROM agentes a JOIN usuarios u ON u.id = a.usuario_id JOIN marcas m ON m.id = a.marca_id WHERE u.email = 'agente@portal.test' AND m.dominio = 'energiaverde.es'").get() as { id: number }).id
    const b = insertBody({ nif: dni(71000001), cups: cups(3002) })
    const res = await insertContract(agente, b)
    expect((await detail(agente, res.CodigoContrato)).AgenteId).toBe(own)
  })
})

describe('validation: a 400 naming the field, nothing created', () => {
  const set = (path: string, value: unknown) => (b: Body) => {
    const keys = path.split('.')
    let target: Record<string, unknown> = b
    for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>
    if (value === undefined) delete target[keys[keys.length - 1]!]
    else target[keys[keys.length - 1]!] = value
  }
  const juridica = (b: Body) => Object.assign(b.Cliente, { Tipo: 'juridica', RazonSocial: 'Hermanos Gil S.L.', Nombre: null, Apellido1: null })
  const tariff = (id: number, powers: (number | null)[]) => (b: Body) => {
    b.TarifaId = id
    b.Potencias = { P1: powers[0], P2: powers[1], P3: powers[2], P4: powers[3], P5: powers[4], P6: powers[5] }
    b.Cnae = '4711'
  }
  const cases: [string, (b: Body) => void, string][] = [
    ['no Cliente', set('Cliente', undefined), 'Cliente: Faltan los datos del titular.'],
    ['Cliente not an object', set('Cliente', 'Lucía'), 'Cliente: '],
    ['bad holder type', set('Cliente.Tipo', 'empresa'), 'Cliente.Tipo: '],
    ['DNI letter', set('Cliente.Nif', '12345678A'), 'Cliente.Nif: La letra del DNI no es correcta (debería ser Z).'],
    ['NIE letter', set('Cliente.Nif', 'X2482300A'), 'Cliente.Nif: La letra del NIE no es correcta (debería ser W).'],
    ['CIF control', (b) => (juridica(b), set('Cliente.Nif', 'B12345675')(b)), 'Cliente.Nif: El dígito de control del CIF no es correcto (debería ser 4).'],
    ['person with a CIF', set('Cliente.Nif', 'B12345674'), 'Cliente.Nif: Una persona física se identifica con DNI o NIE'],
    ['company with a DNI', juridica, 'Cliente.Nif: Una persona jurídica se identifica con un CIF'],
    ['company without name', (b) => (juridica(b), set('Cliente.Nif', 'B12345674')(b), set('Cliente.RazonSocial', '')(b)), 'Cliente.RazonSocial: '],
    ['person without name', set('Cliente.Nombre', ' '), 'Cliente.Nombre: '],
    ['person without surname', set('Cliente.Apellido1', null), 'Cliente.Apellido1: '],
    ['bad e-mail', set('Cliente.Email', 'lucia@'), 'Cliente.Email: '],
    ['bad phone', set('Cliente.Telefono', '12345'), 'Cliente.Telefono: '],
    ['postcode of another province', set('Cliente.CodigoPostal', '08013'), 'Cliente.CodigoPostal: El código postal 08013 no corresponde a la provincia Madrid'],
    ['postcode of 4 digits', set('Cliente.CodigoPostal', '2801'), 'Cliente.CodigoPostal: El código postal debe tener 5 dígitos.'],
    ['unknown province', set('Cliente.ProvinciaId', 99), 'Cliente.ProvinciaId: '],
    ['no address', set('Cliente.Direccion', undefined), 'Cliente.Direccion: '],
    ['no supply point', set('PuntoSuministro', undefined), 'PuntoSuministro: '],
    ['CUPS check letters', set('PuntoSuministro.Cups', 'ES0021000000000001RC'), 'PuntoSuministro.Cups: Las letras de control del CUPS no son correctas (deberían ser RK).'],
    ['CUPS of an unknown distributor', set('PuntoSuministro.Cups', 'ES9999999999999999SA'), 'PuntoSuministro.Cups: El código de distribuidora 9999'],
    ['supply postcode', set('PuntoSuministro.CodigoPostal', '46001'), 'PuntoSuministro.CodigoPostal: '],
    ['unknown tariff', set('TarifaId', 9), 'TarifaId: '],
    ['no powers', set('Potencias', undefined), 'Potencias: '],
    ['2.0TD over 15 kW', set('Potencias.P1', 16), 'Potencias.P1: En la tarifa 2.0TD cada potencia debe estar entre 0,1 y 15 kW'],
    ['2.0TD under 0.1 kW', set('Potencias.P2', 0.05), 'Potencias.P2: '],
    ['2.0TD without P2', set('Potencias.P2', null), 'Potencias.P2: Falta la potencia del periodo P2'],
    ['2.0TD with P3', set('Potencias.P3', 4.6), 'Potencias.P3: La tarifa 2.0TD solo tiene los periodos de potencia P1 y P2'],
    ['power not a number', set('Potencias.P1', 'mucha'), 'Potencias.P1: '],
    ['3.0TD decreasing', tariff(2, [20, 20, 15, 20, 20, 20]), 'Potencias.P3: Las potencias deben ser crecientes'],
    ['3.0TD never over 15 kW', tariff(2, [15, 15, 15, 15, 15, 15]), 'Potencias: La tarifa 3.0TD requiere más de 15 kW'],
    ['6.1TD without P6', tariff(3, [200, 200, 200, 200, 200, null]), 'Potencias.P6: '],
    ['bad modality', set('Modalidad', 'variable'), 'Modalidad: '],
    ['indexed without fee', set('Modalidad', 'indexado'), 'FeeMwh: '],
    ['indexed fee over 50', (b) => Object.assign(b, { Modalidad: 'indexado', FeeMwh: 60 }), 'FeeMwh: El fee debe estar entre 0 y 50 €/MWh'],
    ['consumption 0', set('ConsumoAnual', 0), 'ConsumoAnual: '],
    ['consumption too big', set('ConsumoAnual', 200_000_000), 'ConsumoAnual: '],
    ['unknown CNAE', set('Cnae', '9999'), 'Cnae: El CNAE 9999 no existe'],
    ['no CNAE', set('Cnae', undefined), 'Cnae: '],
    ['unknown request type', set('TipoAltaSolicitudId', 9), 'TipoAltaSolicitudId: '],
    ['no invoice delivery type', set('TipoImpresionFacturaId', undefined), 'TipoImpresionFacturaId: '],
    ['unknown commission type', set('TipoComisionId', 99), 'TipoComisionId: '],
    ['bad collective', set('ColectivoId', 0), 'ColectivoId: '],
    ['unknown agent', set('AgenteId', 999999), 'AgenteId: El agente 999999 no existe en esta marca.'],
    ['bad IBAN mod-97', set('Iban', 'ES9121000418450200051333'), 'Iban: Los dígitos de control del IBAN no son correctos.'],
    ['bad IBAN national digits', set('Iban', 'ES6821000418000200051332'), 'Iban: Los dígitos de control de la cuenta no son correctos (deberían ser 45).'],
    ['foreign IBAN', set('Iban', 'DE89370400440532013000'), 'Iban: Solo se admiten cuentas españolas'],
    ['no IBAN', set('Iban', undefined), 'Iban: '],
    ['remarks too long', set('Observaciones', 'x'.repeat(2001)), 'Observaciones: '],
  ]

  it.each(cases)('%s', async (_name, mutate, message) => {
    const b = body({ nif: dni(72000000), cups: cups(4000) })
    mutate(b)
    const before = counts()
    const res = await admin.post('/api/contract/insert', b)
    expect(res.status, res.text).toBe(400)
    expect(res.headers.get('content-type')).toContain('text/plain')
    expect(res.text.startsWith(message), `${res.text} ≠ ${message}`).toBe(true)
    expect(counts()).toEqual(before)
  })

  it('the agent must be of this brand and active', async () => {
    const other = (api.db.prepare("SELECT a.id FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'grupoenergia.es' LIMIT 1").get() as { id: number }).id
    const res = await admin.post('/api/contract/insert', { ...body({ nif: dni(72000001), cups: cups(4001) }), AgenteId: other })
    expect(res.status).toBe(400)
    expect(res.text).toBe(`AgenteId: El agente ${other} no existe en esta marca.`)
    const inactive = api.db.prepare("SELECT a.id, a.codigo FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'energiaverde.es' AND a.activo = 0 LIMIT 1").get() as { id: number; codigo: string } | undefined
    if (inactive) {
      const r = await admin.post('/api/contract/insert', { ...body({ nif: dni(72000001), cups: cups(4001) }), AgenteId: inactive.id })
      expect(r.status).toBe(400)
      expect(r.text).toContain(`AgenteId: El agente ${inactive.codigo}`)
      expect(r.text).toContain('dado de baja')
    }
  })

  it('a sales channel may only sell through its own subtree', async () => {
    const outside = (api.db.prepare(
      `SELECT a.id, a.codigo FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'energiaverde.es' AND a.nivel = 1 ORDER BY a.id DESC LIMIT 1`,
    ).get() as { id: number; codigo: string })
    const res = await agente.post('/api/contract/insert', { ...insertBody({ nif: dni(72000002), cups: cups(4002) }), AgenteId: outside.id })
    expect(res.status).toBe(400)
    expect(res.text).toBe(`AgenteId: El agente ${outside.codigo} no pertenece a tu red comercial.`)
  })

  it('malformed JSON, an empty body and a non-object are 400', async () => {
    const before = counts()
    const raw = (payload: string) =>
      fetch(`${api.url}/api/contract/insert`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'x-brand-domain': BRAND_DOMAINS.verde, 'content-type': 'application/json' },
        body: payload,
      })
    const broken = await raw('{"Cliente": ')
    expect(broken.status).toBe(400)
    expect(await broken.text()).toBe('El cuerpo de la petición no es un JSON válido.')
    const empty = await raw('')
    expect(empty.status).toBe(400)
    expect(await empty.text()).toBe('El cuerpo de la petición debe ser un objeto JSON.')
    const list = await admin.post('/api/contract/insert', [body()])
    expect(list.status).toBe(400)
    expect(counts()).toEqual(before)
  })
})

describe('a CUPS with a contract in force', () => {
  it('is a 409 naming the contract, unless the request is an M1 modification', async () => {
    const seeded = api.db
      .prepare(
        `SELECT c.codigo, ps.cups FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id JOIN marcas m ON m.id = c.marca_id
         WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id LIMIT 1`,
      )
      .get() as { codigo: string; cups: string }
    const before = counts()
    const res = await admin.post('/api/contract/insert', body({ nif: dni(73000001), cups: seeded.cups.toLowerCase() }))
    expect(res.status).toBe(409)
    expect(res.text).toBe(`El CUPS ${seeded.cups} ya tiene un contrato en vigor (${seeded.codigo}).`)
    expect(counts()).toEqual(before)
    const m1 = await admin.post<InsertAnswer>('/api/contract/insert', { ...body({ nif: dni(73000001), cups: seeded.cups }), TipoAltaSolicitudId: 4 })
    expect(m1.status, m1.text).toBe(201)
    expect(m1.body.PuntoSuministroCreado).toBe(false)
  })

  it('a draft counts as in force; a sales channel is not told the code of a contract it cannot see', async () => {
    const draft = await insertContract(admin, body({ nif: dni(73000002), cups: cups(5001) }))
    const again = await admin.post('/api/contract/insert', body({ nif: dni(73000003), cups: cups(5001) }))
    expect(again.status).toBe(409)
    expect(again.text).toBe(`El CUPS ${cups(5001)} ya tiene un contrato en vigor (${draft.CodigoContrato}).`)
    // The admin's draft was sold by an agent outside the demo agent's subtree.
    const subtree = (api.db.prepare("SELECT a.id FROM agentes a JOIN usuarios u ON u.id = a.usuario_id JOIN marcas m ON m.id = a.marca_id WHERE u.email = 'agente@portal.test' AND m.dominio = 'energiaverde.es'").get() as { id: number }).id
    expect(agentId).not.toBe(subtree)
    const hidden = await agente.post('/api/contract/insert', insertBody({ nif: dni(73000004), cups: cups(5001) }))
    expect(hidden.status).toBe(409)
    expect(hidden.text).toBe(`El CUPS ${cups(5001)} ya tiene un contrato en vigor.`)
  })

  it('a CUPS whose contracts all ended may be contracted again (the point is reused)', async () => {
    const ended = api.db
      .prepare(
        `SELECT ps.cups FROM contratos c JOIN puntos_suministro ps ON ps.id = c.punto_suministro_id JOIN marcas m ON m.id = c.marca_id
         WHERE m.dominio = 'energiaverde.es' AND c.estado = 'baja'
           AND NOT EXISTS (SELECT 1 FROM contratos o WHERE o.punto_suministro_id = ps.id AND o.estado NOT IN ('baja', 'anulado', 'desistido', 'rechazado'))
         LIMIT 1`,
      )
      .get() as { cups: string }
    const b = body({ nif: dni(73000005), cups: ended.cups })
    b.PuntoSuministro = { ...b.PuntoSuministro }
    const res = await insertContract(admin, b)
    expect(res.PuntoSuministroCreado).toBe(false)
    expect(api.db.prepare('SELECT cliente_id FROM puntos_suministro WHERE cups = ?').get(ended.cups)).toEqual({ cliente_id: res.ClienteId })
  })
})
