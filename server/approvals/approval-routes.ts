import Type from 'typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { DecisionBody, SavePoliciesBody } from '../../schemas/approval'
import { originOf } from '../audit/audit-writer'
import { MESSAGES, sendError } from '../lib/errors'
import { VersionConflictError } from '../manifest/menu-store'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import { APPROVER_PERMISSION, type ApprovalService } from './approval-service'
import { policyHistory } from './policy-items'
import type { PolicyService } from './policy-service'

const IdParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }, { additionalProperties: false })
type IdParams = Type.Static<typeof IdParams>

/**
 * `GET /bff/approvals`: the inbox of the signed-in approver (GESTORACCESS; 403 otherwise), the
 * pending requests of others. `POST /bff/approvals/:id/approve|reject` with `{ comment? }`.
 * `GET /bff/approvals/mine`: «Mis solicitudes», for any signed-in user.
 * `GET|PUT /bff/admin/approval-policies` and `/history`: the policies, versioned (GESTORACCESS).
 */
export async function approvalRoutes(app: FastifyInstance, opts: { gate: SessionGate; approvals: ApprovalService; policies: PolicyService }) {
  const approver = requirePermission(opts.gate, APPROVER_PERMISSION)
  const noStore = async (_r: unknown, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
  }

  app.get('/bff/approvals', { onRequest: [approver, noStore] }, async (request) => {
    const items = await opts.approvals.inbox(request.sessionMemo!)
    return { Items: items, TotalCount: items.length }
  })

  app.get(
    '/bff/approvals/mine',
    {
      onRequest: async (request, reply) => {
        reply.header('cache-control', 'no-store')
        if (!(await opts.gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
      },
    },
    async (request) => {
      const items = await opts.approvals.mine(request.sessionMemo!)
      return { Items: items, TotalCount: items.length }
    },
  )

  // The requester's, once; any signed-in user asks only for their own.
  app.get<{ Params: IdParams }>(
    '/bff/approvals/:id/result',
    {
      schema: { params: IdParams },
      onRequest: async (request, reply) => {
        reply.header('cache-control', 'no-store')
        if (!(await opts.gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
      },
    },
    async (request) => opts.approvals.result(request, request.sessionMemo!, request.params.id),
  )

  app.post<{ Params: IdParams; Body: DecisionBody }>('/bff/approvals/:id/approve', { onRequest: approver, schema: { params: IdParams, body: DecisionBody } }, async (request) =>
    opts.approvals.approve(request, request.sessionMemo!, request.params.id, request.body?.comment?.trim() || undefined),
  )

  app.post<{ Params: IdParams; Body: DecisionBody }>('/bff/approvals/:id/reject', { onRequest: approver, schema: { params: IdParams, body: DecisionBody } }, async (request) =>
    opts.approvals.reject(request, request.sessionMemo!, request.params.id, request.body?.comment?.trim() || undefined),
  )

  app.get('/bff/admin/approval-policies', { onRequest: [approver, noStore] }, async () => {
    const current = await opts.policies.current()
    return { ...current, defaults: opts.policies.shippedDefaults() }
  })

  app.get('/bff/admin/approval-policies/history', { onRequest: [approver, noStore] }, async () => {
    return { versions: await policyHistory(opts.policies) }
  })

  app.put<{ Body: SavePoliciesBody }>('/bff/admin/approval-policies', { onRequest: approver, schema: { body: SavePoliciesBody } }, async (request, reply) => {
    try {
      const saved = await opts.policies.save(originOf(request), request.body.version, request.body.policies, request.body.note)
      return { version: saved.version, policies: saved.policies }
    } catch (err) {
      if (err instanceof VersionConflictError) {
        return reply.code(409).send({
          statusCode: 409,
          error: 'Conflict',
          message: `Otra persona ha guardado las políticas mientras las editabas (versión ${err.current?.version ?? '?'}${err.current ? `, de ${err.current.author.name}` : ''}). Vuelve a cargarlas y repite tu cambio.`,
          current: err.current ? { version: err.current.version, policies: err.current.body } : null,
        })
      }
      throw err
    }
  })
}
