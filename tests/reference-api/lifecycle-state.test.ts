import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller, BRAND_DOMAINS } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { FILES, activeAgent, contractRow, cups, detail, dni, historyCount, insertBody, insertContract, upload } from './lifecycle-support'
import type { ContractDetail, KleenCheck } from '../../schemas/business/contracts'

/**
 * The state machine: borrador → pendiente_firma → (signed contract uploaded) firmado →
 * validar → enviado_distribuidora. Every refusal is a 409 that changes nothing.
 */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let adminId: number
let marcaId: number
let clock = NOW
let serial = 8000

const tick = () => (clock += 5_000)
const newDraft = async (mutate: (b: Record<string, unknown> & { Cliente: Record<string, unknown> }) => void = () => {}) => {
  const b = insertBody({ nif: dni(75000000 + serial), cups: cups(serial++), agenteId: activeAgent(api.db) }) as Record<string, unknown> & { Cliente: Record<string, unknown> }
  mutate(b)
  return (await insertContract(admin, b)).CodigoContrato
}

/** Calls `action` and checks it is a 409 containing `message`, with the contract row and history untouched. */
async function refused(code: string, action: () => Promise<{ status: number; text: string }>, message: string) {
  const row = contractRow(api.db, code)
  const history = historyCount(api.db, code)
  const signatures = api.db.prepare('SELECT * FROM contrato_firmas f JOIN contratos c ON c.id = f.contrato_id WHERE c.codigo = ?').all(code)
  tick()
  const res = await action()
  expect(res.status, res.text).toBe(409)
  expect(res.text).toContain(message)
  expect(contractRow(api.db, code)).toEqual(row)
  expect(historyCount(api.db, code)).toBe(history)
  expect(api.db.prepare('SELECT * FROM contrato_firmas f JOIN contratos c ON c.id = f.contrato_id WHERE c.codigo = ?').all(code)).toEqual(signatures)
}

const sendToSign = (code: string, caller = admin) => caller.put<ContractDetail>('/api/contract/update/situacion-firma', undefined, { codigoContrato: code })
const sendToDistributor = (code: string, caller = admin) => caller.put<ContractDetail>('/api/contract/update/situacion', undefined, { codigo: code })
const validate = (code: string, caller = admin) => caller.put<ContractDetail>('/api/contract/kleen/validar', { CodigoContrato: code })
const isValid = async (code: string, withDoc = false) => {
  const res = await admin.get<KleenCheck>(`/api/contract/kleen/${withDoc ? 'is-valid-withdoc' : 'is-valid'}`, { codigoContrato: code })
  expect(res.status, res.text).toBe(200)
  return res.body
}

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => clock })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
  adminId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'admin@portal.test'").get() as { id: number }).id
  marcaId = (api.db.prepare("SELECT id FROM marcas WHERE dominio = 'energiaverde.es'").get() as { id: number }).id
})
afterAll(async () => {
  await api?.close()
})

describe('the full path of a new contract', () => {
  let code: string

  it('borrador: the data checks pass, the document checks do not yet; wrong-state actions are 409', async () => {
    code = await newDraft()
    const data = await isValid(code)
    expect(data).toEqual({ CodigoContrato: code, Valido: true, Errores: [], Avisos: [] })
    const docs = await isValid(code, true)
    expect(docs.Valido).toBe(false)
    expect(docs.Errores).toEqual(['Falta el documento de identidad del titular (documento de tipo dni).'])
    expect(docs.Avisos.join(' ')).toContain('factura_anterior')
    await refused(code, () => sendToDistributor(code), `El contrato ${code} está en estado «Borrador»: solo se puede enviar a la distribuidora un contrato firmado y validado.`)
    await refused(code, () => validate(code), `El contrato ${code} está en estado «Borrador»: solo se puede validar un contrato firmado.`)
  })

  it('→ pendiente_firma: a signature request is recorded', async () => {
    tick()
    const res = await sendToSign(code)
    expect(res.status, res.text).toBe(200)
    const d = res.body
    expect(d.Estado).toBe('pendiente_firma')
    expect(d.EstadoNombre).toBe('Pendiente de firma')
    expect(d.Firma).toMatchObject({ Proveedor: 'Firma electrónica Portal', Estado: 'pendiente', EnviadaEn: new Date(clock).toISOString().replace('.000', ''), FirmadaEn: null })
    expect(d.Firma!.SolicitudId).toMatch(/^FP-[0-9A-F]{12}$/)
    expect(d.Firma!.Enlace).toMatch(/^https:\/\/firma\.energiaverde\.es\/s\/[\w-]{20,}$/)
    expect(d.AccionesPermitidas).toEqual(['subir_documentos', 'imprimir'])
    expect(d.ActualizadoPor).toMatchObject({ Id: adminId })
    expect(d.ActualizadoEn).toBe(d.Firma!.EnviadaEn)
    await refused(code, () => sendToSign(code), `El contrato ${code} está en estado «Pendiente de firma»: solo se puede enviar a firma un contrato en borrador.`)
    await refused(code, () => validate(code), '«Pendiente de firma»')
    await refused(code, () => sendToDistributor(code), '«Pendiente de firma»')
  })

  it('→ firmado: uploading the signed contract registers the signature', async () => {
    tick()
    const res = await upload(admin, code, [{ name: 'contrato-firmado.pdf', bytes: FILES.pdf('firmado') }], 'contrato_firmado')
    expect(res.status, res.text).toBe(201)
    const d = await detail(admin, code)
    expect(d.Estado).toBe('firmado')
    expect(d.FechaFirma).toBe('2026-11-21')
    expect(d.Firma).toMatchObject({ Estado: 'firmada', FirmadaEn: new Date(clock).toISOString().replace('.000', '') })
    expect(d.Validado).toBe(false)
    expect(d.AccionesPermitidas).toEqual(['validar', 'subir_documentos', 'imprimir'])
    const last = d.Historial[d.Historial.length - 1]!
    expect(last).toMatchObject({ Accion: 'firma', EstadoAnterior: 'pendiente_firma', EstadoNuevo: 'firmado', UsuarioId: adminId, Detalle: 'Firma registrada con el documento contrato-firmado.pdf.' })
    // Another signed copy once signed changes nothing more.
    const again = await upload(admin, code, [{ name: 'copia.pdf', bytes: FILES.pdf('copia') }], 'contrato_firmado')
    expect(again.status).toBe(201)
    expect((await detail(admin, code)).Historial).toHaveLength(d.Historial.length)
  })

  it('not validated: sending to the distributor is a 409; validating without the identity document too', async () => {
    await refused(code, () => sendToDistributor(code), `El contrato ${code} está firmado pero no validado: valídalo (Kleen) antes de enviarlo a la distribuidora.`)
    const docs = await isValid(code, true)
    expect(docs.Errores).toEqual(['Falta el documento de identidad del titular (documento de tipo dni).'])
    await refused(code, () => validate(code), `El contrato ${code} no supera la validación: Falta el documento de identidad del titular (documento de tipo dni).`)
  })

  it('→ validated once the identity document is on file', async () => {
    expect((await upload(admin, code, [{ name: 'dni.jpg', bytes: FILES.jpg() }], 'dni')).status).toBe(201)
    expect((await isValid(code, true)).Valido).toBe(true)
    tick()
    const res = await validate(code)
    expect(res.status, res.text).toBe(200)
    const d = res.body
    expect(d).toMatchObject({ Estado: 'firmado', Validado: true, ValidadoEn: new Date(clock).toISOString().replace('.000', ''), ValidadoPor: { Id: adminId } })
    expect(d.AccionesPermitidas).toEqual(['enviar_distribuidora', 'subir_documentos', 'imprimir'])
    await refused(code, () => validate(code), `El contrato ${code} ya está validado`)
  })

  it('→ enviado_distribuidora; the history holds every step in order, by the user who did it', async () => {
    tick()
    const res = await sendToDistributor(code)
    expect(res.status, res.text).toBe(200)
    expect(res.body.Estado).toBe('enviado_distribuidora')
    expect(res.body.AccionesPermitidas).toEqual(['subir_documentos', 'imprimir'])
    const steps = res.body.Historial.map((h) => [h.Accion, h.EstadoAnterior, h.EstadoNuevo, h.UsuarioId])
    expect(steps).toEqual([
      ['alta', null, 'borrador', adminId],
      ['envio_firma', 'borrador', 'pendiente_firma', adminId],
      ['firma', 'pendiente_firma', 'firmado', adminId],
      ['validacion', null, null, adminId],
      ['envio_distribuidora', 'firmado', 'enviado_distribuidora', adminId],
    ])
    const times = res.body.Historial.map((h) => h.Fecha)
    expect([...times].sort()).toEqual(times)
    expect(new Set(times).size).toBe(times.length)
    expect(res.body.Historial[4]!.Detalle).toBe('Solicitud C1 enviada a i-DE Redes Eléctricas Inteligentes (paso 01).')
    await refused(code, () => sendToDistributor(code), `El contrato ${code} está en estado «Enviado a distribuidora»`)
    await refused(code, () => sendToSign(code), '«Enviado a distribuidora»')
    await refused(code, () => validate(code), '«Enviado a distribuidora»')
  })
})

describe('data checks', () => {
  it('a draft with problems cannot be sent to sign: a 409 listing them', async () => {
    const code = await newDraft((b) => {
      b.Cliente.Email = null
      b.Cliente.Telefono = null
    })
    const check = await isValid(code)
    expect(check.Valido).toBe(false)
    expect(check.Errores).toEqual(['Falta el correo electrónico del titular.'])
    expect(check.Avisos).toEqual(['El titular no tiene teléfono de contacto.'])
    await refused(code, () => sendToSign(code), `El contrato ${code} no se puede enviar a firma: Falta el correo electrónico del titular.`)
  })

  it('problems stored by other means are all found (identifiers, powers, IBAN, CNAE, agent)', async () => {
    const code = await newDraft()
    const inactive = api.db.prepare('SELECT id, codigo FROM agentes WHERE marca_id = ? AND activo = 0 LIMIT 1').get(marcaId) as { id: number; codigo: string }
    api.db
      .prepare("UPDATE contratos SET potencia_p2 = 16, iban = 'ES9121000418450200051333', cnae = NULL, agente_id = ? WHERE codigo = ?")
      .run(inactive.id, code)
    api.db.prepare("UPDATE clientes SET nif = '12345678A', email = 'no-es-un-correo' WHERE id = (SELECT cliente_id FROM contratos WHERE codigo = ?)").run(code)
    const check = await isValid(code)
    expect(check.Valido).toBe(false)
    expect(check.Errores).toEqual([
      'NIF del titular 12345678A: La letra del DNI no es correcta (debería ser Z).',
      'El correo electrónico del titular (no-es-un-correo) no es válido.',
      'Potencias.P2: en la tarifa 2.0TD cada potencia debe estar entre 0,1 y 15 kW (P2 es 16 kW).',
      'IBAN: Los dígitos de control del IBAN no son correctos.',
      'Falta el CNAE del suministro.',
      expect.stringContaining(`El agente ${inactive.codigo}`),
    ])
  })

  it('an empty JSON body on the PUT calls is accepted (the contract goes in the query)', async () => {
    const code = await newDraft()
    const res = await fetch(`${api.url}/api/contract/update/situacion-firma?codigoContrato=${code}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin.token}`, 'x-brand-domain': BRAND_DOMAINS.verde, 'content-type': 'application/json' },
      body: '',
    })
    expect(res.status).toBe(200)
  })

  it('validar also takes the code in the query; a missing or bad code is a 400, an unknown one a 404', async () => {
    expect((await admin.put('/api/contract/kleen/validar', {})).status).toBe(400)
    expect((await admin.put('/api/contract/kleen/validar', { CodigoContrato: 'EV-1' })).status).toBe(400)
    expect((await admin.put('/api/contract/kleen/validar', { CodigoContrato: 'EV-2026-999999' })).status).toBe(404)
    expect((await admin.put('/api/contract/kleen/validar', undefined, { codigoContrato: 'EV-2026-999999' })).status).toBe(404)
    for (const [method, path, name] of [
      ['PUT', '/api/contract/update/situacion-firma', 'codigoContrato'],
      ['PUT', '/api/contract/update/situacion', 'codigo'],
      ['GET', '/api/contract/kleen/is-valid', 'codigoContrato'],
      ['GET', '/api/contract/kleen/is-valid-withdoc', 'codigoContrato'],
      ['GET', '/api/contract/penalizacion', 'codigoContrato'],
      ['GET', '/api/contract/print', 'codigoContrato'],
    ] as const) {
      expect((await admin.call(method, path)).status, path).toBe(400)
      expect((await admin.call(method, path, { query: { [name]: 'nope' } })).status, path).toBe(400)
      expect((await admin.call(method, path, { query: { [name]: 'EV-2026-999999' } })).status, path).toBe(404)
    }
  })
})

describe('visibility', () => {
  it('a sales channel cannot see or act on a contract outside its subtree (404, nothing changes)', async () => {
    const code = await newDraft()
    const row = contractRow(api.db, code)
    for (const res of [
      await sendToSign(code, agente),
      await sendToDistributor(code, agente),
      await validate(code, agente),
      await agente.get('/api/contract/kleen/is-valid', { codigoContrato: code }),
      await agente.get('/api/contract/kleen/is-valid-withdoc', { codigoContrato: code }),
      await agente.get('/api/contract/penalizacion', { codigoContrato: code }),
      await agente.get('/api/contract/print', { codigoContrato: code }),
      await agente.get('/api/contract/id', { codigo: code }),
    ]) {
      expect(res.status).toBe(404)
      expect(res.text).toBe(`No se ha encontrado el contrato ${code}.`)
    }
    expect(contractRow(api.db, code)).toEqual(row)
  })

  it('on its own contracts it can act', async () => {
    const b = insertBody({ nif: dni(76000001), cups: cups(9001) })
    const own = await insertContract(agente, b)
    const res = await sendToSign(own.CodigoContrato, agente)
    expect(res.status, res.text).toBe(200)
    expect(res.body.Estado).toBe('pendiente_firma')
  })
})

describe('seeded contracts are consistent', () => {
  it('every contract past firmado that was sent to the distributor is validated, with a validacion entry before the sending', () => {
    const missing = api.db
      .prepare(
        `SELECT COUNT(*) AS n FROM contratos c WHERE c.estado IN ('enviado_distribuidora', 'aceptado', 'rechazado', 'activo', 'baja', 'modificacion_en_curso')
           AND (c.validado = 0 OR c.validado_en IS NULL)`,
      )
      .get() as { n: number }
    expect(missing.n).toBe(0)
    const unordered = api.db
      .prepare(
        `SELECT COUNT(*) AS n FROM contratos c
         JOIN contrato_historial v ON v.contrato_id = c.id AND v.accion = 'validacion'
         JOIN contrato_historial e ON e.contrato_id = c.id AND e.accion = 'envio_distribuidora'
         WHERE v.fecha > e.fecha OR c.validado_en <> v.fecha`,
      )
      .get() as { n: number }
    expect(unordered.n).toBe(0)
    expect((api.db.prepare("SELECT COUNT(*) AS n FROM contratos WHERE estado IN ('borrador', 'pendiente_firma') AND validado = 1").get() as { n: number }).n).toBe(0)
  })

  it('signed contracts have their signature request and signed copy; pending ones a pending request', async () => {
    const pending = api.db.prepare("SELECT codigo FROM contratos WHERE marca_id = ? AND estado = 'pendiente_firma' AND creado_en < '2026-11-21' LIMIT 1").get(marcaId) as { codigo: string }
    const d = await detail(admin, pending.codigo)
    expect(d.Firma).toMatchObject({ Estado: 'pendiente', FirmadaEn: null, Proveedor: 'Firma electrónica Portal' })
    expect(d.AccionesPermitidas).toEqual(['subir_documentos', 'imprimir'])
    const signed = api.db.prepare("SELECT codigo FROM contratos WHERE marca_id = ? AND estado = 'firmado' LIMIT 1").get(marcaId) as { codigo: string }
    const s = await detail(admin, signed.codigo)
    expect(s).toMatchObject({ Validado: false, NumDocumentos: 1, Firma: { Estado: 'firmada' } })
    expect(s.AccionesPermitidas).toEqual(['validar', 'subir_documentos', 'imprimir'])
    const active = api.db.prepare("SELECT codigo FROM contratos WHERE marca_id = ? AND estado = 'activo' LIMIT 1").get(marcaId) as { codigo: string }
    const a = await detail(admin, active.codigo)
    expect(a).toMatchObject({ Validado: true, NumDocumentos: 1, Firma: { Estado: 'firmada' } })
    expect(a.ValidadoPor).not.toBeNull()
    expect(a.Historial.map((h) => h.Accion).slice(0, 5)).toEqual(['alta', 'envio_firma', 'firma', 'validacion', 'envio_distribuidora'])
  })
})
