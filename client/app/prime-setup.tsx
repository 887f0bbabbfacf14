import { addLocale, locale as primeLocale, PrimeReactContext, PrimeReactProvider, type APIOptions } from 'primereact/api'
import { useContext, useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { getLanguage, onLanguageChange, useI18n } from '../i18n/i18n'
import { primeLocales } from '../i18n/prime-locale'
import { keepEscapeInOpenLists } from '../ui/escape-guard'
import { primeStyleContainer } from './prime-style-container'

/**
 * PrimeReact's set-up, loaded only with the code that draws PrimeReact components (the
 * signed-in app, the toasts): the public pages use the plain primitives of ui/plain and never
 * download PrimeReact.
 */

// PrimeReact's texts in both languages, aria labels included (see prime-locale.ts); its global
// locale, which components read when no provider is above them, follows the chosen language.
addLocale('es', primeLocales.es)
addLocale('en', primeLocales.en)
primeLocale(getLanguage())
onLanguageChange(() => primeLocale(getLanguage()))
// Escape in an open dropdown closes its list, not the dialog around it too.
keepEscapeInOpenLists()

// One for every provider: a stylesheet is written to the page once, whichever part mounts first.
const styleContainer = primeStyleContainer()

/** PrimeReact settings of spec §9: overlay z-index 1000, modal 1100. */
const primeValue = (): Partial<APIOptions> => ({
  styleContainer,
  ripple: false,
  locale: getLanguage(),
  zIndex: { modal: 1100, overlay: 1000, menu: 1000, tooltip: 1100, toast: 1200 },
  autoZIndex: true,
  // The hidden <select> PrimeReact keeps next to every dropdown is not for people: out of the accessibility tree.
  // A focused dropdown writes aria-activedescendant on its wrapper, a plain <div> where the attribute
  // is not allowed; the option the arrows reach takes the focus itself, so nothing needs it there.
  // Table selection checkboxes put role="checkbox" and the label on the wrapper around the real
  // <input type="checkbox"> (nested controls); the input keeps the label, the wrapper is plain.
  pt: {
    dropdown: { select: { 'aria-hidden': true }, root: { 'aria-activedescendant': undefined } },
    checkbox: { root: { role: undefined, 'aria-label': undefined } },
  },
})

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

/** PrimeReact's provider with the portal's settings, around a part of the app drawn with PrimeReact. */
export function PrimeSetup({ children }: { children: ReactNode }) {
  const [value] = useState(primeValue)
  return (
    <PrimeReactProvider value={value}>
      <LocaleSync />
      {children}
    </PrimeReactProvider>
  )
}

/** `Component` inside PrimeSetup. */
export function withPrimeSetup<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithPrimeSetup(props: P) {
    return (
      <PrimeSetup>
        <Component {...props} />
      </PrimeSetup>
    )
  }
  WithPrimeSetup.displayName = `WithPrimeSetup(${Component.displayName ?? Component.name})`
  return WithPrimeSetup
}
