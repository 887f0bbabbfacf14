import type { FastifyReply, FastifyRequest } from 'fastify'
import { ANSWER_SHAPES, isShapeName } from '../../schemas/business/shapes'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { maskText, PERSONAL_DATA_PERMISSION } from '../../schemas/personal-data'
import type { PersonalTree } from '../../schemas/personal-paths'
import { originOf, type AuditWriter } from '../audit/audit-writer'
import type { CallChecker, CheckedCall } from '../catalogue/call-check'
import { HttpError, MESSAGES, sendError } from '../lib/errors'
import { spainWallClock } from '../lib/spain-time'
import { xlsxHeaders } from '../lib/xlsx-stream'
import type { Session } from '../session/session-store'
import type { UpstreamClient } from '../upstream/upstream-client'
import { checkedReason, REASON_MAX, REASON_MIN } from './access-reason'
import { AnswerMasks } from './answer-masking'
import { ListExportThread } from './list-export-thread'

/**
 * Exports of lists built by the BFF (issue 16): a catalogued export that names its paged list
 * (`list.pages`) is never asked of the upstream, whose file would carry personal data clear.
 * The BFF reads the list's JSON pages with the user's token, sort and filters, masks each page
 * with the list's own `personal` map (as the list's answers are masked), and streams an XLSX of
 * the columns the user sees. A user holding VERDATOSPERSONALES may ask for clear values with a
 * reason (`X-Export-Reason`): that export is recorded in the audit with the reason.
 */

/** The header that asks for clear values, holding the reason percent-encoded (UTF-8). */
export const EXPORT_REASON_HEADER = 'x-export-reason'
/**
 * Rows asked of the upstream per page. Not its largest page (500, spec §7): the upstream answers
 * one request at a time, and another user's page waits behind whichever export page it is
 * building, so short pages keep their wait short (bench:isolation: 100 rows kept a contract
 * page's p99 within about 2× of idle during a 100 000-row export; 500 rows, 2–4×).
 */
export const EXPORT_PAGE_SIZE = 100
/** Rows of one export, at most: a filter narrows it further. */
export const MAX_LIST_EXPORT_ROWS = 100_000

export const EXPORT_MESSAGES = {
  column: (name: string) => `La columna «${name}» no existe en este listado.`,
  labels: 'Indica un título por cada columna exportada («labels»), o ninguno.',
  tooMany: (rows: number) => `La exportación tendría ${rows.toLocaleString('es-ES')} filas y el máximo son ${MAX_LIST_EXPORT_ROWS.toLocaleString('es-ES')}: filtra el listado para exportar menos.`,
  forbidden: 'No tienes permiso para exportar datos personales sin enmascarar.',
  reason: `Indica el motivo por el que necesitas exportar los datos personales sin enmascarar (entre ${REASON_MIN} y ${REASON_MAX} caracteres).`,
  upstream: 'No se han podido leer los datos que se exportan. Inténtalo de nuevo más tarde.',
} as const

/** What each export call is built from, worked out once. */
interface ExportPlan {
  list: Endpoint
  /** The list's masking (null: nothing in its rows is masked). */
  mask: PersonalTree | null
  /** The fields its rows have, in the shape's order; null when the list names no shape. */
  fields: string[] | null
  /** The fields an export may name. */
  allowed: ReadonlySet<string>
  /** File and sheet name: the call's area in Spanish (`Contratos`). */
  name: string
}

/** The top-level fields of the rows of a paged shape (`Items[]`), in declared order. */
function rowFieldsOf(shape: string | undefined): string[] | null {
  if (shape === undefined || !isShapeName(shape)) return null
  const items = (ANSWER_SHAPES[shape] as { properties?: { Items?: { items?: { properties?: Record<string, unknown> } } } }).properties?.Items?.items?.properties
  return items ? Object.keys(items) : null
}

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'exportacion'

/** A refusal's body: its JSON, or its text. */
function bodyOf(bytes: Uint8Array, contentType: string): unknown {
  const text = Buffer.from(bytes).toString('utf8')
  if (!contentType.includes('json')) return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const upstreamMessage = (body: unknown) => {
  const message = (body as { message?: unknown; Message?: unknown } | null)?.message ?? (body as { Message?: unknown } | null)?.Message
  return typeof message === 'string' && message ? message.slice(0, 500) : typeof body === 'string' && body && !body.startsWith('<') ? body.slice(0, 500) : null
}

export class ListExports {
  private readonly masks = new AnswerMasks()
  private readonly thread = new ListExportThread()
  private readonly plans = new WeakMap<Endpoint, ExportPlan>()
  private readonly byId: ReadonlyMap<string, Endpoint>

  constructor(private readonly opts: { upstream: UpstreamClient; checker: CallChecker; audit: AuditWriter }) {
    this.byId = new Map(opts.checker.index.calls.map((c) => [c.id, c]))
  }

  /** Whether the BFF builds this call's file itself (its catalogue entry names the list's pages). */
  builds(call: Endpoint): boolean {
    return call.list?.pages !== undefined
  }

  private plan(call: Endpoint): ExportPlan {
    let plan = this.plans.get(call)
    if (!plan) {
      // The catalogue loader checked the link: the list exists and is paged.
      const list = this.byId.get(call.list!.pages!)!
      const fields = rowFieldsOf(list.shape)
      const declared = [...list.list!.sortable, ...list.list!.filterable, ...(list.list!.summable ?? [])]
      plan = { list, mask: this.masks.of(list), fields, allowed: new Set(fields ?? declared), name: typeof call.error.area === 'string' ? call.error.area : call.error.area.es }
      this.plans.set(call, plan)
    }
    return plan
  }

  /** Answers the export: the file, or a Spanish refusal before any byte of it. */
  async send(request: FastifyRequest, reply: FastifyReply, checked: CheckedCall, session: Session): Promise<FastifyReply> {
    const { call } = checked
    const plan = this.plan(call)
    const reason = this.clearReason(request, session)

    const asked = checked.query.get('columns') as string[] | undefined
    const labels = checked.query.get('labels') as string[] | undefined
    for (const field of asked ?? []) if (!plan.allowed.has(field)) throw new HttpError(400, EXPORT_MESSAGES.column(field))
    if (labels && labels.length !== asked?.length) throw new HttpError(400, EXPORT_MESSAGES.labels)

    // pageSize -1 (or none) is every row, read a bounded page at a time; a positive one is that page only.
    const size = Number(checked.query.get('pageSize') ?? -1)
    const all = size === -1
    const pageSize = all ? EXPORT_PAGE_SIZE : size
    const firstIndex = all ? 0 : Number(checked.query.get('pageIndex') ?? 0)
    const read = (index: number) => this.readPage(request, session, checked, plan.list, index, pageSize)

    const first = await read(firstIndex)
    if ('refusal' in first) return sendError(reply, first.refusal.status, first.refusal.message)
    const mask = reason === null ? plan.mask : null
    const opened = await this.thread.open({ sheetName: plan.name, fields: asked ?? plan.fields, labels: labels ?? null, mask, all, pageSize }, first.bytes)
    if (!opened.head) {
      request.log.warn({ event: 'export_page_refused', call: plan.list.id, status: 200 }, 'export page not read: not a page of the list')
      return sendError(reply, 502, EXPORT_MESSAGES.upstream)
    }
    const { total, fields } = opened.head
    if (total > MAX_LIST_EXPORT_ROWS) {
      this.thread.cancel(opened.id)
      throw new HttpError(400, EXPORT_MESSAGES.tooMany(total))
    }
    try {
      if (reason !== null) await this.recordClear(request, call, plan, reason, total, fields, checked)
    } catch (err) {
      this.thread.cancel(opened.id)
      throw err
    }
    request.log.info({ event: 'list_exported', userId: session.userId, call: call.id, rows: total, clear: reason !== null }, 'list exported')

    // Mid-file, a failure can only break the download (never end it as if complete).
    const file = this.thread.stream(opened.id, async (n) => {
      const next = await read(firstIndex + n)
      if ('refusal' in next) throw new Error(`export page ${firstIndex + n} refused: ${next.refusal.status}`)
      return next.bytes
    })
    const day = spainWallClock(Date.now()).toISOString().slice(0, 10)
    return xlsxHeaders(reply, `${slug(plan.name)}-${day}.xlsx`).send(file)
  }

  /** Ends the export thread. */
  close(): Promise<void> {
    return this.thread.close()
  }

  /** The reason of a clear export (null: the usual, masked one); 403 without the permission, 400 without a good reason. */
  private clearReason(request: FastifyRequest, session: Session): string | null {
    const header = request.headers[EXPORT_REASON_HEADER]
    if (header === undefined) return null
    if (!session.user.Permisos.some((p) => p.NombreNormalizado === PERSONAL_DATA_PERMISSION)) {
      request.log.warn({ event: 'api_denied', userId: session.userId, permission: PERSONAL_DATA_PERMISSION }, 'clear export refused: missing permission')
      throw new HttpError(403, EXPORT_MESSAGES.forbidden)
    }
    let text: string
    try {
      text = decodeURIComponent(Array.isArray(header) ? header.join(',') : header)
    } catch {
      throw new HttpError(400, EXPORT_MESSAGES.reason)
    }
    return checkedReason(text, EXPORT_MESSAGES.reason)
  }

  /** One page of the list, as the user may read it, or the refusal the user gets. */
  private async readPage(request: FastifyRequest, session: Session, checked: CheckedCall, list: Endpoint, pageIndex: number, pageSize: number): Promise<{ bytes: Uint8Array } | { refusal: { status: number; message: string } }> {
    // The list's own request, checked by the catalogue like any proxied call.
    const params = new URLSearchParams({ pageIndex: String(pageIndex), pageSize: String(pageSize) })
    for (const [name, value] of checked.query) {
      if (name === 'pageIndex' || name === 'pageSize' || name === 'columns' || name === 'labels') continue
      if (Array.isArray(value)) value.forEach((v, i) => params.append(`${name}[${i}]`, v))
      else params.append(name, value)
    }
    const path = list.path.replace(/\{([A-Za-z0-9]+)\}/g, (_, name: string) => encodeURIComponent(checked.pathParams[name] ?? ''))
    const target = this.opts.checker.checkTarget('GET', `/${path}?${params.toString()}`)
    if (!target.ok) return { refusal: { status: target.status, message: target.message } }
    let answer
    try {
      answer = await this.opts.upstream.callBytes({ method: 'GET', path: target.checked.upstreamPath, token: session.token, brandDomain: request.brand.Domain, requestId: String(request.id) })
    } catch (err) {
      const { statusCode, message } = err as { statusCode?: number; message: string }
      request.log.warn({ event: 'upstream_error', call: list.id, err: { message } }, 'export page not read')
      return { refusal: { status: statusCode ?? 502, message: statusCode ? message : EXPORT_MESSAGES.upstream } }
    }
    // A page's bytes go to the export thread unread: it parses and checks them.
    if (answer.status === 200) return { bytes: answer.bytes }
    if (answer.status === 401) return { refusal: { status: 401, message: MESSAGES.unauthenticated } }
    if (answer.status === 403) return { refusal: { status: 403, message: MESSAGES.forbidden } }
    request.log.warn({ event: 'export_page_refused', call: list.id, status: answer.status }, 'export page not read')
    // The upstream's own words for what it refused (a filter it does not take); its failures are the BFF's 502.
    if (answer.status >= 400 && answer.status < 500) return { refusal: { status: answer.status, message: upstreamMessage(bodyOf(answer.bytes, answer.contentType)) ?? EXPORT_MESSAGES.upstream } }
    return { refusal: { status: 502, message: EXPORT_MESSAGES.upstream } }
  }

  /** The audit entry of a clear export: who, which call, the reason, how many rows, which columns and filters (their values masked). */
  private async recordClear(request: FastifyRequest, call: Endpoint, plan: ExportPlan, reason: string, rows: number, fields: string[], checked: CheckedCall): Promise<void> {
    const columns = (checked.query.get('filterColumns') as string[] | undefined) ?? []
    const queries = (checked.query.get('filterQueries') as string[] | undefined) ?? []
    const filters = Object.fromEntries(columns.map((c, i) => [c, maskText(queries[i] ?? '', { emails: true })]))
    const sort = checked.query.get('sortColumn')
    const sent = { motivo: reason, filas: rows, ...(columns.length ? { filtros: filters } : {}), ...(sort ? { orden: `${String(sort)} ${String(checked.query.get('sortOrder') ?? 'asc')}` } : {}) }
    await this.opts.audit.admin(
      { ...originOf(request), call: `${call.method} ${call.path}` },
      { action: 'personal.export', doc: call.id, version: null, details: { callId: call.id, list: plan.list.id, reason, rows, columns: fields, filters }, summary: JSON.stringify(sent) },
    )
    request.log.info({ event: 'personal_exported', userId: request.sessionMemo?.userId, call: call.id, rows }, 'personal data exported clear')
  }
}
