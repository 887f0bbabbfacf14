import type { FastifyInstance } from 'fastify'
import { parseContractCode } from '../../lib/codigos'
import type { ApiContext } from '../../lib/context'
import { fail } from '../../lib/http'
import { assertCurrentVersion } from '../../lib/record-version'
import { callerScope } from '../../lib/visibility'
import { contractDetailLoader } from '../business/contracts'
import { visibleContract } from '../business/shared'
import { estadoNombre } from './shared'

/**
 * `DELETE /api/contract/borrador?codigo`: removes a contract still in `borrador` (a bulk import
 * undone). `If-Match` with a version the contract no longer has is a 412 (edited or sent on
 * since); then any state but `borrador` is a 409. Neither changes anything. The holder and
 * supply point stay: other contracts may use them, and an identical sign-up finds them again.
 */
export async function draftDeleteRoutes(app: FastifyInstance, opts: ApiContext) {
  const { db } = opts
  const detail = contractDetailLoader(db)
  const estadoOf = db.prepare('SELECT estado FROM contratos WHERE id = ?')
  const remove = db.prepare("DELETE FROM contratos WHERE id = ? AND estado = 'borrador'")

  app.delete('/api/contract/borrador', async (request, reply) => {
    const code = parseContractCode((request.query as Record<string, unknown>).codigo, 'codigo')
    const ref = visibleContract(db, callerScope(db, request), code)
    db.transaction(() => {
      // The version first, as the contract's other writes: a draft sent on since the caller read it is a changed record (412).
      assertCurrentVersion(request, detail(ref.id), `El contrato ${code}`)
      const { estado } = estadoOf.get(ref.id) as { estado: string }
      if (estado !== 'borrador') fail(409, `El contrato ${code} está en estado «${estadoNombre(estado)}»: solo se puede eliminar un contrato en borrador.`)
      remove.run(ref.id)
    })()
    return reply.code(204).send()
  })
}
