import Type from 'typebox'
import { MenuDefinition } from './menu'

/** Who made a change to a menu or screen (stored with each version and audit entry). */
export const Author = Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }, { additionalProperties: false })
export type Author = Type.Static<typeof Author>

export const BrandQuery = Type.Object({ brand: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,40}$' })) }, { additionalProperties: false })
export type BrandQuery = Type.Static<typeof BrandQuery>

export const SaveMenuBody = Type.Object({ version: Type.Integer({ minimum: 0 }), menu: Type.Unknown() }, { additionalProperties: false })
export type SaveMenuBody = Type.Static<typeof SaveMenuBody>

export const RollbackBody = Type.Object({ version: Type.Integer({ minimum: 0 }), expectedVersion: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })
export type RollbackBody = Type.Static<typeof RollbackBody>

export const DiffQuery = Type.Object(
  { brand: Type.Optional(Type.String({ pattern: '^[a-z0-9-]{1,40}$' })), from: Type.Integer({ minimum: 0 }), to: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
)
export type DiffQuery = Type.Static<typeof DiffQuery>

export const PreviewBody = Type.Object(
  {
    menu: MenuDefinition,
    permissions: Type.Array(Type.String({ pattern: '^[A-Z0-9_]+$' }), { maxItems: 200 }),
    production: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type PreviewBody = Type.Static<typeof PreviewBody>

/** The screen studio: a whole screen file, checked by the server (schema, catalogue) so its errors name a JSON path. */
export const CreateScreenBody = Type.Object({ screen: Type.Unknown() }, { additionalProperties: false })
export type CreateScreenBody = Type.Static<typeof CreateScreenBody>

export const SaveScreenBody = Type.Object({ screen: Type.Unknown(), expectedVersion: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false })
export type SaveScreenBody = Type.Static<typeof SaveScreenBody>

/** Who sees a published version: brands (keys of `brands/<key>/`) and user groups (ids). None: everyone. */
export const ScreenAudience = Type.Object(
  {
    brands: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z0-9-]{1,40}$' }), { maxItems: 20 })),
    groups: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
)
export type ScreenAudience = Type.Static<typeof ScreenAudience>

export const PublishScreenBody = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 0 })), audience: Type.Optional(ScreenAudience) }, { additionalProperties: false })
export type PublishScreenBody = Type.Static<typeof PublishScreenBody>

export const RollbackScreenBody = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false })
export type RollbackScreenBody = Type.Static<typeof RollbackScreenBody>

/** One version of a screen rather than its latest. */
export const ScreenVersionQuery = Type.Object({ version: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: false })
export type ScreenVersionQuery = Type.Static<typeof ScreenVersionQuery>

export const ScreenDiffQuery = Type.Object({ from: Type.Integer({ minimum: 0 }), to: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })
export type ScreenDiffQuery = Type.Static<typeof ScreenDiffQuery>

/** What the browser reports when a screen it was served fails to render. */
export const RenderErrorBody = Type.Object({ version: Type.Integer({ minimum: 0 }), message: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false })
export type RenderErrorBody = Type.Static<typeof RenderErrorBody>

/** The studio's preview: a screen being edited (checked like a save) and, optionally, the user to draw it for. */
export const PreviewScreenBody = Type.Object({ screen: Type.Unknown(), userId: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })
export type PreviewScreenBody = Type.Static<typeof PreviewScreenBody>

export const ScreenParams = Type.Object({ id: Type.String({ pattern: '^[a-z0-9-]{1,80}$' }) }, { additionalProperties: false })
export type ScreenParams = Type.Static<typeof ScreenParams>
