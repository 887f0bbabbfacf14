import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContractDetail } from '../../schemas/business/contracts'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import { contractRow, historyCount } from './lifecycle-support'

/**
 * The end of a contract, `PUT /api/contract/update/fin`: `baja` only from `activo`, `anulado`
 * only before supply starts; every refusal a Spanish 409 naming the current state (or a 400 for a
 * bad body or date) that changes nothing; a history entry; the detail answered with its ETag;
 * a stale If-Match is a 412.
 */

let api: RunningReferenceApi
let admin: ApiCaller
let agente: ApiCaller
const DAY = 24 * 3600_000
const TODAY = new Date(NOW).toISOString().slice(0, 10)
const day = (offset: number) => new Date(NOW + offset * DAY).toISOString().slice(0, 10)

const taken = new Set<string>()
/** A contract of the admin's brand in this state, not used by another case. */
function inState(estado: string, extra = ''): string {
  const rows = api.db
    .prepare(`SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = ? ${extra} ORDER BY c.id`)
    .all(estado) as { codigo: string }[]
  const row = rows.find((r) => !taken.has(r.codigo))
  if (!row) throw new Error(`no seeded contract in state ${estado}`)
  taken.add(row.codigo)
  return row.codigo
}

const end = (code: string, body: unknown, opts: { ifMatch?: string; caller?: ApiCaller } = {}) =>
  (opts.caller ?? admin).call<ContractDetail>('PUT', '/api/contract/update/fin', { query: { codigo: code }, body, headers: opts.ifMatch === undefined ? {} : { 'if-match': opts.ifMatch } })
const read = async (code: string) => {
  const res = await admin.get<ContractDetail>('/api/contract/id', { codigo: code })
  expect(res.status).toBe(200)
  return { record: res.body, etag: res.headers.get('etag')! }
}

/** The call answers `status` with `message` and leaves the contract and its history as they were. */
async function refused(code: string, body: unknown, status: number, message: string | RegExp, opts: { ifMatch?: string } = {}) {
  const row = contractRow(api.db, code)
  const history = historyCount(api.db, code)
  const res = await end(code, body, opts)
  expect(res.status, res.text).toBe(status)
  if (typeof message === 'string') expect(res.text).toContain(message)
  else expect(res.text).toMatch(message)
  expect(contractRow(api.db, code)).toEqual(row)
  expect(historyCount(api.db, code)).toBe(history)
}

beforeAll(async () => {
  api = await startReferenceApi({}, { now: () => NOW })
  admin = await ApiCaller.signIn(api.url, ADMIN)
  agente = await ApiCaller.signIn(api.url, AGENTE)
})
afterAll(async () => {
  await api?.close()
})

describe('baja', () => {
  it('ends the supply of an active contract on the given day, with a history entry and a new version', async () => {
    const code = inState('activo', `AND c.fecha_activacion <= '${day(-10)}'`)
    const { etag } = await read(code)
    const history = historyCount(api.db, code)
    const res = await end(code, { Estado: 'baja', Motivo: 'Baja por cambio de comercializadora.', Fecha: day(-1) }, { ifMatch: etag })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ CodigoContrato: code, Estado: 'baja', FechaBaja: day(-1) })
    expect(res.headers.get('etag')).not.toBe(etag)
    expect(res.headers.get('etag')).toBe((await read(code)).etag)
    expect(historyCount(api.db, code)).toBe(history + 1)
    expect(res.body.Historial.at(-1)).toMatchObject({ Accion: 'baja', EstadoAnterior: 'activo', EstadoNuevo: 'baja' })
    expect(res.body.Historial.at(-1)?.Detalle).toContain('Baja por cambio de comercializadora.')
    // Once ended, neither a second baja nor an annulment.
    await refused(code, { Estado: 'baja', Motivo: 'Otra vez' }, 409, `El contrato ${code} está en estado «Baja»: solo se puede dar de baja un contrato activo.`)
    await refused(code, { Estado: 'anulado', Motivo: 'Otra vez' }, 409, `El contrato ${code} está en estado «Baja»: solo se puede anular`)
  })

  it('without a date, takes effect today', async () => {
    const code = inState('activo')
    const res = await end(code, { Estado: 'baja', Motivo: 'Cierre del local.' })
    expect(res.status, res.text).toBe(200)
    expect(res.body.FechaBaja).toBe(TODAY)
  })

  it('is refused before the activation and too far ahead (400), changing nothing', async () => {
    const code = inState('activo', `AND c.fecha_activacion >= '${day(-200)}'`)
    const activation = (api.db.prepare('SELECT fecha_activacion AS f FROM contratos WHERE codigo = ?').get(code) as { f: string }).f.slice(0, 10)
    const before = new Date(Date.parse(`${activation}T00:00:00Z`) - DAY).toISOString().slice(0, 10)
    await refused(code, { Estado: 'baja', Motivo: 'Cambio de titular.', Fecha: before }, 400, 'Fecha: la baja no puede ser anterior a la activación')
    await refused(code, { Estado: 'baja', Motivo: 'Cambio de titular.', Fecha: day(31) }, 400, 'más de 30 días por delante')
    expect((await end(code, { Estado: 'baja', Motivo: 'Cambio de titular.', Fecha: day(30) })).status).toBe(200)
  })

  it.for(['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'rechazado', 'modificacion_en_curso', 'anulado', 'desistido'])(
    'is refused from %s with a 409 naming the state',
    async (estado) => {
      const code = inState(estado)
      await refused(code, { Estado: 'baja', Motivo: 'Baja solicitada.' }, 409, new RegExp(`^El contrato ${code} está en estado «[^»]+»: solo se puede dar de baja un contrato activo\\.$`))
    },
  )
})

describe('anulado', () => {
  it.for(['borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'rechazado'])('cancels a contract in %s, with a history entry', async (estado) => {
    const code = inState(estado)
    const history = historyCount(api.db, code)
    const res = await end(code, { Estado: 'anulado', Motivo: 'El cliente no continúa.', Fecha: TODAY })
    expect(res.status, res.text).toBe(200)
    expect(res.body.Estado).toBe('anulado')
    expect(res.body.Historial.at(-1)).toMatchObject({ Accion: 'anulacion', EstadoAnterior: estado, EstadoNuevo: 'anulado' })
    expect(historyCount(api.db, code)).toBe(history + 1)
    expect((api.db.prepare("SELECT COUNT(*) AS n FROM contrato_firmas f JOIN contratos c ON c.id = f.contrato_id WHERE c.codigo = ? AND f.estado = 'pendiente'").get(code) as { n: number }).n).toBe(0)
  })

  it.for(['activo', 'modificacion_en_curso', 'baja', 'anulado', 'desistido'])('is refused from %s with a 409 naming the state', async (estado) => {
    const code = inState(estado)
    await refused(code, { Estado: 'anulado', Motivo: 'Anulación.' }, 409, new RegExp(`^El contrato ${code} está en estado «[^»]+»: solo se puede anular un contrato que aún no suministra`))
  })

  it('is refused dated in the future or before the sign-up (400)', async () => {
    const code = inState('borrador')
    await refused(code, { Estado: 'anulado', Motivo: 'Anulación.', Fecha: day(1) }, 400, 'Fecha: la anulación no puede fecharse en el futuro.')
    await refused(code, { Estado: 'anulado', Motivo: 'Anulación.', Fecha: '2000-01-01' }, 400, 'Fecha: la anulación no puede ser anterior al alta')
  })
})

describe('the call', () => {
  it('refuses a bad body with a Spanish 400 and changes nothing', async () => {
    const code = inState('activo')
    await refused(code, { Estado: 'activo', Motivo: 'x y z' }, 400, 'Estado: debe ser «baja»')
    await refused(code, { Motivo: 'x y z' }, 400, 'Estado: debe ser «baja»')
    await refused(code, { Estado: 'baja' }, 400, 'Motivo: indica el motivo')
    await refused(code, { Estado: 'baja', Motivo: '  a ' }, 400, 'Motivo: indica el motivo')
    await refused(code, { Estado: 'baja', Motivo: 'x'.repeat(501) }, 400, 'Motivo: no puede pasar de 500')
    await refused(code, { Estado: 'baja', Motivo: 'Cambio.', Fecha: '2026-02-30' }, 400, 'Fecha no es una fecha válida')
    await refused(code, { Estado: 'baja', Motivo: 'Cambio.', Fecha: '21/11/2026' }, 400, 'Fecha debe ser una fecha AAAA-MM-DD')
    await refused(code, [], 400, /./)
  })

  it('refuses a stale If-Match with a 412 and changes nothing; a current one or none goes through', async () => {
    const code = inState('activo')
    const { etag } = await read(code)
    // Another save moves the version on.
    api.db.prepare("UPDATE contratos SET actualizado_en = '2026-11-20T09:00:00Z' WHERE codigo = ?").run(code)
    await refused(code, { Estado: 'baja', Motivo: 'Cambio.' }, 412, `El contrato ${code} ha cambiado desde que lo abriste`, { ifMatch: etag })
    const current = (await read(code)).etag
    expect((await end(code, { Estado: 'baja', Motivo: 'Cambio.' }, { ifMatch: current })).status).toBe(200)
    const other = inState('borrador')
    expect((await end(other, { Estado: 'anulado', Motivo: 'Sin versión.' })).status).toBe(200)
  })

  it('a contract ended by someone else since it was read is a 412 (it changed), not a refused state; without a version, the 409', async () => {
    const code = inState('activo')
    const { etag } = await read(code)
    expect((await end(code, { Estado: 'baja', Motivo: 'La primera baja.' }, { ifMatch: etag })).status).toBe(200)
    await refused(code, { Estado: 'baja', Motivo: 'La segunda baja.' }, 412, `El contrato ${code} ha cambiado desde que lo abriste`, { ifMatch: etag })
    await refused(code, { Estado: 'baja', Motivo: 'La segunda baja.' }, 409, 'solo se puede dar de baja un contrato activo')
  })

  it('is 404 for a contract out of the caller’s scope, 400 for a bad code', async () => {
    const visible = new Set(
      (await agente.get<{ Items: { CodigoContrato: string }[] }>('/api/contract', { pageIndex: 0, pageSize: 500 })).body.Items.map((c) => c.CodigoContrato),
    )
    const rows = api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id DESC").all() as { codigo: string }[]
    const hidden = rows.find((r) => !visible.has(r.codigo) && !taken.has(r.codigo))!.codigo
    const res = await end(hidden, { Estado: 'baja', Motivo: 'Ajeno.' }, { caller: agente })
    expect(res.status).toBe(404)
    expect(contractRow(api.db, hidden).estado).toBe('activo')
    expect((await end('no es un código', { Estado: 'baja', Motivo: 'x y z' })).status).toBe(400)
  })
})
