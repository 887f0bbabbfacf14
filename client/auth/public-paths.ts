/** Paths that need no session (spec §2), matched ignoring letter case and a trailing slash. */
export const PUBLIC_PATHS = ['/auth/login', '/auth/recovery', '/auth/resetpassword', '/error'] as const

export function isPublicPath(pathname: string): boolean {
  const normalized = pathname.toLowerCase().replace(/\/+$/, '') || '/'
  return (PUBLIC_PATHS as readonly string[]).includes(normalized)
}
