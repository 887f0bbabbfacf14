import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import type { ApprovalPolicy, ApprovalStatus, ApprovalView, HeldAnswer, PolicyLookup } from '../../schemas/approval'
import type { AuditActor, AuditChange, AuditRecord } from '../../schemas/audit'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { callName, type CallIndex } from '../../schemas/catalogue/match'
import type { LocalizedText } from '../../schemas/i18n'
import type { Notice } from '../../schemas/notice'
import { summarizeBody } from '../audit/audit-summary'
import type { AuditWriter } from '../audit/audit-writer'
import { maskedText } from '../audit/audit-mask'
import { actorOf, readPath, recordKey } from '../audit/call-audit'
import { recordChanges } from '../audit/record-changes'
import type { CheckedCall } from '../catalogue/call-check'
import { HttpError } from '../lib/errors'
import type { NoticeStore } from '../notices/notice-store'
import type { Session } from '../session/session-store'
import type { TokenCipher } from '../session/token-cipher'
import { UpstreamError, type UpstreamCall, type UpstreamClient } from '../upstream/upstream-client'
import type { ApprovalStore, StoredApproval } from './approval-store'
import { holds, policiesFor, valuesAt, type ConditionInput } from './policy-condition'
import type { LiveChanges } from '../events/live-changes'
import type { PolicyService } from './policy-service'

/** Who approves: users holding this permission, never the requester. */
export const APPROVER_PERMISSION = 'GESTORACCESS'
/** A held request not decided within this long expires. */
export const APPROVAL_TTL_MS = 48 * 3600_000
/** The policy a self sign-up is held by: not an admin's policy, it always applies. */
export const SIGNUP_POLICY = { id: 'self-signup', label: { es: 'Alta de una cuenta por su titular', en: 'Account sign-up by its owner' } }
/** The catalogued calls that decide a self sign-up upstream. */
const ACTIVATE_CALL = 'auth.activate'
const REFUSE_CALL = 'auth.rejectSignup'
/** The catalogued call that withdraws a sign-up nobody decided in time, authorised by the token its registration answered. */
const WITHDRAW_CALL = 'auth.withdrawSignup'

/** The account a self sign-up created upstream (the answer of `POST api/auth/register`). */
export interface SignedUpAccount {
  Id: number
  Email: string
  Nombre: string
  Apellidos?: string
  /** The token that withdraws the account while it waits (answered once by the registration). */
  TokenRetirada?: string
}

/** Expired requests are looked for at most this often, besides on every read of the inbox. */
const SWEEP_MS = 60_000
const LIST_LIMIT = 200

export interface ApprovalServiceOptions {
  store: ApprovalStore
  policies: PolicyService
  upstream: UpstreamClient
  catalogue: CallIndex
  audit: AuditWriter
  notices: NoticeStore
  cipher: TokenCipher
  /** Announces a change that landed on approval (live lists); absent, nothing is announced. */
  changes?: LiveChanges
  /** How long a decided or expired request is kept after its decision (APPROVAL_RETENTION_DAYS); pending ones stay until decided or expired. */
  retentionMs?: number
  now?: () => number
  /** Where the sweep (no request of its own) logs; silent without. */
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>
}

/** Decided requests are kept this long unless configured otherwise. */
export const DEFAULT_APPROVAL_RETENTION_MS = 90 * 24 * 3600_000

const holdsPermission = (session: Session, permission: string) => session.user.Permisos.some((p) => p.NombreNormalizado === permission)

/**
 * Four-eyes approval of the mutations a policy names. The proxy asks `hold` before sending a
 * mutation upstream: a matching one is kept (its body sealed) and answered 202; it goes upstream
 * only when another user holding GESTORACCESS approves it, with the approver's token, and the
 * audit names both. Rejection and expiry (48 h) are recorded and notified to the requester.
 */
export class ApprovalService {
  private readonly now: () => number
  private readonly calls: Map<string, Endpoint>
  private lastSweep = 0
  private readonly timer: NodeJS.Timeout

  constructor(private readonly opts: ApprovalServiceOptions) {
    this.now = opts.now ?? Date.now
    this.calls = new Map(opts.catalogue.calls.map((c) => [c.id, c]))
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_MS)
    // The sweep never keeps the process alive on its own.
    this.timer.unref()
  }

  close(): void {
    clearInterval(this.timer)
  }

  /**
   * Whether the policies hold this mutation; if so it is stored and the 202's answer returned.
   * A policy whose condition cannot be checked (the record or a lookup cannot be read) holds it.
   */
  async hold(request: FastifyRequest, checked: CheckedCall, session: Session): Promise<HeldAnswer | null> {
    const candidates = policiesFor(await this.opts.policies.active(), checked.call.id)
    if (candidates.length === 0) return null
    const base = { token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) }
    const readCall = checked.call.record?.read ? this.calls.get(checked.call.record.read) : undefined
    const key = recordKey(checked.call, checked, request.body)
    let record: unknown
    let version: string | undefined
    // Read whenever the call names its read: the conditions may need it, and the approver's diff does.
    // The proxy's audit has read it already (same read call, same key): not asked for twice.
    const read = request.auditing?.read
    if (read && read.call === readCall && read.id === key) {
      record = request.auditing!.before
      version = request.auditing!.beforeVersion
    } else if (readCall && key !== undefined) {
      const answer = await this.readVersioned({ ...base, method: 'GET', path: readPath(readCall, key) })
      record = answer?.body
      version = answer?.version
    }
    const input: ConditionInput = { body: request.body, query: queryOf(checked), record }
    const lookups = new Map<string, Promise<Map<string, string[]> | null>>()
    const lookup = (l: PolicyLookup) => {
      const id = JSON.stringify(l)
      if (!lookups.has(id)) lookups.set(id, this.lookup(l, base))
      return lookups.get(id)!
    }
    const matched: ApprovalPolicy[] = []
    for (const policy of candidates) if (!policy.when || (await holds(policy.when, input, lookup))) matched.push(policy)
    if (matched.length === 0) return null
    // The version the requester based the change on goes with it: already stale, it is refused
    // now (412, as the upstream would), not held for an approval that could only fail.
    const ifMatch = ifMatchOf(request)
    if (ifMatch !== undefined && version !== undefined && !matchesVersion(ifMatch, version)) {
      request.log.info({ event: 'approval_stale', call: checked.call.id }, 'held change refused: its version is stale')
      throw new HttpError(412, staleMessage(checked.call.record?.entity, key))
    }

    const id = randomUUID()
    const created = this.now()
    const waitingForApprover = await this.onlyApprover(session, base)
    const summary = summarizeBody(checked.call, request.body)
    const stored: StoredApproval = {
      id,
      status: 'pending',
      policies: matched.map((p) => ({ id: p.id, label: p.label })),
      call: callName(checked.call),
      callId: checked.call.id,
      ...(key !== undefined && checked.call.record ? { record: { entity: checked.call.record.entity, id: key } satisfies AuditRecord } : {}),
      changes: diffOf(checked, request.body, record, readCall),
      ...(summary !== undefined ? { summary } : {}),
      requester: actorOf(session),
      brand: request.brand.key,
      brandDomain: request.brand.Domain,
      method: checked.call.method,
      upstreamPath: checked.upstreamPath,
      sealedBody: request.body === undefined ? null : this.opts.cipher.encrypt(JSON.stringify(request.body), sealContext(id)),
      ...(ifMatch !== undefined ? { ifMatch } : {}),
      requestId: String(request.id),
      createdAt: created,
      expiresAt: created + APPROVAL_TTL_MS,
      waitingForApprover,
    }
    await this.opts.store.create(stored)
    request.log.info({ event: 'approval_held', approvalId: id, call: checked.call.id, policies: stored.policies.map((p) => p.id) }, 'mutation held for approval')
    const message = waitingForApprover
      ? 'El cambio necesita la aprobación de otra persona con permiso GESTORACCESS y ahora mismo no hay nadie más que pueda aprobarlo: queda en espera hasta que lo haya. Lo verás en «Mis solicitudes».'
      : 'El cambio necesita la aprobación de otra persona con permiso GESTORACCESS: queda pendiente y se aplicará cuando lo apruebe. Lo verás en «Mis solicitudes».'
    return { pendingId: id, message, waitingForApprover }
  }

  /**
   * A self sign-up waits here for a GESTORACCESS user of its brand: approving sends the
   * catalogued activation with the approver's token, rejecting sends the refusal (the account
   * goes), and expiring withdraws it with the token its registration answered (nobody's session
   * is there then). The new account is the requester, so it can never decide its own request.
   */
  async holdSignUp(request: FastifyRequest, account: SignedUpAccount): Promise<StoredApproval> {
    const activate = this.calls.get(ACTIVATE_CALL)
    const refuse = this.calls.get(REFUSE_CALL)
    if (!activate || !refuse) throw new HttpError(503, 'El alta de cuentas no está disponible: el catálogo no tiene sus llamadas de aprobación.')
    const withdraw = this.calls.get(WITHDRAW_CALL)
    const token = typeof account.TokenRetirada === 'string' && account.TokenRetirada !== '' ? account.TokenRetirada : undefined
    // Without them, an expired sign-up stays inactive upstream: said once, here.
    if (!withdraw || !token) request.log.warn({ event: 'signup_without_withdrawal', userId: account.Id, catalogued: !!withdraw }, 'sign-up cannot be withdrawn on expiry')
    const id = randomUUID()
    const created = this.now()
    const name = [account.Nombre, account.Apellidos ?? ''].join(' ').trim()
    const stored: StoredApproval = {
      id,
      status: 'pending',
      policies: [SIGNUP_POLICY],
      call: callName(activate),
      callId: activate.id,
      record: { entity: 'usuario', id: String(account.Id) },
      // The approver decides on who it is: the address is masked as everywhere in the audit.
      changes: recordChanges({}, { Email: account.Email, Nombre: account.Nombre, Apellidos: account.Apellidos ?? '' }, { Email: 'email' }),
      requester: { id: account.Id, email: account.Email, ...(name ? { name } : {}) },
      brand: request.brand.key,
      brandDomain: request.brand.Domain,
      method: activate.method,
      upstreamPath: `/${activate.path}?id=${account.Id}`,
      onReject: { method: refuse.method, upstreamPath: `/${refuse.path}?id=${account.Id}`, callId: refuse.id },
      ...(withdraw && token
        ? { onExpire: { callId: withdraw.id, method: withdraw.method, upstreamPath: `/${withdraw.path}`, sealedBody: this.opts.cipher.encrypt(JSON.stringify({ Id: account.Id, Token: token }), expiryContext(id)) } }
        : {}),
      sealedBody: null,
      requestId: String(request.id),
      createdAt: created,
      expiresAt: created + APPROVAL_TTL_MS,
      waitingForApprover: false,
    }
    await this.opts.store.create(stored)
    request.log.info({ event: 'approval_held', approvalId: id, call: activate.id, policies: [SIGNUP_POLICY.id] }, 'sign-up held for approval')
    return stored
  }

  /** The inbox of an approver: pending requests of others in the approver's brand, oldest first. */
  async inbox(session: Session): Promise<ApprovalView[]> {
    await this.expireDue()
    const pending = await this.opts.store.list({ status: ['pending'], limit: LIST_LIMIT })
    return pending.filter((a) => a.requester.id !== session.userId && a.brand === session.brand).reverse().map(toView)
  }

  /** «Mis solicitudes»: the user's own requests, newest first, whatever their state. */
  async mine(session: Session): Promise<ApprovalView[]> {
    await this.expireDue()
    return (await this.opts.store.list({ requesterId: session.userId, limit: LIST_LIMIT })).map(toView)
  }

  /** Approves and sends upstream. 403 for the requester or an approver without the call's permission; 409 when already decided. */
  async approve(request: FastifyRequest, session: Session, id: string, comment: string | undefined): Promise<ApprovalView> {
    const held = await this.decidable(session, id)
    const call = this.calls.get(held.callId)
    if (call?.permission && !holdsPermission(session, call.permission)) throw new HttpError(403, `Para aprobar este cambio necesitas también el permiso ${call.permission}.`)
    const approver = actorOf(session)
    const decidedAt = this.now()
    const claimed = await this.opts.store.transition(id, 'pending', { status: 'approving', decidedBy: approver, decidedAt, ...(comment ? { comment } : {}) })
    if (!claimed) throw alreadyDecided(await this.opts.store.get(id))

    let status: number
    let result: string | null = null
    let refusal: unknown
    try {
      const body = held.sealedBody === null ? undefined : this.opts.cipher.decrypt(held.sealedBody, sealContext(id))
      if (body === null) throw new Error('sealed body does not open')
      const answer = await this.opts.upstream.call({
        method: held.method as UpstreamCall['method'],
        path: held.upstreamPath,
        token: session.token,
        brandDomain: held.brandDomain,
        requestId: String(request.id),
        // The version the requester saw: changed since, the upstream refuses it (412) and nothing lands.
        ...(held.ifMatch ? { ifMatch: held.ifMatch } : {}),
        ...(body !== undefined ? { body: JSON.parse(body) as unknown } : {}),
      })
      status = answer.status
      if (status < 400 && answer.body !== undefined && answer.body !== '') result = this.opts.cipher.encrypt(JSON.stringify(answer.body), resultContext(id, held.requester.id))
      if (status >= 400) refusal = answer.body
    } catch (err) {
      request.log.warn({ event: 'approval_send_failed', approvalId: id, err: { message: (err as Error).message } }, 'approved change not sent')
      status = err instanceof HttpError ? err.statusCode : 502
    }
    const ok = status < 400
    if (!ok) request.log.info({ event: 'approval_failed', approvalId: id, call: held.callId, status }, 'approved change refused upstream')
    // The change landed: open lists and detail screens of the record refresh (the key as the audit keeps it).
    if (ok && call) this.opts.changes?.published(request.log, this.opts.changes.rules.change(held.brand, call, held.record?.id))
    const outcome = { status: ok ? ('approved' as const) : ('failed' as const), upstreamStatus: status, sealedResult: result, ...(ok ? {} : { failure: failureOf(status, refusal) }) }
    const settled = (await this.opts.store.transition(id, 'approving', outcome)) ?? { ...claimed, ...outcome }
    await this.opts.audit.write({
      at: new Date(this.now()).toISOString(),
      kind: 'call',
      actor: held.requester,
      brand: held.brand,
      call: held.call,
      callId: held.callId,
      ...(held.record ? { record: held.record } : {}),
      ...(held.summary !== undefined ? { summary: held.summary } : {}),
      ...(held.changes.length ? { changes: held.changes } : {}),
      outcome: { status, ok },
      requestId: String(request.id),
      approval: { id, requestedBy: held.requester, decidedBy: approver },
    })
    await this.recordDecision(request, session, settled, ok ? 'approval.approve' : 'approval.failed', status)
    await this.notify(settled, ok ? 'approved' : 'failed')
    // The approver learns it did not land, and why (the request stays as failed, told to its requester).
    if (!ok) throw new HttpError(status >= 500 ? 502 : 409, `Has aprobado el cambio, pero no se ha aplicado. ${outcome.failure!.es}`)
    return toView(settled)
  }

  async reject(request: FastifyRequest, session: Session, id: string, comment: string | undefined): Promise<ApprovalView> {
    const held = await this.decidable(session, id)
    if (held.onReject) await this.sendRefusal(request, session, held)
    const decided = await this.opts.store.transition(id, 'pending', { status: 'rejected', decidedBy: actorOf(session), decidedAt: this.now(), ...(comment ? { comment } : {}) })
    if (!decided) throw alreadyDecided(await this.opts.store.get(id))
    await this.recordDecision(request, session, decided, 'approval.reject', 200)
    await this.notify(decided, 'rejected')
    return toView(decided)
  }

  /**
   * The upstream's answer to an approved request, for its requester, once: it may hold what the
   * upstream shows only once (a new API key's secret). Read, it is dropped (and recorded).
   */
  async result(request: FastifyRequest, session: Session, id: string): Promise<unknown> {
    const a = await this.opts.store.get(id)
    if (!a || a.requester.id !== session.userId) throw new HttpError(404, 'No existe esa solicitud de aprobación entre las tuyas.')
    if (!a.sealedResult) throw new HttpError(410, 'La respuesta de esta solicitud ya se ha mostrado o no la hay: solo se muestra una vez.')
    const taken = await this.opts.store.transition(id, a.status, { status: a.status, sealedResult: null })
    const clear = taken ? this.opts.cipher.decrypt(a.sealedResult, resultContext(id, a.requester.id)) : null
    if (clear === null) throw new HttpError(410, 'La respuesta de esta solicitud ya se ha mostrado o no la hay: solo se muestra una vez.')
    await this.recordDecision(request, session, a, 'approval.result-read', 200)
    return JSON.parse(clear) as unknown
  }

  /** The timer's work: expire what is due, then drop what was decided longer ago than the retention. */
  async sweep(): Promise<{ expired: number; pruned: number; withdrawn: number }> {
    // Those whose call failed on an earlier sweep first: one that expires now is tried next time.
    const withdrawn = await this.retryExpiryCalls()
    const expired = await this.expireDue()
    const pruned = await this.pruneDecided()
    return { expired, pruned, withdrawn }
  }

  /** Expired requests whose upstream call (a sign-up's withdrawal) did not go through yet: tried again. */
  async retryExpiryCalls(): Promise<number> {
    let done = 0
    for (const a of await this.opts.store.list({ status: ['expired'], limit: 10_000 })) if (a.onExpire && (await this.sendExpiryCall(a))) done++
    return done
  }

  /** Decided and expired requests older (by their decision) than the retention are deleted; the audit keeps their story. */
  pruneDecided(): Promise<number> {
    return this.opts.store.prune(this.now() - (this.opts.retentionMs ?? DEFAULT_APPROVAL_RETENTION_MS))
  }

  /** Pending requests past their 48 hours become expired: recorded, and told to their requester. */
  async expireDue(): Promise<number> {
    const now = this.now()
    if (now - this.lastSweep < 1_000) return 0
    this.lastSweep = now
    let expired = 0
    for (const a of await this.opts.store.list({ status: ['pending'], limit: 10_000 })) {
      if (a.expiresAt > now) continue
      const done = await this.opts.store.transition(a.id, 'pending', { status: 'expired', decidedAt: now })
      if (!done) continue
      expired++
      await this.opts.audit.write({
        at: new Date(now).toISOString(),
        kind: 'admin',
        actor: null,
        brand: a.brand,
        call: 'bff/approvals/:id',
        record: { entity: 'aprobacion', id: a.id },
        outcome: { status: 200, ok: true },
        requestId: `approval-expiry:${a.id}`,
        action: 'approval.expire',
        doc: `aprobacion:${a.id}`,
        version: null,
        details: { call: a.call, requester: a.requester.email },
        approval: { id: a.id, requestedBy: a.requester },
      })
      // Claimed as expired first (no approval can race it now), then withdrawn upstream.
      if (done.onExpire) await this.sendExpiryCall(done)
      await this.notify(done, 'expired')
    }
    return expired
  }

  /**
   * The upstream call an expired request makes (a sign-up nobody decided is withdrawn, with the
   * token its registration answered: there is no session then). Recorded in the audit as a call
   * of nobody's, with the request's id. Not done (the upstream failed), it stays due and the
   * sweep tries again; gone already (404) is as good as done.
   */
  private async sendExpiryCall(a: StoredApproval): Promise<boolean> {
    const call = a.onExpire!
    const requestId = `approval-expiry:${a.id}`
    const body = call.sealedBody === null ? undefined : this.opts.cipher.decrypt(call.sealedBody, expiryContext(a.id))
    if (body === null) {
      // Sealed with a key this BFF no longer has: it can never be sent.
      this.opts.log?.warn({ event: 'approval_expiry_call_unsealable', approvalId: a.id, call: call.callId }, 'expiry call cannot be opened')
      await this.opts.store.transition(a.id, 'expired', { status: 'expired', onExpire: null })
      return false
    }
    const status = await this.sendSideCall(a, call, { requestId, actor: null, ...(body !== undefined ? { body: JSON.parse(body) as unknown } : {}) })
    const done = status < 400 || status === 404
    if (done) {
      await this.opts.store.transition(a.id, 'expired', { status: 'expired', onExpire: null })
      this.opts.log?.info({ event: 'approval_expiry_call', approvalId: a.id, call: call.callId, status }, 'expired request withdrawn upstream')
    } else {
      this.opts.log?.warn({ event: 'approval_expiry_call_failed', approvalId: a.id, call: call.callId, status }, 'expired request not withdrawn upstream: tried again later')
    }
    return done
  }

  /**
   * The upstream call a rejection makes (a refused sign-up's account is removed), with the
   * rejecter's token. Not done, the request stays pending: nothing is recorded as rejected
   * that the upstream still holds as waiting. Gone already (404) is as good as done.
   */
  private async sendRefusal(request: FastifyRequest, session: Session, held: StoredApproval): Promise<void> {
    const status = await this.sendSideCall(held, held.onReject!, { token: session.token, requestId: String(request.id), actor: actorOf(session), decidedBy: actorOf(session) })
    if (status < 400 || status === 404) return
    request.log.warn({ event: 'approval_refusal_failed', approvalId: held.id, status }, 'rejection not applied upstream')
    throw new HttpError(status === 403 ? 403 : 502, 'El servicio no ha aplicado el rechazo: la solicitud sigue pendiente. Vuelve a intentarlo.')
  }

  /**
   * A call a decision or the expiry makes besides the held one (a refused sign-up removed, an
   * expired one withdrawn), sent and recorded in the audit as a call tied to the request.
   * Returns the upstream's status (502 when it could not be reached).
   */
  private async sendSideCall(
    held: StoredApproval,
    call: { method: string; upstreamPath: string; callId?: string },
    opts: { token?: string; body?: unknown; requestId: string; actor: AuditActor | null; decidedBy?: AuditActor },
  ): Promise<number> {
    let status: number
    try {
      const answer = await this.opts.upstream.call({
        method: call.method as UpstreamCall['method'],
        path: call.upstreamPath,
        brandDomain: held.brandDomain,
        requestId: opts.requestId,
        ...(opts.token !== undefined ? { token: opts.token } : {}),
        ...(opts.body !== undefined ? { body: opts.body } : {}),
      })
      status = answer.status
    } catch (err) {
      status = err instanceof HttpError || err instanceof UpstreamError ? err.statusCode : 502
    }
    const endpoint = call.callId ? this.calls.get(call.callId) : undefined
    await this.opts.audit.write({
      at: new Date(this.now()).toISOString(),
      kind: 'call',
      actor: opts.actor,
      brand: held.brand,
      call: endpoint ? callName(endpoint) : `${call.method} ${call.upstreamPath.replace(/^\//, '').replace(/\?.*$/, '')}`,
      ...(endpoint ? { callId: endpoint.id } : call.callId ? { callId: call.callId } : {}),
      ...(held.record ? { record: held.record } : {}),
      outcome: { status, ok: status < 400 },
      requestId: opts.requestId,
      approval: { id: held.id, requestedBy: held.requester, ...(opts.decidedBy ? { decidedBy: opts.decidedBy } : {}) },
    })
    return status
  }

  /** A request this user may decide: it exists in the user's brand, is pending, and is someone else's. */
  private async decidable(session: Session, id: string): Promise<StoredApproval> {
    await this.expireDue()
    // The routes check it too; here as well, so no other caller of the service can skip it.
    if (!holdsPermission(session, APPROVER_PERMISSION)) throw new HttpError(403, `Solo decide una solicitud quien tiene el permiso ${APPROVER_PERMISSION}.`)
    const held = await this.opts.store.get(id)
    // Another brand's request is not there for this approver (the inbox does not list it either).
    if (!held || held.brand !== session.brand) throw new HttpError(404, 'No existe esa solicitud de aprobación.')
    if (held.requester.id === session.userId) throw new HttpError(403, 'No puedes aprobar ni rechazar tu propia solicitud: la decide otra persona con permiso GESTORACCESS.')
    if (held.status !== 'pending') throw alreadyDecided(held)
    // Due but not yet swept (the sweep runs at most once a second): expired all the same.
    if (held.expiresAt <= this.now()) throw alreadyDecided({ ...held, status: 'expired' })
    return held
  }

  private async recordDecision(request: FastifyRequest, session: Session, a: StoredApproval, action: string, status: number): Promise<void> {
    await this.opts.audit.write({
      at: new Date(this.now()).toISOString(),
      kind: 'admin',
      actor: actorOf(session),
      brand: request.brand.key,
      call: `${request.method} ${(request.routeOptions.url ?? request.url).replace(/^\//, '')}`,
      record: { entity: 'aprobacion', id: a.id },
      outcome: { status, ok: status < 400 },
      requestId: String(request.id),
      action,
      doc: `aprobacion:${a.id}`,
      version: null,
      details: { call: a.call, ...(a.comment ? { comment: a.comment } : {}) },
      approval: { id: a.id, requestedBy: a.requester, ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}) },
    })
  }

  private async notify(a: StoredApproval, what: 'approved' | 'failed' | 'rejected' | 'expired'): Promise<void> {
    const by = a.decidedBy?.name || a.decidedBy?.email || ''
    const note = a.comment ? ` «${a.comment.slice(0, 200)}»` : ''
    // A refused sign-up's account is gone: nobody to tell. An approved one reads it on first sign-in.
    if (a.callId === ACTIVATE_CALL && what !== 'approved') return
    const texts: Record<typeof what, Pick<Notice, 'severity' | 'text'>> = {
      approved:
        a.callId === ACTIVATE_CALL
          ? { severity: 'success', text: { es: `${by} ha aprobado tu cuenta. Te damos la bienvenida.${note}`, en: `${by} approved your account. Welcome.${note}` } }
          : { severity: 'success', text: { es: `${by} ha aprobado tu cambio (${a.call}) y se ha aplicado.${note}`, en: `${by} approved your change (${a.call}) and it has been applied.${note}` } },
      failed: {
        severity: 'warn',
        text: {
          es: `${by} ha aprobado tu cambio (${a.call}), pero no se ha aplicado. ${a.failure?.es ?? `El servicio lo ha rechazado (HTTP ${a.upstreamStatus ?? '—'}).`}`,
          en: `${by} approved your change (${a.call}), but it was not applied. ${a.failure?.en ?? `The service refused it (HTTP ${a.upstreamStatus ?? '—'}).`}`,
        },
      },
      rejected: { severity: 'warn', text: { es: `${by} ha rechazado tu cambio (${a.call}).${note}`, en: `${by} rejected your change (${a.call}).${note}` } },
      expired: { severity: 'warn', text: { es: `Tu cambio (${a.call}) ha caducado sin que nadie lo aprobara en 48 horas.`, en: `Your change (${a.call}) expired: nobody approved it within 48 hours.` } },
    }
    try {
      await this.opts.notices.add(a.requester.id, {
        id: `approval-${a.id}`,
        at: new Date(this.now()).toISOString(),
        title: { es: 'Aprobaciones', en: 'Approvals' },
        ...texts[what],
      })
    } catch {
      // The decision stands and is in «Mis solicitudes»; a notice that cannot be kept is not worth failing it.
    }
  }

  /** Whether nobody but the requester holds the approver permission (from the permission list's effective holders). */
  private async onlyApprover(session: Session, base: Omit<UpstreamCall, 'method' | 'path'>): Promise<boolean> {
    const list = [...this.calls.values()].find((c) => c.id === 'permission.list')
    if (!list) return false
    const answer = await this.readJson({ ...base, method: 'GET', path: `/${list.path}` })
    if (!Array.isArray(answer)) return false
    const row = answer.find((p) => (p as { NombreNormalizado?: unknown })?.NombreNormalizado === APPROVER_PERMISSION) as { NumUsuariosEfectivos?: unknown } | undefined
    if (typeof row?.NumUsuariosEfectivos !== 'number') return false
    return row.NumUsuariosEfectivos - (holdsPermission(session, APPROVER_PERMISSION) ? 1 : 0) <= 0
  }

  private async lookup(l: PolicyLookup, base: Omit<UpstreamCall, 'method' | 'path'>): Promise<Map<string, string[]> | null> {
    const call = this.calls.get(l.call)
    if (!call) return null
    const answer = await this.readJson({ ...base, method: 'GET', path: `/${call.path}` })
    const rows = Array.isArray(answer) ? answer : Array.isArray((answer as { Items?: unknown })?.Items) ? (answer as { Items: unknown[] }).Items : null
    if (!rows) return null
    const table = new Map<string, string[]>()
    for (const row of rows) {
      const key = valuesAt(row, l.key)[0]
      if (typeof key === 'string' || typeof key === 'number') table.set(String(key), valuesAt(row, l.field).map(String))
    }
    return table
  }

  /** A record's JSON answer and its version (ETag), or undefined when it cannot be read. */
  private async readVersioned(call: UpstreamCall): Promise<{ body: object; version?: string } | undefined> {
    try {
      const answer = await this.opts.upstream.call(call)
      if (answer.status !== 200 || answer.body === null || typeof answer.body !== 'object') return undefined
      return { body: answer.body, ...(answer.etag ? { version: answer.etag } : {}) }
    } catch {
      return undefined
    }
  }

  /** A JSON answer of a read, or undefined when it fails (the caller then holds, or assumes nothing). */
  private async readJson(call: UpstreamCall): Promise<unknown> {
    try {
      const answer = await this.opts.upstream.call(call)
      return answer.status === 200 && answer.body !== null && typeof answer.body === 'object' ? answer.body : undefined
    } catch {
      return undefined
    }
  }
}

/** The request's `If-Match` as one header value (several are joined, as HTTP allows); undefined when absent or blank. */
function ifMatchOf(request: FastifyRequest): string | undefined {
  const header = request.headers['if-match']
  const value = (Array.isArray(header) ? header.join(', ') : (header ?? '')).trim()
  return value === '' ? undefined : value
}

/**
 * Whether an `If-Match` names the record's current version (RFC 9110 §13.1.1): `*` matches any
 * record there is, and the comparison is strong (a weak validator never matches).
 */
export function matchesVersion(ifMatch: string, version: string): boolean {
  const wanted = ifMatch
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
  return wanted.includes('*') || (!version.startsWith('W/') && wanted.includes(version))
}

function staleMessage(entity: string | undefined, key: string | undefined): string {
  const what = entity && key !== undefined ? `Este registro (${entity} ${key})` : 'Este registro'
  return `${what} ha cambiado desde que lo abriste: otra persona lo ha guardado antes. Revisa sus cambios y vuelve a enviarlo; no se ha pedido nada.`
}

/** What the upstream says when it refuses, if it says it in a short text: masked, never whole personal data. */
function refusalText(body: unknown): string | undefined {
  const text = typeof body === 'string' ? body : typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : undefined
  const trimmed = text?.trim()
  return trimmed ? maskedText(trimmed, 'text') : undefined
}

/** Why an approved change did not land, for the approver, «Mis solicitudes» and the requester's notice. */
function failureOf(status: number, refusal: unknown): LocalizedText {
  if (status === 412) {
    return {
      es: 'El registro cambió después de que se pidiera el cambio (otra persona lo guardó antes), así que no se ha aplicado nada. Hay que revisarlo y, si sigue haciendo falta, pedir el cambio de nuevo.',
      en: 'The record changed after the change was requested (someone else saved it first), so nothing was applied. It has to be reviewed and, if still needed, requested again.',
    }
  }
  if (status >= 500) return { es: `El servicio no lo ha aplicado (HTTP ${status}).`, en: `The service did not apply it (HTTP ${status}).` }
  const said = refusalText(refusal)
  return {
    es: `El servicio lo ha rechazado (HTTP ${status})${said ? `: «${said}»` : ''}. No se ha aplicado nada.`,
    en: `The service refused it (HTTP ${status})${said ? `: «${said}»` : ''}. Nothing was applied.`,
  }
}

const sealContext = (id: string) => `approval:${id}`
const expiryContext = (id: string) => `approval-expiry:${id}`
const resultContext = (id: string, requester: number) => `approval-result:${id}:${requester}`

function queryOf(checked: CheckedCall): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of checked.query) out[name] = Array.isArray(value) ? value.join(',') : value
  return out
}

/** The record with the body laid over it: what it would be after the change. */
function overlay(record: unknown, body: unknown): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record) || body === null || typeof body !== 'object' || Array.isArray(body)) return body
  const before = record as Record<string, unknown>
  // Own keys throughout (spread and fromEntries define them): a body key named `__proto__`
  // stays a field of the change rather than setting the copy's prototype.
  const changed = Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, overlay(Object.hasOwn(before, k) ? before[k] : undefined, v)])
  return { ...before, ...Object.fromEntries(changed) }
}

/**
 * What the held change would do, masked as the audit masks: for an edit (PUT, PATCH) of a record
 * that was read, with an object body, the record's fields before and after; otherwise (a POST
 * creates something under the record, a key, a link) the parameters and body sent.
 */
function diffOf(checked: CheckedCall, body: unknown, record: unknown, read: Endpoint | undefined): AuditChange[] {
  const edit = checked.call.method === 'PUT' || checked.call.method === 'PATCH'
  if (edit && record !== undefined && body !== null && typeof body === 'object' && !Array.isArray(body)) return recordChanges(record, overlay(record, body), read?.personal)
  const query = queryOf(checked)
  if (body === undefined) return recordChanges({}, query)
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return recordChanges({}, { ...query, ...(body as Record<string, unknown>) })
  return recordChanges({}, { ...query, Cuerpo: Array.isArray(body) ? body.join(', ') : body })
}

function alreadyDecided(a: StoredApproval | null): HttpError {
  if (!a) return new HttpError(404, 'No existe esa solicitud de aprobación.')
  const states: Record<ApprovalStatus, string> = {
    pending: 'está pendiente',
    approving: 'se está aplicando',
    approved: 'ya está aprobada',
    failed: 'ya se aprobó (y el servicio la rechazó)',
    rejected: 'ya está rechazada',
    expired: 'ha caducado',
  }
  return new HttpError(409, `La solicitud ${states[a.status]}: no se puede decidir de nuevo.`)
}

export function toView(a: StoredApproval): ApprovalView {
  return {
    id: a.id,
    status: a.status,
    policies: a.policies,
    call: a.call,
    callId: a.callId,
    ...(a.record ? { record: a.record } : {}),
    changes: a.changes,
    ...(a.summary !== undefined ? { summary: a.summary } : {}),
    requester: a.requester as AuditActor,
    brand: a.brand,
    createdAt: new Date(a.createdAt).toISOString(),
    expiresAt: new Date(a.expiresAt).toISOString(),
    waitingForApprover: a.waitingForApprover,
    ...(a.decidedBy ? { decidedBy: a.decidedBy } : {}),
    ...(a.decidedAt !== undefined ? { decidedAt: new Date(a.decidedAt).toISOString() } : {}),
    ...(a.comment ? { comment: a.comment } : {}),
    ...(a.upstreamStatus !== undefined ? { upstreamStatus: a.upstreamStatus } : {}),
    ...(a.failure ? { failure: a.failure } : {}),
    ...(a.sealedResult ? { resultWaiting: true } : {}),
  }
}
