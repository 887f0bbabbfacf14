import type { FastifyRequest } from 'fastify'
import type { AuditActor, AuditRecord, NewAuditEntry } from '../../schemas/audit'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { callName, type CallIndex } from '../../schemas/catalogue/match'
import type { CheckedCall } from '../catalogue/call-check'
import type { Session } from '../session/session-store'
import type { UpstreamClient } from '../upstream/upstream-client'
import { maskedText } from './audit-mask'
import { summarizeBody } from './audit-summary'
import { fullName, type AuditWriter } from './audit-writer'
import { recordChanges } from './record-changes'

/** A catalogued mutation on its way through the proxy: what its entry needs once it is answered. */
export interface AuditedCall {
  call: Endpoint
  /** Null when the target itself was refused (a parameter the call does not take). */
  checked: CheckedCall | null
  session: Session | null
  /** The record's read call and its key, when the catalogue names one and the request gives the key. */
  read: { call: Endpoint; id: string } | null
  before?: unknown
  /** The ETag the record was read with before the change, when the upstream versions it. */
  beforeVersion?: string
  after?: unknown
  /** Set when the BFF held the change for approval (a 202): the held request's id. */
  approvalId?: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The catalogued mutation being recorded; null for every other request (reads cost nothing here). */
    auditing: AuditedCall | null
  }
}

/**
 * The audit of the proxied calls: every catalogued mutation, answered or refused, becomes one
 * entry once its answer is ready (the proxy's onSend), with who made it, the catalogued call,
 * the record, the masked body and the status. For a call whose catalogue entry names the read
 * call of its record, the record is read with the user's token before and after a successful
 * change, and the entry keeps the fields that changed.
 */
export class CallAudit {
  private readonly reads = new Map<string, Endpoint>()

  constructor(
    private readonly opts: { writer: AuditWriter; upstream: UpstreamClient; catalogue: CallIndex; now?: () => number },
  ) {
    for (const call of opts.catalogue.calls) this.reads.set(call.id, call)
  }

  /**
   * Marks a mutation for recording. A refusal before anyone signed in (a session call without a
   * session) is not recorded: there is nobody to name, and it reached nothing.
   */
  begin(request: FastifyRequest, call: Endpoint, checked: CheckedCall | null, session: Session | null): void {
    if (!session && call.access !== 'public') return
    request.auditing = { call, checked, session, read: null }
  }

  /** Names the record's read call once the body is known (the key may be in it). */
  private readOf(audited: AuditedCall, body: unknown): AuditedCall['read'] {
    const name = audited.call.record?.read
    const read = name ? this.reads.get(name) : undefined
    const id = audited.checked ? recordKey(audited.call, audited.checked, body) : undefined
    return read && id !== undefined && audited.session ? { call: read, id } : null
  }

  /** Reads the record as it is before the change (when its read call is declared). */
  async readBefore(request: FastifyRequest): Promise<void> {
    const audited = request.auditing
    if (!audited) return
    audited.read = this.readOf(audited, request.body)
    if (!audited.read) return
    const read = await this.readRecord(request, audited)
    audited.before = read?.body
    if (read?.version) audited.beforeVersion = read.version
  }

  /** Reads the record again once the change succeeded. */
  async readAfter(request: FastifyRequest): Promise<void> {
    const audited = request.auditing
    if (audited?.read && audited.before !== undefined) audited.after = (await this.readRecord(request, audited))?.body
  }

  /** Writes the request's entry, once, with the status it is answered with. Never fails the request. */
  async record(request: FastifyRequest, status: number): Promise<void> {
    const audited = request.auditing
    if (!audited) return
    request.auditing = null
    const { call, checked, session } = audited
    let entry: NewAuditEntry
    try {
      const id = checked ? recordKey(call, checked, request.body) : undefined
      const record: AuditRecord | undefined = id !== undefined ? { entity: call.record!.entity, id } : undefined
      const summary = summarizeBody(call, request.body)
      const changes = audited.read && audited.before !== undefined && audited.after !== undefined ? recordChanges(audited.before, audited.after, audited.read.call.personal) : undefined
      entry = {
        at: new Date((this.opts.now ?? Date.now)()).toISOString(),
        kind: 'call',
        actor: session ? actorOf(session) : null,
        ...(session?.actor ? { onBehalfOf: { id: session.actor.userId, email: session.actor.email, name: session.actor.name } } : {}),
        brand: request.brand.key,
        call: callName(call),
        callId: call.id,
        ...(record ? { record } : {}),
        ...(summary !== undefined ? { summary } : {}),
        ...(changes ? { changes } : {}),
        outcome: { status, ok: status < 400 },
        requestId: String(request.id),
        ...(audited.approvalId && session ? { approval: { id: audited.approvalId, requestedBy: actorOf(session) } } : {}),
      }
    } catch (err) {
      return this.opts.writer.failed('call', { call: call.id, requestId: String(request.id) }, err)
    }
    await this.opts.writer.write(entry)
  }

  /** The record (and its version) through its read call with the user's token; undefined when it cannot be read (the change still goes ahead). */
  private async readRecord(request: FastifyRequest, audited: AuditedCall): Promise<{ body: object; version?: string } | undefined> {
    const { call, id } = audited.read!
    try {
      const answer = await this.opts.upstream.call({
        method: 'GET',
        path: readPath(call, id),
        token: audited.session!.token,
        brandDomain: request.brand.Domain,
        requestId: String(request.id),
      })
      if (answer.status !== 200 || answer.body === null || typeof answer.body !== 'object') return undefined
      return { body: answer.body, ...(answer.etag ? { version: answer.etag } : {}) }
    } catch (err) {
      request.log.warn({ event: 'audit_read_failed', call: call.id, err: { message: (err as Error).message } }, 'record not read for the audit')
      return undefined
    }
  }
}

export function actorOf(session: Session): AuditActor {
  return { id: session.user.Id, email: session.user.Email, name: fullName(session.user) }
}

/**
 * The key of the record a call touches, from the parameter its catalogue entry names (path,
 * query or top-level body field); masked when the catalogue marks that parameter as personal.
 */
export function recordKey(call: Endpoint, checked: CheckedCall, body: unknown): string | undefined {
  const param = call.record?.param
  if (!param) return undefined
  let value: unknown = checked.pathParams[param] ?? checked.query.get(param)
  if (value === undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) value = (body as Record<string, unknown>)[param]
  if (typeof value !== 'string' && typeof value !== 'number') return undefined
  const text = String(value)
  if (text === '') return undefined
  const field = call.pathParams?.[param] ?? call.query?.[param] ?? (call.body?.kind === 'json' ? call.body.fields?.[param] : undefined)
  return field?.personal ? maskedText(text, field.personal) : text
}

/** The upstream path reading a record: its key in the read call's path parameter, else as its query parameter. */
export function readPath(read: Endpoint, id: string): string {
  const param = read.record!.param
  const placeholder = `{${param}}`
  if (read.path.includes(placeholder)) return `/${read.path.replace(placeholder, encodeURIComponent(id))}`
  return `/${read.path}?${encodeURIComponent(param)}=${encodeURIComponent(id)}`
}
