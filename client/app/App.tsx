import { QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { useEffect, useEffectEvent, useState } from 'react'
import { BrowserRouter } from 'react-router-dom'
import { useManifest } from '../api/manifest'
import { createQueryClient } from '../api/query-client'
import { recheckSession } from '../auth/session-actions'
import { useMessages } from '../i18n/i18n'
import { LoadingSpinner } from '../ui/loading'
import { applyBrand } from '../ui/theme'
import { startBuildCheck } from './build-check'
import { messages } from './messages'
import { preloadPagesFor } from './pages'
import { AppRoutes } from './router'
import { ToastHost } from './ToastHost'
import { RevealHost } from '../renderer/actions/RevealHost'

/** Loads the manifest, applies the brand, then draws the routes the manifest lists. */
function ManifestGate() {
  const t = useMessages(messages)
  const { data: manifest, isError, refetch } = useManifest()
  const client = useQueryClient()
  const routes = manifest?.routes
  const brand = manifest?.brand
  const buildId = manifest?.buildId
  const [ready, setReady] = useState(false)
  // The pages to fetch ahead follow the session of the moment; only a new brand starts this over.
  const preloadPages = useEffectEvent(() => preloadPagesFor(window.location.pathname, manifest?.authenticated))

  // The first paint waits for the brand's theme, so no unstyled page flashes, and for the
  // page's code, so no second spinner follows this one. A chunk that fails to load is left to
  // the route's error boundary (a stale build reloads).
  useEffect(() => {
    if (!brand) return
    const pages = preloadPages().catch(() => undefined)
    void Promise.all([applyBrand(brand), pages]).then(() => setReady(true))
  }, [brand])

  useEffect(() => {
    if (buildId === undefined) return
    return startBuildCheck(buildId)
  }, [buildId])

  // Spec §4: the session is re-checked when the window becomes visible again.
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') void recheckSession(client)
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => document.removeEventListener('visibilitychange', onVisible)
  }, [client])

  const drawn = !!routes && ready
  return (
    <>
      <ToastHost pageDrawn={drawn || isError} />
      <RevealHost />
      {isError ? (
        <div className="boot-error" role="alert">
          <p>{t('boot.unreachable')}</p>
          <button type="button" className="p-button" onClick={() => void refetch()}>
            {t('boot.retry')}
          </button>
        </div>
      ) : drawn ? (
        <BrowserRouter>
          <AppRoutes routes={routes} />
        </BrowserRouter>
      ) : (
        <LoadingSpinner className="boot-loading" size={48} label={t('boot.loading')} />
      )}
    </>
  )
}

export function App() {
  const [client] = useState(createQueryClient)
  return (
    <QueryClientProvider client={client}>
      <ManifestGate />
    </QueryClientProvider>
  )
}
