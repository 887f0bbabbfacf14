import type { RouteDef } from '../../schemas/manifest'
import { publicPageAt, type PublicPageId } from '../../schemas/public-pages'
import type { LoginPageProps } from '../auth/LoginPage'
import { lazyComponent } from '../ui/lazy-component'

/**
 * The route-level chunks: each public page on its own, and the signed-in app (layout +
 * renderer) apart, so the sign-in page downloads neither the layout nor the renderer and its
 * tables, and the signed-in app never carries the public pages.
 */
const signedIn = () => import('./signed-in')

export const LoginPage = lazyComponent<LoginPageProps>(() => import('../auth/LoginPage').then((m) => m.LoginPage))
export const RecoveryPage = lazyComponent(() => import('../auth/RecoveryPage').then((m) => m.RecoveryPage))
export const SignUpPage = lazyComponent(() => import('../auth/SignUpPage').then((m) => m.SignUpPage))
export const ResetPasswordPage = lazyComponent(() => import('../auth/ResetPasswordPage').then((m) => m.ResetPasswordPage))
export const DefaultLayout = lazyComponent(() => signedIn().then((m) => m.DefaultLayout))
export const RoutePage = lazyComponent<{ route: RouteDef }>(() => signedIn().then((m) => m.RoutePage))
export const ScreenPreviewPage = lazyComponent(() => signedIn().then((m) => m.ScreenPreviewPage))

/** The lazily loaded public pages, by their id in schemas/public-pages.ts (the error page is in the main chunk). */
const PUBLIC_PAGES: Partial<Record<PublicPageId, { preload: () => Promise<unknown> }>> = {
  login: LoginPage,
  recovery: RecoveryPage,
  signup: SignUpPage,
  'reset-password': ResetPasswordPage,
}

/** Fetches the signed-in app's code, e.g. while the sign-in request is on its way. */
export function preloadSignedIn(): Promise<unknown> {
  return Promise.all([DefaultLayout.preload(), RoutePage.preload()])
}

/**
 * Fetches the code the page at `pathname` will need, in parallel with the manifest, so the
 * first paint does not wait for one more round trip after it. Before the manifest has said
 * whether there is a session, a protected path is assumed signed in; without a session it
 * leads to the sign-in page.
 */
export function preloadPagesFor(pathname: string, authenticated = true): Promise<unknown> {
  const publicPage = publicPageAt(pathname)
  if (publicPage) {
    const page = PUBLIC_PAGES[publicPage.screen]
    return page ? page.preload() : Promise.resolve()
  }
  return authenticated ? preloadSignedIn() : LoginPage.preload()
}
