import fc from 'fast-check'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntry } from '../../schemas/audit'
import type { AuditFilter, AuditLog, AuditPage } from '../../server/audit/audit-log'
import { maskIban, maskNif, maskPhone } from '../../server/audit/audit-mask'
import { summarizeBody } from '../../server/audit/audit-summary'
import { recordChanges } from '../../server/audit/record-changes'
import { SqliteAuditLog } from '../../server/audit/sqlite-audit-log'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { FAKE_UPSTREAM_CATALOGUE, FAKE_USER, TEST_CONTROL_CATALOGUE, buildTestBff, sessionCookie, type TestBff } from '../helpers/bff'
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream'

/**
 * Issue 16: personal data never reaches the audit whole. Whatever IBAN, NIF/NIE/CIF or Spanish
 * phone a body holds, in a field the catalogue marks, a field named for it, a nested object or
 * the middle of a free text, the entry keeps it masked (`ES91 **** … 1332`, `*****678Z`).
 */

const catalogue = loadCatalogue({ extraFiles: [FAKE_UPSTREAM_CATALOGUE, TEST_CONTROL_CATALOGUE] })
const echoCreate = catalogue.calls.find((c) => c.id === 'echo.create')!
const contractInsert = catalogue.calls.find((c) => c.id === 'contract.insert')!

// ── generators ──────────────────────────────────────────────────────────────

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''))
const letter = fc.constantFrom(...'ABCDEFGHJKLMNPQRSTVWXYZ')
const group4 = (s: string) => s.replace(/(.{4})(?=.)/g, '$1 ')

const iban = fc
  .tuple(fc.constantFrom(['ES', 20], ['PT', 21], ['FR', 23], ['DE', 18], ['IT', 23]), digits(2))
  .chain(([[country, length], check]) => digits(length as number).map((rest) => `${country}${check}${rest}`))
  .chain((plain) => fc.constantFrom(plain, group4(plain), plain.toLowerCase()))
const nif = fc.oneof(
  fc.tuple(digits(8), letter).map(([d, l]) => `${d}${l}`),
  fc.tuple(fc.constantFrom('X', 'Y', 'Z'), digits(7), letter).map(([p, d, l]) => `${p}${d}${l}`),
  fc.tuple(fc.constantFrom(...'ABCDEFGHJNPQRSUVW'), digits(7), fc.constantFrom(...'0123456789ABCDEFGHIJ')).map(([p, d, c]) => `${p}${d}${c}`),
)
const phone = fc
  .tuple(fc.constantFrom('6', '7', '8', '9'), digits(8))
  .map(([first, rest]) => `${first}${rest}`)
  .chain((p) => fc.constantFrom(p, `${p.slice(0, 3)} ${p.slice(3, 6)} ${p.slice(6)}`, `+34 ${p}`, `+34${p}`, `${p.slice(0, 3)} ${p.slice(3, 5)} ${p.slice(5, 7)} ${p.slice(7)}`))
const words = fc.constantFrom('Cuenta', 'del titular:', 'llamar al', 'NIF', 'cliente', 'ver', '—', '(', ')', 'y', 'en', 'datos')

/** A body holding the values wherever a form or an integration might put them. */
const body = fc.record({ iban, nif, phone, a: words, b: words }).chain((v) =>
  fc.constantFrom(
    { values: v, body: { Iban: v.iban, Nif: v.nif, Telefono: v.phone } },
    { values: v, body: { Observaciones: `${v.a} ${v.iban} ${v.b} ${v.nif}, ${v.a} ${v.phone}.` } },
    { values: v, body: { Cliente: { Documento: v.nif, Cuenta: { Numero: v.iban } }, Contactos: [{ Movil: v.phone }, `${v.b}: ${v.phone}`] } },
    { values: v, body: { Notas: [`${v.iban}`, `${v.a} ${v.nif}`], Extra: `${v.phone}` } },
  ),
)

/** None of the values, with or without their spaces, anywhere in the text. */
function holdsNoneOf(text: string, values: { iban: string; nif: string; phone: string }): boolean {
  const plain = (s: string) => s.replace(/[\s+]/g, '').toUpperCase()
  const upper = text.toUpperCase()
  const compact = upper.replace(/\s/g, '')
  return [values.iban, values.nif, values.phone.replace(/^\+34\s?/, '')].every((v) => !upper.includes(v.toUpperCase()) && !compact.includes(plain(v)))
}

describe('masks', () => {
  it('keep what tells values apart, in the house style', () => {
    expect(maskIban('ES9121000418450200051332')).toBe('ES91 **** **** **** **** 1332')
    expect(maskIban('es91 2100 0418 4502 0005 1332')).toBe('ES91 **** **** **** **** 1332')
    expect(maskNif('12345678Z')).toBe('*****678Z')
    expect(maskNif('X1234567L')).toBe('*****567L')
    expect(maskPhone('+34 612 345 678')).toBe('******678')
  })

  it('a summary of any body holds no IBAN, NIF or phone whole', () => {
    fc.assert(
      fc.property(body, ({ values, body }) => {
        for (const call of [echoCreate, contractInsert]) expect(holdsNoneOf(summarizeBody(call, body)!, values)).toBe(true)
      }),
      { numRuns: 400 },
    )
  })

  it('what changed in a record holds none of them either', () => {
    fc.assert(
      fc.property(body, body, ({ values: a, body: before }, { values: b, body: after }) => {
        const text = JSON.stringify(recordChanges(before, after))
        expect(holdsNoneOf(text, a) && holdsNoneOf(text, b)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })
})

/** An audit log that fails every write, as a store that went away does. */
class UnwritableAuditLog implements AuditLog {
  async append(): Promise<void> {
    throw new Error('disk full')
  }
  async query(_f: AuditFilter): Promise<AuditPage> {
    return { items: [], total: 0, partial: false }
  }
  async *entries(): AsyncIterable<AuditEntry> {}
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

describe('through the proxy (a fake upstream)', () => {
  let upstream: FakeUpstream
  let bff: TestBff
  let log: SqliteAuditLog
  let cookie = ''
  let dir = ''

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-audit-'))
    log = new SqliteAuditLog(path.join(dir, 'audit.db'), { retentionMs: 86_400_000 })
    upstream = await startFakeUpstream()
    bff = await buildTestBff(upstream.url, {}, { auditLog: log })
    cookie = sessionCookie((await request(bff.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(FAKE_USER).expect(200)).headers['set-cookie'])
  })
  afterAll(async () => {
    await bff?.close()
    await upstream?.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const entryOf = async (requestId: string) => (await log.query({}, { offset: 0, limit: 500 })).items.filter((e) => e.requestId === requestId)

  it('every entry of a mutation carrying personal data holds it masked, and only once', async () => {
    await fc.assert(
      fc.asyncProperty(body, async ({ values, body }) => {
        const res = await request(bff.app.server).post('/api/echo/alta').set('X-CSRF', '1').set('Cookie', cookie).send(body).expect(200)
        const entries = await entryOf(String(res.headers['x-request-id']))
        expect(entries).toHaveLength(1)
        expect(entries[0]).toMatchObject({ call: 'POST api/echo/{what}', callId: 'echo.create', actor: { email: FAKE_USER.username }, outcome: { status: 200, ok: true } })
        expect(holdsNoneOf(JSON.stringify(entries[0]), values)).toBe(true)
      }),
      { numRuns: 25 },
    )
    expect(bff.logs.raw.join('\n')).not.toMatch(/audit_write_failed/)
  })

  it('an upstream that does not answer: the failure is recorded with the status the user got', async () => {
    const down = await startFakeUpstream()
    const other = await buildTestBff(down.url, {}, { auditLog: log })
    try {
      const session = sessionCookie((await request(other.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(FAKE_USER).expect(200)).headers['set-cookie'])
      await down.close()
      const res = await request(other.app.server).put('/api/echo/cambio').set('X-CSRF', '1').set('Cookie', session).send({ CodigoContrato: 'EV-1' })
      expect(res.status).toBeGreaterThanOrEqual(502)
      const [entry] = await entryOf(String(res.headers['x-request-id']))
      expect(entry).toMatchObject({ call: 'PUT api/echo/{what}', outcome: { status: res.status, ok: false } })
    } finally {
      await other.close()
    }
  })

  it('a write that fails never fails the request: it is logged and counted', async () => {
    const broken = await buildTestBff(upstream.url, {}, { auditLog: new UnwritableAuditLog() })
    try {
      const session = sessionCookie((await request(broken.app.server).post('/bff/auth/login').set('X-CSRF', '1').send(FAKE_USER).expect(200)).headers['set-cookie'])
      const res = await request(broken.app.server).post('/api/echo/alta').set('X-CSRF', '1').set('Cookie', session).send({ Iban: 'ES9121000418450200051332' }).expect(200)
      expect(res.body.body).toEqual({ Iban: 'ES9121000418450200051332' })
      const line = broken.logs.lines.find((l) => l.event === 'audit_write_failed')
      expect(line).toMatchObject({ level: 50, kind: 'call', call: 'POST api/echo/{what}', requestId: res.headers['x-request-id'], err: { message: 'disk full' } })
      expect(broken.logs.raw.join('\n')).not.toContain('21000418450200051332')
      const metrics = (await request(broken.app.server).get('/metrics').expect(200)).text
      expect(metrics).toMatch(/^audit_write_failures_total\{kind="call"\} 1$/m)
    } finally {
      await broken.close()
    }
  })
})
