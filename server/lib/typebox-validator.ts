import type { FastifySchemaCompiler } from 'fastify'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'

/**
 * Fastify validates route bodies and query strings with TypeBox's compiler, so schemas from
 * `schemas/` are the one source of truth. Query strings are converted (strings → numbers,
 * booleans) before the check, as HTTP gives only strings.
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validator = Compile(schema)
  const convert = httpPart === 'querystring' || httpPart === 'params' || httpPart === 'headers'
  return (data: unknown) => {
    const value = convert ? validator.Convert(data) : data
    if (validator.Check(value)) return { value }
    const first = validator.Errors(value)[0]
    const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : httpPart
    const error = Object.assign(new Error(`${where}: ${first?.message ?? 'valor no válido'}`), {
      validation: validator.Errors(value),
      statusCode: 400,
    })
    return { error }
  }
}
