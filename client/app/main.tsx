import 'primeicons/primeicons.css'
import 'primereact/resources/primereact.min.css'
import '../styles/layout.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { preloadPagesFor } from './pages'

// The page's code downloads while the manifest is fetched.
void preloadPagesFor(window.location.pathname).catch(() => undefined)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
