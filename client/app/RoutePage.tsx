import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Navigate, useLocation, useParams } from 'react-router-dom'
import type { RouteDef } from '../../schemas/manifest'
import { publicPath } from '../../schemas/public-pages'
import { ApiError } from '../api/client'
import { useFailureText } from '../api/errors'
import { hasPermission, useLoadedManifest } from '../api/manifest'
import { useI18n } from '../i18n/i18n'
import { ScreenPage } from '../renderer/ScreenPage'
import { ErrorView, NotFoundPage } from '../ui/ErrorView'
import { PageLoading } from '../ui/loading'
import { WIDGETS } from '../widgets'
import { ROUTE_CHECKS, routeCheckQuery, UnknownRouteCheckError } from './route-checks'

/**
 * A protected route: permission first (→ /error?status=401), then the route's named check
 * (false → 404 page; unknown name → error page), then its screen, drawn with the app's widgets.
 */
export function RoutePage({ route }: { route: RouteDef }) {
  const manifest = useLoadedManifest()
  const location = useLocation()
  const params = useParams()
  const { t } = useI18n()
  const allowed = hasPermission(manifest, route.permission)
  const known = route.check ? ROUTE_CHECKS[route.check] : undefined
  const check = useQuery({
    ...routeCheckQuery(route.check ?? '', params, location.pathname, location.search),
    enabled: allowed && !!route.check,
    meta: known ? { reportErrors: true, errorArea: known.area, errorMessage: known.errorMessage } : undefined,
  })
  const failure = useFailureText(check.error, known?.errorMessage, t('screen.loadError'))

  if (!allowed) {
    console.warn(`Acceso denegado a ${location.pathname}: falta el permiso ${route.permission}`)
    return <Navigate to={`${publicPath('error')}?status=401`} replace />
  }
  if (route.check) {
    if (check.isPending) {
      return <PageLoading />
    }
    if (check.isError) {
      const err = check.error
      if (err instanceof UnknownRouteCheckError) return <ErrorView status={500} description={t('error.check.unknown', { name: err.message })} />
      return (
        <div className="check-error">
          <ErrorView status={err instanceof ApiError && err.status ? err.status : 500} description={failure ?? ''} />
          <Button type="button" label={t('screen.retry')} icon="pi pi-refresh" outlined onClick={() => void check.refetch()} />
        </div>
      )
    }
    if (!check.data) return <NotFoundPage path={location.pathname} />
  }
  return <ScreenPage route={route} widgets={WIDGETS} />
}
