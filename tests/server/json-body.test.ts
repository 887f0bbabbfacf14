import { describe, expect, it } from 'vitest'
import { PreviewBody, PublishScreenBody } from '../../schemas/admin'
import { MenuEntry } from '../../schemas/menu'
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../server/lib/json-body'
import { typeboxValidatorCompiler } from '../../server/lib/typebox-validator'

describe('jsonDepthExceeds', () => {
  const depthOf = (text: string) => {
    for (let max = 0; ; max++) if (!jsonDepthExceeds(text, max)) return max
  }

  it('counts the nesting of arrays and objects, as JSON.parse sees it', () => {
    expect(depthOf('1')).toBe(0)
    expect(depthOf('"x"')).toBe(0)
    expect(depthOf('{}')).toBe(1)
    expect(depthOf('[[], {"a": [1, {"b": {}}]}]')).toBe(5)
    expect(depthOf('[1] [2]')).toBe(1)
  })

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depthOf('"[[[{{{"')).toBe(0)
    expect(depthOf('{"a\\"[[[": "\\\\", "b": "]]]\\"{{{"}')).toBe(1)
    expect(depthOf('["\\u005b[[["]')).toBe(1)
  })

  it('takes a body nested a million levels in one pass, without recursion', () => {
    const text = '['.repeat(1_000_000) + ']'.repeat(1_000_000)
    const started = performance.now()
    expect(jsonDepthExceeds(text, MAX_JSON_DEPTH)).toBe(true)
    expect(jsonDepthExceeds('[1,'.repeat(300_000) + '2' + ']'.repeat(300_000), 300_000)).toBe(false)
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})

describe('the schema check never throws', () => {
  const validate = (schema: unknown, data: unknown) => {
    const check = typeboxValidatorCompiler({ schema: schema as PreviewBody, method: 'POST', url: '/x', httpPart: 'body' }) as (d: unknown) => {
      value?: unknown
      error?: Error & { statusCode?: number; validation?: unknown }
    }
    return check(data)
  }

  /** A menu entry nested `levels` deep, built without recursion. */
  function deepEntry(levels: number): MenuEntry {
    let entry: MenuEntry = { key: 'a', label: { es: 'A' } }
    for (let i = 0; i < levels; i++) entry = { key: 'a', label: { es: 'A' }, items: [entry] }
    return entry
  }

  it('a value nested past the stack on a recursive schema is a 400 validation error', () => {
    const result = validate(PreviewBody, { menu: { sections: [deepEntry(200_000)] }, permissions: [], production: false })
    expect(result.error?.statusCode).toBe(400)
    expect(result.error?.validation).toBeTruthy()
    expect(result.error?.message).toBe('«cuerpo» tiene demasiados niveles de anidamiento')
  })

  it('deep but allowed values are checked as usual', () => {
    expect(validate(PreviewBody, { menu: { sections: [deepEntry(14)] }, permissions: [], production: false }).value).toBeTruthy()
    const wrong = validate(PublishScreenBody, { version: 1, audience: { brands: ['grupo'], groups: [3, 0] } })
    expect(wrong.error?.statusCode).toBe(400)
    expect(wrong.error?.message).toMatch(/audience\.groups\.1/)
  })
})
