import Type from 'typebox'

/**
 * Views of a list (issue 17, «Vistas»): a named set of filters, sort and visible columns of one
 * table of one screen, kept by the BFF. Private to its owner, shared with one of the owner's
 * user groups, or published to everyone of the brand (GESTORACCESS only).
 * `GET /bff/views?screen=&table=`, `POST /bff/views`, `PUT /bff/views/:id`, `DELETE /bff/views/:id`.
 */

export const VIEW_NAME_MAX = 60
/** Screen and table ids as screen files spell them. */
const NodeId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,80}$' })
/** A column's field (`CodigoContrato`, `Cliente.Nif`). */
const Field = Type.String({ minLength: 1, maxLength: 80 })

export const ViewVisibility = Type.Enum(['private', 'group', 'brand'])
export type ViewVisibility = Type.Static<typeof ViewVisibility>

export const ViewSort = Type.Union([Type.Null(), Type.Object({ field: Field, order: Type.Enum(['asc', 'desc']) }, { additionalProperties: false })])
export type ViewSort = Type.Static<typeof ViewSort>

/** What a view keeps of a table: filters (one upstream-syntax value per column), sort, visible columns in order, and the grid's own column layout. */
const ViewContent = {
  filters: Type.Record(Field, Type.String({ maxLength: 500 }), { maxProperties: 60 }),
  sort: ViewSort,
  columns: Type.Optional(Type.Array(Field, { maxItems: 100, uniqueItems: true })),
  /** Widths, pins, density…: kept as the table sent it, bounded in size (VIEW_LAYOUT_MAX_BYTES). */
  layout: Type.Optional(Type.Record(Type.String({ maxLength: 80 }), Type.Unknown(), { maxProperties: 100 })),
}

/** The JSON size a layout may take. */
export const VIEW_LAYOUT_MAX_BYTES = 8 * 1024

/** Who may see a view: `groupId` is one of the owner's groups, set with `group` visibility only. */
const ViewSharing = {
  visibility: ViewVisibility,
  groupId: Type.Optional(Type.Integer({ minimum: 1 })),
}

/** `POST /bff/views`. */
export const CreateViewBody = Type.Object(
  { screen: NodeId, table: NodeId, name: Type.String({ minLength: 1, maxLength: 200 }), ...ViewContent, ...ViewSharing },
  { additionalProperties: false },
)
export type CreateViewBody = Type.Static<typeof CreateViewBody>

/** `PUT /bff/views/:id`: the whole view again, with the version it started from (stale: 409). */
export const UpdateViewBody = Type.Object(
  { version: Type.Integer({ minimum: 1 }), name: Type.String({ minLength: 1, maxLength: 200 }), ...ViewContent, ...ViewSharing },
  { additionalProperties: false },
)
export type UpdateViewBody = Type.Static<typeof UpdateViewBody>

export const ViewParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }, { additionalProperties: false })
export type ViewParams = Type.Static<typeof ViewParams>

export const ViewListQuery = Type.Object({ screen: NodeId, table: NodeId }, { additionalProperties: false })
export type ViewListQuery = Type.Static<typeof ViewListQuery>

/** `DELETE /bff/views/:id?version=`: the version is optional; given and stale, 409. */
export const WithdrawViewQuery = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })
export type WithdrawViewQuery = Type.Static<typeof WithdrawViewQuery>

export const ViewOwner = Type.Object({ id: Type.Integer(), name: Type.String() }, { additionalProperties: false })
export type ViewOwner = Type.Static<typeof ViewOwner>

/** A view as stored and answered. */
export const View = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    screen: Type.String(),
    table: Type.String(),
    ...ViewContent,
    ...ViewSharing,
    /** The group's name when it was shared, for the menu. */
    groupName: Type.Optional(Type.String()),
    owner: ViewOwner,
    /** The brand key the view lives in. */
    brand: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    /** ISO instant of the last save. */
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
)
export type View = Type.Static<typeof View>

/** A view as the signed-in user gets it: whether they may update or withdraw it. */
export type ViewForUser = View & { editable: boolean }

/** `GET /bff/views`: the views this user sees on that table, and what they may share with. */
export interface ViewListAnswer {
  views: ViewForUser[]
  /** The user's groups: the choices of `group` visibility. */
  groups: { id: number; name: string }[]
  /** Whether the user may publish to the whole brand (GESTORACCESS). */
  canPublish: boolean
}

/** A 409: the view changed since the version the user started from; `current` is the view now. */
export interface ViewConflictAnswer {
  statusCode: 409
  error: string
  message: string
  current: ViewForUser
}
