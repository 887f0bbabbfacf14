import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { activeAgent, contractRow, cups, dni, historyCount, insertBody, insertContract } from './lifecycle-support'
import type { ContractDetail } from '../../schemas/business/contracts'
import { formatIban, makeIban } from '../../server/reference-api/domain/identifiers'

/**
 * Editing records (`PUT api/contract/update`, `PUT api/agentes/update`) and their versions: the
 * GET answers an ETag, a save with a stale If-Match is a 412 that changes nothing.
 */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
let serial = 9100
let clock = NOW

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => (clock += 1000) })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

const newContract = async () => {
  const n = serial++
  return (await insertContract(admin, insertBody({ nif: dni(76000000 + n), cups: cups(n), agenteId: activeAgent(api.db) }))).CodigoContrato
}
const read = async (code: string) => {
  const res = await admin.get<ContractDetail>('/api/contract/id', { codigo: code })
  expect(res.status).toBe(200)
  return { record: res.body, etag: res.headers.get('etag')! }
}
const save = (code: string, body: unknown, ifMatch?: string, caller = admin) =>
  caller.call<ContractDetail>('PUT', '/api/contract/update', { query: { codigo: code }, body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } })

describe('PUT /api/contract/update', () => {
  it('answers the GET with a strong ETag that stays while nothing changes', async () => {
    const code = await newContract()
    const a = await read(code)
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect((await read(code)).etag).toBe(a.etag)
  })

  it('saves the holder, contact and bank data sent as the GET returned them, with a new version and a history entry', async () => {
    const code = await newContract()
    const { record, etag } = await read(code)
    const history = historyCount(api.db, code)
    const iban = makeIban('0049', '1500', '0512345678')
    expect(iban).not.toBe(record.Iban)
    const body = { ...record, Iban: formatIban(iban), Cliente: { ...record.Cliente, Email: 'Nueva@Correo.ES', Telefono: '611 222 333', Direccion: 'Calle Nueva 5' } }
    const res = await save(code, body, etag)
    expect(res.status, res.text).toBe(200)
    expect(res.body.Iban).toBe(iban)
    expect(res.body.Cliente.Email).toBe('nueva@correo.es')
    expect(res.body.Cliente.Telefono).toBe('611222333')
    expect(res.body.Cliente.Direccion).toBe('Calle Nueva 5')
    expect(res.headers.get('etag')).not.toBe(etag)
    expect(res.headers.get('etag')).toBe((await read(code)).etag)
    expect(historyCount(api.db, code)).toBe(history + 1)
    const last = res.body.Historial.at(-1)!
    expect(last.Accion).toBe('modificacion_datos')
    // The history names what changed, never the values.
    expect(last.Detalle).toContain('IBAN')
    expect(last.Detalle).not.toContain('0512345678')
  })

  it('saves a holder without an e-mail (some holders have none): the e-mail is optional, as at sign-up', async () => {
    const code = await newContract()
    const { record, etag } = await read(code)
    const res = await save(code, { ...record, Cliente: { ...record.Cliente, Email: null, Municipio: 'Sin Correo' } }, etag)
    expect(res.status, res.text).toBe(200)
    expect(res.body.Cliente.Email).toBeNull()
    expect(res.body.Cliente.Municipio).toBe('Sin Correo')
    const again = await read(code)
    const cleared = await save(code, { ...again.record, Cliente: { ...again.record.Cliente, Email: '' } }, again.etag)
    expect(cleared.status, cleared.text).toBe(200)
    expect(cleared.body.Cliente.Email).toBeNull()
  })

  it('refuses a stale If-Match with a Spanish 412 and changes nothing', async () => {
    const code = await newContract()
    const first = await read(code)
    const ok = await save(code, { ...first.record, Cliente: { ...first.record.Cliente, Municipio: 'Alcobendas' } }, first.etag)
    expect(ok.status).toBe(200)
    const row = contractRow(api.db, code)
    const before = await read(code)
    const stale = await save(code, { ...first.record, Cliente: { ...first.record.Cliente, Municipio: 'Getafe' } }, first.etag)
    expect(stale.status).toBe(412)
    expect(stale.text).toMatch(/ha cambiado desde que lo abriste/)
    expect(contractRow(api.db, code)).toEqual(row)
    expect((await read(code)).record.Cliente.Municipio).toBe('Alcobendas')
    expect((await read(code)).etag).toBe(before.etag)
    // A weak validator of the right version is no strong match; `*` and a list holding it are.
    expect((await save(code, before.record, `W/${before.etag}`)).status).toBe(412)
    expect((await save(code, before.record, `"x", ${before.etag}`)).status).toBe(200)
    expect((await save(code, before.record, '*')).status).toBe(200)
  })

  it('accepts a save without If-Match, as before versions', async () => {
    const code = await newContract()
    const { record } = await read(code)
    expect((await save(code, { ...record, Cliente: { ...record.Cliente, Municipio: 'Leganés' } })).status).toBe(200)
  })

  it('validates NIF, IBAN, e-mail and phone with Spanish errors naming the field, changing nothing', async () => {
    const code = await newContract()
    const { record } = await read(code)
    const row = contractRow(api.db, code)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...record, Iban: 'ES00 1234' }, /^Iban: /],
      [{ ...record, Cliente: { ...record.Cliente, Nif: '12345678A' } }, /^Cliente\.Nif: La letra del DNI/],
      [{ ...record, Cliente: { ...record.Cliente, Email: 'no-es-correo' } }, /^Cliente\.Email: .*no es válido/],
      [{ ...record, Cliente: { ...record.Cliente, Telefono: '12' } }, /^Cliente\.Telefono: /],
      [{ ...record, Cliente: null }, /^Cliente: /],
    ]
    for (const [body, message] of cases) {
      const res = await save(code, body)
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.text).toMatch(message)
    }
    expect(contractRow(api.db, code)).toEqual(row)
  })

  it('answers 404 for an unknown contract and for one outside the caller’s network', async () => {
    const code = await newContract()
    const { record } = await read(code)
    const unknown = await save('EV-2026-999999', record)
    expect(unknown.status).toBe(404)
    expect(unknown.text).toMatch(/No se ha encontrado el contrato/)
    // The agent sees only its own hierarchy's contracts: another's is as unknown.
    const foreign = api.db.prepare('SELECT codigo FROM contratos WHERE agente_id IS NULL OR agente_id NOT IN (SELECT id FROM agentes WHERE usuario_id IS NOT NULL) LIMIT 1').get() as { codigo: string } | undefined
    if (foreign) {
      const visible = (await agente.get('/api/contract/id', { codigo: foreign.codigo })).status
      if (visible === 404) expect((await save(foreign.codigo, record, undefined, agente)).status).toBe(404)
    }
  })
})

describe('PUT /api/agentes/update', () => {
  const agentId = () => activeAgent(api.db)
  const readAgent = async (id: number) => {
    const res = await admin.get<Record<string, unknown>>(`/api/agentes/${id}`)
    expect(res.status).toBe(200)
    return { record: res.body, etag: res.headers.get('etag')! }
  }
  const saveAgent = (id: number, body: unknown, ifMatch?: string, caller = admin) =>
    caller.call<Record<string, unknown>>('PUT', '/api/agentes/update', { query: { id }, body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } })

  it('saves the agent sent as its GET returned it, with a new version; a stale one is a 412', async () => {
    const id = agentId()
    const first = await readAgent(id)
    expect(first.etag).toMatch(/^"/)
    const ok = await saveAgent(id, { ...first.record, Nombre: 'Agencia Renombrada', Email: 'Comercial@Agencia.ES', Telefono: '+34 600 111 222' }, first.etag)
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.Nombre).toBe('Agencia Renombrada')
    expect(ok.body.Email).toBe('comercial@agencia.es')
    expect(ok.headers.get('etag')).not.toBe(first.etag)
    const stale = await saveAgent(id, { ...first.record, Nombre: 'Otra' }, first.etag)
    expect(stale.status).toBe(412)
    expect(stale.text).toMatch(/^El agente .* ha cambiado desde que lo abriste/)
    expect((await readAgent(id)).record.Nombre).toBe('Agencia Renombrada')
  })

  it('validates NIF, e-mail and phone in Spanish, 404 for an unknown agent, 403 without GESTORACCESS', async () => {
    const id = agentId()
    const { record } = await readAgent(id)
    expect((await saveAgent(id, { ...record, Nif: 'B1234567X' })).text).toMatch(/^Nif: /)
    expect((await saveAgent(id, { ...record, Email: 'x@' })).text).toMatch(/correo electrónico .* no es válido/)
    expect((await saveAgent(id, { ...record, Telefono: 'abc' })).text).toMatch(/teléfono .* no es válido/)
    expect((await saveAgent(id, { ...record, Nombre: '' })).text).toMatch(/^Nombre: Falta el nombre/)
    expect((await readAgent(id)).record).toEqual(record)
    const missing = await saveAgent(999999, record)
    expect(missing.status).toBe(404)
    expect(missing.text).toMatch(/No existe el agente 999999/)
    expect((await saveAgent(id, record, undefined, agente)).status).toBe(403)
  })
})

describe('PUT /api/usuarios/update with versions', () => {
  it('answers the user GET with an ETag and refuses a stale If-Match', async () => {
    const id = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }).id
    const first = await admin.get<Record<string, unknown>>(`/api/usuarios/${id}`)
    const etag = first.headers.get('etag')!
    expect(etag).toMatch(/^"/)
    const put = (body: unknown, ifMatch: string) => admin.call('PUT', '/api/usuarios/update', { query: { Id: id }, body, headers: { 'if-match': ifMatch } })
    expect((await put({ Apellidos: 'Primero' }, etag)).status).toBe(200)
    const stale = await put({ Apellidos: 'Segundo' }, etag)
    expect(stale.status).toBe(412)
    expect(stale.text).toMatch(/^El usuario agente@portal.test ha cambiado/)
    expect((await admin.get<Record<string, unknown>>(`/api/usuarios/${id}`)).body.Apellidos).toBe('Primero')
  })
})
