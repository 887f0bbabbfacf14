import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from './errors'

/**
 * Deepest nesting of arrays and objects a JSON body may have. The BFF's deepest real bodies
 * (a menu with sections, groups and entries) stay under 12; the bound keeps the recursive
 * schema checks that follow parsing far from the stack's limit.
 */
export const MAX_JSON_DEPTH = 32

export const JSON_BODY_MESSAGES = {
  empty: 'El cuerpo de la petición está vacío, pero se ha declarado como JSON.',
  invalid: 'El cuerpo de la petición no es un JSON válido.',
  tooDeep: (max: number) => `El cuerpo de la petición tiene demasiados niveles de anidamiento: el máximo son ${max}.`,
} as const

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/**
 * Whether `text` nests arrays/objects deeper than `max`: one pass, no recursion, brackets
 * inside strings ignored. Exact for valid JSON; invalid JSON is left to the parser to refuse.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--
  }
  return false
}

type CallbackParser = (request: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => void

/**
 * Replaces the JSON body parser of `app` and of the plugins registered after this call: the
 * depth is checked first, then Fastify's own parser (secure-json-parse, refusing `__proto__`
 * and `constructor.prototype` as Fastify does by default) reads the text. Every refusal is a
 * 400 with a Spanish message, never a 500.
 */
export function registerJsonBodyParser(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  // Fastify's default parser, with the app's poisoning options (both 'error' unless set); it
  // is the callback form (lib/content-type-parser.js).
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig
  const secureParse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning) as CallbackParser
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    if (text.length === 0) return done(new HttpError(400, JSON_BODY_MESSAGES.empty), undefined)
    if (jsonDepthExceeds(text, maxDepth)) {
      request.log.info({ event: 'json_too_deep', maxDepth }, 'JSON body refused: nested too deep')
      return done(new HttpError(400, JSON_BODY_MESSAGES.tooDeep(maxDepth)), undefined)
    }
    secureParse(request, text, (err, value) => (err ? done(new HttpError(400, JSON_BODY_MESSAGES.invalid), undefined) : done(null, value)))
  })
}
