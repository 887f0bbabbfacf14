import Type from 'typebox'

/**
 * The audit of every change (issue 16): one entry per catalogued mutation proxied by the BFF
 * (`kind: 'call'`) and per BFF admin action (`kind: 'admin'`: menus, screens, sessions ended).
 * Entries are appended, never edited nor deleted; `GET /bff/admin/audit` lists them, newest
 * first, `GET /bff/audit/record` a record's own timeline.
 */

/** Who acted: the signed-in user (null for a public call, made before signing in). */
export const AuditActor = Type.Object(
  { id: Type.Integer(), email: Type.String(), name: Type.Optional(Type.String()) },
  { additionalProperties: false },
)
export type AuditActor = Type.Static<typeof AuditActor>

/** The record a call touches, as the endpoint catalogue names it (`usuario` 42); `menu`/`screen` for admin entries. */
export const AuditRecord = Type.Object({ entity: Type.String({ minLength: 1 }), id: Type.String({ minLength: 1 }) }, { additionalProperties: false })
export type AuditRecord = Type.Static<typeof AuditRecord>

/** One field of the record that a call changed: values as text, personal data masked, long ones cut. */
export const AuditChange = Type.Object(
  { field: Type.String(), before: Type.Union([Type.String(), Type.Null()]), after: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
)
export type AuditChange = Type.Static<typeof AuditChange>

export const AuditOutcome = Type.Object({ status: Type.Integer({ minimum: 100, maximum: 599 }), ok: Type.Boolean() }, { additionalProperties: false })
export type AuditOutcome = Type.Static<typeof AuditOutcome>

/** The two people of an approved (or refused) change: the requester and the approver. */
export const AuditApproval = Type.Object(
  { id: Type.String(), requestedBy: AuditActor, decidedBy: Type.Optional(AuditActor) },
  { additionalProperties: false },
)
export type AuditApproval = Type.Static<typeof AuditApproval>

export const AuditKind = Type.Enum(['call', 'admin'])
export type AuditKind = Type.Static<typeof AuditKind>

export const AuditEntry = Type.Object(
  {
    /** The store's own id: increasing with the order of appends. */
    id: Type.String(),
    /** When, ISO 8601 (UTC). */
    at: Type.String(),
    kind: AuditKind,
    actor: Type.Union([AuditActor, Type.Null()]),
    /** The brand the request came through (its key). */
    brand: Type.String(),
    /** The admin behind a view-as session, when the actor is being viewed as. */
    onBehalfOf: Type.Optional(AuditActor),
    /** Method and catalogued path (`POST api/grupousuarios/create-user-group`), or the BFF route of an admin action (`PUT bff/admin/menu`). */
    call: Type.String(),
    /** The catalogue's id of the call (`group.create`). */
    callId: Type.Optional(Type.String()),
    record: Type.Optional(AuditRecord),
    /** The request body as JSON text: personal data masked, secrets left out, long values cut. */
    summary: Type.Optional(Type.String()),
    /** What changed in the record, read before and after (calls whose catalogue entry declares the record's read call). */
    changes: Type.Optional(Type.Array(AuditChange)),
    outcome: AuditOutcome,
    requestId: Type.String(),
    /** Admin entries: what was done (`menu.save`, `screen.publish`…), to which document, at which version, and its details. */
    action: Type.Optional(Type.String()),
    doc: Type.Optional(Type.String()),
    version: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** A change held for four-eyes approval: the held request's id, who asked for it and who decided. */
    approval: Type.Optional(AuditApproval),
  },
  { additionalProperties: false },
)
export type AuditEntry = Type.Static<typeof AuditEntry>

/** An entry before the store gives it its id. */
export type NewAuditEntry = Omit<AuditEntry, 'id'>

/** `GET /bff/admin/audit` and `GET /bff/audit/record`: a page of entries the spec §7 way, newest first. */
export interface AuditPageAnswer {
  Items: AuditEntry[]
  TotalCount: number
  PageIndex: number
  PageSize: number
  /** The shared store (Redis) looked at the newest part of the log only: narrower dates reach further back. */
  Partial: boolean
  /** When Partial: the same query with `antesDe` set to this reads the entries older than those looked at. */
  Continuar?: string
}
