import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PersonalKind } from '../../schemas/catalogue/endpoint'
import { ANSWER_MASKED_KINDS, isMasked, maskAddress, maskAs, maskEmail, maskIban, maskNif, maskPhone } from '../../schemas/personal-data'
import { maskAnswer, personalFieldAt, personalTree } from '../../schemas/personal-paths'
import { maskIban as auditMaskIban } from '../../server/audit/audit-mask'
import { holdsMaskedValue, maskJson, settleMaskedFields } from '../../server/personal/answer-masking'

/**
 * Issue 16: the BFF's answers carry customers' personal data masked. Whatever the shape of the
 * answer (arrays, nulls, nesting, values missing or of another kind), no clear value of a field
 * the catalogue marks survives masking, masking twice changes nothing, and what is not marked is
 * left exactly as it was.
 */

/** The kinds masked as a whole value (`text` is searched: see below). */
const KINDS = [...ANSWER_MASKED_KINDS].filter((k) => k !== 'text')
const IBAN = 'ES9121000418450200051332'

describe('the masks', () => {
  it('are the ones the audit uses, with the documented look', () => {
    expect(auditMaskIban).toBe(maskIban)
    expect(maskIban(IBAN)).toBe('ES91 **** **** **** **** 1332')
    expect(maskNif('12345678Z')).toBe('*****678Z')
    expect(maskPhone('+34 612 345 678')).toBe('******678')
    expect(maskEmail('lucia.fernandez@correo.es')).toBe('l****@correo.es')
    expect(maskAddress('Calle Mayor 12, 3º B')).toBe('Calle ****')
    expect(maskAddress('12 Rue')).toBe('****')
  })

  it('every masked value is recognisable as masked; a clear IBAN, NIF, phone or e-mail is not', () => {
    for (const kind of KINDS) expect(isMasked(maskAs(kind, 'ES12 3456 7890 1234 5678 90'))).toBe(true)
    for (const clear of [IBAN, '12345678Z', '612345678', 'ana@correo.es', 'Calle Mayor 12', null, 42]) expect(isMasked(clear)).toBe(false)
  })

  it('for any text of any kind: the result is masked, holds no clear value longer than four characters, and masking it again changes nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KINDS), fc.string({ minLength: 1, maxLength: 60 }).filter((s) => !s.includes('*')), (kind, clear) => {
        const once = maskAs(kind, clear)
        expect(isMasked(once)).toBe(true)
        if (clear.trim().length > 4) expect(once.includes(clear.trim())).toBe(false)
        expect(maskAs(kind, once)).toBe(once)
      }),
      { numRuns: 2000 },
    )
  })
})

/** Any JSON value, nesting arrays and objects whose keys include the marked names. */
const KEYS = ['Items', 'Nif', 'Iban', 'Cliente', 'Email', 'Telefono', 'Direccion', 'Nombre', 'Importe']
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 30 }), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
})).value

const MAP: Record<string, PersonalKind> = {
  Nif: 'nif',
  Iban: 'iban',
  'Cliente.Email': 'email',
  'Cliente.Telefono': 'phone',
  'Cliente.Direccion': 'address',
  'Items[].Nif': 'nif',
  'Items[].Cliente.Iban': 'iban',
  'Items[][].Nif': 'nif',
  '[].Iban': 'iban',
  Cups: 'cups',
}
const tree = personalTree(MAP)!

/** Every value at a marked path, as the map reaches it (`[]` for each item). */
function valuesAt(value: unknown, segments: string[]): unknown[] {
  if (segments.length === 0) return [value]
  const [head, ...rest] = segments
  if (head === '[]') return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : []
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return []
  return Object.prototype.hasOwnProperty.call(value, head!) ? valuesAt((value as Record<string, unknown>)[head!], rest) : []
}
const segmentsOf = (path: string) => path.replace(/\[\]/g, '.[]').split('.').filter(Boolean)

/** Every text and number inside a value. */
function leaves(value: unknown): (string | number)[] {
  if (typeof value === 'string' || typeof value === 'number') return [value]
  if (value === null || typeof value !== 'object') return []
  return Object.values(value as Record<string, unknown>).flatMap(leaves)
}

describe('free text in answers (a history note)', () => {
  it('keeps the words and masks every e-mail, IBAN, NIF or phone in it; masking again changes nothing', () => {
    const mention = fc.oneof(
      fc.constantFrom('marta.moreno19@hotmail.com', 'j_ruiz@correo.es', IBAN, 'ES91 2100 0418 4502 0005 1332', '12345678Z', 'X1234567L', '612 345 678', '+34 912345678'),
    )
    const words = fc.array(fc.constantFrom('Enviado', 'a', 'firma', 'del', 'titular', 'cuenta', 'teléfono', ':', '.', '(', ')'), { maxLength: 6 })
    fc.assert(
      fc.property(words, mention, words, (before, clear, after) => {
        const text = [...before, clear, ...after].join(' ')
        const once = maskAs('text', text)
        expect(once.includes(clear)).toBe(false)
        expect(once.startsWith(before.join(' '))).toBe(true)
        expect(maskAs('text', once)).toBe(once)
      }),
      { numRuns: 1000 },
    )
    expect(maskAs('text', 'Enviado a firma electrónica a marta.moreno19@hotmail.com.')).toBe('Enviado a firma electrónica a m****@hotmail.com.')
  })
})

describe('masking an answer by the catalogue’s map', () => {
  it('no clear value of a marked field survives, for any shape of answer', () => {
    fc.assert(
      fc.property(json, (answer) => {
        const masked = maskAnswer(structuredClone(answer), tree)
        for (const [path, kind] of Object.entries(MAP)) {
          if (!ANSWER_MASKED_KINDS.has(kind)) continue
          for (const v of valuesAt(masked, segmentsOf(path)).flatMap(leaves)) {
            expect(v === '' || isMasked(v), `${path}: ${String(v)}`).toBe(true)
          }
        }
      }),
      { numRuns: 1500 },
    )
  })

  it('is idempotent, and leaves whatever is not marked as it was', () => {
    fc.assert(
      fc.property(json, (answer) => {
        const once = maskAnswer(structuredClone(answer), tree)
        expect(maskAnswer(structuredClone(once), tree)).toEqual(once)
        // Unmarked: a tree of the CUPS only masks nothing (CUPS is not masked in answers).
        expect(personalTree({ Cups: 'cups', 'Items[].Cups': 'cups' })).toBeNull()
      }),
      { numRuns: 800 },
    )
  })

  it('masks a realistic page and detail, and keeps the rest', () => {
    const page = { Items: [{ Nif: '12345678Z', Nombre: 'Ana', Cliente: { Iban: IBAN } }, { Nif: null, Nombre: 'Luis' }], TotalCount: 2 }
    expect(maskAnswer(page, tree)).toEqual({
      Items: [{ Nif: '*****678Z', Nombre: 'Ana', Cliente: { Iban: 'ES91 **** **** **** **** 1332' } }, { Nif: null, Nombre: 'Luis' }],
      TotalCount: 2,
    })
    const detail = { Nif: 'B12345674', Iban: IBAN, Cups: 'ES0021000000000001AB', Cliente: { Email: 'ana@correo.es', Telefono: 612345678, Direccion: 'Avenida del Puerto 3' } }
    expect(maskAnswer(detail, tree)).toEqual({
      Nif: '*****5674',
      Iban: 'ES91 **** **** **** **** 1332',
      Cups: 'ES0021000000000001AB',
      Cliente: { Email: 'a****@correo.es', Telefono: '******678', Direccion: 'Avenida ****' },
    })
  })

  it('finds one concrete field for the reveal, by its index in arrays', () => {
    const answer = { Iban: IBAN, Items: [{ Nif: 'A' }, { Nif: '12345678Z' }] }
    expect(personalFieldAt(tree, answer, 'Iban')).toEqual({ kind: 'iban', value: IBAN })
    expect(personalFieldAt(tree, answer, 'Items[1].Nif')).toEqual({ kind: 'nif', value: '12345678Z' })
    expect(personalFieldAt(tree, answer, 'Items.Nif')).toBeUndefined()
    expect(personalFieldAt(tree, answer, 'Cups')).toBeUndefined()
    expect(personalFieldAt(tree, answer, 'Nombre')).toBeUndefined()
    expect(personalFieldAt(tree, answer, 'Items[1].Nif.__proto__')).toBeUndefined()
  })
})

describe('the proxy’s helpers', () => {
  it('masks JSON text, keeps an empty body, and refuses text that is not JSON', () => {
    expect(JSON.parse(maskJson(Buffer.from(JSON.stringify([{ Iban: IBAN }])), tree)!.toString())).toEqual([{ Iban: 'ES91 **** **** **** **** 1332' }])
    expect(maskJson(Buffer.alloc(0), tree)!.length).toBe(0)
    expect(maskJson(Buffer.from(`Iban: ${IBAN}`), tree)).toBeUndefined()
  })

  it('drops from a write every field still holding a masked value, at any depth, and nothing else', () => {
    fc.assert(
      fc.property(json, (body) => {
        const masked = maskAnswer(structuredClone(body), tree)
        const sent = structuredClone(masked)
        settleMaskedFields(sent, undefined)
        expect(JSON.stringify(sent).includes('****')).toBe(JSON.stringify(leavesInArrays(sent)).includes('****'))
      }),
      { numRuns: 800 },
    )
    const body = { Iban: 'ES91 **** **** **** **** 1332', Email: 'nueva@correo.es', Cliente: { Nif: '*****678Z', Nombre: 'Ana' } }
    expect(settleMaskedFields(body, undefined).dropped).toEqual(['Iban', 'Cliente.Nif'])
    expect(body).toEqual({ Email: 'nueva@correo.es', Cliente: { Nombre: 'Ana' } })
  })

  it('puts back from the record the values whose mask was sent unchanged: the write is the record as it is', () => {
    fc.assert(
      fc.property(json, (record) => {
        const sent = maskAnswer(structuredClone(record), tree)
        // Masked texts that are items of arrays directly are kept as sent (see leavesInArrays).
        fc.pre(!leavesInArrays(sent).some(isMasked))
        settleMaskedFields(sent, record)
        expect(sent).toEqual(record)
        expect(holdsMaskedValue(sent)).toBe(false)
      }),
      { numRuns: 800 },
    )
  })

  it('never puts back a value whose mask is not the one sent: against another record, such a field is dropped', () => {
    fc.assert(
      fc.property(json, json, (shown, other) => {
        const sent = maskAnswer(structuredClone(shown), tree)
        const { restored, dropped } = settleMaskedFields(sent, other)
        expect(JSON.stringify(sent).includes('****')).toBe(JSON.stringify(leavesInArrays(sent)).includes('****'))
        for (const at of restored) {
          const value = at.split(/\.|\[(\d+)\]/).filter(Boolean).reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], sent)
          const mask = at.split(/\.|\[(\d+)\]/).filter(Boolean).reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], maskAnswer(structuredClone(shown), tree))
          expect([...ANSWER_MASKED_KINDS].some((kind) => maskAs(kind, String(value)) === mask)).toBe(true)
        }
        expect(restored.filter((at) => dropped.includes(at))).toEqual([])
      }),
      { numRuns: 800 },
    )
    const sent = { Iban: 'ES91 **** **** **** **** 1332', Cliente: { Nif: '*****678Z' } }
    expect(settleMaskedFields(sent, { Iban: 'ES7620770024003102575766', Cliente: { Nif: '12345678Z' } })).toEqual({ restored: ['Cliente.Nif'], dropped: ['Iban'] })
    expect(sent).toEqual({ Cliente: { Nif: '12345678Z' } })
  })
})

/** Texts that are items of arrays directly (a write keeps them: dropping would shift the items). */
function leavesInArrays(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? [v] : leavesInArrays(v)))
  if (value === null || typeof value !== 'object') return []
  return Object.values(value as Record<string, unknown>).flatMap(leavesInArrays)
}
