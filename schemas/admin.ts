import Type from 'typebox'
import { MenuDefinition } from './menu'
import { ScreenOverlay } from './screen'

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

export const SaveScreenBody = Type.Object({ version: Type.Integer({ minimum: 0 }), overlay: ScreenOverlay }, { additionalProperties: false })
export type SaveScreenBody = Type.Static<typeof SaveScreenBody>

export const ScreenParams = Type.Object({ id: Type.String({ pattern: '^[a-z0-9-]{1,80}$' }) }, { additionalProperties: false })
export type ScreenParams = Type.Static<typeof ScreenParams>
