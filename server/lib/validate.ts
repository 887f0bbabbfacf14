import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'

/** Thrown when data read at a boundary (a file, a request) does not match its schema. */
export class ValidationError extends Error {
  constructor(
    message: string,
    readonly details: string[],
  ) {
    super(message)
  }
}

/** Compiles a schema once and returns a function that checks and returns typed data. */
export function validatorFor<T>(schema: TSchema) {
  const compiled = Compile(schema)
  return (value: unknown, what: string): T => {
    if (compiled.Check(value)) return value as T
    const details = compiled.Errors(value).map((e) => `${e.instancePath || '/'}: ${e.message}`)
    throw new ValidationError(`${what} no es válido: ${details.slice(0, 5).join('; ')}`, details)
  }
}
