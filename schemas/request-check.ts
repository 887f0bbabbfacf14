import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { Locale } from 'typebox/system'

/**
 * The check of a request part (body, query string, params, headers) against its schema, with
 * one Spanish sentence for a failure. Both the BFF and the reference API validate their routes
 * with it, each through its own one-line Fastify validator compiler; pure, framework-free.
 */

export interface SchemaError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
}

/** What a check answers: the (converted) value, or a 400 error carrying TypeBox's errors. */
export type RequestPartCheck = (data: unknown) => { value: unknown } | { error: Error & { validation: SchemaError[]; statusCode: number } }

/**
 * A failed check as one Spanish sentence naming the field: what is missing or extra first,
 * then TypeBox's own Spanish wording for the rest (called directly, not set globally, so other
 * code in the process keeps its language).
 */
export function describeSchemaError(errors: SchemaError[], part: string): string {
  const field = (path: string) => (path ? path.replace(/^\//, '').replace(/\//g, '.') : part)
  const required = errors.find((e) => e.keyword === 'required')
  if (required) {
    const missing = (required.params.requiredProperties as string[] | undefined) ?? []
    const base = required.instancePath ? `${field(required.instancePath)}.` : ''
    return `falta ${missing.map((m) => `«${base}${m}»`).join(', ')}`
  }
  const extra = errors.find((e) => e.keyword === 'additionalProperties')
  if (extra) {
    const names = (extra.params.additionalProperties as string[] | undefined) ?? []
    return `sobra ${names.map((n) => `«${n}»`).join(', ')}`
  }
  const first = errors.find((e) => e.keyword !== 'boolean' && e.keyword !== 'anyOf') ?? errors[0]
  if (!first) return `${part}: valor no válido`
  return `«${field(first.instancePath)}» ${Locale.es_ES(first as never)}`
}

/**
 * Compiles `schema` once for one part of a request. Query strings, params and headers are
 * converted (strings → numbers, booleans) before the check, as HTTP gives only strings.
 */
export function requestPartCheck(schema: TSchema, httpPart: string | undefined): RequestPartCheck {
  const validator = Compile(schema)
  const convert = httpPart === 'querystring' || httpPart === 'params' || httpPart === 'headers'
  const part = httpPart === 'body' ? 'cuerpo' : httpPart === 'querystring' ? 'consulta' : httpPart === 'params' ? 'ruta' : (httpPart ?? 'petición')
  return (data: unknown) => {
    let errors: SchemaError[]
    try {
      const value = convert ? validator.Convert(data) : data
      if (validator.Check(value)) return { value }
      errors = validator.Errors(value) as unknown as SchemaError[]
    } catch (err) {
      // Recursive schemas recurse with the value, so a value nested past the stack throws
      // (JSON bodies are bounded by the parser, but not every value comes through it): a
      // value the checker cannot judge is refused with a 400, never a 500.
      const reason = err instanceof RangeError ? 'tiene demasiados niveles de anidamiento' : 'no se puede comprobar'
      const failed = [{ keyword: 'unchecked', instancePath: '', params: {} }]
      return { error: Object.assign(new Error(`«${part}» ${reason}`), { validation: failed, statusCode: 400, cause: err }) }
    }
    const error = Object.assign(new Error(describeSchemaError(errors, part)), { validation: errors, statusCode: 400 })
    return { error }
  }
}
