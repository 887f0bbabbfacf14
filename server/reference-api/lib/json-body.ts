import type { FastifyInstance } from 'fastify'

/**
 * Replaces, in an encapsulated plugin, Fastify's JSON body parser by one that takes an empty
 * body declared as JSON as no body (calls whose parameters go in the query, sent by clients
 * that always add `Content-Type: application/json`). Malformed JSON is still a 400
 * (`FST_ERR_CTP_INVALID_JSON_BODY`); `__proto__` and `constructor` keys are dropped.
 */
export function tolerantJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body)
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text, (key, value: unknown) => (key === '__proto__' || key === 'constructor' ? undefined : value)))
    } catch {
      done(Object.assign(new Error('El cuerpo de la petición no es un JSON válido.'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined)
    }
  })
}
