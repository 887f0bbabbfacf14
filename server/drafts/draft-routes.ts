import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isDraftKey, type DraftAnswer, type DraftSaved } from '../../schemas/draft'
import { MESSAGES, sendError } from '../lib/errors'
import type { SessionGate } from '../session/session-gate'
import type { DraftOwner, DraftStore } from './draft-store'

/** A form's values are a few KB; the bound keeps one user from filling the store. */
export const DRAFT_MAX_BYTES = 64 * 1024

export const DRAFT_MESSAGES = {
  badKey: 'Identificador de borrador no válido: solo letras, números, «_» y «-», hasta 64 caracteres.',
  tooLarge: `El borrador es demasiado grande: el máximo son ${DRAFT_MAX_BYTES / 1024} KB.`,
  notObject: 'El borrador debe ser un objeto JSON con los valores del formulario.',
  none: 'No hay ningún borrador guardado.',
} as const

export interface DraftRouteOptions {
  gate: SessionGate
  store: DraftStore
}

interface KeyParams {
  key: string
}

/**
 * `GET/PUT/DELETE /bff/drafts/:key`: the signed-in user's draft of a form, on this brand. The
 * owner comes from the session alone, so no request can name another user's draft. Values are
 * never logged (the access log has the path, whose key is the form's, not the user's data).
 */
export async function draftRoutes(app: FastifyInstance, opts: DraftRouteOptions) {
  // Before the body is read: a signed-out caller, a bad key or an oversized draft cost no parsing.
  app.addHook('onRequest', async (request, reply) => {
    const session = await opts.gate.current(request, reply)
    if (!session) return sendError(reply, 401, MESSAGES.unauthenticated)
    if (!isDraftKey((request.params as Partial<KeyParams>).key)) return sendError(reply, 400, DRAFT_MESSAGES.badKey)
    if (Number(request.headers['content-length'] ?? 0) > DRAFT_MAX_BYTES) return sendError(reply, 413, DRAFT_MESSAGES.tooLarge)
  })

  const ownerOf = (request: FastifyRequest): DraftOwner => {
    const session = request.sessionMemo!
    return { userId: session.userId, brand: session.brand }
  }

  app.get<{ Params: KeyParams }>('/bff/drafts/:key', async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const draft = await opts.store.get(ownerOf(request), request.params.key)
    if (!draft) return sendError(reply, 404, DRAFT_MESSAGES.none)
    const answer: DraftAnswer = { values: draft.values, savedAt: draft.savedAt }
    return answer
  })

  // The route's own limit catches a body sent without Content-Length (chunked).
  app.put<{ Params: KeyParams; Body: unknown }>('/bff/drafts/:key', { bodyLimit: DRAFT_MAX_BYTES }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const body = request.body
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendError(reply, 400, DRAFT_MESSAGES.notObject)
    const saved = await opts.store.put(ownerOf(request), request.params.key, body as Record<string, unknown>)
    const answer: DraftSaved = { savedAt: saved.savedAt }
    return answer
  })

  app.delete<{ Params: KeyParams }>('/bff/drafts/:key', async (request, reply) => {
    await opts.store.delete(ownerOf(request), request.params.key)
    return reply.code(204).send()
  })
}
