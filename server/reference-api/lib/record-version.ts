import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { fail } from './http'

/**
 * Record versions for optimistic concurrency (RFC 9110 §8.8.3, §13.1.1): the ETag of a record
 * is a digest of the record as its GET returns it, so any change to what an editor saw (its
 * data, its `ActualizadoEn`, its history) makes a new version, with no version column to keep
 * in step. A save sends the version it was based on in `If-Match`; a stale one is refused with
 * 412 and nothing changes. A save without `If-Match` is accepted, as before versions existed.
 */
export function recordVersion(record: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 27)}"`
}

/** Answers a record with its version. */
export function sendVersioned<T>(reply: FastifyReply, record: T): T {
  reply.header('etag', recordVersion(record))
  return record
}

/**
 * Refuses (412) a save whose `If-Match` names none of the record's current version. `*` matches
 * any existing record; weak validators never match (strong comparison, §13.1.1). Must run in the
 * same synchronous transaction as the write, so no other save lands between check and write.
 */
export function assertCurrentVersion(request: FastifyRequest, current: unknown, what: string): void {
  const header = request.headers['if-match']
  if (header === undefined) return
  const wanted = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
  if (wanted.includes('*')) return
  if (!wanted.includes(recordVersion(current))) {
    fail(412, `${what} ha cambiado desde que lo abriste: otra persona lo ha guardado antes. Revisa sus cambios y vuelve a guardar.`)
  }
}
