import Type from 'typebox'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { RestorePoliciesBody, type ApprovalPolicy } from '../../schemas/approval'
import { originOf } from '../audit/audit-writer'
import { HttpError } from '../lib/errors'
import { VersionConflictError } from '../manifest/menu-store'
import { requirePermission } from '../session/require-permission'
import type { SessionGate } from '../session/session-gate'
import { APPROVER_PERMISSION } from './approval-service'
import { describeCondition } from './policy-describe'
import { parseCondition, policyFromBody, policyItem, policyTag } from './policy-items'
import type { PolicyService } from './policy-service'

const IdParams = Type.Object({ id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,59}$' }) }, { additionalProperties: false })
type IdParams = Type.Static<typeof IdParams>

const PREFIX = '/bff/admin/approval-policies'

/** A version note sent with a change (`note` in the body, or the query of a DELETE). */
const noteIn = (value: unknown): string | null => (typeof value === 'string' ? value : null)

const conflict = (err: VersionConflictError) =>
  new HttpError(409, `Otra persona ha guardado las políticas mientras las editabas (versión ${err.current?.version ?? '?'}${err.current ? `, de ${err.current.author.name}` : ''}). Vuelve a cargarlas y repite tu cambio.`)

/** A problem of the policy the form sent, prefixed with the name of the field it belongs to. */
const FIELD_NAMES = { calls: 'Llamadas', when: 'Condición' } as const

/**
 * The policy editor (GESTORACCESS), one policy at a time over the versioned list of
 * `GET|PUT /bff/admin/approval-policies`: each row, add, edit (If-Match: the policy's ETag; 412
 * when someone changed it since) and remove saves a new version of the whole list with its note;
 * `restore` saves an earlier version as the newest. The lists of calls and the condition check
 * feed the form's options and its field check as the admin types.
 */
export async function policyEditorRoutes(app: FastifyInstance, opts: { gate: SessionGate; policies: PolicyService }) {
  const approver = requirePermission(opts.gate, APPROVER_PERMISSION)
  const noStore = async (_r: unknown, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
  }
  const { policies } = opts
  const item = (p: ApprovalPolicy) => policyItem(p, (id) => policies.callName(id))

  /** Checks one policy against the catalogue, naming the field at fault. */
  const checked = (policy: ApprovalPolicy): ApprovalPolicy => {
    const problem = policies.catalogueProblem(policy)
    if (problem) throw new HttpError(400, `${FIELD_NAMES[problem.field]}: ${problem.message}`)
    return policy
  }

  /** Saves the list `change` makes of the current one; a save racing another is a 409. */
  const saveWith = async (request: FastifyRequest, note: string | null, change: (list: ApprovalPolicy[]) => ApprovalPolicy[]) => {
    const current = await policies.current()
    try {
      return await policies.save(originOf(request), current.version, change(current.policies), note)
    } catch (err) {
      if (err instanceof VersionConflictError) throw conflict(err)
      throw err
    }
  }

  const find = async (id: string) => {
    const current = await policies.current()
    const policy = current.policies.find((p) => p.id === id)
    if (!policy) throw new HttpError(404, `No existe la política «${id}».`)
    return policy
  }

  app.get(`${PREFIX}/items`, { onRequest: [approver, noStore] }, async () => {
    const current = await policies.current()
    return { version: current.version, Items: current.policies.map(item), TotalCount: current.policies.length }
  })

  app.get<{ Params: IdParams }>(`${PREFIX}/items/:id`, { onRequest: [approver, noStore], schema: { params: IdParams } }, async (request, reply) => {
    const policy = await find(request.params.id)
    reply.header('etag', policyTag(policy))
    return item(policy)
  })

  app.post(`${PREFIX}/items`, { onRequest: approver }, async (request, reply) => {
    const policy = checked(policyFromBody(request.body))
    const body = request.body as Record<string, unknown>
    const saved = await saveWith(request, noteIn(body.note), (list) => {
      if (list.some((p) => p.id === policy.id)) throw new HttpError(400, `Identificador: ya hay una política «${policy.id}».`)
      return [...list, policy]
    })
    reply.code(201).header('etag', policyTag(policy))
    return { version: saved.version, ...item(policy) }
  })

  app.put<{ Params: IdParams }>(`${PREFIX}/items/:id`, { onRequest: approver, schema: { params: IdParams } }, async (request, reply) => {
    const policy = checked(policyFromBody(request.body, request.params.id))
    const body = request.body as Record<string, unknown>
    const wanted = request.headers['if-match']
    const saved = await saveWith(request, noteIn(body.note), (list) => {
      const at = list.findIndex((p) => p.id === policy.id)
      if (at < 0) throw new HttpError(404, `No existe la política «${policy.id}».`)
      if (wanted !== undefined && wanted !== '*' && !String(wanted).split(',').map((t) => t.trim()).includes(policyTag(list[at]!))) {
        throw new HttpError(412, `La política «${policy.id}» ha cambiado desde que la abriste: otra persona la ha guardado antes. Revisa sus cambios y vuelve a guardar.`)
      }
      return list.map((p, i) => (i === at ? policy : p))
    })
    reply.header('etag', policyTag(policy))
    return { version: saved.version, ...item(policy) }
  })

  app.delete<{ Params: IdParams; Querystring: { note?: string } }>(`${PREFIX}/items/:id`, { onRequest: approver, schema: { params: IdParams } }, async (request) => {
    const id = request.params.id
    const saved = await saveWith(request, noteIn(request.query.note) ?? `Quitada la política «${id}».`, (list) => {
      if (!list.some((p) => p.id === id)) throw new HttpError(404, `No existe la política «${id}».`)
      return list.filter((p) => p.id !== id)
    })
    return { version: saved.version }
  })

  app.post<{ Body: RestorePoliciesBody }>(`${PREFIX}/restore`, { onRequest: approver, schema: { body: RestorePoliciesBody } }, async (request) => {
    const current = await policies.current()
    if (request.body.version === current.version) throw new HttpError(409, `La versión ${current.version} ya es la que está en vigor.`)
    try {
      const saved = await policies.restore(originOf(request), current.version, request.body.version, request.body.note)
      return { version: saved.version, restoredFrom: saved.restoredFrom }
    } catch (err) {
      if (err instanceof VersionConflictError) throw conflict(err)
      throw err
    }
  })

  // The form's options: the calls a policy may hold.
  app.get(`${PREFIX}/calls`, { onRequest: [approver, noStore] }, async () =>
    policies
      .holdableCalls()
      .map((c) => ({ Id: c.id, Nombre: `${c.id} — ${c.method} ${c.path}`, Resumen: c.summary }))
      .sort((a, b) => a.Id.localeCompare(b.Id)),
  )

  // The form's field check as the admin types: the condition, and what it says in words.
  app.get<{ Querystring: { when?: string } }>(`${PREFIX}/check-condition`, { onRequest: [approver, noStore] }, async (request) => {
    try {
      const when = parseCondition(request.query.when)
      const lookupProblem = when ? policies.catalogueProblem({ id: 'comprobacion', label: { es: '-' }, calls: [], when }) : null
      if (lookupProblem) return { Valido: false, Motivo: lookupProblem.message.replace(/^La política «comprobacion» /, 'La condición ') }
      return { Valido: true, Motivo: null, Texto: describeCondition(when ?? undefined) }
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 400) return { Valido: false, Motivo: err.message.replace(/^Condición: /, '') }
      throw err
    }
  })
}
