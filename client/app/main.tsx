import 'primeicons/primeicons.css'
import 'primereact/resources/primereact.min.css'
import '../styles/layout.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { preloadPagesFor } from './pages'

// The page's code downloads while the manifest is fetched.
void preloadPagesFor(window.location.pathname).catch(() => undefined)

// Form drafts once lived in this browser's storage, in clear; they are kept by the BFF now.
// Whatever an older version left behind (`portal.draft:<user>:<screen>:<form>`) goes.
try {
  for (const key of Object.keys(localStorage)) if (key.startsWith('portal.draft:')) localStorage.removeItem(key)
} catch {
  // storage unavailable: nothing was kept there either
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
