import { useEffect, useEffectEvent, useLayoutEffect, useState } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { useLiveEvents } from '../api/live-events'
import { useLoadedManifest } from '../api/manifest'
import { showPendingNotices } from '../api/notices'
import { useI18n } from '../i18n/i18n'
import { ConfirmHost } from '../ui/confirm'
import { Breadcrumb } from './Breadcrumb'
import { CommandPalette } from './CommandPalette'
import { ConfigSidebar } from './ConfigSidebar'
import { ContractCodeDialog } from './ContractCodeDialog'
import { Footer } from './Footer'
import { Sidebar } from './Sidebar'
import { Topbar } from './Topbar'
import { ViewAsBanner } from './ViewAsBanner'
import { LinkIntentProvider } from '../ui/link-intent'

const noIntent = () => undefined

const NARROW = '(max-width: 991px)'

/** Topbar, side menu, breadcrumb, content, footer, configuration sidebar; `onIntent` prefetches what a menu link leads to. */
export function DefaultLayout({ onIntent }: { onIntent?: (path: string) => void }) {
  const manifest = useLoadedManifest()
  const { t } = useI18n()
  const location = useLocation()
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches)
  const [menuOpen, setMenuOpen] = useState(() => !window.matchMedia(NARROW).matches)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [contractDialog, setContractDialog] = useState(false)
  const [paletteOpen, setPaletteOpen] = useState(false)

  // Ctrl+K (⌘K on a Mac) opens the command palette from anywhere in the signed-in shell.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault()
        setPaletteOpen(true)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // A resize between the first render and the subscription fires no event: the subscription checks once.
  const missedChange = useEffectEvent((matches: boolean) => matches !== narrow)
  useEffect(() => {
    const mq = window.matchMedia(NARROW)
    const onChange = () => {
      setNarrow(mq.matches)
      setMenuOpen(!mq.matches)
    }
    mq.addEventListener('change', onChange)
    if (missedChange(mq.matches)) onChange()
    return () => mq.removeEventListener('change', onChange)
  }, [])

  // Changes and presence as they happen; closed when the signed-in shell goes (sign-out).
  useLiveEvents()

  // What happened while the user was away (a decision on their held change): told once per load.
  useEffect(() => {
    void showPendingNotices()
  }, [])

  // Focus the page heading area after navigation so keyboard and screen-reader users land on the
  // content. Before the paint: focusing lays the page out, which the paint then reuses; after it,
  // it lays the new screen out a second time, in the task after its first frame.
  useLayoutEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true })
  }, [location.pathname])

  return (
    <div className={`layout ${menuOpen ? 'layout--menu-open' : 'layout--menu-closed'} ${narrow ? 'layout--narrow' : ''}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Topbar manifest={manifest} onToggleMenu={() => setMenuOpen((o) => !o)} onOpenSettings={() => setSettingsOpen(true)} onOpenSearch={() => setPaletteOpen(true)} />
      <Sidebar
        menu={manifest.menu}
        onCommand={(command) => command === 'contract-code-dialog' && setContractDialog(true)}
        onNavigate={() => narrow && setMenuOpen(false)}
        onIntent={onIntent}
      />
      {narrow && menuOpen && <div className="layout-mask" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <div className="layout-main">
        <ViewAsBanner manifest={manifest} />
        <Breadcrumb manifest={manifest} />
        <main id="main" className="layout-content" tabIndex={-1}>
          {/* A screen's links to records prefetch on intent, as the side menu's do. */}
          <LinkIntentProvider value={onIntent ?? noIntent}>
            <Outlet />
          </LinkIntentProvider>
        </main>
        <Footer manifest={manifest} />
      </div>
      <ConfigSidebar visible={settingsOpen} onHide={() => setSettingsOpen(false)} />
      <ContractCodeDialog visible={contractDialog} onDone={() => setContractDialog(false)} />
      {paletteOpen && <CommandPalette onClose={() => setPaletteOpen(false)} />}
      <ConfirmHost />
    </div>
  )
}
