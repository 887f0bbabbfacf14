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
import { checkedReason, REASON_MAX, REASON_MIN } from './access-reason'
import { AnswerMasks } from './answer-masking'

export interface RevealRoutesOptions {
  gate: SessionGate
  catalogue: CallIndex
  checker: CallChecker
  upstream: UpstreamClient
  audit: AuditWriter
}

export const REVEAL_MESSAGES = {
  body: 'Indica el registro (la llamada «call» y su clave «record», o «endpoint» y «params»), el campo («field») y el motivo («reason»).',
  reason: `Indica el motivo por el que necesitas ver este dato (entre ${REASON_MIN} y ${REASON_MAX} caracteres).`,
  call: (id: string) => `La llamada «${id}» no lee un registro con datos personales.`,
  field: (field: string) => `El campo «${field}» no es un dato personal de este registro.`,
  notFound: (record: string) => `No existe el registro «${record}».`,
  upstream: 'No se ha podido leer el registro. Inténtalo de nuevo más tarde.',
} as const

/** Which record: a call by its id and the record's key, or the detail's own request (its endpoint and parameters). */
type RevealTarget = { call: string; record: string } | { endpoint: string; params: Record<string, string> }
type RevealBody = RevealTarget & { field: string; reason: string }

function parseBody(body: unknown): RevealBody {
  const b = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>
  const text = (value: unknown, max: number) => (typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined)
  const field = text(b.field, 200)
  let target: RevealTarget | undefined
  const call = text(b.call, 100)
  const record = text(b.record, 100)
  const endpoint = text(b.endpoint, 300)
  if (call && record) target = { call, record }
  else if (endpoint && b.params !== null && typeof b.params === 'object' && !Array.isArray(b.params)) {
    const params = Object.entries(b.params as Record<string, unknown>)
    if (params.length <= 20 && params.every(([, v]) => typeof v === 'string' || typeof v === 'number')) target = { endpoint, params: Object.fromEntries(params.map(([k, v]) => [k, String(v)])) }
  }
  if (!target || !field) throw new HttpError(400, REVEAL_MESSAGES.body)
  return { ...target, field, reason: checkedReason(b.reason, REVEAL_MESSAGES.reason) }
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
    const session = request.sessionMemo!
    // The record's read, checked by the catalogue like any proxied call.
    if ('call' in asked && !reads.has(asked.call)) throw new HttpError(400, REVEAL_MESSAGES.call(asked.call))
    const url = 'call' in asked ? readPath(reads.get(asked.call)!, asked.record) : `/${asked.endpoint.replace(/^\/+/, '')}?${new URLSearchParams(asked.params).toString()}`
    const target = opts.checker.checkTarget('GET', url)
    const read = target.ok ? reads.get(target.checked.call.id) : undefined
    if (!target.ok) throw new HttpError(400, target.message)
    if (!read) throw new HttpError(400, REVEAL_MESSAGES.call(target.checked.call.id))
    const param = read.record!.param
    const queried = target.checked.query.get(param)
    const recordId = target.checked.pathParams[param] ?? (typeof queried === 'string' ? queried : undefined)
    if (!recordId) throw new HttpError(400, REVEAL_MESSAGES.body)
    if (read.permission && !session.user.Permisos.some((p) => p.NombreNormalizado === read.permission)) return sendError(reply, 403, MESSAGES.forbidden)
    const answer = await opts.upstream.call({ method: 'GET', path: target.checked.upstreamPath, token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) })
    if (answer.status === 401) return sendError(reply, 401, MESSAGES.unauthenticated)
    if (answer.status === 403) return sendError(reply, 403, MESSAGES.forbidden)
    if (answer.status === 404) return sendError(reply, 404, REVEAL_MESSAGES.notFound(recordId))
    if (answer.status !== 200) return sendError(reply, 502, REVEAL_MESSAGES.upstream)
    const found = personalFieldAt(masks.of(read), answer.body, asked.field)
    if (!found) throw new HttpError(400, REVEAL_MESSAGES.field(asked.field))
    const value = typeof found.value === 'string' || typeof found.value === 'number' ? String(found.value) : null
    await opts.audit.admin(originOf(request), {
      action: 'personal.reveal',
      doc: `${read.record!.entity}:${recordId}`,
      version: null,
      details: { callId: read.id, field: asked.field, kind: found.kind, reason: asked.reason },
      summary: JSON.stringify({ campo: asked.field, motivo: asked.reason }),
    })
    request.log.info({ event: 'personal_revealed', userId: session.userId, call: read.id, field: asked.field }, 'personal value revealed')
    return { value }
  })
}
