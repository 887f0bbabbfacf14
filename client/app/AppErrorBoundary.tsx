import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router-dom'
import { isStaleChunkError, reloadTo } from './build-check'
import { ErrorView, NotFoundPage } from './ErrorPage'

/** Unhandled application errors are shown on the error page (spec §8); a stale build reloads once. */
export function AppErrorBoundary() {
  const error = useRouteError()
  const location = useLocation()
  if (isStaleChunkError(error) && reloadTo(`${location.pathname}${location.search}`)) return null
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage path={location.pathname} />
  const message = error instanceof Error ? error.message : isRouteErrorResponse(error) ? error.statusText : undefined
  console.error(error)
  return (
    <div className="auth-layout">
      <main className="auth-card" id="main">
        <ErrorView status={isRouteErrorResponse(error) ? error.status : 500} description={message} />
      </main>
    </div>
  )
}
