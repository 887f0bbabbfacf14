import Type from 'typebox'
import { API_SCOPE_PATTERN } from '../business/api-scopes'
import { LocalizedText } from '../i18n'

/**
 * The endpoint catalogue: every business call the BFF forwards, declared once, as data. The
 * proxy forwards only calls that match it (parameters checked, permission checked), the screen
 * loader refuses screens that call anything else, the client titles failure toasts with its
 * area and message, the access log masks what it marks as personal data. The shipped calls are
 * the JSON files beside this one (one per area); an operator adds calls of a real upstream with
 * more JSON files of the same shape (CATALOGUE_FILES, see README).
 */

export const HttpMethod = Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')])
export type HttpMethod = Type.Static<typeof HttpMethod>

/**
 * Kinds of personal data. Query parameters marked with one are masked in the access log;
 * answer fields marked with one are what governance masks. `free` is text that may hold
 * anything (a list filter's query): masked in logs, not in answers. `text` is an answer's free
 * text that may mention a customer's data (a history note): what looks like an IBAN, a NIF, a
 * phone or an e-mail in it is masked in place.
 */
export const PersonalKind = Type.Enum(['iban', 'nif', 'phone', 'email', 'address', 'cups', 'free', 'text'])
export type PersonalKind = Type.Static<typeof PersonalKind>

const ParamType = Type.Enum(['string', 'integer', 'number', 'boolean', 'date', 'datetime'])

/** One query or path parameter (HTTP gives text: `integer` and the others are what the text must spell). */
export const Param = Type.Object(
  {
    type: ParamType,
    required: Type.Optional(Type.Boolean()),
    /** Bounds of a number. */
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
    /** Bounds of a text's length (string, date, datetime). */
    minLength: Type.Optional(Type.Integer({ minimum: 0 })),
    maxLength: Type.Optional(Type.Integer({ minimum: 1 })),
    /** A regular expression the whole text must match (anchored by the checker). */
    pattern: Type.Optional(Type.String({ minLength: 1 })),
    enum: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    /** Sent as `name[0]=…&name[1]=…` (or a repeated `name`), at most `maxItems` values. */
    array: Type.Optional(Type.Boolean()),
    maxItems: Type.Optional(Type.Integer({ minimum: 1 })),
    personal: Type.Optional(PersonalKind),
    /** What the parameter is, in Spanish: named in the 400 a bad value gets. */
    label: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)
export type Param = Type.Static<typeof Param>

/** A field of a JSON body: a parameter, or a nested value checked only for its JSON kind. */
export const BodyField = Type.Union([
  Param,
  Type.Object(
    {
      type: Type.Enum(['object', 'array', 'any']),
      required: Type.Optional(Type.Boolean()),
      /** For arrays: at most this many items. */
      maxItems: Type.Optional(Type.Integer({ minimum: 1 })),
      personal: Type.Optional(PersonalKind),
      label: Type.Optional(Type.String({ minLength: 1 })),
    },
    { additionalProperties: false },
  ),
])
export type BodyField = Type.Static<typeof BodyField>

export const Body = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('json'),
      /** An object with `fields` (the usual), an array of `items`, or any JSON value. */
      shape: Type.Enum(['object', 'array', 'any']),
      fields: Type.Optional(Type.Record(Type.String(), BodyField)),
      /** Fields not declared are refused unless `open`. */
      open: Type.Optional(Type.Boolean()),
      items: Type.Optional(BodyField),
      maxItems: Type.Optional(Type.Integer({ minimum: 1 })),
      /** The body may be left out altogether. */
      optional: Type.Optional(Type.Boolean()),
      /**
       * Personal data nested in the body (a record sent back as its GET returned it): dotted
       * paths, `[]` for the items of an array, to their kind. Top-level fields say it in `fields`.
       */
      personal: Type.Optional(Type.Record(Type.String({ minLength: 1 }), PersonalKind)),
    },
    { additionalProperties: false },
  ),
  /** Uploads: streamed to the upstream unread, bounded by API_BODY_LIMIT_MB. */
  Type.Object({ kind: Type.Literal('multipart') }, { additionalProperties: false }),
])
export type Body = Type.Static<typeof Body>

/** A paged list (spec §7) or its export (pageSize -1): the paging parameters are implied. */
export const ListSpec = Type.Object(
  {
    mode: Type.Enum(['paged', 'export']),
    /** Columns the upstream sorts by (`sortColumn`). */
    sortable: Type.Array(Type.String({ minLength: 1 })),
    /** Columns the upstream filters by (`filterColumns[i]`). */
    filterable: Type.Array(Type.String({ minLength: 1 })),
    /** Columns whose values add up (money, kWh). */
    summable: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /**
     * An export's paged list (its call id): the BFF builds the export itself from that call's
     * JSON pages, masked by its `personal` map, instead of passing the upstream's file on (issue
     * 16). The list must be a paged GET that sorts and filters by the same columns.
     */
    pages: Type.Optional(Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' })),
    /** The kind of record its rows are (a `record.entity` of the catalogue): live lists refresh when one changes. */
    entity: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
)
export type ListSpec = Type.Static<typeof ListSpec>

export const Permission = Type.String({ pattern: '^[A-Z][A-Z0-9_]*$' })

/** A text shown to users: Spanish, or `{ es, en }`. */
const CallText = Type.Union([Type.String({ minLength: 1 }), LocalizedText])

export const Endpoint = Type.Object(
  {
    /** Stable name of the call, `area.what` (e.g. `contract.detail`). */
    id: Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' }),
    method: HttpMethod,
    /** Relative path as in spec §7, `{name}` for a path parameter: `api/agentes/{id}`. */
    path: Type.String({ pattern: '^api(/([A-Za-z0-9_.-]+|\\{[A-Za-z][A-Za-z0-9]*\\}))+$' }),
    /** What the call is for, in Spanish. */
    summary: Type.String({ minLength: 1 }),
    /**
     * Who may make it: `session` (a signed-in user, the default), `public` (anyone: the password
     * recovery flow), `apiKey` (a signed-in user trying the public API with an X-Api-Key), `bff`
     * (the upstream's own sign-in calls: only the BFF makes them, a browser never).
     */
    access: Type.Optional(Type.Enum(['session', 'public', 'apiKey', 'bff'])),
    /** The permission the upstream requires for it (checked by the BFF as well). */
    permission: Type.Optional(Permission),
    /** `apiKey` calls: the scope the key must hold (schemas/business/api-scopes.ts); none: any valid key. */
    scope: Type.Optional(Type.String({ pattern: API_SCOPE_PATTERN })),
    /** A read changes nothing, whatever its method (a POST that searches is a read). */
    effect: Type.Enum(['read', 'mutation']),
    pathParams: Type.Optional(Type.Record(Type.String(), Param)),
    query: Type.Optional(Type.Record(Type.String(), Param)),
    body: Type.Optional(Body),
    list: Type.Optional(ListSpec),
    /** What it answers: JSON (the default), a file (download, export, PDF) or nothing. */
    answer: Type.Optional(Type.Enum(['json', 'file', 'empty'])),
    /**
     * The shape of a JSON answer: a name of the registry of business shapes
     * (`schemas/business/shapes.ts`, e.g. `battery.calculation`); the catalogue refuses a name it
     * does not hold, and the contract test checks the reference API's answers against it.
     */
    shape: Type.Optional(Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' })),
    /**
     * The record it touches: its kind and the parameter (path, query or body) holding its key.
     * A mutation may name the read call of that record (`read`, a call id): the BFF then reads
     * the record before and after it, and the audit keeps what changed.
     */
    record: Type.Optional(
      Type.Object(
        {
          entity: Type.String({ minLength: 1 }),
          param: Type.String({ minLength: 1 }),
          read: Type.Optional(Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$' })),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Personal data in the answer: dotted paths, `[]` for the items of an array, to their kind
     * (`Items[].Titular.Nif`: `nif`).
     */
    personal: Type.Optional(Type.Record(Type.String({ minLength: 1 }), PersonalKind)),
    /**
     * The answer's personal data only repeats what the request sent (a validator's normalised
     * input): the BFF masks it in logs but not in the answer, since the user typed it.
     */
    personalEcho: Type.Optional(Type.Boolean()),
    /**
     * A validator call whose check the portal also runs itself (schemas/business/identifiers.ts):
     * a bulk import validates thousands of values with it locally instead of one call per value.
     */
    check: Type.Optional(Type.Enum(['nif', 'iban', 'cups'])),
    /** The toast of a failure: titled by area, the server's text or else this message (spec §8); Spanish, or Spanish and English. */
    error: Type.Object({ area: CallText, message: Type.Optional(CallText) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
)
export type Endpoint = Type.Static<typeof Endpoint>

/** One file of the catalogue: the calls of one area. */
export const CatalogueFile = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    calls: Type.Array(Endpoint, { minItems: 1 }),
  },
  { additionalProperties: false },
)
export type CatalogueFile = Type.Static<typeof CatalogueFile>

/** The default failure message (spec §8), when neither the server nor the call has one. */
export const DEFAULT_ERROR_MESSAGE = 'Ha ocurrido un error en la solicitud.'
