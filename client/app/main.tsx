import 'primeicons/primeicons.css'
import 'primereact/resources/primereact.min.css'
import '../styles/layout.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
