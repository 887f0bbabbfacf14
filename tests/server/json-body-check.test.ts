import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { checkJsonBody } from '../../server/catalogue/call-check'

/**
 * A closed body admits the fields its call declares and nothing else. The proxy parses bodies
 * with JSON.parse, where `__proto__` is an ordinary key: names every object inherits
 * (`toString`, `constructor`, `__proto__`) are not declared fields either.
 */

const call = { body: { kind: 'json', shape: 'object', fields: { Nombre: { type: 'string' }, Importe: { type: 'number' } } } } as unknown as Endpoint
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf']

describe('a closed JSON body', () => {
  it('admits its declared fields', () => {
    expect(checkJsonBody(call, JSON.parse('{"Nombre":"Ana","Importe":12.5}'))).toBeNull()
  })

  it('refuses, in Spanish, a field named after what every object inherits', () => {
    for (const name of INHERITED) {
      const body: unknown = JSON.parse(`{"Nombre":"Ana",${JSON.stringify(name)}:{"x":1}}`)
      expect(checkJsonBody(call, body), name).toBe(`El campo «${name}» no se admite en esta llamada.`)
    }
  })

  it('refuses any undeclared name, and admits any body of declared ones', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...INHERITED, 'Nombre', 'Importe')), fc.constant('1'), { maxKeys: 4 }), (fields) => {
        const body: unknown = JSON.parse(JSON.stringify(fields))
        const undeclared = Object.keys(body as object).filter((k) => k !== 'Nombre' && k !== 'Importe')
        const problem = checkJsonBody(call, body)
        if (undeclared.length === 0) expect(problem).toBeNull()
        else expect(problem).toBe(`El campo «${undeclared[0]!.slice(0, 80)}» no se admite en esta llamada.`)
      }),
      { numRuns: 500 },
    )
  })
})

describe('a body key named __proto__ in what the audit and the approver see', () => {
  const open = { body: { kind: 'json', shape: 'object', open: true, fields: { Telefono: { type: 'string', personal: 'phone' } } } } as unknown as Endpoint

  it('is summarised like any other field (an open body may carry one to the upstream)', async () => {
    const { summarizeBody } = await import('../../server/audit/audit-summary')
    const summary = summarizeBody(open, JSON.parse('{"Telefono":"612345678","__proto__":{"Nota":"hola"}}'))
    expect(JSON.parse(summary!)).toEqual(JSON.parse('{"Telefono":"******678","__proto__":{"Nota":"hola"}}'))
  })
})
