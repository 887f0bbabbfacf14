import { Suspense, useMemo, type ComponentType } from 'react'
import { Navigate, Outlet, useLocation, useRoutes, useSearchParams, type RouteObject } from 'react-router-dom'
import type { RouteDef } from '../../schemas/manifest'
import { isAppPage, type AppPageId } from '../../schemas/app-pages'
import { publicPath, type PublicPageId } from '../../schemas/public-pages'
import { hasPermission, toRouterPath, useLoadedManifest } from '../api/manifest'
import { AuthLayout } from '../layouts/AuthLayout'
import { ErrorView, NotFoundPage } from '../ui/ErrorView'
import { PageLoading } from '../ui/loading'
import { AppErrorBoundary } from './AppErrorBoundary'
import { NavigationWatch } from './NavigationWatch'
import { useRouteIntent } from './use-route-intent'
import { DefaultLayout, LoginPage, preloadSignedIn, RecoveryPage, ResetPasswordPage, RoutePage, ScreenPreviewPage, SignUpPage } from './pages'
import { HoverTips } from '../ui/hover-tip'

/** What the sign-in page fetches ahead: the signed-in app, and the recovery and sign-up pages its links lead to. */
const AFTER_SIGN_IN = { signedIn: preloadSignedIn, recovery: () => RecoveryPage.preload(), signup: () => SignUpPage.preload() }

function SignInPage() {
  return <LoginPage preload={AFTER_SIGN_IN} />
}

/** `/error?status=…&message=…`: the error page as a route. */
function ErrorRoutePage() {
  const [params] = useSearchParams()
  const status = Number(params.get('status')) || 500
  const message = params.get('message') ?? undefined
  return <ErrorView status={status} message={message} />
}

/** Public pages are client code (schemas/public-pages.ts); every other route renders its screen from the BFF. */
const PUBLIC_PAGES: Record<PublicPageId, ComponentType> = {
  login: SignInPage,
  recovery: RecoveryPage,
  signup: SignUpPage,
  'reset-password': ResetPasswordPage,
  error: ErrorRoutePage,
}

/** Any route outside the public paths needs a session, else login with `redirect` (spec §5). */
function RequireSession() {
  const manifest = useLoadedManifest()
  const location = useLocation()
  const intent = useRouteIntent()
  if (!manifest.authenticated) {
    const redirect = `${location.pathname}${location.search}`
    return <Navigate to={`${publicPath('login')}?redirect=${encodeURIComponent(redirect)}`} replace />
  }
  return <DefaultLayout onIntent={intent} />
}

/** Signed-in pages that are client code, drawn without the portal's frame (schemas/app-pages.ts). */
const APP_PAGES: Record<AppPageId, ComponentType> = {
  'screen-preview': ScreenPreviewPage,
}

/** An app page: a session (else sign-in with `redirect`) and its permission (else the 401 error page), then the page alone. */
function AppPage({ route }: { route: RouteDef }) {
  const manifest = useLoadedManifest()
  const location = useLocation()
  if (!manifest.authenticated) return <Navigate to={`${publicPath('login')}?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`} replace />
  if (!hasPermission(manifest, route.permission)) return <Navigate to={`${publicPath('error')}?status=401`} replace />
  const Page = APP_PAGES[route.screen as AppPageId]
  return <Page />
}

function UnknownPath() {
  const location = useLocation()
  return <NotFoundPage path={location.pathname} />
}

export function buildRoutes(routes: RouteDef[]): RouteObject[] {
  const publicRoutes = routes.filter((r) => r.public)
  const appRoutes = routes.filter((r) => !r.public && isAppPage(r.screen))
  const protectedRoutes = routes.filter((r) => !r.public && !isAppPage(r.screen))
  return [
    {
      element: (
        <AppErrorBoundary>
          <NavigationWatch />
          {/* The one tooltip of every page (ui/hover-tip): elements name themselves with data-tip. */}
          <HoverTips />
          {/* Pages load their chunk on first use (see pages.ts). */}
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </AppErrorBoundary>
      ),
      children: [
        {
          element: <AuthLayout />,
          children: [
            ...publicRoutes.map((r) => {
              const Page = PUBLIC_PAGES[r.screen as PublicPageId] as ComponentType | undefined
              return { path: toRouterPath(r.path), element: Page ? <Page /> : <UnknownPath /> }
            }),
            // Unmatched routes are reachable without sign-in (spec §5): the 404 page.
            { path: '*', element: <UnknownPath /> },
          ],
        },
        ...appRoutes.map((r) => ({ path: toRouterPath(r.path), element: <AppPage route={r} /> })),
        {
          element: <RequireSession />,
          children: protectedRoutes.map((r) => ({
            path: toRouterPath(r.path),
            element: <RoutePage key={r.path} route={r} />,
          })),
        },
      ],
    },
  ]
}

/**
 * The app's routes from the manifest, in React Router's declarative mode (inside the
 * <BrowserRouter> of App.tsx): the app uses no loaders or actions, and this mode is half the
 * code of the data router on every page's first load.
 */
export function AppRoutes({ routes }: { routes: RouteDef[] }) {
  const tree = useMemo(() => buildRoutes(routes), [routes])
  return useRoutes(tree)
}
