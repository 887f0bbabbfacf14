import { QueryClientProvider, useQueryClient } from '@tanstack/react-query'
import { PrimeReactContext, PrimeReactProvider } from 'primereact/api'
import { useContext, useEffect, useEffectEvent, useState } from 'react'
import { BrowserRouter } from 'react-router-dom'
import { useManifest } from '../api/manifest'
import { createQueryClient } from '../api/query-client'
import { recheckSession } from '../auth/session-actions'
import { getLanguage, useI18n, useMessages } from '../i18n/i18n'
import { LoadingSpinner } from '../ui/loading'
import { applyBrand } from '../ui/theme'
import { startBuildCheck } from './build-check'
import { messages } from './messages'
import { preloadPagesFor } from './pages'
import { AppRoutes } from './router'
import { ToastHost } from './ToastHost'
import { RevealHost } from '../renderer/actions/RevealDialog'

/** PrimeReact settings of spec §9: overlay z-index 1000, modal 1100. */
const primeValue = {
  ripple: false,
  locale: getLanguage(),
  zIndex: { modal: 1100, overlay: 1000, menu: 1000, tooltip: 1100, toast: 1200 },
  autoZIndex: true,
  // The hidden <select> PrimeReact keeps next to every dropdown is not for people: out of the accessibility tree.
  // Table selection checkboxes put role="checkbox" and the label on the wrapper around the real
  // <input type="checkbox"> (nested controls); the input keeps the label, the wrapper is plain.
  pt: { dropdown: { select: { 'aria-hidden': true } }, checkbox: { root: { role: undefined, 'aria-label': undefined } } },
}

/**
 * Keeps the provider's locale on the chosen language: components that read it rather than
 * PrimeReact's global one (InputNumber without a `locale`, table sorting) follow a switch.
 */
function LocaleSync() {
  const { lang } = useI18n()
  const prime = useContext(PrimeReactContext)
  const setLocale = prime?.setLocale
  useEffect(() => setLocale?.(lang), [lang, setLocale])
  return null
}

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
    <PrimeReactProvider value={primeValue}>
      <LocaleSync />
      <QueryClientProvider client={client}>
        <ManifestGate />
      </QueryClientProvider>
    </PrimeReactProvider>
  )
}
