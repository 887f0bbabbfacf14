import { useQuery } from '@tanstack/react-query'
import { Button } from 'primereact/button'
import { Skeleton } from 'primereact/skeleton'
import { useLocation, useParams } from 'react-router-dom'
import type { RouteDef } from '../../schemas/manifest'
import type { ScreenFile } from '../../schemas/screen'
import { api, ApiError } from '../api/client'
import { useLoadedManifest } from '../auth/manifest'
import { ErrorView, NotFoundPage } from '../app/ErrorPage'
import { useI18n } from '../i18n/i18n'
import { RenderContext } from './context'
import { preloadScreenCode } from './registry'
import { ScreenRenderer } from './ScreenRenderer'

/** A screen's JSON, handed over once the code that draws it has loaded too (one wait, no placeholder flashes). */
export function useScreen(id: string) {
  return useQuery({
    queryKey: ['screen', id],
    queryFn: async () => {
      const screen = await api.get<ScreenFile>(`/bff/screens/${id}`)
      // A chunk that fails to load fails again on render, where the error boundary deals with it.
      await preloadScreenCode(screen.root).catch(() => undefined)
      return screen
    },
    staleTime: 5_000,
  })
}

/** The page of a protected route: its screen JSON from the BFF, drawn by the renderer. */
export function ScreenPage({ route }: { route: RouteDef }) {
  const { t, l } = useI18n()
  const manifest = useLoadedManifest()
  const params = useParams()
  const location = useLocation()
  const screen = useScreen(route.screen)

  if (screen.isPending) {
    return (
      <div aria-busy="true" aria-label={t('app.loading')}>
        <Skeleton width="16rem" height="2rem" className="mb-3" />
        <Skeleton height="20rem" />
      </div>
    )
  }
  if (screen.isError) {
    const err = screen.error
    if (err instanceof ApiError && err.status === 403) return <ErrorView status={401} />
    // The BFF leaves out this brand's and environment's hidden routes: a manifest read before a menu change still drew it.
    if (err instanceof ApiError && err.status === 404) return <NotFoundPage path={location.pathname} />
    return (
      <div className="screen-error-box" role="alert">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" />
        <span>{err instanceof ApiError && err.serverMessage ? err.serverMessage : t('screen.loadError')}</span>
        <Button label={t('screen.retry')} size="small" text onClick={() => void screen.refetch()} />
      </div>
    )
  }
  const user = manifest.user ? { id: manifest.user.id, email: manifest.user.email, name: manifest.user.name, agentId: manifest.user.agent?.id ?? null } : undefined
  const query = Object.fromEntries(new URLSearchParams(location.search))
  return (
    <RenderContext value={{ screenId: screen.data.id, params, query, user }}>
      <div className="screen" data-screen={screen.data.id}>
        {screen.data.root.type !== 'page' && <h1 className="screen-title">{l(screen.data.title)}</h1>}
        <ScreenRenderer node={screen.data.root} />
      </div>
    </RenderContext>
  )
}
