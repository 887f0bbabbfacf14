import type Database from 'better-sqlite3'
import type { FastifyRequest } from 'fastify'

/**
 * What part of a brand's business data a caller sees. A sales channel sees only its own:
 * a caller linked to an agent of the brand and without GESTORACCESS sees the contracts
 * (and their invoices and renewals) of that agent's subtree, the agent and every agent
 * below it. Everyone else sees the whole brand.
 */
export interface Scope {
  marcaId: number
  /** The agent linked to the caller in this brand, if any. */
  agenteId: number | null
  /** Agents whose contracts the caller sees; null = the whole brand. */
  agentIds: number[] | null
}

const statements = new WeakMap<Database.Database, { linked: Database.Statement<[number, number], { id: number }>; subtree: Database.Statement<[number, number], { id: number }> }>()

function prepared(db: Database.Database) {
  let s = statements.get(db)
  if (!s) {
    s = {
      linked: db.prepare('SELECT id FROM agentes WHERE usuario_id = ? AND marca_id = ?'),
      subtree: db.prepare(
        `WITH RECURSIVE t(id) AS (SELECT ? UNION ALL SELECT a.id FROM agentes a JOIN t ON a.padre_id = t.id WHERE a.marca_id = ?)
         SELECT id FROM t ORDER BY id`,
      ),
    }
    statements.set(db, s)
  }
  return s
}

/** Ids of an agent and all its descendants (same brand). */
export function agentSubtreeIds(db: Database.Database, agentId: number, marcaId: number): number[] {
  return prepared(db).subtree.all(agentId, marcaId).map((r) => r.id)
}

export function callerScope(db: Database.Database, request: FastifyRequest): Scope {
  const marcaId = request.marca.id
  const caller = request.caller
  if (!caller) return { marcaId, agenteId: null, agentIds: null }
  const linked = prepared(db).linked.get(caller.userId, marcaId)
  if (!linked) return { marcaId, agenteId: null, agentIds: null }
  if (caller.permissions.has('GESTORACCESS')) return { marcaId, agenteId: linked.id, agentIds: null }
  return { marcaId, agenteId: linked.id, agentIds: agentSubtreeIds(db, linked.id, marcaId) }
}

/**
 * WHERE conditions limiting rows to the scope: the brand (`marcaColumn = ?`) and, for a
 * sales channel, the agents of its subtree (`agenteColumn IN (…)`).
 */
export function scopeConditions(scope: Scope, marcaColumn = 'c.marca_id', agenteColumn = 'c.agente_id'): { where: string[]; params: unknown[] } {
  const where = [`${marcaColumn} = ?`]
  const params: unknown[] = [scope.marcaId]
  if (scope.agentIds) {
    where.push(scope.agentIds.length ? `${agenteColumn} IN (${scope.agentIds.map(() => '?').join(', ')})` : '0')
    params.push(...scope.agentIds)
  }
  return { where, params }
}
