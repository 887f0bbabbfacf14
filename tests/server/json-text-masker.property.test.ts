import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { PersonalKind } from '../../schemas/catalogue/endpoint'
import { ANSWER_MASKED_KINDS } from '../../schemas/personal-data'
import { maskAnswer, personalTree, type PersonalTree } from '../../schemas/personal-paths'
import { maskJson } from '../../server/personal/answer-masking'
import { maskJsonText } from '../../server/personal/json-text-masker'

/**
 * Issue 16: the one-pass masker of JSON answers is as correct as parsing, masking the value and
 * writing it again. For any JSON text (any values, unicode, escapes, numbers in any form, any
 * whitespace, deep nesting) and any tree over the text's own paths, the masked text reads as the
 * masked value; and it refuses exactly the texts JSON.parse refuses.
 */

const KINDS = [...ANSWER_MASKED_KINDS]
type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Every path in a value: keys and `[]` for items; the root too (maskAnswer walks it, never masks it whole). */
function pathsOf(value: unknown, here: string[] = [], out: string[][] = []): string[][] {
  out.push(here)
  if (Array.isArray(value)) value.forEach((v) => pathsOf(v, [...here, '[]'], out))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...here, k], out)
  return out
}

/** A tree from paths given as segments (keys may hold `.` or `[]`, so not through path text). */
function treeOf(marks: [string[], PersonalKind][]): PersonalTree {
  const root: PersonalTree = {}
  for (const [segments, kind] of marks) {
    let node = root
    for (const s of segments) {
      if (s === '[]') node = node.items ??= {}
      else {
        node.fields ??= new Map()
        let next = node.fields.get(s)
        if (!next) node.fields.set(s, (next = {}))
        node = next
      }
    }
    node.kind = kind
  }
  return root
}

/** A tiny seeded generator, for the serialiser's choices (fast-check gives the seed). */
function randomOf(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' }
const SPACES = [' ', '\t', '\n', '\r']

/** A JSON text of a value, written in one of the many ways JSON allows: escapes, number forms, whitespace. */
function writeJson(value: Json, random: () => number): string {
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const gap = () => (random() < 0.6 ? '' : Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(SPACES)).join(''))
  const str = (s: string) => {
    let out = '"'
    for (const ch of s) {
      const code = ch.charCodeAt(0)
      const r = random()
      if (ch.length === 2) out += r < 0.3 ? `\\u${code.toString(16)}\\u${ch.charCodeAt(1).toString(16).toUpperCase()}` : ch
      else if (ch in SHORT_ESCAPES && (r < 0.7 || ch === '"' || ch === '\\')) out += SHORT_ESCAPES[ch]
      else if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff) || r < 0.1) out += `\\u${code.toString(16).padStart(4, '0')}`
      else out += ch
    }
    return `${out}"`
  }
  const num = (n: number) => {
    if (Object.is(n, -0)) return pick(['-0', '-0.0', '-0e0', '-0E+3'])
    const r = random()
    if (r < 0.25) return n.toExponential()
    if (r < 0.4) return n.toExponential().replace('e', 'E').replace('+', '')
    const plain = JSON.stringify(n)
    if (r < 0.55 && /^-?\d+$/.test(plain)) return `${plain}.${'0'.repeat(1 + Math.floor(random() * 3))}`
    if (r < 0.65 && /^-?\d+$/.test(plain)) return `${plain}e0`
    return plain
  }
  const write = (v: Json): string => {
    if (v === null || typeof v === 'boolean') return String(v)
    if (typeof v === 'number') return num(v)
    if (typeof v === 'string') return str(v)
    if (Array.isArray(v)) return v.length === 0 ? `[${gap()}]` : `[${v.map((item) => gap() + write(item) + gap()).join(',')}]`
    const entries = Object.entries(v)
    return entries.length === 0 ? `{${gap()}}` : `{${entries.map(([k, item]) => `${gap()}${str(k)}${gap()}:${gap()}${write(item)}${gap()}`).join(',')}}`
  }
  return gap() + write(value) + gap()
}

/** The masker over a text's UTF-8 bytes, as the proxy has it; the masked text back. */
const maskText = (text: string, tree: PersonalTree): string | undefined => maskJsonText(Buffer.from(text, 'utf8'), tree)?.toString('utf8')
/** A text as the proxy decodes its bytes (a lone surrogate cannot travel in UTF-8). */
const decoded = (text: string): string => Buffer.from(text, 'utf8').toString('utf8')

const parses = (text: string): boolean => {
  try {
    JSON.parse(decoded(text))
    return true
  } catch {
    return false
  }
}

/** The old path, the reference: parse, mask the value, write it. */
const reference = (text: string, tree: PersonalTree): unknown => maskAnswer(JSON.parse(decoded(text)), tree)

const values = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  fc.jsonValue({ maxDepth: 4, stringUnit: 'grapheme' }),
  fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }),
  fc.jsonValue({ depthSize: 'large', maxDepth: 30 }),
) as fc.Arbitrary<Json>

/** A value, a tree over its own paths (and some that miss), and how its text is written. */
const cases = values.chain((value) => {
  const paths = pathsOf(value)
  const mark = fc.tuple(fc.nat(), fc.constantFrom(...KINDS)).map(([i, kind]) => [paths[i % paths.length]!, kind] as [string[], PersonalKind])
  const miss = fc.tuple(fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.constant('[]')), { maxLength: 4 }), fc.constantFrom(...KINDS))
  return fc.record({
    value: fc.constant(value),
    marks: fc.array(fc.oneof({ weight: 4, arbitrary: mark }, { weight: 1, arbitrary: miss }), { maxLength: 6 }),
    indent: fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 4 }), fc.string({ unit: fc.constantFrom(...SPACES), maxLength: 6 })),
    seed: fc.integer(),
  })
})

describe('masking JSON text in one pass', () => {
  it('reads as the masked value, for any value written by JSON.stringify with any indent', () => {
    fc.assert(
      fc.property(cases, ({ value, marks, indent }) => {
        const text = JSON.stringify(value, null, indent)
        const tree = treeOf(marks)
        const masked = maskText(text, tree)
        expect(masked).toBeDefined()
        expect(JSON.parse(masked!)).toEqual(reference(text, tree))
      }),
      { numRuns: 3000 },
    )
  })

  it('reads as the masked value, for any value written with escapes, numbers in any form (exponents, -0) and whitespace anywhere', () => {
    fc.assert(
      fc.property(cases, ({ value, marks, seed }) => {
        const text = writeJson(value, randomOf(seed))
        const tree = treeOf(marks)
        const masked = maskText(text, tree)
        expect(masked).toBeDefined()
        expect(JSON.parse(masked!)).toEqual(reference(text, tree))
        // With nothing marked, the text is passed on exactly as it was written.
        if (marks.length === 0) expect(masked).toBe(text)
      }),
      { numRuns: 3000 },
    )
  })

  it('masks values marked as a whole (objects and arrays) and keeps their keys, empty texts and what is not a text or number', () => {
    const tree = treeOf([
      [['Cliente'], 'nif'],
      [['Items', '[]', 'Tel'], 'phone'],
      [['Datos', '[]'], 'email'],
    ])
    const text = '{"Cliente":{"Nif":"12345678Z","N":123456789,"E":"","B":true,"Z":null,"L":["ana@correo.es",[612345678]]},"Items":[{"Tel":"612 345 678"},{"Tel":""},{"Tel":null},5],"Datos":["a@b.es",{"x":"c@d.es"}],"Otro":"12345678Z"}'
    const masked = maskText(text, tree)!
    expect(JSON.parse(masked)).toEqual(reference(text, tree))
    expect(masked).toContain('"Otro":"12345678Z"')
    expect(masked).not.toContain('"Nif":"12345678Z"')
  })

  it('keeps a key named __proto__ inside a value masked as a whole, as a key (JSON.parse makes it one)', () => {
    // Found by the property above (seed -356087441): copying the object by assignment set the
    // copy's prototype instead, and the reference dropped the key from the answer.
    const text = '{"":{"a":3.7509815081190834e+35,"__proto__":[null,-6.615405176267838e-152,"LV]#XbU0sZ",true]},"b":"U"}'
    const tree = treeOf([[[''], 'iban']])
    const expected = { '': { a: '3.75 **** **** **** **** E+35', ['__proto__']: [null, '6.61 **** **** **** **** E152', 'LV]# **** U0SZ', true] }, b: 'U' }
    expect(JSON.parse(maskText(text, tree)!)).toEqual(expected)
    expect(reference(text, tree)).toEqual(expected)
    expect(Object.getPrototypeOf((reference(text, tree) as Record<string, object>)[''])).toBe(Object.prototype)
  })

  it('handles nesting deeper than a recursive walk would', () => {
    const depth = 100_000
    const deep = `${'{"a":['.repeat(depth)}"12345678Z"${']}'.repeat(depth)}`
    const a: string[] = []
    for (let i = 0; i < depth; i++) a.push('a', '[]')
    const masked = maskText(deep, treeOf([[a, 'nif']]))!
    expect(masked.length).toBe(deep.length)
    expect(masked).toContain('"*****678Z"')
    expect(maskText(deep.slice(0, -1), treeOf([[a, 'nif']]))).toBeUndefined()
    // Deep enough for a recursion, still within what maskAnswer walks: the same result.
    const mid = `${'[{"n":'.repeat(2000)}"ana@correo.es"${'}]'.repeat(2000)}`
    const path: string[] = []
    for (let i = 0; i < 2000; i++) path.push('[]', 'n')
    expect(JSON.parse(maskText(mid, treeOf([[path, 'email']]))!)).toEqual(reference(mid, treeOf([[path, 'email']])))
  })
})

/** Text that may or may not be JSON: valid JSON cut, with a stray character, a character dropped or changed. */
const STRAY = [...'{}[],:"\\/0123456789-+.eEtrufalsnx \t\n\r\u0000\u001f\u00a0\ufeff\u2028', '\ud800']
const mutated = fc
  .record({ value: values, seed: fc.integer(), at: fc.nat(), stray: fc.constantFrom(...STRAY), how: fc.constantFrom('cut', 'insert', 'drop', 'replace', 'none') })
  .map(({ value, seed, at, stray, how }) => {
    const text = writeJson(value, randomOf(seed))
    const i = at % (text.length + 1)
    if (how === 'cut') return text.slice(0, i)
    if (how === 'insert') return text.slice(0, i) + stray + text.slice(i)
    if (how === 'drop') return text.slice(0, i) + text.slice(i + 1)
    if (how === 'replace') return text.slice(0, i) + stray + text.slice(i + 1)
    return text
  })

/** The UTF-8 bytes of valid JSON, some bytes at a random place swapped for or given the stray bytes. */
const mutatedWith = (stray: fc.Arbitrary<Buffer>) =>
  fc.record({ value: values, seed: fc.integer(), at: fc.nat(), stray, replace: fc.boolean() }).map(({ value, seed, at, stray, replace }) => {
    const bytes = Buffer.from(writeJson(value, randomOf(seed)), 'utf8')
    const i = at % (bytes.length + 1)
    return Buffer.concat([bytes.subarray(0, i), stray, bytes.subarray(replace ? i + 1 : i)])
  })

/** Short texts of JSON's own characters: numbers, literals, escapes, brackets in any order. */
const jsonish = fc.string({ unit: fc.constantFrom(...STRAY), maxLength: 12 })

describe('refusing what is not JSON', () => {
  const tree = personalTree({ Nif: 'nif', 'Items[].Nif': 'nif', '[].Iban': 'iban' })!

  for (const [name, texts] of [
    ['mutations of valid JSON', mutated],
    ['short texts of JSON characters', jsonish],
    ['any text', fc.string({ unit: 'binary', maxLength: 40 })],
  ] as const) {
    it(`returns undefined exactly when JSON.parse throws: ${name}`, () => {
      fc.assert(
        fc.property(texts, (text) => {
          const masked = maskText(text, tree)
          expect(masked === undefined, JSON.stringify(text)).toBe(!parses(text))
          if (masked !== undefined) expect(JSON.parse(masked)).toEqual(reference(text, tree))
        }),
        { numRuns: 4000 },
      )
    })
  }

  it('returns undefined exactly when JSON.parse of the decoded bytes throws: any bytes, and valid JSON with bytes that are not UTF-8', () => {
    const check = (bytes: Uint8Array) => {
      const masked = maskJsonText(bytes, tree)
      const text = Buffer.from(bytes).toString('utf8')
      expect(masked === undefined, JSON.stringify(text)).toBe(!parses(text))
      if (masked !== undefined) expect(JSON.parse(masked.toString('utf8'))).toEqual(reference(text, tree))
    }
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), check), { numRuns: 3000 })
    const broken = fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f], [0xc0, 0x80], [0xef, 0xbb, 0xbf])
    fc.assert(
      fc.property(mutatedWith(broken.map((b) => Buffer.from(b))), (bytes) => check(bytes)),
      { numRuns: 3000 },
    )
  })

  it('refuses the classic near misses', () => {
    for (const text of ['', ' ', '01', '-', '1.', '.5', '1e', '+1', '0x1', 'NaN', 'Infinity', "'a'", '"\\x"', '"\\u12"', '"a\nb"', '[1,]', '{"a":1,}', '{a:1}', '{"a" 1}', '[1 2]', 'tru', 'nul', 'true false', '\ufeff{}', '{"a":1}}', '[', ']', '"']) {
      expect(maskText(text, tree), JSON.stringify(text)).toBeUndefined()
      expect(parses(text), JSON.stringify(text)).toBe(false)
    }
    for (const text of ['0', '-0', '1E+2', '"\\u00e9\\/"', ' [ ] ', '{"":""}', 'null', '"\u2028"']) expect(maskText(text, tree), text).toBe(text)
  })
})

describe('maskJson over the text masker', () => {
  const tree = personalTree({ Nif: 'nif', 'Items[].Nif': 'nif' })!

  it('keeps its contract: empty stays empty, not JSON is refused, nothing to mask is passed on as it came', () => {
    const empty = Buffer.alloc(0)
    expect(maskJson(empty, tree)).toBe(empty)
    expect(maskJson(Buffer.from('{"Nif":'), tree)).toBeUndefined()
    const clean = Buffer.from('{"Items":[{"Nombre":"Ana"}], "Total": 1}')
    expect(maskJson(clean, tree)).toBe(clean)
    const masked = maskJson(Buffer.from('{"Items":[{"Nif":"12345678Z","Nombre":"Ánfora"}]}'), tree)!
    expect(JSON.parse(masked.toString('utf8'))).toEqual({ Items: [{ Nif: '*****678Z', Nombre: 'Ánfora' }] })
  })
})
