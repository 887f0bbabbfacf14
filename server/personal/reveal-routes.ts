import type { FastifyInstance } from 'fastify'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import type { CallIndex } from '../../schemas/catalogue/match'
import { PERSONAL_DATA_PERMISSION } from '../../schemas/personal-data'
import { personalFieldAt } from '../../schemas/personal-paths'
import { readPath } from '../audit/call-audit'
import { originOf, type AuditWriter } from '../audit/audit-writer'
import type { CallChecker } from '../catalogue/call-check'
import { HttpError, MESSAGES, sendError } from '../lib/errors'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import type { UpstreamClient } from '../upstream/upstream-client'
import { AnswerMasks } from './answer-masking'

export interface RevealRoutesOptions {
  gate: SessionGate
  catalogue: CallIndex
  checker: CallChecker
  upstream: UpstreamClient
  audit: AuditWriter
}

/** A reason short enough to read in the audit, long enough to say something. */
const REASON_MIN = 5
const REASON_MAX = 300

export const REVEAL_MESSAGES = {
  body: 'Indica la llamada («call»), el registro («record»), el campo («field») y el motivo («reason»).',
  reason: `Indica el motivo por el que necesitas ver este dato (entre ${REASON_MIN} y ${REASON_MAX} caracteres).`,
  call: (id: string) => `La llamada «${id}» no lee un registro con datos personales.`,
  field: (field: string) => `El campo «${field}» no es un dato personal de este registro.`,
  notFound: (record: string) => `No existe el registro «${record}».`,
  upstream: 'No se ha podido leer el registro. Inténtalo de nuevo más tarde.',
} as const

interface RevealBody {
  call: string
  record: string
  field: string
  reason: string
}

function parseBody(body: unknown): RevealBody {
  const b = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const text = (name: string, max: number) => (typeof b[name] === 'string' && b[name].length > 0 && b[name].length <= max ? b[name] : undefined)
  const call = text('call', 100)
  const record = text('record', 100)
  const field = text('field', 200)
  if (!call || !record || !field) throw new HttpError(400, REVEAL_MESSAGES.body)
  const reason = typeof b.reason === 'string' ? b.reason.trim() : ''
  if (reason.length < REASON_MIN || reason.length > REASON_MAX) throw new HttpError(400, REVEAL_MESSAGES.reason)
  return { call, record, field, reason }
}

/**
 * `POST /bff/personal/reveal {call, record, field, reason}`: one personal value of one record,
 * clear, for a user holding VERDATOSPERSONALES who says why. The BFF reads the record upstream
 * through the catalogued read call with the user's own token (so the upstream still decides
 * whether this user may see the record), answers only that field, and records who, which record,
 * which field and the reason in the audit (the Auditoría screen lists it as `personal.reveal`).
 */
export async function revealRoutes(app: FastifyInstance, opts: RevealRoutesOptions) {
  const masks = new AnswerMasks()
  const reads = new Map<string, Endpoint>()
  for (const call of opts.catalogue.calls) {
    // A record keyed by personal data itself (a client by its NIF) is revealed through its other read.
    const key = call.record ? (call.pathParams?.[call.record.param] ?? call.query?.[call.record.param]) : undefined
    if (call.effect === 'read' && call.method === 'GET' && key && !key.personal && masks.of(call)) reads.set(call.id, call)
  }

  app.post('/bff/personal/reveal', { onRequest: requirePermission(opts.gate, PERSONAL_DATA_PERMISSION) }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const asked = parseBody(request.body)
    const read = reads.get(asked.call)
    if (!read) throw new HttpError(400, REVEAL_MESSAGES.call(asked.call))
    const session = request.sessionMemo!
    if (read.permission && !session.user.Permisos.some((p) => p.NombreNormalizado === read.permission)) return sendError(reply, 403, MESSAGES.forbidden)
    const target = opts.checker.checkTarget('GET', readPath(read, asked.record))
    if (!target.ok) throw new HttpError(400, target.message)
    const answer = await opts.upstream.call({ method: 'GET', path: target.checked.upstreamPath, token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) })
    if (answer.status === 401) return sendError(reply, 401, MESSAGES.unauthenticated)
    if (answer.status === 403) return sendError(reply, 403, MESSAGES.forbidden)
    if (answer.status === 404) return sendError(reply, 404, REVEAL_MESSAGES.notFound(asked.record))
    if (answer.status !== 200) return sendError(reply, 502, REVEAL_MESSAGES.upstream)
    const found = personalFieldAt(masks.of(read), answer.body, asked.field)
    if (!found) throw new HttpError(400, REVEAL_MESSAGES.field(asked.field))
    const value = typeof found.value === 'string' || typeof found.value === 'number' ? String(found.value) : null
    await opts.audit.admin(originOf(request), {
      action: 'personal.reveal',
      doc: `${read.record!.entity}:${asked.record}`,
      version: null,
      details: { callId: read.id, field: asked.field, kind: found.kind, reason: asked.reason },
    })
    request.log.info({ event: 'personal_revealed', userId: session.userId, call: read.id, field: asked.field }, 'personal value revealed')
    return { value }
  })
}
