import Type from 'typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AuditPageAnswer } from '../../schemas/audit'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import type { CallIndex } from '../../schemas/catalogue/match'
import type { BrandRegistry } from '../brand/brand-registry'
import type { CallChecker } from '../catalogue/call-check'
import { HttpError, MESSAGES, sendError } from '../lib/errors'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import type { UpstreamClient } from '../upstream/upstream-client'
import { sendAuditXlsx, MAX_EXPORT_ROWS } from './audit-export'
import type { AuditFilter, AuditLog } from './audit-log'
import { AuditQueryError, MAX_PAGE_SIZE, parseAuditQuery, type AuditRequest } from './audit-query'
import { readPath } from './call-audit'

export interface AuditRoutesOptions {
  gate: SessionGate
  log: AuditLog
  brands: BrandRegistry
  catalogue: CallIndex
  checker: CallChecker
  upstream: UpstreamClient
}

const RecordQuery = Type.Object(
  {
    entity: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,40}$' }),
    id: Type.String({ minLength: 1, maxLength: 100 }),
    pageIndex: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
  },
  { additionalProperties: false },
)
type RecordQuery = Type.Static<typeof RecordQuery>

/**
 * The audit's reading side; nothing here edits or deletes an entry (no such route exists).
 * `GET /bff/admin/audit` (GESTORACCESS, refused before the query is read) lists entries newest
 * first with the filters `user`, `record`, `call`, `desde`, `hasta`, paged the spec §7 way (a
 * partial answer's `Continuar` goes on further back as `antesDe`); its
 * `/export` streams the same entries as XLSX. `GET /bff/audit/record` is a record's own
 * timeline, for whoever may read the record: the BFF asks the upstream for the record's detail
 * with the user's token, and shows its changes only when that read succeeds.
 */
export async function auditRoutes(app: FastifyInstance, opts: AuditRoutesOptions) {
  const adminOnly = requirePermission(opts.gate, 'GESTORACCESS')
  const reads = recordReads(opts.catalogue)

  const requested = (request: FastifyRequest, exportAll = false): AuditRequest => {
    const asked = parseAuditQuery(request.query as Record<string, unknown>, { exportAll })
    if (asked.brand === undefined) return asked
    // Today's menu trail of a brand: the entries of its menu.
    if (!opts.brands.byKey(asked.brand)) throw new AuditQueryError(`Marca desconocida: «${asked.brand}».`)
    if (asked.filter.record) throw new AuditQueryError('«brand» (el menú de una marca) y «record» no se combinan.')
    return { ...asked, filter: { ...asked.filter, record: { entity: 'menu', id: asked.brand } } }
  }

  const page = async (filter: AuditFilter, pageIndex: number, pageSize: number): Promise<AuditPageAnswer> => {
    const found = await opts.log.query(filter, { offset: pageIndex * pageSize, limit: pageSize })
    return { Items: found.items, TotalCount: found.total, PageIndex: pageIndex, PageSize: pageSize, Partial: found.partial, ...(found.next ? { Continuar: found.next } : {}) }
  }

  app.get('/bff/admin/audit', { onRequest: adminOnly }, async (request, reply) => {
    reply.header('cache-control', 'no-store')
    const asked = requested(request)
    return page(asked.filter, asked.pageIndex, asked.pageSize)
  })

  app.get('/bff/admin/audit/export', { onRequest: adminOnly }, async (request, reply) => {
    const asked = requested(request, true)
    request.log.info({ event: 'audit_exported', userId: request.sessionMemo!.userId }, 'audit exported')
    return sendAuditXlsx(reply, `auditoria-${new Date().toISOString().slice(0, 10)}.xlsx`, opts.log.entries(asked.filter, MAX_EXPORT_ROWS))
  })

  app.get<{ Querystring: RecordQuery }>(
    '/bff/audit/record',
    {
      schema: { querystring: RecordQuery },
      // Signed-in users only, decided before the query is checked.
      onRequest: async (request, reply) => {
        if (!(await opts.gate.current(request, reply))) return sendError(reply, 401, MESSAGES.unauthenticated)
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const { entity, id, pageIndex = 0, pageSize = 20 } = request.query
      const read = reads.get(entity)
      if (!read) throw new HttpError(400, `No se guarda el historial de «${entity}» (se guarda el de: ${[...reads.keys()].sort().join(', ')}).`)
      await mayRead(request, reply, read, id)
      if (reply.sent) return reply
      return page({ record: { entity, id }, okOnly: true }, pageIndex, pageSize)
    },
  )

  /** Whether the user may read the record: the read call's permission, then the upstream's own answer to the read. */
  async function mayRead(request: FastifyRequest, reply: FastifyReply, read: Endpoint, id: string): Promise<void> {
    const session = request.sessionMemo!
    if (read.permission && !session.user.Permisos.some((p) => p.NombreNormalizado === read.permission)) {
      sendError(reply, 403, MESSAGES.forbidden)
      return
    }
    const target = opts.checker.checkTarget('GET', readPath(read, id))
    if (!target.ok) {
      sendError(reply, 400, target.message)
      return
    }
    const answer = await opts.upstream.call({ method: 'GET', path: target.checked.upstreamPath, token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) })
    if (answer.status === 200) return
    if (answer.status === 401) sendError(reply, 401, MESSAGES.unauthenticated)
    else if (answer.status === 403) sendError(reply, 403, MESSAGES.forbidden)
    else if (answer.status === 404) sendError(reply, 404, `No existe el registro «${id}».`)
    else sendError(reply, 502, 'No se ha podido comprobar si puedes ver este registro. Inténtalo de nuevo más tarde.')
  }
}

/** The read call of each entity whose mutations declare it (`record.read`): the entities with a timeline. */
function recordReads(catalogue: CallIndex): Map<string, Endpoint> {
  const byId = new Map(catalogue.calls.map((c) => [c.id, c]))
  const reads = new Map<string, Endpoint>()
  for (const call of catalogue.calls) {
    const read = call.record?.read ? byId.get(call.record.read) : undefined
    if (read?.record) reads.set(read.record.entity, read)
  }
  return reads
}
