import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errors as undiciErrors } from 'undici'
import type { ApprovalService } from '../approvals/approval-service'
import type { AuditWriter } from '../audit/audit-writer'
import type { CallAudit } from '../audit/call-audit'
import type { CallChecker, CheckedCall } from '../catalogue/call-check'
import { checkJsonBody } from '../catalogue/call-check'
import { HttpError, MESSAGES, sendError } from '../lib/errors'
import { JSON_BODY_MESSAGES, MAX_JSON_DEPTH, jsonDepthExceeds } from '../lib/json-body'
import { AnswerMasks, AnswerTooLarge, holdsMaskedValue, MASKED_ANSWER_MAX_BYTES, maskJson, settleMaskedFields, wholeBody } from '../personal/answer-masking'
import { ListExports } from '../personal/list-export'
import type { LiveChanges } from '../events/live-changes'
import type { SessionGate } from '../session/session-gate'
import type { Session } from '../session/session-store'
import { exchange, type UpstreamExchange } from '../upstream/upstream-exchange'
import { outcomeOfError, outcomeOfStatus, toUpstreamError, type UpstreamClient, type UpstreamOutcome } from '../upstream/upstream-client'

/**
 * Request headers not forwarded: those a browser may not choose (the BFF sets its own, trace
 * context too when tracing is on) and those of the hop to the BFF (RFC 9110 §7.6.1). The
 * length of a JSON body is the BFF's own (it forwards the body it checked, re-serialised).
 */
const STRIPPED_REQUEST = new Set([
  'cookie', 'authorization', 'x-brand-domain', 'x-request-id', 'x-csrf', 'forwarded', 'x-real-ip', 'traceparent', 'tracestate', 'baggage', 'x-api-key', 'x-portal-internal',
  'host', 'connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade',
])
const isStrippedRequestHeader = (name: string) => STRIPPED_REQUEST.has(name) || name.startsWith('x-forwarded-')

/**
 * Answer headers not passed on: those of the hop from the upstream, cookies (the browser's
 * cookies are the BFF's), what names the upstream's software, and its caching (every /api
 * answer is `no-store`: they hold personal data).
 */
const STRIPPED_ANSWER = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'trailer', 'transfer-encoding', 'upgrade', 'set-cookie', 'server', 'x-powered-by', 'cache-control', 'expires', 'pragma'])

/**
 * Upstream answers of a declared length up to this are read whole and sent in one write (the
 * JSON of lists, forms and details); larger or unsized ones (exports, documents) are streamed.
 */
const BUFFERED_MAX_BYTES = 512 * 1024

/** JSON bodies are read whole to be checked: forms and lists of ids, far below this. */
const JSON_BODY_LIMIT = 1024 * 1024

declare module 'fastify' {
  interface FastifyRequest {
    /** The catalogued call a proxied request was checked as (set before its body is read). */
    apiCall: CheckedCall | null
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
/** What a user reads when an answer holding personal data could not be masked. */
const MASKED_ANSWER_REFUSED = 'No se ha podido preparar la respuesta del servidor. Inténtalo de nuevo más tarde.'
const isJson = (type: string | undefined) => type !== undefined && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)
const isMultipart = (type: string | undefined) => type !== undefined && /^multipart\/form-data\s*;/i.test(type)

/**
 * `/api/*` forwarded to the upstream, but only calls of the endpoint catalogue: the call is
 * matched and its parameters checked on the canonical target, its access (public, session,
 * permission) decided, all before the body is read; a JSON body is then checked and forwarded
 * as checked, an upload streamed unread. The target sent upstream is the one the checker
 * rebuilt, never the browser's text. The session's bearer token and the brand-domain header
 * are added; the browser's cookie and identity headers are dropped.
 *
 * Written on undici's pool directly rather than through @fastify/http-proxy: measured side by
 * side (npm run bench), the generic proxy's per-request work (URL rebuilding, header copies,
 * a stream for every answer) cost a third more CPU than this whole handler.
 */
export async function apiProxy(app: FastifyInstance, opts: { upstream: UpstreamClient; gate: SessionGate; checker: CallChecker; bodyLimit: number; audit: CallAudit; approvals: ApprovalService; auditWriter: AuditWriter; changes: LiveChanges }) {
  const { upstream, gate, checker, audit } = opts
  const masks = new AnswerMasks()
  const exports = new ListExports({ upstream, checker, audit: opts.auditWriter })
  app.addHook('onClose', () => exports.close())
  app.decorateRequest('apiCall', null)
  app.decorateRequest('auditing', null)

  /** Who may make the call: null when allowed, else the refusal already sent. */
  const refuseAccess = (request: FastifyRequest, reply: FastifyReply, checked: CheckedCall, session: Session | null): boolean => {
    if (!session) {
      sendError(reply, 401, MESSAGES.unauthenticated)
      return true
    }
    const needed = checked.call.permission
    if (needed && !session.user.Permisos.some((p) => p.NombreNormalizado === needed)) {
      request.log.warn({ event: 'api_denied', userId: session.userId, call: checked.call.id, permission: needed }, 'api call refused: missing permission')
      sendError(reply, 403, MESSAGES.forbidden)
      return true
    }
    return false
  }

  /** What the body must be: a refusal message, or null. Decided on the headers alone, before reading it. */
  const bodyRefusal = (request: FastifyRequest, checked: CheckedCall): { status: number; message: string } | null => {
    const length = request.headers['content-length']
    const chunked = request.headers['transfer-encoding'] !== undefined
    const hasBody = chunked || (length !== undefined && length !== '0')
    const spec = checked.call.body
    if (!hasBody) return null
    if (!spec) return { status: 400, message: 'Esta llamada no lleva cuerpo.' }
    // Bodies are bounded by their declared length (the HTTP parser never delivers more); a
    // body without one (chunked) is refused, as uploads are streamed unread.
    if (length === undefined) return { status: 411, message: 'La petición debe indicar su tamaño (Content-Length).' }
    const limit = spec.kind === 'json' ? JSON_BODY_LIMIT : opts.bodyLimit
    if (!/^\d+$/.test(length) || Number(length) > limit) {
      request.log.warn({ event: 'body_too_large', contentLength: length.slice(0, 20) }, 'body refused: over the limit')
      return { status: 413, message: `La petición es demasiado grande: el máximo son ${Math.round(limit / 1024 / 1024)} MB.` }
    }
    const type = request.headers['content-type']
    if (spec.kind === 'json' ? !isJson(type) : !isMultipart(type)) {
      return { status: 415, message: spec.kind === 'json' ? 'Tipo de contenido no admitido: envía JSON (application/json).' : 'Tipo de contenido no admitido: envía un formulario multipart/form-data.' }
    }
    return null
  }

  const decide = (request: FastifyRequest, reply: FastifyReply, checked: CheckedCall, session: Session | null, done: () => void): void => {
    // Every mutation is recorded from here on, refused or not; a read never is.
    if (checked.call.effect === 'mutation') audit.begin(request, checked.call, checked, session ?? gate.known(request) ?? null)
    if (checked.call.access !== 'public' && refuseAccess(request, reply, checked, session)) return
    if (checked.call.effect === 'mutation' && session?.actor) {
      request.log.warn({ event: 'view_as_refused', userId: session.userId, actorId: session.actor.userId, call: checked.call.id }, 'change refused: view-as is read-only')
      sendError(reply, 403, MESSAGES.viewAsReadOnly)
      return
    }
    const refusal = bodyRefusal(request, checked)
    if (refusal) {
      request.log.warn({ event: 'api_refused', status: refusal.status, call: checked.call.id, reason: refusal.message }, 'api call refused by the catalogue')
      sendError(reply, refusal.status, refusal.message)
      return
    }
    request.apiCall = checked
    done()
  }

  // Everything that can refuse a call runs here, before the body is read. Callback style:
  // with the session fresh in memory (most proxied requests) no promise is made.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('cache-control', 'no-store')
    const target = checker.checkTarget(request.method, request.url)
    if (!target.ok) {
      // Named in the log: an uncatalogued call or parameter the product itself sends is a gap in
      // the catalogue (the end-to-end run fails on any).
      request.log.warn({ event: 'api_refused', status: target.status, reason: target.message }, 'api call refused by the catalogue')
      const refused = target.call
      // A mutation refused for its parameters is recorded too, with who tried it.
      if (refused?.effect === 'mutation') return refuseRecorded(request, reply, refused, target.status, target.message)
      sendError(reply, target.status, target.message)
      return
    }
    const checked = target.checked
    if (checked.call.access === 'public') return decide(request, reply, checked, null, done)
    const known = gate.known(request)
    if (known !== undefined) return decide(request, reply, checked, known, done)
    gate.current(request, reply).then(
      (session) => decide(request, reply, checked, session, done),
      (err: Error) => reply.send(err),
    )
  })

  const refuseRecorded = (request: FastifyRequest, reply: FastifyReply, call: CheckedCall['call'], status: number, message: string): void => {
    const known = gate.known(request)
    const refuse = (session: Session | null) => {
      audit.begin(request, call, null, session)
      sendError(reply, status, message)
    }
    if (known !== undefined) return refuse(known)
    gate.current(request, reply).then(refuse, (err: Error) => reply.send(err))
  }

  // The audit entry of a mutation is written once its answer is ready, whatever answered it
  // (a refusal above, the body parser, the upstream), before it leaves: a client that reads the
  // audit right after its answer finds it there.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.auditing === null) return done(null, payload)
    audit.record(request, reply.statusCode).then(() => done(null, payload))
  })

  // JSON bodies are read (bounded, depth checked) to be checked; every other body stays unread
  // in the request stream and is forwarded as it comes (uploads).
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', (_request, _payload, done) => done(null))
  app.addContentTypeParser(/^application\/(?:[\w.+-]+\+)?json$/i, { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT }, (request, text, done) => {
    if (request.apiCall?.call.body?.kind !== 'json') return done(null, undefined)
    const body = text as string
    if (body.length === 0) return done(new HttpError(400, JSON_BODY_MESSAGES.empty), undefined)
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) return done(new HttpError(400, JSON_BODY_MESSAGES.tooDeep(MAX_JSON_DEPTH)), undefined)
    try {
      done(null, JSON.parse(body))
    } catch {
      done(new HttpError(400, JSON_BODY_MESSAGES.invalid), undefined)
    }
  })

  const observe = (outcome: UpstreamOutcome, started: number) => upstream.observer?.('proxy', outcome, (performance.now() - started) / 1000)

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const checked = request.apiCall!
    const { call } = checked
    // The upstream's own file would carry personal data clear: the BFF builds it from the list's pages.
    if (exports.builds(call) && request.sessionMemo) return exports.send(request, reply, checked, request.sessionMemo)
    let body: string | NodeJS.ReadableStream | null = null
    if (call.body?.kind === 'json') {
      const problem = checkJsonBody(call, request.body)
      if (problem) {
        request.log.warn({ event: 'api_refused', status: 400, call: call.id, reason: problem }, 'api call refused by the catalogue')
        return sendError(reply, 400, problem)
      }
      // The record as it is, read once: for the audit's before/after, the masked values below
      // and the approval policies' conditions and diff.
      if (request.auditing?.call.record?.read) await audit.readBefore(request)
      // A field still holding the masked value the user was shown gets the record's own value
      // back, or is left out: the upstream keeps the real one (the audit's summary shows the
      // body as sent on). The record is the one the audit reads before the change.
      if (call.effect === 'mutation' && holdsMaskedValue(request.body)) {
        const { restored, dropped } = settleMaskedFields(request.body, request.auditing?.before)
        if (restored.length > 0) request.log.info({ event: 'masked_fields_restored', call: call.id, fields: restored }, 'masked values of a write put back from the record')
        if (dropped.length > 0) request.log.info({ event: 'masked_fields_dropped', call: call.id, fields: dropped }, 'masked values left out of a write')
      }
      // The body the upstream gets is the one checked: re-serialised, so a duplicate key or an
      // odd encoding cannot mean one thing here and another there.
      if (request.body !== undefined) body = JSON.stringify(request.body)
    } else if (call.body?.kind === 'multipart' && request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0') {
      body = request.raw
    }

    // Four-eyes: a mutation an approval policy names is kept here, not sent, until a second person approves it.
    if (call.effect === 'mutation' && request.sessionMemo) {
      const held = await opts.approvals.hold(request, checked, request.sessionMemo)
      if (held) {
        if (request.auditing) request.auditing.approvalId = held.pendingId
        return reply.code(202).header('x-approval-pending', held.pendingId).send(held)
      }
    }

    const headers: Record<string, string | string[]> = {}
    for (const name in request.headers) {
      const value = request.headers[name]
      if (value !== undefined && !isStrippedRequestHeader(name)) headers[name] = value
    }
    if (typeof body === 'string') {
      headers['content-type'] = 'application/json; charset=utf-8'
      headers['content-length'] = String(Buffer.byteLength(body))
    } else if (body === null) {
      delete headers['content-length']
      delete headers['content-type']
    }
    const session = request.sessionMemo
    if (call.access !== 'public' && session) headers.authorization = `Bearer ${session.token}`
    // The public API console tries integrations' keys: the key goes to those calls only.
    const apiKey = request.headers['x-api-key']
    if (call.access === 'apiKey' && typeof apiKey === 'string') headers['x-api-key'] = apiKey
    // The client address the upstream records as a key's last use (request.ip honours TRUST_PROXY).
    if (call.access === 'apiKey') headers['x-forwarded-for'] = request.ip
    headers['x-brand-domain'] = request.brand.Domain
    headers['x-request-id'] = String(request.id)
    headers['x-forwarded-host'] = request.host
    headers['x-forwarded-proto'] = request.protocol
    // An answer with personal data is read whole and masked: asked for uncompressed.
    const mask = masks.of(call)
    if (mask) headers['accept-encoding'] = 'identity'

    // The record as it was, for mutations whose body is not JSON (read above for JSON bodies).
    if (request.auditing?.call.record?.read && !request.auditing.read) await audit.readBefore(request)
    const started = performance.now()
    let answer: UpstreamExchange
    try {
      // The client retries GETs once (spec §9): the BFF does not retry, or it would multiply that.
      answer = await exchange(upstream.pool, { method: request.method as 'GET', path: checked.upstreamPath, headers, body: body as never }, mask ? MASKED_ANSWER_MAX_BYTES : BUFFERED_MAX_BYTES)
    } catch (err) {
      if (err instanceof undiciErrors.InvalidArgumentError) return sendError(reply, 400, 'Petición no válida.')
      const mapped = toUpstreamError(err)
      observe(outcomeOfError(mapped), started)
      const { code, message } = err as { code?: string; message?: string }
      request.log.warn({ err: { code, message }, event: 'upstream_error' }, 'upstream call failed')
      return sendError(reply, mapped.statusCode, mapped.message)
    }
    observe(outcomeOfStatus(answer.statusCode), started)
    if (request.auditing?.read && answer.statusCode < 300) await audit.readAfter(request)
    // Open lists and detail screens of the record refresh on their own (live events).
    if (call.effect === 'mutation' && answer.statusCode >= 200 && answer.statusCode < 300) opts.changes.published(request.log, opts.changes.rules.changeOf(request.brand.key, call, checked, request.body))

    const answerHeaders: Record<string, string | string[]> = {}
    for (const name in answer.headers) {
      const value = answer.headers[name]
      if (value !== undefined && !STRIPPED_ANSWER.has(name)) answerHeaders[name] = value
    }
    // Masked whatever its declared type (a JSON answer mislabelled must not slip through clear);
    // only a failure's text that is not JSON goes on as it is.
    if (mask && (answer.statusCode < 400 || isJson(first(answer.headers['content-type'])))) {
      const masked = await maskedBody(request, answer)
      if (masked === undefined) return sendError(reply, 502, MASKED_ANSWER_REFUSED)
      delete answerHeaders['content-length']
      return reply.code(answer.statusCode).headers(answerHeaders).send(masked)
    }
    return reply.code(answer.statusCode).headers(answerHeaders).send(answer.body)
  }

  /** The answer with its personal data masked (the catalogue's map); undefined when it cannot be read or checked. */
  const maskedBody = async (request: FastifyRequest, answer: UpstreamExchange): Promise<Buffer | undefined> => {
    const call = request.apiCall!.call
    try {
      const masked = maskJson(await wholeBody(answer.body), masks.of(call)!)
      if (!masked) request.log.warn({ event: 'masked_answer_refused', call: call.id, reason: 'not JSON' }, 'answer with personal data not passed on')
      return masked
    } catch (err) {
      const reason = err instanceof AnswerTooLarge ? 'too large' : (err as Error).message
      request.log.warn({ event: 'masked_answer_refused', call: call.id, reason }, 'answer with personal data not passed on')
      return undefined
    }
  }

  app.all('/api/*', forward)
}
