import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Skeleton } from 'primereact/skeleton'
import { useLocation, useParams } from 'react-router-dom'
import type { RouteDef } from '../../schemas/manifest'
import { ApiError } from '../api/client'
import { useLoadedManifest } from '../api/manifest'
import { useI18n } from '../i18n/i18n'
import { ErrorView, NotFoundPage } from '../ui/ErrorView'
import { ErrorState, LoadingBlock } from '../ui/states'
import { RenderContext } from './context'
import { templateUser } from './template'
import type { WidgetRegistry } from './node-renderer'
import { RenderErrorReporter } from './RenderErrorReporter'
import { screenQuery, type ScreenInit } from './screen-query'
import { ScreenRenderer } from './ScreenRenderer'

const NO_WIDGETS: WidgetRegistry = {}

/** A screen's JSON, handed over once the code that draws it and its widgets' data have loaded too (see screenQuery). */
export function useScreen(id: string, widgets: WidgetRegistry = NO_WIDGETS, init?: ScreenInit) {
  return useQuery(screenQuery(id, widgets, init))
}

/** The page of a protected route: its screen JSON from the BFF, drawn by the renderer with the widgets the app hands in. */
export function ScreenPage({ route, widgets = NO_WIDGETS }: { route: RouteDef; widgets?: WidgetRegistry }) {
  const { t, l } = useI18n()
  const manifest = useLoadedManifest()
  const params = useParams()
  const location = useLocation()
  const client = useQueryClient()
  const screen = useScreen(route.screen, widgets, { client, manifest })

  if (screen.isPending) {
    return (
      <LoadingBlock label={t('app.loading')}>
        <Skeleton width="16rem" height="2rem" className="mb-3" />
        <Skeleton height="20rem" />
      </LoadingBlock>
    )
  }
  if (screen.isError) {
    const err = screen.error
    if (err instanceof ApiError && err.status === 403) return <ErrorView status={401} />
    // The BFF leaves out this brand's and environment's hidden routes: a manifest read before a menu change still drew it.
    if (err instanceof ApiError && err.status === 404) return <NotFoundPage path={location.pathname} />
    return (
      <ErrorState onRetry={() => void screen.refetch()}>
        {err instanceof ApiError && err.serverMessage ? err.serverMessage : t('screen.loadError')}
      </ErrorState>
    )
  }
  const user = templateUser(manifest)
  const query = Object.fromEntries(new URLSearchParams(location.search))
  return (
    <RenderContext value={{ screenId: screen.data.id, params, query, user }}>
      <div className="screen" data-screen={screen.data.id}>
        {screen.data.root.type !== 'page' && <h1 className="screen-title">{l(screen.data.title)}</h1>}
        <RenderErrorReporter screenId={screen.data.id} screen={screen.data}>
          <ScreenRenderer node={screen.data.root} widgets={widgets} />
        </RenderErrorReporter>
      </div>
    </RenderContext>
  )
}
