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

let loading: Promise<void> = Promise.resolve()

/**
 * Loads the theme stylesheet for the current brand and mode. The new stylesheet is added
 * next to the old one and the old one removed only once the new has loaded, so a switch
 * never shows an unstyled page.
 */
function apply(): Promise<void> {
  if (!brand) return loading
  const dark = isDark()
  const theme = dark ? brand.theme.replace('-light-', '-dark-') : brand.theme
  const href = `/themes/${theme}/theme.css?v=${__BUILD_ID__}`
  const root = document.documentElement
  root.style.setProperty('--brand-primary', brand.primaryColor)
  root.dataset.brand = brand.key
  const current = document.querySelector<HTMLLinkElement>('link[data-theme-link]')
  const finish = () => {
    root.classList.toggle('app-dark', dark)
    root.style.colorScheme = dark ? 'dark' : 'light'
  }
  if (current?.getAttribute('href') === href) {
    finish()
    return loading
  }
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.dataset.themeLink = ''
  link.href = href
  loading = new Promise<void>((resolve) => {
    const done = () => {
      for (const old of document.querySelectorAll('link[data-theme-link]')) if (old !== link) old.remove()
      finish()
      resolve()
    }
    link.addEventListener('load', done, { once: true })
    link.addEventListener('error', done, { once: true })
  })
  if (current) current.after(link)
  else document.head.prepend(link)
  return loading
}

/** Brand identity at start-up: title, favicon swapped to the brand's, theme and colours. */
export function applyBrand(next: PublicBrand): Promise<void> {
  brand = next
  document.title = 'Portal'
  let icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
  if (!icon) {
    icon = document.createElement('link')
    icon.rel = 'icon'
    document.head.appendChild(icon)
  }
  icon.href = next.favicon
  return apply()
}

export function setThemeMode(next: ThemeMode): void {
  mode = next
  try {
    localStorage.setItem(STORAGE_KEY, next)
  } catch {
    // storage unavailable
  }
  void apply()
  for (const l of listeners) l()
}

media?.addEventListener('change', () => {
  if (mode === 'system') {
    void apply()
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
