import Type from 'typebox'
import type { PublicBrand } from './brand'
import { LocalizedText } from './i18n'
import type { ResolvedMenuEntry } from './menu'

/** Named checks a route runs before it renders; an unknown name is an error. */
export const RouteCheck = Type.Union([Type.Literal('contract-detail'), Type.Literal('duplicate-route')])
export type RouteCheck = Type.Static<typeof RouteCheck>

export const RouteDef = Type.Object(
  {
    path: Type.String({ pattern: '^/[^\\s]*$' }),
    screen: Type.String({ pattern: '^[a-z0-9-]+$' }),
    title: LocalizedText,
    permission: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]+$' })),
    check: Type.Optional(Type.String()),
    /** Public routes use the auth layout and need no session. */
    public: Type.Optional(Type.Boolean()),
    /** Dev-only routes are left out of the manifest in production. */
    devOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type RouteDef = Type.Static<typeof RouteDef>

export const RouteTable = Type.Array(RouteDef)

/**
 * A route as a screen file declares it (`routes` of schemas/screen.ts): the screen is the file
 * and the title is the screen's unless given. Public pages are client code, declared in
 * schemas/public-pages.ts, so a screen file cannot make a route public.
 */
export const ScreenRoute = Type.Object(
  {
    path: Type.String({ pattern: '^/[^\\s]*$', maxLength: 200 }),
    title: Type.Optional(LocalizedText),
    permission: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]+$' })),
    check: Type.Optional(RouteCheck),
    devOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type ScreenRoute = Type.Static<typeof ScreenRoute>

export interface ManifestUser {
  id: number
  name: string
  email: string
  permissions: string[]
  agent: { id: number; name: string } | null
}

export interface Manifest {
  brand: PublicBrand
  authenticated: boolean
  user?: ManifestUser
  /** Set while an admin views the portal as `user` (read-only): who they are, and how the view is made. */
  viewAs?: { actor: { id: number; name: string }; mode: 'token' | 'permissions' }
  menu: ResolvedMenuEntry[]
  routes: RouteDef[]
  buildId: string
  environment: 'development' | 'production'
  /** Self sign-up is offered (SIGNUP_ENABLED): the sign-in page links to it. */
  signup?: boolean
}
