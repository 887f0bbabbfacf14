import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { validateCups, validateIban, validateNif } from '../../server/reference-api/domain/identifiers'
import { ApiCaller } from '../helpers/api-caller'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'
import { ADMIN, AGENTE, NOW } from './business-support'
import type { CupsCheck } from '../../schemas/business/utility'

/**
 * The Spanish identifier validators (domain notes: NIF/NIE/CIF, CUPS, IBAN), checked on the
 * functions and through `GET /api/validators/*`. Vectors were computed independently of the
 * code under test (by hand and with a separate script); the domain notes' examples included.
 */

// [input, normalised, kind]
const NIF_VALID: [string, string, string][] = [
  ['12345678Z', '12345678Z', 'DNI'],
  ['54362315K', '54362315K', 'DNI'],
  ['00000000T', '00000000T', 'DNI'],
  ['12345678z', '12345678Z', 'DNI'], // lower case
  ['5436 2315-k', '54362315K', 'DNI'], // spaces and dashes
  ['X2482300W', 'X2482300W', 'NIE'],
  ['Y2098020C', 'Y2098020C', 'NIE'],
  ['X1234567L', 'X1234567L', 'NIE'],
  ['z1234567r', 'Z1234567R', 'NIE'], // Z prefix, lower case
  ['A58818501', 'A58818501', 'CIF'], // A: digit control
  ['P4603500B', 'P4603500B', 'CIF'], // P: letter control
  ['b-12345674', 'B12345674', 'CIF'],
  ['Q2826000H', 'Q2826000H', 'CIF'], // Q: letter
  ['R5800014B', 'R5800014B', 'CIF'], // R: letter
  ['S2800001F', 'S2800001F', 'CIF'], // S: letter
  ['N0012345E', 'N0012345E', 'CIF'], // N: letter
  ['W0071234I', 'W0071234I', 'CIF'], // W: letter
  ['E85123453', 'E85123453', 'CIF'], // E: digit
  ['H08765430', 'H08765430', 'CIF'], // H: digit
  ['C1234567D', 'C1234567D', 'CIF'], // C: either (letter)
  ['C12345674', 'C12345674', 'CIF'], // C: either (digit)
  ['F2012345A', 'F2012345A', 'CIF'],
  ['G87654323', 'G87654323', 'CIF'],
  ['J0123456F', 'J0123456F', 'CIF'],
  ['U11111119', 'U11111119', 'CIF'],
  ['V3456789A', 'V3456789A', 'CIF'],
]

// [input, a fragment of the reason]
const NIF_INVALID: [string, string][] = [
  ['12345678A', 'debería ser Z'],
  ['54362315J', 'debería ser K'],
  ['X2482300A', 'debería ser W'],
  ['Y2098020D', 'debería ser C'],
  ['Z1234567A', 'debería ser R'],
  ['1234567Z', '8 dígitos'],
  ['123456789Z', 'formato'],
  ['12345678', 'formato'],
  ['ABCDEFGHI', 'formato'],
  ['X248230W', 'formato'],
  ['A5881850A', 'debería ser 1'], // A takes the digit only
  ['E8512345C', 'debería ser 3'], // E takes the digit only
  ['H0876543J', 'debería ser 0'], // H takes the digit only
  ['Q28260008', 'la letra H'], // Q takes the letter only
  ['P46035002', 'la letra B'], // P takes the letter only
  ['W00712349', 'la letra I'], // W takes the letter only
  ['B12345675', 'debería ser 4'],
  ['C1234567E', '4 o D'],
  ['I1234567D', 'letra inicial «I»'], // not a CIF first letter
  ['K1234567D', 'letra inicial «K»'],
]

const CUPS_VALID: [string, string, string, string | null][] = [
  ['ES0021000000000000RC', 'ES0021000000000000RC', 'CUPS', '0021'],
  ['ES0021000000000001RK', 'ES0021000000000001RK', 'CUPS', '0021'],
  ['ES0031405013365002YV0F', 'ES0031405013365002YV0F', 'CUPS con punto frontera', '0031'],
  ['es0021000000000001rk', 'ES0021000000000001RK', 'CUPS', '0021'], // lower case
  ['ES 0021 0000 0000 0001 RK', 'ES0021000000000001RK', 'CUPS', '0021'], // spaces
  ['ES0021-0000-0000-0001-RK', 'ES0021000000000001RK', 'CUPS', '0021'], // dashes
  ['ES0022123456789012FM1P', 'ES0022123456789012FM1P', 'CUPS con punto frontera', '0022'],
  ['ES0390000000000042XY0R', 'ES0390000000000042XY0R', 'CUPS con punto frontera', '0390'],
  ['ES0026999999999999NM2C', 'ES0026999999999999NM2C', 'CUPS con punto frontera', '0026'],
  ['ES0027000011112222ZP0X', 'ES0027000011112222ZP0X', 'CUPS con punto frontera', '0027'],
  ['ES0023876543210987HV1Y', 'ES0023876543210987HV1Y', 'CUPS con punto frontera', '0023'],
  ['ES0288111122223333PY0Z', 'ES0288111122223333PY0Z', 'CUPS con punto frontera', '0288'],
  ['ES0396555566667777HC', 'ES0396555566667777HC', 'CUPS', '0396'],
  ['ES9999999999999999SA', 'ES9999999999999999SA', 'CUPS', null], // over 2^53: 9999999999999999 mod 529 = 348
  ['ES0029000000000123MV', 'ES0029000000000123MV', 'CUPS', '0029'],
  ['ES0363000000000500VK', 'ES0363000000000500VK', 'CUPS', '0363'],
  ['ES0397123123123123SZ', 'ES0397123123123123SZ', 'CUPS', '0397'],
  ['ES0024456456456456AE', 'ES0024456456456456AE', 'CUPS', '0024'],
]

const CUPS_INVALID: [string, string][] = [
  ['ES9999999999999999SG', 'deberían ser SA'], // Number('9999999999999999') % 529 = 349 would give SG
  ['ES0021000000000001RC', 'deberían ser RK'],
  ['ES0021000000000000RK', 'deberían ser RC'],
  ['ES0031405013365002VY0F', 'deberían ser YV'],
  ['ES0021000000000001RK0A', 'punto frontera'], // A is not a border-point letter
  ['ES0021000000000001RK1Q', 'punto frontera'],
  ['ES0021000000000001RKF0', 'punto frontera'], // letter then digit
  ['ES0021000000000001RK00', 'punto frontera'],
  ['ES0021000000000001RK0', '20 o 22'],
  ['ES002100000000001RK', '20 o 22'],
  ['FR0021000000000001RK', 'empezar por ES'],
  ['ES00210000000000A1RK', '16 dígitos'],
  ['ESXX21000000000001RK', '16 dígitos'],
  ['ES00210000000000001R', 'dos letras'],
  ['ES', '20 o 22'],
]

const IBAN_VALID: [string, string][] = [
  ['ES9121000418450200051332', 'ES9121000418450200051332'],
  ['ES79 2100 0813 6101 2345 6789', 'ES7921000813610123456789'],
  ['es91 2100 0418 4502 0005 1332', 'ES9121000418450200051332'], // lower case, spaces
  ['ES70-0049-1500-0105-1234-5678', 'ES7000491500010512345678'], // dashes
  ['ES4001822370460011223344', 'ES4001822370460011223344'],
  ['ES5400810200210999888777', 'ES5400810200210999888777'],
  ['ES3320858000601234512345', 'ES3320858000601234512345'],
  ['ES1101280001650000000001', 'ES1101280001650000000001'],
  ['ES8214650100919876543210', 'ES8214650100919876543210'],
  ['ES2920805000601111111111', 'ES2920805000601111111111'],
  ['ES2130580900702222222222', 'ES2130580900702222222222'],
  ['ES1100301234605555555555', 'ES1100301234605555555555'],
  ['ES4500750001800000000000', 'ES4500750001800000000000'],
  ['ES0620381001306666666666', 'ES0620381001306666666666'],
  ['ES9000730100561234567890', 'ES9000730100561234567890'],
  ['ES8214910001253003003003', 'ES8214910001253003003003'],
]

const IBAN_INVALID: [string, string][] = [
  ['ES9121000418450200051333', 'control del IBAN'], // wrong mod-97
  ['ES9221000418450200051332', 'control del IBAN'],
  ['ES7921000813610123456788', 'control del IBAN'],
  ['ES6821000418000200051332', 'deberían ser 45'], // mod-97 right, national check digits wrong (00 instead of 45)
  ['ES3500491500000512345678', 'deberían ser 01'], // mod-97 right, 00 instead of 01
  ['ES7901822370000011223344', 'deberían ser 46'], // mod-97 right, 00 instead of 46
  ['DE89370400440532013000', 'españolas'], // a valid German IBAN
  ['FR1420041010050500013M02606', 'españolas'], // a valid French IBAN
  ['GB82WEST12345698765432', 'españolas'],
  ['ES912100041845020005133', '24 caracteres'],
  ['ES91210004184502000513321', '24 caracteres'],
  ['ES91210004184502000513A2', 'solo puede contener dígitos'],
  ['ESAB21000418450200051332', 'código de país'],
  ['2100 0418 4502 0005 1332', 'código de país'],
  ['ES0012', '24 caracteres'],
]

describe('the validator functions', () => {
  it('NIF/NIE/CIF: valid vectors (DNI, NIE X/Y/Z, CIF with digit, letter or either control)', () => {
    expect(NIF_VALID.length).toBeGreaterThanOrEqual(15)
    for (const [input, normalized, kind] of NIF_VALID) {
      const v = validateNif(input)
      expect(v, input).toMatchObject({ valid: true, normalized, kind })
    }
  })
  it('NIF/NIE/CIF: invalid vectors with a Spanish reason', () => {
    expect(NIF_INVALID.length).toBeGreaterThanOrEqual(15)
    for (const [input, reason] of NIF_INVALID) {
      const v = validateNif(input)
      expect(v.valid, input).toBe(false)
      expect(v.reason, input).toContain(reason)
    }
  })
  it('CUPS: valid vectors, border-point suffixes, over 2^53', () => {
    expect(CUPS_VALID.length).toBeGreaterThanOrEqual(15)
    for (const [input, normalized, kind] of CUPS_VALID) expect(validateCups(input), input).toMatchObject({ valid: true, normalized, kind })
    // The trap of the domain notes: a JS number gets the remainder wrong.
    expect(Number('9999999999999999') % 529).toBe(349)
    expect(Number(BigInt('9999999999999999') % 529n)).toBe(348)
  })
  it('CUPS: invalid vectors', () => {
    expect(CUPS_INVALID.length).toBeGreaterThanOrEqual(15)
    for (const [input, reason] of CUPS_INVALID) {
      const v = validateCups(input)
      expect(v.valid, input).toBe(false)
      expect(v.reason, input).toContain(reason)
    }
  })
  it('IBAN: valid vectors', () => {
    expect(IBAN_VALID.length).toBeGreaterThanOrEqual(15)
    for (const [input, normalized] of IBAN_VALID) expect(validateIban(input), input).toMatchObject({ valid: true, normalized, kind: 'IBAN' })
  })
  it('IBAN: invalid vectors (mod-97, national check digits, other countries, length)', () => {
    expect(IBAN_INVALID.length).toBeGreaterThanOrEqual(15)
    for (const [input, reason] of IBAN_INVALID) {
      const v = validateIban(input)
      expect(v.valid, input).toBe(false)
      expect(v.reason, input).toContain(reason)
    }
  })
})

describe('GET /api/validators/*', () => {
  let api: RunningReferenceApi
  let admin: ApiCaller
  beforeAll(async () => {
    api = await startReferenceApi({}, { now: () => NOW })
    admin = await ApiCaller.signIn(api.url, ADMIN)
  })
  afterAll(async () => {
    await api?.close()
  })

  const ask = (kind: 'nif' | 'iban' | 'cups', value: string) => admin.get<CupsCheck>(`/api/validators/${kind}`, { [kind]: value })

  it('nif: every vector answers 200 with Valido, Normalizado, Tipo and Motivo', async () => {
    const valid = await Promise.all(NIF_VALID.map(([input]) => ask('nif', input)))
    valid.forEach((res, i) => {
      const [input, normalized, kind] = NIF_VALID[i]!
      expect(res.status, input).toBe(200)
      expect(res.body, input).toEqual({ Valido: true, Normalizado: normalized, Tipo: kind, Motivo: null })
    })
    const invalid = await Promise.all(NIF_INVALID.map(([input]) => ask('nif', input)))
    invalid.forEach((res, i) => {
      const [input, reason] = NIF_INVALID[i]!
      expect(res.status, input).toBe(200)
      expect(res.body.Valido, input).toBe(false)
      expect(res.body.Motivo, input).toContain(reason)
    })
    // The README example: the letter the DNI should have.
    expect((await ask('nif', '12345678a')).body).toEqual({ Valido: false, Normalizado: '12345678A', Tipo: 'DNI', Motivo: 'La letra del DNI no es correcta (debería ser Z).' })
  })

  it('cups: every vector, with the distributor of the prefix', async () => {
    const valid = await Promise.all(CUPS_VALID.map(([input]) => ask('cups', input)))
    valid.forEach((res, i) => {
      const [input, normalized, kind, distributor] = CUPS_VALID[i]!
      expect(res.status, input).toBe(200)
      expect(res.body, input).toMatchObject({ Valido: true, Normalizado: normalized, Tipo: kind, Motivo: null })
      expect(res.body.Distribuidora?.Codigo ?? null, input).toBe(distributor)
    })
    const invalid = await Promise.all(CUPS_INVALID.map(([input]) => ask('cups', input)))
    invalid.forEach((res, i) => {
      const [input, reason] = CUPS_INVALID[i]!
      expect(res.status, input).toBe(200)
      expect(res.body.Valido, input).toBe(false)
      expect(res.body.Tipo, input).toBeNull()
      expect(res.body.Motivo, input).toContain(reason)
    })
    const ide = await ask('cups', 'es 0021 0000 0000 0001 rk')
    expect(ide.body.Distribuidora).toEqual({ Codigo: '0021', Nombre: 'i-DE Redes Eléctricas Inteligentes' })
    expect((await ask('cups', 'ES0390000000000042XY0R')).body.Distribuidora).toEqual({ Codigo: '0390', Nombre: 'UFD Distribución Electricidad' })
    expect((await ask('cups', 'ES0288111122223333PY0Z')).body.Distribuidora?.Nombre).toContain('e-distribución')
  })

  it('iban: every vector', async () => {
    const valid = await Promise.all(IBAN_VALID.map(([input]) => ask('iban', input)))
    valid.forEach((res, i) => {
      const [input, normalized] = IBAN_VALID[i]!
      expect(res.status, input).toBe(200)
      expect(res.body, input).toEqual({ Valido: true, Normalizado: normalized, Tipo: 'IBAN', Motivo: null })
    })
    const invalid = await Promise.all(IBAN_INVALID.map(([input]) => ask('iban', input)))
    invalid.forEach((res, i) => {
      const [input, reason] = IBAN_INVALID[i]!
      expect(res.status, input).toBe(200)
      expect(res.body.Valido, input).toBe(false)
      expect(res.body.Motivo, input).toContain(reason)
    })
  })

  it.each(['nif', 'iban', 'cups'] as const)('%s: missing, empty, blank, repeated or over 64 characters is a 400 (never a 500)', async (kind) => {
    const cases: [string, string][] = [
      [`/api/validators/${kind}`, 'Falta el parámetro'],
      [`/api/validators/${kind}?${kind}=`, 'Falta el parámetro'],
      [`/api/validators/${kind}?${kind}=%20%20`, 'Falta el parámetro'],
      [`/api/validators/${kind}?${kind}=a&${kind}=b`, 'una sola vez'],
      [`/api/validators/${kind}?${kind}=${'1'.repeat(65)}`, '64 caracteres'],
      [`/api/validators/${kind}?other=1`, 'Falta el parámetro'],
    ]
    for (const [path, message] of cases) {
      const res = await admin.call('GET', path)
      expect(res.status, path).toBe(400)
      expect(res.headers.get('content-type'), path).toContain('text/plain')
      expect(res.text, path).toContain(message)
    }
    // 64 characters is still an answer (invalid, not an error).
    const long = await admin.call<CupsCheck>('GET', `/api/validators/${kind}?${kind}=${'9'.repeat(64)}`)
    expect(long.status).toBe(200)
    expect(long.body.Valido).toBe(false)
  })

  it('any signed-in user may call them; no token is a 401', async () => {
    const agente = await ApiCaller.signIn(api.url, AGENTE)
    expect((await agente.get<CupsCheck>('/api/validators/nif', { nif: 'X2482300W' })).body.Valido).toBe(true)
    const anonymous = new ApiCaller(api.url, null)
    expect((await anonymous.get('/api/validators/nif', { nif: 'X2482300W' })).status).toBe(401)
  })
})
