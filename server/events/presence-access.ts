import type { FastifyRequest } from 'fastify'
import type { RecordRef } from '../../schemas/catalogue/records'
import { readPath } from '../audit/call-audit'
import { HttpError } from '../lib/errors'
import { sessionKey, type Session } from '../session/session-store'
import type { UpstreamClient } from '../upstream/upstream-client'
import type { RecordRules } from './record-rules'

/** How long a verdict is reused for the same session and record (heart-beats every ~20 s). */
const VERDICT_MS = 60_000
const MAX_VERDICTS = 10_000

/**
 * Whether a user may say they view a record, and so hear who else does: they must be able to
 * read it. The upstream decides that by token (an agent sees its own hierarchy's contracts), so
 * the record's read call is made with the user's token; the verdict is kept a minute.
 */
export class PresenceAccess {
  private readonly verdicts = new Map<string, { ok: boolean; until: number }>()

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly rules: RecordRules,
    private readonly now: () => number = Date.now,
  ) {}

  async mayView(request: FastifyRequest, session: Session, ref: RecordRef): Promise<boolean> {
    const read = this.rules.reads.get(ref.entity)
    if (!read) return false
    if (read.permission && !session.user.Permisos.some((p) => p.NombreNormalizado === read.permission)) return false
    const key = `${sessionKey(session.id)}|${ref.entity}|${ref.id}`
    const known = this.verdicts.get(key)
    if (known && known.until > this.now()) return known.ok
    let status: number
    try {
      status = (await this.upstream.call({ method: 'GET', path: readPath(read, ref.id), token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) })).status
    } catch (err) {
      request.log.warn({ event: 'presence_check_failed', entity: ref.entity, err: { message: (err as Error).message } }, 'presence not checked: the record could not be read')
      throw new HttpError(503, 'No se ha podido comprobar el acceso al registro. Inténtalo de nuevo en unos segundos.')
    }
    const ok = status === 200
    if (this.verdicts.size >= MAX_VERDICTS) this.verdicts.delete(this.verdicts.keys().next().value!)
    this.verdicts.set(key, { ok, until: this.now() + VERDICT_MS })
    return ok
  }
}
