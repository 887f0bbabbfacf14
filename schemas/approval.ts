import Type from 'typebox'
import { Author } from './admin'
import { AuditActor, AuditChange, AuditRecord } from './audit'
import { LocalizedText } from './i18n'

/**
 * Four-eyes approval (issue 16). Policies are data admins edit (versioned like the menu): each
 * names catalogued calls (by their id in schemas/catalogue/*.json) and, optionally, a condition
 * on what the call would do. A mutation a policy matches is held by the BFF (202 with a pending
 * id) until a second person with GESTORACCESS approves it; only then is it sent upstream.
 */

/**
 * Where a condition looks: `body.X` (a field of the JSON body, dotted), `body[]` (the items of an
 * array body; `body.Grupos[]` the items of a list field), `query.X` (a query parameter), `record.X`
 * (the record as its catalogued read call answers it before the change). A path that is absent
 * selects nothing.
 */
export const ValuePath = Type.String({ pattern: '^(body|query|record)(\\[\\]|\\.[A-Za-z0-9_]+(\\[\\])?)*$', maxLength: 200 })
export type ValuePath = Type.Static<typeof ValuePath>

const Scalar = Type.Union([Type.String({ maxLength: 200 }), Type.Number(), Type.Boolean()])

/**
 * A lookup turns the selected values (ids) into what a catalogued list call says about them:
 * `{ call: "permission.list", key: "Id", field: "NombreNormalizado" }` turns permission ids into
 * their codes; `{ call: "group.list", key: "Id", field: "Permisos[].NombreNormalizado" }` group
 * ids into the permissions the groups hold. Read with the requester's own token.
 */
export const PolicyLookup = Type.Object(
  {
    call: Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' }),
    key: Type.String({ pattern: '^[A-Za-z0-9_]+$' }),
    field: Type.String({ pattern: '^[A-Za-z0-9_]+(\\[\\])?(\\.[A-Za-z0-9_]+(\\[\\])?)*$' }),
  },
  { additionalProperties: false },
)
export type PolicyLookup = Type.Static<typeof PolicyLookup>

/**
 * A policy's condition. `value` selects values (one path or several); `in` holds when one of them
 * (after the `lookup`, when given) is one of the listed values, `present` when there is one.
 * `changed` holds when the body sets the field to a value other than the record's (`Iban` on a
 * contract). `all`, `any` and `not` combine.
 */
export const PolicyCondition = Type.Cyclic(
  {
    Condition: Type.Union([
      Type.Object({ all: Type.Array(Type.Ref('Condition'), { minItems: 1, maxItems: 20 }) }, { additionalProperties: false }),
      Type.Object({ any: Type.Array(Type.Ref('Condition'), { minItems: 1, maxItems: 20 }) }, { additionalProperties: false }),
      Type.Object({ not: Type.Ref('Condition') }, { additionalProperties: false }),
      Type.Object({ changed: Type.String({ pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*$' }) }, { additionalProperties: false }),
      Type.Object(
        {
          value: Type.Union([ValuePath, Type.Array(ValuePath, { minItems: 1, maxItems: 10 })]),
          lookup: Type.Optional(PolicyLookup),
          in: Type.Optional(Type.Array(Scalar, { minItems: 1, maxItems: 100 })),
          present: Type.Optional(Type.Literal(true)),
        },
        { additionalProperties: false },
      ),
    ]),
  },
  'Condition',
)
export type PolicyCondition = Type.Static<typeof PolicyCondition>

export const ApprovalPolicy = Type.Object(
  {
    /** Stable name (`grant-gestoraccess`), shown with the request. */
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,59}$' }),
    /** What it guards, for the approver. */
    label: LocalizedText,
    /** Catalogued call ids (`apiKey.generate`). */
    calls: Type.Array(Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' }), { minItems: 1, maxItems: 50 }),
    /** Left out: every call of the list is held. */
    when: Type.Optional(PolicyCondition),
    /** false: kept but not applied. */
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type ApprovalPolicy = Type.Static<typeof ApprovalPolicy>

export const ApprovalPolicies = Type.Array(ApprovalPolicy, { maxItems: 100 })
export type ApprovalPolicies = Type.Static<typeof ApprovalPolicies>

/** `PUT /bff/admin/approval-policies`: the policies and the version they were edited from. */
export const SavePoliciesBody = Type.Object(
  { version: Type.Integer({ minimum: 0 }), policies: Type.Unknown(), note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) },
  { additionalProperties: false },
)
export type SavePoliciesBody = Type.Static<typeof SavePoliciesBody>

export const ApprovalStatus = Type.Enum(['pending', 'approving', 'approved', 'failed', 'rejected', 'expired'])
export type ApprovalStatus = Type.Static<typeof ApprovalStatus>

/** A held request as the inbox and «Mis solicitudes» show it: personal data masked, the body never whole. */
export const ApprovalView = Type.Object(
  {
    id: Type.String(),
    status: ApprovalStatus,
    /** The policies that held it. */
    policies: Type.Array(Type.Object({ id: Type.String(), label: LocalizedText }, { additionalProperties: false })),
    /** `PUT api/usuarios/update` and its catalogue id. */
    call: Type.String(),
    callId: Type.String(),
    record: Type.Optional(AuditRecord),
    /** What would change: the record's fields before and after (or the values sent, when there is no record to read). */
    changes: Type.Array(AuditChange),
    /** The body as JSON text, masked. */
    summary: Type.Optional(Type.String()),
    requester: AuditActor,
    brand: Type.String(),
    /** ISO instants. */
    createdAt: Type.String(),
    expiresAt: Type.String(),
    /** Nobody but the requester can approve it yet: it waits for a second person with GESTORACCESS. */
    waitingForApprover: Type.Boolean(),
    decidedBy: Type.Optional(AuditActor),
    decidedAt: Type.Optional(Type.String()),
    comment: Type.Optional(Type.String()),
    /** The upstream's status once sent. */
    upstreamStatus: Type.Optional(Type.Integer()),
    /** Approved but not applied (`failed`): why, in both languages (the record changed meanwhile, the service refused it). */
    failure: Type.Optional(LocalizedText),
    /** The upstream's answer waits for the requester to read it, once (`GET /bff/approvals/:id/result`). */
    resultWaiting: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type ApprovalView = Type.Static<typeof ApprovalView>

/** `POST /bff/approvals/:id/approve|reject`. */
// A form's empty optional field arrives as null (client/renderer/form/validation.ts toBody): no comment.
export const DecisionBody = Type.Object({ comment: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])) }, { additionalProperties: false })
export type DecisionBody = Type.Static<typeof DecisionBody>

/** The 202 of a held mutation. */
export interface HeldAnswer {
  pendingId: string
  message: string
  waitingForApprover: boolean
}

/**
 * The policy editor (GESTORACCESS): one policy as its screen lists and edits it. `when` is the
 * condition as JSON text (null: every call of the policy is held); `condition` says it in words.
 */
export const PolicyItem = Type.Object(
  {
    id: Type.String(),
    label: LocalizedText,
    calls: Type.Array(Type.String()),
    /** `PUT api/contract/update/fin`, one per call (a call the catalogue lacks is named by its id). */
    callNames: Type.Array(Type.String()),
    when: Type.Union([Type.String(), Type.Null()]),
    condition: LocalizedText,
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type PolicyItem = Type.Static<typeof PolicyItem>

/** A saved version of the policies as the editor's history lists it: who, when, why, and what changed against the version before. */
export const PolicyVersionView = Type.Object(
  {
    version: Type.Integer(),
    author: Author,
    createdAt: Type.String(),
    kind: Type.Enum(['edit', 'rollback']),
    restoredFrom: Type.Union([Type.Integer(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    changes: Type.Array(AuditChange),
    policies: ApprovalPolicies,
  },
  { additionalProperties: false },
)
export type PolicyVersionView = Type.Static<typeof PolicyVersionView>

/** `POST /bff/admin/approval-policies/restore`. */
export const RestorePoliciesBody = Type.Object(
  { version: Type.Integer({ minimum: 0 }), note: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) },
  { additionalProperties: false },
)
export type RestorePoliciesBody = Type.Static<typeof RestorePoliciesBody>
