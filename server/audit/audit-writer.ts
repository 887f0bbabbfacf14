import type { FastifyRequest } from 'fastify'
import type { Author } from '../../schemas/admin'
import type { AuditActor, AuditRecord, NewAuditEntry } from '../../schemas/audit'
import type { SessionUser } from '../../schemas/session-user'
import type { AuditLog } from './audit-log'

/** Where a failed write is told: the logger (pino) and the metrics. */
export interface AuditFailureReport {
  logger: { error(obj: object, msg: string): void }
  failed(kind: NewAuditEntry['kind']): void
}

/** Who made an admin change, through which request, and what the request answers when it succeeds. */
export interface AuditOrigin {
  author: Author
  brand: string
  requestId: string
  /** The BFF route, `PUT bff/admin/menu`. */
  call: string
  status: number
  onBehalfOf?: AuditActor
}

/** A user's name as entries and versions show it. */
export const fullName = (user: Pick<SessionUser, 'Nombre' | 'Apellidos'>) => [user.Nombre, user.Apellidos].filter(Boolean).join(' ')

/** The origin of an admin action, from its request (after requirePermission: the session is known). */
export function originOf(request: FastifyRequest, status = 200): AuditOrigin {
  const session = request.sessionMemo!
  const user = session.user
  const actor = session.actor
  return {
    author: { id: user.Id, name: fullName(user), email: user.Email },
    ...(actor ? { onBehalfOf: { id: actor.userId, name: actor.name, email: actor.email } } : {}),
    brand: request.brand.key,
    requestId: String(request.id),
    call: `${request.method} ${(request.routeOptions.url ?? request.url).replace(/^\//, '')}`,
    status,
  }
}

/** An admin entry's record, from its document: `menu:grupo` is the menu of brand grupo. */
export function recordOfDoc(doc: string): AuditRecord | undefined {
  const colon = doc.indexOf(':')
  return colon > 0 && colon < doc.length - 1 ? { entity: doc.slice(0, colon), id: doc.slice(colon + 1) } : undefined
}

export interface AdminAction {
  action: string
  doc: string
  version: number | null
  details: Record<string, unknown>
  /** What the user sent, as the audit shows it («Datos enviados»), when the action has something to show. */
  summary?: string
  /** When it happened (ms); now by default. */
  at?: number
}

/**
 * Writes to the audit log without ever failing the change it records: the change is made, so a
 * write that fails is logged and counted (metrics alert on it), and the user gets their answer.
 */
export class AuditWriter {
  constructor(
    readonly log: AuditLog,
    private readonly report: AuditFailureReport,
    private readonly now: () => number = Date.now,
  ) {}

  async write(entry: NewAuditEntry): Promise<void> {
    try {
      await this.log.append(entry)
    } catch (err) {
      this.failed(entry.kind, { call: entry.call, action: entry.action, requestId: entry.requestId }, err)
    }
  }

  /** A write that did not happen: logged (structured, no personal data) and counted. */
  failed(kind: NewAuditEntry['kind'], context: { call?: string; action?: string; requestId: string }, err: unknown): void {
    this.report.failed(kind)
    this.report.logger.error({ event: 'audit_write_failed', kind, ...context, err: { message: (err as Error).message } }, 'audit entry not written')
  }

  /** An admin action of the BFF (menus, screens, sessions), as it succeeded. */
  admin(origin: AuditOrigin, action: AdminAction): Promise<void> {
    const record = recordOfDoc(action.doc)
    return this.write({
      at: new Date(action.at ?? this.now()).toISOString(),
      kind: 'admin',
      actor: { id: origin.author.id, email: origin.author.email, name: origin.author.name },
      brand: origin.brand,
      ...(origin.onBehalfOf ? { onBehalfOf: origin.onBehalfOf } : {}),
      call: origin.call,
      ...(record ? { record } : {}),
      ...(action.summary !== undefined ? { summary: action.summary } : {}),
      outcome: { status: origin.status, ok: origin.status < 400 },
      requestId: origin.requestId,
      action: action.action,
      doc: action.doc,
      version: action.version,
      details: action.details,
    })
  }
}
