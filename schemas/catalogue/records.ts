import type { Endpoint } from './endpoint'
import type { CallMatch } from './match'

/**
 * Which records a call shows, for live lists, live detail screens and presence: read by the BFF
 * (who may hear of a change, who may say they view a record) and the client (what to refresh).
 * Pure; built from the endpoint catalogue's `record` and `list.entity`.
 */

/** A record as events name it. */
export interface RecordRef {
  entity: string
  id: string
}

/**
 * The read call of each kind of record that has one: the call a mutation names as its record's
 * `read` (`contrato` → `contract.detail`). These are the records of detail screens, the ones
 * presence is kept for.
 */
export function recordReadCalls(calls: readonly Endpoint[]): Map<string, Endpoint> {
  const byId = new Map(calls.map((c) => [c.id, c]))
  const reads = new Map<string, Endpoint>()
  for (const call of calls) {
    const read = call.record?.read ? byId.get(call.record.read) : undefined
    if (call.effect === 'mutation' && read?.record && read.record.entity === call.record!.entity) reads.set(read.record.entity, read)
  }
  return reads
}

/** A query value as a key: a single string or number, nothing else. */
const keyText = (value: unknown): string | undefined => (typeof value === 'string' && value !== '') || typeof value === 'number' ? String(value) : undefined

/**
 * The record a read call shows when it is its kind's read call (a detail screen's record), given
 * the matched path and the query: `GET api/contract/id?codigo=X` → `contrato` X. Else null.
 */
export function shownRecord(match: CallMatch, query: Readonly<Record<string, unknown>>, reads: ReadonlyMap<string, Endpoint>): RecordRef | null {
  const record = match.call.record
  if (!record || reads.get(record.entity) !== match.call) return null
  const id = keyText(match.pathParams[record.param] ?? query[record.param])
  return id === undefined ? null : { entity: record.entity, id }
}

/**
 * Whether a change of `changed` alters what a read call answers: a list of that kind of record,
 * or a read of that very record (any read keyed by it: its detail, its documents). A change whose
 * key is unknown (personal data) reaches every read of its kind.
 */
export function readShows(match: CallMatch, query: Readonly<Record<string, unknown>>, changed: { entity: string; id?: string }): boolean {
  const { call } = match
  if (call.list?.entity === changed.entity) return true
  const record = call.record
  if (!record || record.entity !== changed.entity) return false
  if (changed.id === undefined) return true
  return keyText(match.pathParams[record.param] ?? query[record.param]) === changed.id
}
