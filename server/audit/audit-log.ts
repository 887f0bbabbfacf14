import type { AuditEntry, AuditKind, NewAuditEntry } from '../../schemas/audit'

export type { AuditEntry, NewAuditEntry }

/** What a query keeps; every part given must hold. */
export interface AuditFilter {
  /** Part of the actor's e-mail or name, in any case. */
  user?: string
  /** A record by its id (any case), and its entity when given. */
  record?: { entity?: string; id: string }
  /** Part of the call (`PUT api/usuarios/update`), in any case. */
  call?: string
  /** From this instant (ms since the epoch, included)… */
  from?: number
  /** …until this one (excluded). */
  until?: number
  kind?: AuditKind
  /** An admin entry's action (`screen.render-error`). */
  action?: string
  /** Successful outcomes only (a record's timeline shows what changed it). */
  okOnly?: boolean
  /** Older than this entry (its id, excluded): where a partial read said to go on (`AuditPage.next`). */
  before?: string
}

export interface AuditPage {
  /** Newest first. */
  items: AuditEntry[]
  /** Entries the filter keeps (of those looked at). */
  total: number
  /** The store looked at the newest part of the log only (Redis bounds each read); narrower dates reach further back. */
  partial: boolean
  /** When partial: the id of the oldest entry looked at; the same filter with `before` set to it reads on from there. */
  next?: string
}

/**
 * The audit log port: entries are appended and read, never edited nor deleted (retention
 * drops the oldest, inside the store). Adapters (embedded SQLite, Redis streams) pass the same
 * test suite. An entry appended twice under the same request, kind, action and document (a
 * retried write) is kept once.
 */
export interface AuditLog {
  append(entry: NewAuditEntry): Promise<void>
  /** One page, newest first, with the total the filter keeps. */
  query(filter: AuditFilter, page: { offset: number; limit: number }): Promise<AuditPage>
  /** Every entry the filter keeps, newest first, at most `max`, read a batch at a time (exports). */
  entries(filter: AuditFilter, max: number): AsyncIterable<AuditEntry>
  ping(): Promise<void>
  close(): Promise<void>
}

/** The key under which an entry is kept once: a retried append of the same entry is dropped. */
export function dedupeKey(entry: NewAuditEntry): string {
  return [entry.requestId, entry.kind, entry.action ?? '', entry.doc ?? ''].join('|')
}

/** Lower-case text the `user` filter searches: the actor's e-mail and name. */
export function actorText(entry: Pick<NewAuditEntry, 'actor'>): string {
  return entry.actor ? `${entry.actor.email} ${entry.actor.name ?? ''}`.toLowerCase() : ''
}

/** Whether an entry passes a filter: the one definition, used by the adapters that filter in the BFF. */
export function matches(entry: NewAuditEntry, filter: AuditFilter): boolean {
  if (filter.kind && entry.kind !== filter.kind) return false
  if (filter.action && entry.action !== filter.action) return false
  if (filter.okOnly && !entry.outcome.ok) return false
  if (filter.user && !actorText(entry).includes(filter.user.toLowerCase())) return false
  if (filter.call && !entry.call.toLowerCase().includes(filter.call.toLowerCase())) return false
  if (filter.record) {
    if (!entry.record || entry.record.id.toLowerCase() !== filter.record.id.toLowerCase()) return false
    if (filter.record.entity && entry.record.entity !== filter.record.entity) return false
  }
  if (filter.from !== undefined || filter.until !== undefined) {
    const at = Date.parse(entry.at)
    if (filter.from !== undefined && at < filter.from) return false
    if (filter.until !== undefined && at >= filter.until) return false
  }
  return true
}
