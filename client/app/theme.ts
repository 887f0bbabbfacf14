import { useSyncExternalStore } from 'react'
import type { PublicBrand } from '../../schemas/brand'

export type ThemeMode = 'light' | 'dark' | 'system'
const STORAGE_KEY = 'portal.theme-mode'
const media = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null

function storedMode(): ThemeMode {
  try {
    const v = localStorage.getItem(STORAGE_KEY)
    if (v === 'light' || v === 'dark' || v === 'system') return v
  } catch {
    // storage unavailable
  }
  return 'system'
}

let mode: ThemeMode = storedMode()
let brand: PublicBrand | null = null
const listeners = new Set<() => void>()

/** Dark when chosen, or when following the system and the system is dark (spec §9). */
export function isDark(m: ThemeMode = mode): boolean {
  return m === 'dark' || (m === 'system' && (media?.matches ?? false))
}

function apply(): void {
  if (!brand) return
  const dark = isDark()
  const theme = dark ? brand.theme.replace('-light-', '-dark-') : brand.theme
  let link = document.getElementById('theme-link') as HTMLLinkElement | null
  if (!link) {
    link = document.createElement('link')
    link.id = 'theme-link'
    link.rel = 'stylesheet'
    document.head.prepend(link)
  }
  const href = `/themes/${theme}/theme.css?v=${__BUILD_ID__}`
  if (link.getAttribute('href') !== href) link.setAttribute('href', href)
  const root = document.documentElement
  root.classList.toggle('app-dark', dark)
  root.style.colorScheme = dark ? 'dark' : 'light'
  root.style.setProperty('--brand-primary', brand.primaryColor)
  root.dataset.brand = brand.key
}

/** Brand identity at start-up: title, favicon swapped to the brand's, theme and colours. */
export function applyBrand(next: PublicBrand): void {
  brand = next
  document.title = 'Portal'
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
  if (!icon) {
    icon = document.createElement('link')
    icon.rel = 'icon'
    document.head.appendChild(icon)
  }
  icon.href = next.favicon
  apply()
}

export function setThemeMode(next: ThemeMode): void {
  mode = next
  try {
    localStorage.setItem(STORAGE_KEY, next)
  } catch {
    // storage unavailable
  }
  apply()
  for (const l of listeners) l()
}

media?.addEventListener('change', () => {
  if (mode === 'system') {
    apply()
    for (const l of listeners) l()
  }
})

const subscribe = (fn: () => void) => {
  listeners.add(fn)
  return () => listeners.delete(fn)
}
const snapshot = () => `${mode}:${isDark() ? 'dark' : 'light'}`

export function useTheme(): { mode: ThemeMode; dark: boolean; setMode: (m: ThemeMode) => void } {
  const snap = useSyncExternalStore(subscribe, snapshot, snapshot)
  return { mode: snap.split(':')[0] as ThemeMode, dark: snap.endsWith(':dark'), setMode: setThemeMode }
}
