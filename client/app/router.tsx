import type { ComponentType } from 'react'
import { createBrowserRouter, Navigate, Outlet, useLocation, type RouteObject } from 'react-router-dom'
import type { RouteDef } from '../../schemas/manifest'
import { LoginPage } from '../auth/LoginPage'
import { useLoadedManifest } from '../auth/manifest'
import { RecoveryPage } from '../auth/RecoveryPage'
import { ResetPasswordPage } from '../auth/ResetPasswordPage'
import { AuthLayout } from '../layouts/AuthLayout'
import { DefaultLayout } from '../layouts/DefaultLayout'
import { AppErrorBoundary } from './AppErrorBoundary'
import { ErrorRoutePage, NotFoundPage } from './ErrorPage'
import { NavigationWatch } from './NavigationWatch'
import { RoutePage } from './RoutePage'

/** Public pages are client code; every other route renders its screen from the BFF. */
const PUBLIC_PAGES: Record<string, ComponentType> = {
  login: LoginPage,
  recovery: RecoveryPage,
  'reset-password': ResetPasswordPage,
  error: ErrorRoutePage,
}

/** Manifest paths use `{param}`; the router uses `:param`. */
export function toRouterPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1')
}

/** Any route outside the public paths needs a session, else login with `redirect` (spec §5). */
function RequireSession() {
  const manifest = useLoadedManifest()
  const location = useLocation()
  if (!manifest.authenticated) {
    const redirect = `${location.pathname}${location.search}`
    return <Navigate to={`/auth/login?redirect=${encodeURIComponent(redirect)}`} replace />
  }
  return <DefaultLayout />
}

function UnknownPath() {
  const location = useLocation()
  return <NotFoundPage path={location.pathname} />
}

export function buildRoutes(routes: RouteDef[]): RouteObject[] {
  const publicRoutes = routes.filter((r) => r.public)
  const protectedRoutes = routes.filter((r) => !r.public)
  return [
    {
      element: (
        <>
          <NavigationWatch />
          <Outlet />
        </>
      ),
      errorElement: <AppErrorBoundary />,
      children: [
        {
          element: <AuthLayout />,
          children: [
            ...publicRoutes.map((r) => {
              const Page = PUBLIC_PAGES[r.screen]
              return { path: toRouterPath(r.path), element: Page ? <Page /> : <UnknownPath />, handle: { route: r } }
            }),
            // Unmatched routes are reachable without sign-in (spec §5): the 404 page.
            { path: '*', element: <UnknownPath /> },
          ],
        },
        {
          element: <RequireSession />,
          children: protectedRoutes.map((r) => ({
            path: toRouterPath(r.path),
            element: <RoutePage key={r.path} route={r} />,
            handle: { route: r },
          })),
        },
      ],
    },
  ]
}

export function createRouter(routes: RouteDef[]) {
  return createBrowserRouter(buildRoutes(routes))
}

