import fc from 'fast-check'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditPageAnswer } from '../../schemas/audit'
import type { ContractDetail } from '../../schemas/business/contracts'
import { ADMIN, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * No lost updates through the BFF (issue 16): records arrive with their ETag, a save's If-Match
 * reaches the upstream, and a save based on a stale version is refused (412) whatever the
 * interleaving of two editors.
 */

let api: RunningReferenceApi
let bff: TestBff
let admin = ''
let code = ''

const call = (method: 'get' | 'put', path: string, headers: Record<string, string> = {}, body?: unknown) => {
  const r = request(bff.app.server)[method](path).set('X-CSRF', '1').set('Cookie', admin)
  for (const [k, v] of Object.entries(headers)) r.set(k, v)
  return body === undefined ? r : r.send(body as object)
}
const readContract = async () => {
  const res = await call('get', `/api/contract/id?codigo=${code}`).expect(200)
  return { record: res.body as ContractDetail, etag: res.headers.etag as string }
}
const saveContract = (record: ContractDetail, municipio: string, ifMatch?: string) =>
  call('put', `/api/contract/update?codigo=${code}`, ifMatch ? { 'If-Match': ifMatch } : {}, { ...record, Cliente: { ...record.Cliente, Municipio: municipio } })

beforeAll(async () => {
  api = await startReferenceApi()
  bff = await buildTestBff(api.url)
  const res = await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(ADMIN).expect(200)
  admin = sessionCookie(res.headers['set-cookie'])
  code = (api.db.prepare("SELECT c.codigo FROM contratos c JOIN marcas m ON m.id = c.marca_id WHERE m.dominio = 'energiaverde.es' AND c.estado = 'activo' ORDER BY c.id LIMIT 1").get() as { codigo: string }).codigo
})
afterAll(async () => {
  await bff?.close()
  await api?.close()
})

describe('ETag and If-Match through the proxy', () => {
  it('passes the ETag of a contract, a user and an agent on to the browser', async () => {
    expect((await readContract()).etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    const userId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }).id
    expect((await call('get', `/api/usuarios/${userId}`).expect(200)).headers.etag).toMatch(/^"/)
    const agentId = (api.db.prepare("SELECT a.id FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = 'energiaverde.es' AND a.activo = 1 ORDER BY a.id LIMIT 1").get() as { id: number }).id
    expect((await call('get', `/api/agentes/${agentId}`).expect(200)).headers.etag).toMatch(/^"/)
  })

  it('passes If-Match upstream: a stale save is a Spanish 412, recorded in the audit as refused, and changes nothing', async () => {
    const first = await readContract()
    const ok = await saveContract(first.record, 'Alcorcón', first.etag).expect(200)
    expect(ok.headers.etag).not.toBe(first.etag)
    const stale = await saveContract(first.record, 'Móstoles', first.etag).expect(412)
    expect(stale.text).toContain('ha cambiado desde que lo abriste')
    expect((await readContract()).record.Cliente.Municipio).toBe('Alcorcón')
    const audit = (await call('get', `/bff/admin/audit?record=${code}&call=contract%2Fupdate&pageSize=10`).expect(200)).body as AuditPageAnswer
    expect(audit.Items[0]!.call).toBe('PUT api/contract/update')
    expect(audit.Items[0]!.outcome).toEqual({ status: 412, ok: false })
    // The audit keeps the body masked: the record's IBAN (sent masked, put back by the BFF) is never whole.
    const iban = (api.db.prepare('SELECT iban FROM contratos WHERE codigo = ?').get(code) as { iban: string }).iban
    expect(iban).toMatch(/^ES\d{22}$/)
    expect(JSON.stringify(audit.Items[0])).not.toContain(iban)
    expect(JSON.stringify(audit.Items[0])).not.toContain(iban.slice(4, 20))
  })

  it('a user administration save with a stale If-Match is a Spanish 412 and changes nothing, as the user detail form sends it', async () => {
    const userId = (api.db.prepare("SELECT id FROM usuarios WHERE email = 'agente@portal.test'").get() as { id: number }).id
    const read = async () => {
      const res = await call('get', `/api/usuarios/${userId}`).expect(200)
      return { record: res.body as { Email: string; Nombre: string; Apellidos: string; Telefono: string | null; Activo: boolean }, etag: res.headers.etag as string }
    }
    const first = await read()
    const values = (apellidos: string) => ({ Email: first.record.Email, Nombre: first.record.Nombre, Apellidos: apellidos, Telefono: first.record.Telefono, Activo: first.record.Activo })
    const ok = await call('put', `/api/usuarios/update?Id=${userId}`, { 'If-Match': first.etag }, values('Primera Versión')).expect(200)
    expect(ok.headers.etag).not.toBe(first.etag)
    const stale = await call('put', `/api/usuarios/update?Id=${userId}`, { 'If-Match': first.etag }, values('Segunda Versión')).expect(412)
    expect(stale.text).toContain('ha cambiado desde que lo abriste')
    expect((await read()).record.Apellidos).toBe('Primera Versión')
    await call('put', `/api/usuarios/update?Id=${userId}`, { 'If-Match': ok.headers.etag as string }, values('Segunda Versión')).expect(200)
    expect((await read()).record.Apellidos).toBe('Segunda Versión')
  })
})

describe('two editors, any interleaving', () => {
  type Step = { editor: 0 | 1; action: 'save' | 'reload' }
  const step = fc.record({ editor: fc.constantFrom<0 | 1>(0, 1), action: fc.constantFrom<'save' | 'reload'>('save', 'reload') })

  it('no save based on a stale version succeeds, and every save based on the current one does', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps: Step[]) => {
        run++
        // Both editors open the record; the model knows the version the upstream holds.
        const opened = await readContract()
        const base = [opened, opened]
        let current = opened.etag
        let stored = opened.record.Cliente.Municipio
        for (const [i, s] of steps.entries()) {
          if (s.action === 'reload') {
            base[s.editor] = await readContract()
            continue
          }
          const mine = base[s.editor]!
          const municipio = `Municipio ${run}-${i}`
          const res = await saveContract(mine.record, municipio, mine.etag)
          if (mine.etag === current) {
            expect(res.status).toBe(200)
            current = res.headers.etag as string
            stored = municipio
            base[s.editor] = { record: res.body as ContractDetail, etag: current }
          } else {
            expect(res.status).toBe(412)
          }
          const now = await readContract()
          expect(now.etag).toBe(current)
          expect(now.record.Cliente.Municipio).toBe(stored)
        }
      }),
      { numRuns: 20 },
    )
  }, 120_000)
})
