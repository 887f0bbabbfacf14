import type { RouteDef } from './manifest'

/**
 * The pages that are client code rather than a screen file: the public ones of spec §2 (auth
 * layout, no session). Declared here once: the BFF puts them in the route manifest
 * (server/manifest/manifest-data.ts) and the client decides from this list, before the
 * manifest arrives, which page a path is (client/app/pages.ts) and that it needs no session.
 * Every other route is declared by its screen file (server/screens/**).
 */
export const PUBLIC_PAGES = [
  { path: '/auth/login', screen: 'login', public: true, title: { es: 'Iniciar sesión', en: 'Sign in' } },
  { path: '/auth/recovery', screen: 'recovery', public: true, title: { es: 'Recuperar contraseña', en: 'Password recovery' } },
  { path: '/auth/signup', screen: 'signup', public: true, title: { es: 'Crear cuenta', en: 'Create account' } },
  { path: '/auth/resetpassword', screen: 'reset-password', public: true, title: { es: 'Nueva contraseña', en: 'New password' } },
  { path: '/error', screen: 'error', public: true, title: { es: 'Error', en: 'Error' } },
] as const satisfies readonly RouteDef[]

export type PublicPageId = (typeof PUBLIC_PAGES)[number]['screen']

/** A path as spec §2 matches public paths: letter case and a trailing slash do not count. */
const normalized = (pathname: string) => pathname.toLowerCase().replace(/\/+$/, '') || '/'

/** The public page drawn at `pathname`, if it is one. */
export function publicPageAt(pathname: string): (typeof PUBLIC_PAGES)[number] | undefined {
  const key = normalized(pathname)
  return PUBLIC_PAGES.find((p) => p.path === key)
}

/** The path of a public page, for the client's links and redirects to it. */
export function publicPath(id: PublicPageId): string {
  return PUBLIC_PAGES.find((p) => p.screen === id)!.path
}

export function isPublicPath(pathname: string): boolean {
  return publicPageAt(pathname) !== undefined
}
